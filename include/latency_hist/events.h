/* SPDX-License-Identifier: GPL-2.0 */
/*
 * events.h - what happens to a sample besides being counted: the lh_sample
 * trace event, and the per-type threshold that stops the ftrace ring buffer.
 */
#ifndef LH_EVENTS_H
#define LH_EVENTS_H

#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/types.h>

#include <latency_hist/control.h>
#include <latency_hist/lh_trace.h>

void lh_threshold_hit(enum lh_hist_id id, int cpu, s64 lat_us);

/*
 * lh_sample_traced - is the lh_sample event on? A patched-out branch. The
 * trace call is made only behind it: on a kernel with lockdep even an off
 * tracepoint's call site checks that RCU is watching, which costs more
 * than the rest of a critical section's filing.
 */
static __always_inline bool lh_sample_traced(void)
{
	return trace_lh_sample_enabled();
}

/**
 * lh_sample_out_wanted() - would lh_sample_out() do anything?
 *
 * For a probe that keeps its samples' tracing out of line: two patched-out
 * branches while the event is off and no type has a threshold.
 *
 * Context: any.
 */
static __always_inline bool lh_sample_out_wanted(void)
{
	return lh_sample_traced() || static_branch_unlikely(&lh_thresholds_on);
}

/**
 * lh_sample_out() - trace a counted sample and apply its type's threshold
 * @id:             the histogram that counted it
 * @cpu:            the CPU it was filed under
 * @lat_us:         the latency in microseconds
 * @timeroffset_us: the timer part of @lat_us (0 where there is none)
 * @victim:         the task that waited, or NULL (critical sections)
 * @culprit:        the task that ran meanwhile
 *
 * Inline in the probes: a patched-out branch to the trace call and, while no
 * type has a threshold, a patched-out compare (then one with the type's threshold,
 * S64_MAX while it is off).
 *
 * Context: probe context, any; the tasks must be alive.
 */
static __always_inline void lh_sample_out(enum lh_hist_id id, int cpu,
					  s64 lat_us, s64 timeroffset_us,
					  struct task_struct *victim,
					  struct task_struct *culprit)
{
	if (lh_sample_traced())
		trace_lh_sample(id, cpu, lat_us, timeroffset_us, victim, NULL,
				culprit, NULL);
	if (static_branch_unlikely(&lh_thresholds_on) &&
	    lat_us >= READ_ONCE(lh_stop_us[id]))
		lh_threshold_hit(id, cpu, lat_us);
}

/**
 * lh_sample_out_copy() - lh_sample_out() for a culprit that may be gone: its
 * details were copied when it ran
 * @id:             the histogram that counted it
 * @cpu:            the CPU it was filed under
 * @lat_us:         the latency in microseconds
 * @timeroffset_us: the timer part of @lat_us (0 where there is none)
 * @victim:         the task that waited, alive
 * @culprit:        the copy
 *
 * Context: probe context, any.
 */
static __always_inline void lh_sample_out_copy(enum lh_hist_id id, int cpu,
					       s64 lat_us, s64 timeroffset_us,
					       struct task_struct *victim,
					       const struct lh_task_info *culprit)
{
	if (lh_sample_traced())
		trace_lh_sample(id, cpu, lat_us, timeroffset_us, victim, NULL,
				NULL, culprit);
	if (static_branch_unlikely(&lh_thresholds_on) &&
	    lat_us >= READ_ONCE(lh_stop_us[id]))
		lh_threshold_hit(id, cpu, lat_us);
}

/**
 * lh_sample_out_victim_copy() - lh_sample_out() for a victim that is no task
 * (a softirq vector): its details as its max record names it
 * @id:             the histogram that counted it
 * @cpu:            the CPU it was filed under
 * @lat_us:         the latency in microseconds
 * @victim:         the victim's copy
 * @culprit:        the task that ran meanwhile, alive
 *
 * Context: probe context, any.
 */
static __always_inline void lh_sample_out_victim_copy(enum lh_hist_id id,
						      int cpu, s64 lat_us,
						      const struct lh_task_info *victim,
						      struct task_struct *culprit)
{
	if (lh_sample_traced())
		trace_lh_sample(id, cpu, lat_us, 0, NULL, victim, culprit,
				NULL);
	if (static_branch_unlikely(&lh_thresholds_on) &&
	    lat_us >= READ_ONCE(lh_stop_us[id]))
		lh_threshold_hit(id, cpu, lat_us);
}

#endif /* LH_EVENTS_H */
