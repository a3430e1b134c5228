/* SPDX-License-Identifier: GPL-2.0 */
/*
 * explain.h - where the time of each CPU's worst window went (explain.c).
 *
 * The probes of the types with LH_T_EXPLAIN in their row call
 * lh_explain_file() behind lh_explaining(), a static branch that is
 * patched out while explain/enable is 0: off costs one no-op there.
 */
#ifndef LH_EXPLAIN_H
#define LH_EXPLAIN_H

#include <linux/jump_label.h>
#include <linux/types.h>

#include <latency_hist/types.h>

struct seq_file;
struct task_struct;

DECLARE_STATIC_KEY_FALSE(lh_explain_key);

/**
 * lh_explaining() - is explain on?
 *
 * Context: any.
 */
static __always_inline bool lh_explaining(void)
{
	return static_branch_unlikely(&lh_explain_key);
}

void lh_explain_file(enum lh_hist_id id, int cpu, s64 lat_us, u64 start_ns,
		     u64 end_ns, struct task_struct *running);
int lh_explain_enable(bool on);
int lh_explain_ring_get(void);
void lh_explain_ring_put(void);
bool lh_explain_enabled(void);
void lh_explain_show(struct seq_file *m, enum lh_hist_id id, int cpu);
void lh_explain_status_show(struct seq_file *m);
int lh_explain_init(void);
void lh_explain_exit(void);

#endif /* LH_EXPLAIN_H */
