/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist_mem.h - the memory of every histogram (hist_mem.c): allocated per
 * type on its switch's first enable, published to probes and readers,
 * emptied by resets, freed at unload.
 */
#ifndef LH_HIST_MEM_H
#define LH_HIST_MEM_H

#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/types.h>

#include <latency_hist/hist.h>
#include <latency_hist/types.h>

/* Published by lh_hist_alloc(), read locklessly by probes and readers. */
extern struct lh_hist_cpu **lh_hist_cpus[LH_NR_HISTS];

/**
 * lh_hist_cpu() - one CPU's histogram of one type
 * @id:  the histogram
 * @cpu: a possible CPU
 *
 * Context: any. Probes may call it only while their switch is on, which
 * implies the memory exists; readers get NULL before the first enable.
 * Return: the CPU histogram or NULL.
 */
static inline struct lh_hist_cpu *lh_hist_cpu(enum lh_hist_id id, int cpu)
{
	/* Pairs with smp_store_release() in lh_hist_alloc(). */
	struct lh_hist_cpu **cpus = smp_load_acquire(&lh_hist_cpus[id]);

	return cpus ? cpus[cpu] : NULL;
}

/**
 * lh_hist_cpu_filing() - lh_hist_cpu() for a probe filing a sample
 * @id:  the histogram
 * @cpu: a possible CPU
 *
 * A probe files only while its switch is on or being turned off, after
 * the first enable allocated the memory, which stays until unload: no NULL
 * test on the hot path.
 *
 * Context: probe context, the switch of @id on (or turning off).
 * Return: the CPU histogram.
 */
static __always_inline struct lh_hist_cpu *lh_hist_cpu_filing(enum lh_hist_id id,
							      int cpu)
{
	/* Pairs with smp_store_release() in lh_hist_alloc(). */
	return smp_load_acquire(&lh_hist_cpus[id])[cpu];
}

unsigned long lh_hist_untraced(enum lh_hist_id id);

/* The callers serialize these (control.c's lock). */
int lh_hist_alloc(enum lh_hist_id id);
void lh_hist_free(enum lh_hist_id id);
/**
 * struct lh_hist_reset_hook - what else a reset of histograms empties
 * @quiet: called by lh_hists_reset() with the BIT(id) of each histogram it
 *         resets, while no sample of them can be filed: they refuse samples
 *         and the probes that ran before are done. A probe that files a
 *         sample elsewhere too (a line, an explanation) does so only when
 *         the histogram took it, so that state and the histograms empty
 *         at one instant. Process context, under the lock that serialises
 *         resets; may sleep.
 * @node:  in the list of hooks; LIST_HEAD_INIT() it
 *
 * The histogram memory knows nothing of what builds on it: each layer
 * above registers its own hook (explain its records, control.c the types'
 * per-line views).
 */
struct lh_hist_reset_hook {
	void (*quiet)(unsigned long ids);
	struct list_head node;
};

void lh_hist_reset_hook_add(struct lh_hist_reset_hook *hook);
void lh_hist_reset_hook_del(struct lh_hist_reset_hook *hook);
void lh_hists_reset(unsigned long ids);
size_t lh_hist_bytes(enum lh_hist_id id);

#endif /* LH_HIST_MEM_H */
