/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sample.h - file one sample of a victim/culprit type (wakeup, sharedprio,
 * missed_timer_offsets, timerandwakeup) with its max record.
 */
#ifndef LH_SAMPLE_H
#define LH_SAMPLE_H

#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/types.h>

#include <latency_hist/control.h>
#include <latency_hist/events.h>
#include <latency_hist/hist.h>
#include <latency_hist/hist_mem.h>
#include <latency_hist/task_views.h>

void lh_sample_record_max(struct lh_hist_cpu *h, s64 lat_us,
			  s64 timeroffset_us, struct task_struct *victim,
			  struct task_struct *culprit, u64 now);
void lh_sample_record_max_copy(struct lh_hist_cpu *h, s64 lat_us,
			       s64 timeroffset_us, struct task_struct *victim,
			       const struct lh_task_info *culprit, u64 now);

/**
 * lh_task_nr_switches() - how often a task was switched out so far
 * @t: the task, alive
 *
 * Context: any.
 */
static __always_inline unsigned long lh_task_nr_switches(struct task_struct *t)
{
	return READ_ONCE(t->nvcsw) + READ_ONCE(t->nivcsw);
}

/**
 * lh_sample_record() - count one sample, keep it if it is a new maximum,
 * trace it and apply the threshold
 * @id:             the histogram
 * @cpu:            the CPU it is filed under
 * @lat_us:         the latency in microseconds
 * @timeroffset_us: the timer part of @lat_us (0 for wakeup)
 * @victim:         the task that waited
 * @culprit:        the task that ran meanwhile
 * @now:            the window's end (lh_clock_stamp())
 *
 * Inline in the probes (a call would cost a sixth of the wakeup path, see
 * Documentation/performance.rst); the rare new maximum is out of line.
 *
 * Context: probe context, any; @victim and @culprit must be alive.
 * Return: true if the histogram took the sample (false while a reset
 * empties it): only then may it be filed elsewhere (lh_outlier_file(),
 * and the type's views here).
 */
static __always_inline bool lh_sample_record(enum lh_hist_id id, int cpu,
					     s64 lat_us, s64 timeroffset_us,
					     struct task_struct *victim,
					     struct task_struct *culprit,
					     u64 now)
{
	struct lh_hist_cpu *h = lh_hist_cpu_filing(id, cpu);
	bool taken = lh_hist_record(h, lat_us);

	if (taken && unlikely(lh_hist_beats_max(h, lat_us)))
		lh_sample_record_max(h, lat_us, timeroffset_us, victim,
				     culprit, now);
	if (taken && lh_task_views_active())
		lh_task_views_file(id, cpu, lat_us, victim, culprit, NULL);
	lh_sample_out(id, cpu, lat_us, timeroffset_us, victim, culprit);
	return taken;
}

/**
 * lh_sample_record_copy() - lh_sample_record() with the culprit as a copy
 * taken earlier (the task may have exited since)
 * @id:             the histogram
 * @cpu:            the CPU it is filed under
 * @lat_us:         the latency in microseconds
 * @timeroffset_us: the timer part of @lat_us
 * @victim:         the task that waited, alive
 * @culprit:        the copy
 * @now:            the window's end (lh_clock_stamp())
 *
 * Context: probe context, any.
 */
static __always_inline void lh_sample_record_copy(enum lh_hist_id id, int cpu,
						  s64 lat_us,
						  s64 timeroffset_us,
						  struct task_struct *victim,
						  const struct lh_task_info *culprit,
						  u64 now)
{
	struct lh_hist_cpu *h = lh_hist_cpu_filing(id, cpu);
	bool taken = lh_hist_record(h, lat_us);

	if (taken && unlikely(lh_hist_beats_max(h, lat_us)))
		lh_sample_record_max_copy(h, lat_us, timeroffset_us, victim,
					  culprit, now);
	if (taken && lh_task_views_active())
		lh_task_views_file(id, cpu, lat_us, victim, NULL, culprit);
	lh_sample_out_copy(id, cpu, lat_us, timeroffset_us, victim, culprit);
}

#endif /* LH_SAMPLE_H */
