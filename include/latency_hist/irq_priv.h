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
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include <latency_hist/line_stats.h>

#define LH_IRQ_NR_LINES		64	/* entries of the table */
#define LH_IRQ_NAME_LEN		32	/* bytes of an action name kept, NUL included */

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
	struct lh_line_stats stats;
};

extern struct lh_irq_line lh_irq_lines[LH_IRQ_NR_LINES];
extern atomic_long_t lh_irq_other;
extern const char *lh_irq_threaded_by;	/* set at load; NULL: not threaded */

#endif /* LH_IRQ_PRIV_H */
