/* SPDX-License-Identifier: GPL-2.0 */
/*
 * line_stats.h - the statistics of one line of a per-line view (irq/lines,
 * softirq/lines) and the one printer of that view's format, shared by the
 * types that keep one (line_stats.c).
 *
 * A line's samples are counted in a compact log-linear histogram, for its
 * percentiles: one bucket per microsecond below LH_LINE_LINEAR_US, then
 * LH_LINE_SUB_BUCKETS buckets per power of two (a bucket is at most 1/8 of
 * its lower bound wide), up to 2^LH_LINE_TOP_SHIFT us (16.7 s); the last
 * bucket holds everything above.
 */
#ifndef LH_LINE_STATS_H
#define LH_LINE_STATS_H

#include <linux/bits.h>
#include <linux/irqflags.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include <latency_hist/hist.h>

struct seq_file;
struct task_struct;

#define LH_LINE_SUB_SHIFT	3
#define LH_LINE_SUB_BUCKETS	BIT(LH_LINE_SUB_SHIFT)
#define LH_LINE_LINEAR_US	(2 * LH_LINE_SUB_BUCKETS)	/* 16 us */
#define LH_LINE_TOP_SHIFT	24
#define LH_LINE_NR_BUCKETS	(LH_LINE_LINEAR_US + \
				 (LH_LINE_TOP_SHIFT - LH_LINE_SUB_SHIFT - 1) * \
				 LH_LINE_SUB_BUCKETS)

/*
 * struct lh_line_stats - one line's samples since its last reset; its
 * owner serialises the writers and readers of each copy
 * @max_cpu:     the CPU that filed @max_us
 * @max_culprit: the culprit of @max_us
 */
struct lh_line_stats {
	u64 nr_samples;
	u64 sum_us;
	s64 min_us;
	s64 max_us;
	int max_cpu;
	struct lh_task_info max_culprit;
	u64 buckets[LH_LINE_NR_BUCKETS];
};

/**
 * lh_line_lock() - take the lock of a line's owner (an irq table entry, a
 * CPU's softirq vectors), interrupts off
 * @lock: the lock
 *
 * An arch spinlock with untraced interrupt masking: the probes that file
 * lines run where lockdep and the irq tracepoints must not recurse.
 *
 * Context: any but NMI.
 * Return: the interrupt state for lh_line_unlock().
 */
static __always_inline unsigned long lh_line_lock(arch_spinlock_t *lock)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	arch_spin_lock(lock);
	return flags;
}

/**
 * lh_line_unlock() - release what lh_line_lock() took
 * @lock:  the lock
 * @flags: its return value
 *
 * Context: after lh_line_lock().
 */
static __always_inline void lh_line_unlock(arch_spinlock_t *lock,
					   unsigned long flags)
{
	arch_spin_unlock(lock);
	raw_local_irq_restore(flags);
}

void lh_line_stats_clear(struct lh_line_stats *st);
void lh_line_stats_file(struct lh_line_stats *st, s64 lat_us, int cpu,
			struct task_struct *culprit);
void lh_line_stats_file_copy(struct lh_line_stats *st, s64 lat_us, int cpu,
			     const struct lh_task_info *culprit);
void lh_line_stats_add(struct lh_line_stats *sum,
		       const struct lh_line_stats *st);
void lh_lines_print_header(struct seq_file *m, const char *why_word,
			   const char *why, const char *key_word);
void lh_line_stats_print(struct seq_file *m, int key, const char *name,
			 const struct lh_line_stats *st);
void lh_line_safe_name(char *dst, const char *src, size_t size);
void lh_line_stats_print_fields(struct seq_file *m,
				const struct lh_line_stats *st);

#endif /* LH_LINE_STATS_H */
