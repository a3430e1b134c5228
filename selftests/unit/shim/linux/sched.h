/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_SCHED_H
#define LH_SHIM_SCHED_H
#include <linux/types.h>

#define TASK_COMM_LEN 16
#define PF_IDLE 0x00000002

/* The fields of a task the module reads. */
struct task_struct {
	unsigned int flags;
	int prio;
	pid_t pid;
	char comm[TASK_COMM_LEN];
};

static inline bool is_idle_task(const struct task_struct *p)
{
	return !!(p->flags & PF_IDLE);
}
#endif
