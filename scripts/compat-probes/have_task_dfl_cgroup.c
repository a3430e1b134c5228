// SPDX-License-Identifier: GPL-2.0
/*
 * Compiles only with CONFIG_CGROUPS: the id of a task's cgroup on the
 * default (v2) hierarchy, which the per-cgroup views key on.
 */
#include <linux/cgroup.h>
#include <linux/sched.h>

u64 lh_probe_task_dfl_cgroup(struct task_struct *p)
{
	return cgroup_id(task_dfl_cgroup(p));
}
