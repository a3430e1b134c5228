/* SPDX-License-Identifier: GPL-2.0 */
/*
 * switchtime.h - what the wakeup probes hand to the switchtime probes
 * (switchtime.c): the switch-in of every wakeup filed in wakeup/.
 */
#ifndef LH_SWITCHTIME_H
#define LH_SWITCHTIME_H

#include <linux/sched.h>
#include <linux/types.h>

void lh_switchtime_start(struct task_struct *next, struct task_struct *prev,
			 u64 now, s64 wakeup_us, s64 offset_us);

#endif /* LH_SWITCHTIME_H */
