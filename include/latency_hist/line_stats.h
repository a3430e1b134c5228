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

void lh_line_stats_clear(struct lh_line_stats *st);
void lh_line_stats_file(struct lh_line_stats *st, s64 lat_us, int cpu,
			struct task_struct *culprit);
void lh_line_stats_add(struct lh_line_stats *sum,
		       const struct lh_line_stats *st);
void lh_lines_print_header(struct seq_file *m, const char *why_word,
			   const char *why, const char *key_word);
void lh_line_stats_print(struct seq_file *m, int key, const char *name,
			 const struct lh_line_stats *st);

#endif /* LH_LINE_STATS_H */
