/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sample.h - file one sample of a victim/culprit type (wakeup, sharedprio,
 * missed_timer_offsets, timerandwakeup) with its max record.
 */
#ifndef LH_SAMPLE_H
#define LH_SAMPLE_H

#include <linux/sched.h>
#include <linux/types.h>

#include <latency_hist/control.h>

void lh_sample_record(enum lh_hist_id id, int cpu, s64 lat_us,
		      s64 timeroffset_us, struct task_struct *victim,
		      struct task_struct *culprit, u64 now_ns);

#endif /* LH_SAMPLE_H */
