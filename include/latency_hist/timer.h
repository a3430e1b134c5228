/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timer.h - what the wakeup probes need from the missed-timer probes.
 */
#ifndef LH_TIMER_H
#define LH_TIMER_H

#include <linux/sched.h>
#include <linux/types.h>

s64 lh_timer_offset_take(struct task_struct *p);

#endif /* LH_TIMER_H */
