// SPDX-License-Identifier: GPL-2.0
/*
 * irq_lines.c - the irq type's per-line view, irq/lines: for every
 * interrupt thread that had a sample since the last reset, its line's
 * number, its action's name, its samples, min, mean, p99, p99.9 and max,
 * and the CPU and culprit of that max.
 *
 * The statistics live in the table of irq_priv.h, one entry per thread,
 * filed by the sched_switch probe (irq.c) under the entry's lock; a reader
 * copies an entry under the same lock and computes from its copy, so a
 * line's numbers always agree with each other. The percentiles come from
 * a log-linear histogram (irq_priv.h): each is the upper end of the bucket
 * that holds it, at most the max, so it is high by less than an eighth.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <latency_hist/irq.h>
#include <latency_hist/irq_priv.h>
#include <latency_hist/sample.h>

/* The percentiles of a line, in ten-thousandths: p99 and p99.9. */
static const u32 lh_irq_quantiles[] = { 9900, 9990 };

/**
 * lh_irq_line_lock() - take a line's lock, interrupts off
 * @line: the line
 *
 * Context: any but NMI.
 * Return: the interrupt state for lh_irq_line_unlock().
 */
unsigned long lh_irq_line_lock(struct lh_irq_line *line)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	arch_spin_lock(&line->lock);
	return flags;
}

/**
 * lh_irq_line_unlock() - release what lh_irq_line_lock() took
 * @line:  the line
 * @flags: its return value
 *
 * Context: after lh_irq_line_lock().
 */
void lh_irq_line_unlock(struct lh_irq_line *line, unsigned long flags)
{
	arch_spin_unlock(&line->lock);
	raw_local_irq_restore(flags);
}

/**
 * lh_irq_stats_clear() - forget a line's samples
 * @st: the line's statistics
 *
 * Context: the line's lock held, or no probe running.
 */
void lh_irq_stats_clear(struct lh_irq_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->min_us = S64_MAX;
	st->max_us = S64_MIN;
}

/* lh_irq_bucket - the log-linear bucket of @lat_us (0 for a negative one) */
static int lh_irq_bucket(s64 lat_us)
{
	u64 us = lat_us < 0 ? 0 : lat_us;
	int shift;

	if (us < LH_IRQ_LINEAR_US)
		return us;
	shift = fls64(us) - 1;
	if (shift >= LH_IRQ_TOP_SHIFT)
		return LH_IRQ_NR_BUCKETS - 1;
	return LH_IRQ_LINEAR_US +
	       (shift - LH_IRQ_SUB_SHIFT - 1) * LH_IRQ_SUB_BUCKETS +
	       ((us >> (shift - LH_IRQ_SUB_SHIFT)) & (LH_IRQ_SUB_BUCKETS - 1));
}

/* lh_irq_bucket_top_us - the largest latency bucket @b holds */
static u64 lh_irq_bucket_top_us(int b)
{
	int shift, sub;

	if (b < LH_IRQ_LINEAR_US)
		return b;
	if (b == LH_IRQ_NR_BUCKETS - 1)
		return U64_MAX;
	shift = (b - LH_IRQ_LINEAR_US) / LH_IRQ_SUB_BUCKETS +
		LH_IRQ_SUB_SHIFT + 1;
	sub = (b - LH_IRQ_LINEAR_US) % LH_IRQ_SUB_BUCKETS;
	return ((u64)(LH_IRQ_SUB_BUCKETS + sub + 1) <<
		(shift - LH_IRQ_SUB_SHIFT)) - 1;
}

/**
 * lh_irq_stats_file() - count one sample of a line
 * @st:      the line's statistics
 * @lat_us:  the sample
 * @cpu:     the CPU that files it
 * @culprit: the task switched out for the thread, alive
 *
 * Context: the line's lock held.
 */
void lh_irq_stats_file(struct lh_irq_stats *st, s64 lat_us, int cpu,
		       struct task_struct *culprit)
{
	st->nr_samples++;
	st->sum_us += lat_us;
	st->buckets[lh_irq_bucket(lat_us)]++;
	st->min_us = min(st->min_us, lat_us);
	if (lat_us > st->max_us) {
		st->max_us = lat_us;
		st->max_cpu = cpu;
		lh_task_info_fill(&st->max_culprit, culprit);
	}
}

/* lh_irq_quantile_us - the q/10000 quantile of @st, which has samples */
static s64 lh_irq_quantile_us(const struct lh_irq_stats *st, u32 q)
{
	u64 rank = div_u64(st->nr_samples * q + 9999, 10000);
	u64 seen = 0;
	int b;

	for (b = 0; b < LH_IRQ_NR_BUCKETS; b++) {
		seen += st->buckets[b];
		if (seen >= rank)
			break;
	}
	return min_t(u64, lh_irq_bucket_top_us(b), st->max_us);
}

/* lh_irq_line_print - one line of irq/lines from a copy of its entry */
static void lh_irq_line_print(struct seq_file *m,
			      const struct lh_irq_line *line)
{
	const struct lh_irq_stats *st = &line->stats;
	char name[LH_IRQ_NAME_LEN], culprit[TASK_COMM_LEN];
	u32 mean_frac;
	u64 mean_int;
	int i;

	/* The name is a field: no blank or control byte in it. */
	for (i = 0; line->name[i] && i < LH_IRQ_NAME_LEN - 1; i++)
		name[i] = (u8)line->name[i] <= ' ' || line->name[i] == 0x7f ?
			  '?' : line->name[i];
	name[i] = '\0';
	lh_safe_comm(culprit, st->max_culprit.comm);
	/* Latencies are never negative on one clock; the mean rounds down. */
	mean_int = div_u64_rem(div64_u64(st->sum_us * 100, st->nr_samples),
			       100, &mean_frac);
	seq_printf(m, "%d %s %llu %lld %llu.%02u", line->irq, name,
		   st->nr_samples, st->min_us, mean_int, mean_frac);
	for (i = 0; i < ARRAY_SIZE(lh_irq_quantiles); i++)
		seq_printf(m, " %lld", lh_irq_quantile_us(st, lh_irq_quantiles[i]));
	seq_printf(m, " %lld %d %d %s\n", st->max_us, st->max_cpu,
		   st->max_culprit.pid, culprit);
}

/**
 * lh_irq_lines_show() - print irq/lines
 * @m: the seq_file
 *
 * "#threaded <why>" (PREEMPT_RT, threadirqs or none), "#irq name samples
 * min mean p99 p99.9 max max_cpu culprit_pid culprit", then one line per
 * interrupt thread with samples, in table order, and "#other <n>": the
 * wakeups of threads that found the table full, not measured, since the
 * type was enabled.
 *
 * Context: process context.
 * Return: 0, or -ENOMEM.
 */
int lh_irq_lines_show(struct seq_file *m)
{
	struct lh_irq_line *copy;
	unsigned long flags;
	int i;

	copy = kmalloc(sizeof(*copy), GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	seq_printf(m, "#threaded %s\n", lh_irq_threaded_by ?: "none");
	seq_puts(m, "#irq name samples min mean p99 p99.9 max max_cpu culprit_pid culprit\n");
	for (i = 0; i < LH_IRQ_NR_LINES; i++) {
		struct lh_irq_line *line = &lh_irq_lines[i];

		if (!READ_ONCE(line->thread))
			continue;
		flags = lh_irq_line_lock(line);
		*copy = *line;
		lh_irq_line_unlock(line, flags);
		if (copy->stats.nr_samples)
			lh_irq_line_print(m, copy);
	}
	seq_printf(m, "#other %ld\n", atomic_long_read(&lh_irq_other));
	kfree(copy);
	return 0;
}

/**
 * lh_irq_lines_reset() - empty the statistics of every line, keeping the
 * lines and the wakeups they wait for
 *
 * Context: process context.
 */
void lh_irq_lines_reset(void)
{
	unsigned long flags;
	int i;

	for (i = 0; i < LH_IRQ_NR_LINES; i++) {
		struct lh_irq_line *line = &lh_irq_lines[i];

		flags = lh_irq_line_lock(line);
		lh_irq_stats_clear(&line->stats);
		lh_irq_line_unlock(line, flags);
	}
}
