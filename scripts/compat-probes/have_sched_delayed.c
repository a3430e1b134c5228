// SPDX-License-Identifier: GPL-2.0
/*
 * Compiles only when a fair task can stay on its runqueue while blocked:
 * EEVDF's delayed dequeue (6.12, sched_entity::sched_delayed), which keeps
 * task_struct::on_rq at 1 until the task is picked again or woken.
 */
#include <linux/sched.h>

int lh_probe_sched_delayed(struct task_struct *p)
{
	return READ_ONCE(p->se.sched_delayed);
}
