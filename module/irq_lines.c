// SPDX-License-Identifier: GPL-2.0
/*
 * irq_lines.c - the irq type's per-line view, irq/lines: for every
 * interrupt thread that had a sample since the last reset, its line's
 * number, its action's name, its samples, min, mean, p99, p99.9 and max,
 * and the CPU and culprit of that max.
 *
 * The statistics live in the table of irq_priv.h, one entry per thread,
 * filed by the sched_switch probe (irq.c) under the entry's lock; a reader
 * copies an entry under the same lock and prints its copy with
 * line_stats.c, the printer softirq/lines shares.
 */
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <latency_hist/irq.h>
#include <latency_hist/irq_priv.h>
#include <latency_hist/line_stats.h>

/**
 * lh_irq_lines_show() - print irq/lines
 * @m: the seq_file
 *
 * "#threaded <why>" (PREEMPT_RT, threadirqs or none), "#irq name samples
 * min mean p99 p99.9 max max_cpu culprit_pid culprit", then one line per
 * interrupt thread with samples (an exited one's until a reset or a new
 * thread takes its entry), in table order, and "#other <n>": the wakeups of
 * threads that found their entries all held by live threads, not measured,
 * since the type was enabled.
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
	lh_lines_print_header(m, "threaded", lh_irq_threaded_by ?: "none",
			      "irq");
	for (i = 0; i < LH_IRQ_NR_LINES; i++) {
		struct lh_irq_line *line = &lh_irq_lines[i];

		if (!READ_ONCE(line->thread))
			continue;
		flags = lh_line_lock(&line->lock);
		*copy = *line;
		lh_line_unlock(&line->lock, flags);
		if (copy->stats.nr_samples)
			lh_line_stats_print(m, copy->irq, copy->name,
					    &copy->stats);
	}
	seq_printf(m, "#other %ld\n", atomic_long_read(&lh_irq_other));
	kfree(copy);
	return 0;
}

/**
 * lh_irq_lines_reset() - empty the statistics of every line, keeping the
 * lines of live threads and the wakeups they wait for; release the entries
 * of exited threads
 *
 * Context: process context, in the quiet period of a reset of irq's
 * histograms (struct lh_hist_reset_hook).
 */
void lh_irq_lines_reset(void)
{
	unsigned long flags;
	int i;

	for (i = 0; i < LH_IRQ_NR_LINES; i++) {
		struct lh_irq_line *line = &lh_irq_lines[i];

		flags = lh_line_lock(&line->lock);
		lh_line_stats_clear(&line->stats);
		if (line->gone) {
			WRITE_ONCE(line->gone, false);
			line->thread_start = 0;
			line->irq = 0;
			memset(line->name, 0, sizeof(line->name));
			/* Last: a claimer may take it once it reads NULL. */
			WRITE_ONCE(line->thread, NULL);
		}
		lh_line_unlock(&line->lock, flags);
	}
}
