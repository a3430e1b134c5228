/* SPDX-License-Identifier: GPL-2.0 */
/*
 * task_views.h - the per-task and per-cgroup views of the types whose
 * victim is a task (<type>/tasks, <type>/cgroups; task_views.c files them,
 * task_views_print.c prints them and serves their switch, <type>/views).
 *
 * A sample goes into a type's views only when its histogram took it: the
 * filing sites (sample.h) call lh_task_views_file() after
 * lh_hist_record() returned true, and a reset empties the views in the
 * histograms' quiet period, so a view's lines plus its "#other" always
 * count the histogram's samples.
 */
#ifndef LH_TASK_VIEWS_H
#define LH_TASK_VIEWS_H

#include <linux/jump_label.h>
#include <linux/types.h>

#include <latency_hist/hist.h>
#include <latency_hist/types.h>

struct dentry;
struct task_struct;

/* On while the views of at least one type are: the filing sites' gate. */
DECLARE_STATIC_KEY_FALSE(lh_task_views_key);

/**
 * lh_task_views_active() - are the views of any type on?
 *
 * One patched-out branch while no type's views are on.
 *
 * Context: any.
 */
static __always_inline bool lh_task_views_active(void)
{
	return static_branch_unlikely(&lh_task_views_key);
}

void lh_task_views_file(enum lh_hist_id id, int cpu, s64 lat_us,
			struct task_struct *victim,
			struct task_struct *culprit,
			const struct lh_task_info *culprit_copy);
int lh_task_views_files(struct dentry *dir, enum lh_hist_id id);
void lh_task_views_init(void);
void lh_task_views_exit(void);

#endif /* LH_TASK_VIEWS_H */
