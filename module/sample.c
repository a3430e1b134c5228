// SPDX-License-Identifier: GPL-2.0
/*
 * sample.c - the out-of-line half of filing a sample of the types that
 * name a victim and a culprit (include/latency_hist/sample.h has the inline
 * half the probes run for every sample).
 *
 * The probes have live task pointers; the engine (hist.c) must not see
 * them (it is also built in user space, and a record outlives the tasks).
 * So task details are copied here, and only for a sample that beats the
 * CPU's current maximum.
 */
#include <linux/sched.h>
#include <linux/string.h>

#include <latency_hist/clock.h>
#include <latency_hist/sample.h>

/**
 * lh_sample_record_max() - keep a sample that beat the CPU's maximum
 * @h:              the CPU histogram
 * @lat_us:         the latency in microseconds
 * @timeroffset_us: the timer part of @lat_us
 * @victim:         the task that waited
 * @culprit:        the task that ran meanwhile
 * @now:            the window's end (lh_clock_stamp())
 *
 * Out of line, so that the common path does not set up (and zero-initialise)
 * an 80-byte record it does not need.
 *
 * Context: probe context, any; @victim and @culprit must be alive.
 */
noinline void lh_sample_record_max(struct lh_hist_cpu *h, s64 lat_us,
				   s64 timeroffset_us,
				   struct task_struct *victim,
				   struct task_struct *culprit, u64 now)
{
	struct lh_max_record rec;

	rec.valid = true;
	rec.latency_us = lat_us;
	rec.timeroffset_us = timeroffset_us;
	rec.timestamp_ns = lh_clock_mono_ns(now);
	lh_task_info_fill(&rec.victim, victim);
	lh_task_info_fill(&rec.culprit, culprit);
	lh_hist_record_max(h, &rec);
}

/**
 * lh_sample_record_max_copy() - lh_sample_record_max() with the culprit as a
 * copy taken earlier
 * @h:              the CPU histogram
 * @lat_us:         the latency in microseconds
 * @timeroffset_us: the timer part of @lat_us
 * @victim:         the task that waited, alive
 * @culprit:        the copy
 * @now:            the window's end (lh_clock_stamp())
 *
 * Context: probe context, any.
 */
noinline void lh_sample_record_max_copy(struct lh_hist_cpu *h, s64 lat_us,
					s64 timeroffset_us,
					struct task_struct *victim,
					const struct lh_task_info *culprit,
					u64 now)
{
	struct lh_max_record rec;

	rec.valid = true;
	rec.latency_us = lat_us;
	rec.timeroffset_us = timeroffset_us;
	rec.timestamp_ns = lh_clock_mono_ns(now);
	lh_task_info_fill(&rec.victim, victim);
	rec.culprit = *culprit;
	lh_hist_record_max(h, &rec);
}
