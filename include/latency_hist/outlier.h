/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outlier.h - every sample at or above its type's budget, with its cause
 * (outlier.c files them, outlier_print.c prints <type>/outliers-CPUx).
 *
 * A probe of a type with LH_T_OUTLIER in its row calls lh_outlier_file()
 * (or lh_outlier_file_info(), for a victim that is no task: softirq's
 * vector) behind lh_outlier(), where the histogram took the sample (the
 * filing function returned true): one compare with the type's budget,
 * S64_MAX while it is off.
 */
#ifndef LH_OUTLIER_H
#define LH_OUTLIER_H

#include <linux/compiler.h>
#include <linux/types.h>

#include <latency_hist/types.h>

struct seq_file;
struct task_struct;
struct file;
struct lh_task_info;

/* Per histogram: the smallest outlier in us; S64_MAX while off. */
extern s64 lh_outlier_min_us[LH_NR_HISTS];

/**
 * lh_outlier() - is a sample the histogram took an outlier?
 * @id:     the histogram
 * @lat_us: its latency
 *
 * Context: any.
 */
static __always_inline bool lh_outlier(enum lh_hist_id id, s64 lat_us)
{
	return unlikely(lat_us >= READ_ONCE(lh_outlier_min_us[id]));
}

void lh_outlier_file(enum lh_hist_id id, int cpu, s64 lat_us, u64 start_ns,
		     u64 end, struct task_struct *victim,
		     struct task_struct *culprit);
void lh_outlier_file_info(enum lh_hist_id id, int cpu, s64 lat_us,
			  u64 start_ns, u64 end,
			  const struct lh_task_info *victim,
			  struct task_struct *culprit);
int lh_outlier_budget_set(enum lh_hist_id id, u64 budget_us);
u64 lh_outlier_budget_us(enum lh_hist_id id);
void lh_outlier_init(void);
void lh_outlier_exit(void);
int lh_outliers_open(struct file *file, enum lh_hist_id id, int cpu);
ssize_t lh_outliers_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos);

#endif /* LH_OUTLIER_H */
