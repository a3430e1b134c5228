// SPDX-License-Identifier: GPL-2.0
/*
 * line_stats.c - the statistics of one line of a per-line view and the
 * printer of the view (irq/lines, softirq/lines: one format, one reader in
 * lh, keyed on the second header line's first word).
 *
 * A line counts its samples, their sum, min and max (with the CPU and the
 * culprit of the max) and a log-linear histogram (line_stats.h) for its
 * percentiles: each is the upper end of the bucket that holds it, at most
 * the max, so it is high by less than an eighth. The owner of a line
 * serialises its writers and hands the printer a copy taken under its
 * lock, so a line's numbers always agree with each other.
 */
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include <latency_hist/line_stats.h>

#define LH_LINE_NAME_MAX	32	/* bytes of a line's name printed, NUL included */

/* The percentiles of a line, in ten-thousandths: p99 and p99.9. */
static const u32 lh_line_quantiles[] = { 9900, 9990 };

/**
 * lh_line_stats_clear() - forget a line's samples
 * @st: the line's statistics
 *
 * Context: the owner's lock held, or no probe running.
 */
void lh_line_stats_clear(struct lh_line_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->min_us = S64_MAX;
	st->max_us = S64_MIN;
}

/* lh_line_bucket - the log-linear bucket of @lat_us (0 for a negative one) */
static int lh_line_bucket(s64 lat_us)
{
	u64 us = lat_us < 0 ? 0 : lat_us;
	int shift;

	if (us < LH_LINE_LINEAR_US)
		return us;
	shift = fls64(us) - 1;
	if (shift >= LH_LINE_TOP_SHIFT)
		return LH_LINE_NR_BUCKETS - 1;
	return LH_LINE_LINEAR_US +
	       (shift - LH_LINE_SUB_SHIFT - 1) * LH_LINE_SUB_BUCKETS +
	       ((us >> (shift - LH_LINE_SUB_SHIFT)) & (LH_LINE_SUB_BUCKETS - 1));
}

/* lh_line_bucket_top_us - the largest latency bucket @b holds */
static u64 lh_line_bucket_top_us(int b)
{
	int shift, sub;

	if (b < LH_LINE_LINEAR_US)
		return b;
	if (b == LH_LINE_NR_BUCKETS - 1)
		return U64_MAX;
	shift = (b - LH_LINE_LINEAR_US) / LH_LINE_SUB_BUCKETS +
		LH_LINE_SUB_SHIFT + 1;
	sub = (b - LH_LINE_LINEAR_US) % LH_LINE_SUB_BUCKETS;
	return ((u64)(LH_LINE_SUB_BUCKETS + sub + 1) <<
		(shift - LH_LINE_SUB_SHIFT)) - 1;
}

/*
 * lh_line_stats_count - count one sample of a line but the culprit of a new
 * max: true if it is one (the caller fills it in)
 */
static bool lh_line_stats_count(struct lh_line_stats *st, s64 lat_us,
				int cpu)
{
	st->nr_samples++;
	st->sum_us += lat_us;
	st->buckets[lh_line_bucket(lat_us)]++;
	st->min_us = min(st->min_us, lat_us);
	if (lat_us <= st->max_us)
		return false;
	st->max_us = lat_us;
	st->max_cpu = cpu;
	return true;
}

/**
 * lh_line_stats_file() - count one sample of a line
 * @st:      the line's statistics
 * @lat_us:  the sample
 * @cpu:     the CPU that files it
 * @culprit: the sample's culprit, alive
 *
 * Context: the owner's lock held.
 */
void lh_line_stats_file(struct lh_line_stats *st, s64 lat_us, int cpu,
			struct task_struct *culprit)
{
	if (lh_line_stats_count(st, lat_us, cpu))
		lh_task_info_fill(&st->max_culprit, culprit);
}

/**
 * lh_line_stats_file_copy() - lh_line_stats_file() with the culprit as a
 * copy taken earlier
 * @st:      the line's statistics
 * @lat_us:  the sample
 * @cpu:     the CPU that files it
 * @culprit: the copy
 *
 * Context: the owner's lock held.
 */
void lh_line_stats_file_copy(struct lh_line_stats *st, s64 lat_us, int cpu,
			     const struct lh_task_info *culprit)
{
	if (lh_line_stats_count(st, lat_us, cpu))
		st->max_culprit = *culprit;
}

/**
 * lh_line_stats_add() - add one copy of a line's statistics to a sum (the
 * per-CPU parts of one line)
 * @sum: the sum, cleared by lh_line_stats_clear() before the first add
 * @st:  a copy of one part
 *
 * Context: any; the copies are the caller's.
 */
void lh_line_stats_add(struct lh_line_stats *sum,
		       const struct lh_line_stats *st)
{
	int b;

	if (!st->nr_samples)
		return;
	sum->nr_samples += st->nr_samples;
	sum->sum_us += st->sum_us;
	sum->min_us = min(sum->min_us, st->min_us);
	if (st->max_us > sum->max_us) {
		sum->max_us = st->max_us;
		sum->max_cpu = st->max_cpu;
		sum->max_culprit = st->max_culprit;
	}
	for (b = 0; b < LH_LINE_NR_BUCKETS; b++)
		sum->buckets[b] += st->buckets[b];
}

/* lh_line_quantile_us - the q/10000 quantile of @st, which has samples */
static s64 lh_line_quantile_us(const struct lh_line_stats *st, u32 q)
{
	u64 rank = lh_rank(st->nr_samples, q);
	u64 seen = 0;
	int b;

	for (b = 0; b < LH_LINE_NR_BUCKETS; b++) {
		seen += st->buckets[b];
		if (seen >= rank)
			break;
	}
	return min_t(u64, lh_line_bucket_top_us(b), st->max_us);
}

/**
 * lh_lines_print_header() - the two header lines of a per-line view
 * @m:        the seq_file
 * @why_word: the first line's word: what the type depends on
 * @why:      its value, one word
 * @key_word: what a line is keyed on, the first field of each line
 *
 * "#<why_word> <why>", then "#<key_word> name samples min mean p99 p99.9
 * max max_cpu culprit_pid culprit": lh reads every per-line view with one
 * reader that takes the key's name from there.
 *
 * Context: process context.
 */
void lh_lines_print_header(struct seq_file *m, const char *why_word,
			   const char *why, const char *key_word)
{
	seq_printf(m, "#%s %s\n", why_word, why);
	seq_printf(m, "#%s name samples min mean p99 p99.9 max max_cpu culprit_pid culprit\n",
		   key_word);
}

/**
 * lh_line_stats_print() - one line of a per-line view
 * @m:    the seq_file
 * @key:  the line's key (interrupt number, softirq vector)
 * @name: its name; a blank or control byte prints as '?', and it is cut at
 *        31 bytes
 * @st:   a copy of its statistics, with samples
 *
 * Context: process context.
 */
void lh_line_stats_print(struct seq_file *m, int key, const char *name,
			 const struct lh_line_stats *st)
{
	char safe_name[LH_LINE_NAME_MAX];

	lh_line_safe_name(safe_name, name, sizeof(safe_name));
	seq_printf(m, "%d %s", key, safe_name);
	lh_line_stats_print_fields(m, st);
}

/**
 * lh_line_safe_name() - a name as a field of a line: a blank or control
 * byte becomes '?', and it is cut to fit
 * @dst:  the field
 * @src:  the name
 * @size: the size of @dst, at least 1
 *
 * Context: any.
 */
void lh_line_safe_name(char *dst, const char *src, size_t size)
{
	size_t i;

	for (i = 0; src[i] && i < size - 1; i++)
		dst[i] = (u8)src[i] <= ' ' || src[i] == 0x7f ? '?' : src[i];
	dst[i] = '\0';
}

/**
 * lh_line_stats_print_fields() - the fields of a line after its key and
 * name, from " samples" to the culprit's name and the newline
 * @m:  the seq_file
 * @st: a copy of the line's statistics, with samples
 *
 * Context: process context.
 */
void lh_line_stats_print_fields(struct seq_file *m,
				const struct lh_line_stats *st)
{
	char culprit[TASK_COMM_LEN];
	u32 mean_frac;
	u64 mean_int;
	int i;

	lh_safe_comm(culprit, st->max_culprit.comm);
	/* Latencies are never negative on one clock; the mean rounds down. */
	mean_int = div_u64_rem(div64_u64(st->sum_us * 100, st->nr_samples),
			       100, &mean_frac);
	seq_printf(m, " %llu %lld %llu.%02u",
		   st->nr_samples, st->min_us, mean_int, mean_frac);
	for (i = 0; i < ARRAY_SIZE(lh_line_quantiles); i++)
		seq_printf(m, " %lld",
			   lh_line_quantile_us(st, lh_line_quantiles[i]));
	seq_printf(m, " %lld %d %d %s\n", st->max_us, st->max_cpu,
		   st->max_culprit.pid, culprit);
}
