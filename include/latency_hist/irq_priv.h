/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq_priv.h - the table of threaded interrupt lines that the irq type's
 * probes (irq.c) fill and its per-line view (irq_lines.c) prints.
 *
 * One entry per interrupt thread: a threaded action of a line, so a shared
 * line with two threaded actions has two entries with one irq number. An
 * entry is claimed by the first wakeup of its thread and keeps its identity
 * (@thread, @irq, @name) until the type is disabled; a reset empties only
 * its statistics. Wakeups of threads that find the table full are counted
 * in lh_irq_other and not measured.
 */
#ifndef LH_IRQ_PRIV_H
#define LH_IRQ_PRIV_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include <latency_hist/hist.h>

#define LH_IRQ_NR_LINES		64	/* entries of the table */
#define LH_IRQ_NAME_LEN		32	/* bytes of an action name kept, NUL included */

/*
 * The per-line histogram is log-linear: one bucket per microsecond below
 * LH_IRQ_LINEAR_US, then LH_IRQ_SUB_BUCKETS buckets per power of two (a
 * bucket is at most 1/8 of its lower bound wide), up to 2^LH_IRQ_TOP_SHIFT
 * us (16.7 s); the last bucket holds everything above.
 */
#define LH_IRQ_SUB_SHIFT	3
#define LH_IRQ_SUB_BUCKETS	BIT(LH_IRQ_SUB_SHIFT)
#define LH_IRQ_LINEAR_US	(2 * LH_IRQ_SUB_BUCKETS)	/* 16 us */
#define LH_IRQ_TOP_SHIFT	24
#define LH_IRQ_NR_BUCKETS	(LH_IRQ_LINEAR_US + \
				 (LH_IRQ_TOP_SHIFT - LH_IRQ_SUB_SHIFT - 1) * \
				 LH_IRQ_SUB_BUCKETS)

/*
 * struct lh_irq_stats - one line's samples since its last reset
 * @max_cpu:     the CPU that filed @max_us
 * @max_culprit: the task switched out for the thread at @max_us
 */
struct lh_irq_stats {
	u64 nr_samples;
	u64 sum_us;
	s64 min_us;
	s64 max_us;
	int max_cpu;
	struct lh_task_info max_culprit;
	u64 buckets[LH_IRQ_NR_BUCKETS];
};

/*
 * struct lh_irq_line - one interrupt thread
 * @thread:        the irq thread, an identity never dereferenced here; set
 *                 once by a cmpxchg from NULL (the claim), cleared only with
 *                 no probe running (lh_irq_clear())
 * @lock:          guards the rest; taken with interrupts off by the exit
 *                 probe of the line's interrupt, by the sched_switch probe
 *                 of the CPU that switches the thread in, and by readers
 * @irq:           the line's number; with @name written by the claimer
 *                 before it first sets @pending_at, under @lock
 * @pending_at:    lh_clock_stamp() of the handler entry of the earliest
 *                 wakeup the thread has not been switched in for; 0: none
 * @pending_switches: the thread's context-switch count when @pending_at was
 *                 set: a switch-in with another count is not this wakeup's
 *                 (the thread ran in between and served it without one)
 */
struct lh_irq_line {
	struct task_struct *thread;
	arch_spinlock_t lock;
	int irq;
	char name[LH_IRQ_NAME_LEN];
	u64 pending_at;
	unsigned long pending_switches;
	struct lh_irq_stats stats;
};

extern struct lh_irq_line lh_irq_lines[LH_IRQ_NR_LINES];
extern atomic_long_t lh_irq_other;
extern const char *lh_irq_threaded_by;	/* set at load; NULL: not threaded */

unsigned long lh_irq_line_lock(struct lh_irq_line *line);
void lh_irq_line_unlock(struct lh_irq_line *line, unsigned long flags);
void lh_irq_stats_clear(struct lh_irq_stats *st);
void lh_irq_stats_file(struct lh_irq_stats *st, s64 lat_us, int cpu,
		       struct task_struct *culprit);

#endif /* LH_IRQ_PRIV_H */
