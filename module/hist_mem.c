// SPDX-License-Identifier: GPL-2.0
/*
 * hist_mem.c - histogram memory: allocation, publication, reset, freeing
 * and the byte counts of the status file.
 *
 * A type's histograms (about 80 KiB per CPU) are allocated on the first
 * enable of its switch, per CPU on that CPU's NUMA node, never in a probe
 * path and never from the small static per-CPU area. They stay until the
 * module is unloaded, so histograms remain readable after a disable, as in
 * the RT patch. Nothing here warns when memory is short: the writer of the
 * enable gets ENOMEM, and a stack dump would tell a user nothing more.
 *
 * The callers (control.c) serialize every function here; probes and readers
 * only use lh_hist_cpu().
 */
#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>

#include <latency_hist/compat.h>
#include <latency_hist/hist_mem.h>

struct lh_hist_cpu **lh_hist_cpus[LH_NR_HISTS];

/* The hooks of the layers above, called in each reset's quiet period. */
static LIST_HEAD(lh_hist_reset_hooks);

/*
 * lh_buckets_alloc - the zeroed buckets of one CPU histogram, in pages of
 * @node mapped together, or NULL; vfree() releases the pages and their array
 */
static atomic64_t *lh_buckets_alloc(int node)
{
	const unsigned int nr = LH_HIST_BUCKETS_BYTES / PAGE_SIZE;
	struct page **pages;
	unsigned int i;
	void *addr;

	BUILD_BUG_ON(LH_HIST_BUCKETS_BYTES % PAGE_SIZE);
	pages = kvcalloc(nr, sizeof(*pages), GFP_KERNEL | __GFP_NOWARN);
	if (!pages)
		return NULL;
	for (i = 0; i < nr; i++) {
		pages[i] = alloc_pages_node(node, GFP_KERNEL | __GFP_ZERO |
					    __GFP_NOWARN, 0);
		if (!pages[i])
			goto out_free;
	}
	addr = vmap(pages, nr, VM_MAP | VM_MAP_PUT_PAGES, PAGE_KERNEL);
	if (addr)
		return addr;
out_free:
	while (i--)
		__free_page(pages[i]);
	kvfree(pages);
	return NULL;
}

/* lh_hist_cpu_free - release one CPU histogram (NULL is fine) */
static void lh_hist_cpu_free(struct lh_hist_cpu *h)
{
	if (!h)
		return;
	vfree(h->buckets);
	kfree(h);
}

/**
 * lh_hist_alloc() - give one type its per-CPU histograms, each on its node
 * @id: the histogram; nothing happens if it has its memory already
 *
 * The buckets (exactly 20 pages) are allocated apart from the few other
 * fields: in one block of 80 KiB plus a few bytes, kmalloc would take an
 * order-5 block (128 KiB) and vmalloc 21 pages.
 *
 * Context: process context; may sleep.
 * Return: 0 or -ENOMEM.
 */
int lh_hist_alloc(enum lh_hist_id id)
{
	struct lh_hist_cpu **cpus;
	int cpu;

	if (lh_hist_cpus[id])
		return 0;

	cpus = kcalloc(nr_cpu_ids, sizeof(*cpus), GFP_KERNEL | __GFP_NOWARN);
	if (!cpus)
		return -ENOMEM;

	for_each_possible_cpu(cpu) {
		cpus[cpu] = kzalloc_node(sizeof(**cpus),
					 GFP_KERNEL | __GFP_NOWARN,
					 cpu_to_node(cpu));
		if (!cpus[cpu])
			goto out_free;
		cpus[cpu]->buckets = lh_buckets_alloc(cpu_to_node(cpu));
		if (!cpus[cpu]->buckets)
			goto out_free;
		lh_hist_cpu_init(cpus[cpu]);
	}

	/* Pairs with smp_load_acquire() in lh_hist_cpu(). */
	smp_store_release(&lh_hist_cpus[id], cpus);
	return 0;

out_free:
	for_each_possible_cpu(cpu)
		lh_hist_cpu_free(cpus[cpu]);
	kfree(cpus);
	return -ENOMEM;
}

/**
 * lh_hist_free() - release one type's histograms
 * @id: the histogram
 *
 * Context: process context; no probe and no reader may use them any more.
 */
void lh_hist_free(enum lh_hist_id id)
{
	struct lh_hist_cpu **cpus = lh_hist_cpus[id];
	int cpu;

	if (!cpus)
		return;
	WRITE_ONCE(lh_hist_cpus[id], NULL);
	for_each_possible_cpu(cpu)
		lh_hist_cpu_free(cpus[cpu]);
	kfree(cpus);
}

/**
 * lh_hist_reset_hook_add() - have every later reset call a hook
 * @hook: the hook, not added yet
 *
 * Context: process context; module init, or under the lock that serialises
 * the functions here.
 */
void lh_hist_reset_hook_add(struct lh_hist_reset_hook *hook)
{
	list_add_tail(&hook->node, &lh_hist_reset_hooks);
}

/**
 * lh_hist_reset_hook_del() - undo lh_hist_reset_hook_add()
 * @hook: the hook, added or not (its node LIST_HEAD_INIT())
 *
 * Context: process context; module exit or failed init, or under the lock
 * that serialises the functions here.
 */
void lh_hist_reset_hook_del(struct lh_hist_reset_hook *hook)
{
	list_del_init(&hook->node);
}

/**
 * lh_hists_reset() - empty the histograms of the types in @ids on every
 * possible CPU
 * @ids: BIT(id) of each histogram (before its first enable there is
 *       nothing to empty)
 *
 * Exact (hist.h): stop recording into them, wait once for the probes in
 * flight, empty them and what the reset hooks empty, record again.
 *
 * Context: process context; may sleep; probes may be recording meanwhile.
 */
void lh_hists_reset(unsigned long ids)
{
	struct lh_hist_reset_hook *hook;
	int id, cpu;

	for_each_set_bit(id, &ids, LH_NR_HISTS) {
		if (!lh_hist_cpus[id])
			continue;
		for_each_possible_cpu(cpu)
			lh_hist_cpu_reset_begin(lh_hist_cpus[id][cpu]);
	}
	tracepoint_synchronize_unregister();
	list_for_each_entry(hook, &lh_hist_reset_hooks, node)
		hook->quiet(ids);
	for_each_set_bit(id, &ids, LH_NR_HISTS) {
		if (!lh_hist_cpus[id])
			continue;
		for_each_possible_cpu(cpu)
			lh_hist_cpu_reset_end(lh_hist_cpus[id][cpu]);
	}
}

/**
 * lh_hist_untraced() - the samples of one type filed with no lh_sample
 * event while one was wanted, on every CPU since its last reset
 * @id: the histogram
 *
 * Context: process context.
 * Return: their number, 0 before the first enable.
 */
unsigned long lh_hist_untraced(enum lh_hist_id id)
{
	unsigned long n = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct lh_hist_cpu *h = lh_hist_cpu(id, cpu);

		if (!h)
			return 0;
		n += atomic_long_read(&h->untraced);
	}
	return n;
}

/**
 * lh_hist_bytes() - histogram memory held by one type, allocator rounding
 * included
 * @id: the histogram
 *
 * Context: process context.
 * Return: bytes, 0 before the first enable.
 */
size_t lh_hist_bytes(enum lh_hist_id id)
{
	if (!lh_hist_cpus[id])
		return 0;
	return lh_kmalloc_size_roundup(nr_cpu_ids *
				       sizeof(struct lh_hist_cpu *)) +
	       num_possible_cpus() *
	       (lh_kmalloc_size_roundup(sizeof(struct lh_hist_cpu)) +
		LH_HIST_BUCKETS_BYTES +
		lh_kmalloc_size_roundup(LH_HIST_BUCKETS_BYTES / PAGE_SIZE *
					sizeof(struct page *)));
}
