// SPDX-License-Identifier: GPL-2.0
/*
 * Compiles only when task_is_running() exists (5.14, with the rename of
 * task_struct::state to __state); 5.10 reads ->state.
 */
#include <linux/sched.h>

bool lh_probe_task_is_running(struct task_struct *p)
{
	return task_is_running(p);
}
