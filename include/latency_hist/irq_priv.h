/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq_priv.h - the table of threaded interrupt lines that the irq type's
 * probes (irq.c) fill and its per-line view (irq_lines.c) prints.
 *
 * One entry per interrupt thread: a threaded action of a line, so a shared
 * line with two threaded actions has two entries with one irq number. An
 * entry is claimed by the first wakeup of its thread and keeps its identity
 * (@thread and @thread_start, with @irq and @name) while the thread lives.
 * When the thread exits (sched_process_free) the entry is marked gone: it
 * keeps its row in irq/lines until the next reset releases it, or until a
 * new thread that finds no empty entry takes it over. A task_struct is
 * reused for later tasks, so @thread alone does not name a thread: a thread
 * whose pointer matches an entry of another start time is a new one, and
 * takes that entry over (its owner has exited). A reset empties the
 * statistics of every entry and releases the gone ones. Wakeups of threads
 * that find every entry of their probe run held by a live thread are
 * counted in lh_irq_other and not measured.
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
 * @thread:        the irq thread, never dereferenced here; set from NULL
 *                 by a cmpxchg (the claim), or under @lock when a new
 *                 thread takes a gone entry over; cleared under @lock when
 *                 a reset releases a gone entry, and by lh_irq_clear(). A
 *                 lockless read of it is a hint, checked again under @lock
 * @lock:          guards the rest; taken with interrupts off by the exit
 *                 probe of the line's interrupt, by the sched_switch probe
 *                 of the CPU that switches the thread in, by the
 *                 sched_process_free probe, and by readers and resets
 * @thread_start:  @thread's start_time when it took the entry: with
 *                 @thread, the identity (a task_struct reused by a later
 *                 thread has a later start time); 0 between a claim and
 *                 the claimer taking the lock
 * @gone:          the thread has exited (sched_process_free); written
 *                 under @lock, read locklessly as a hint by claimers
 * @irq:           the line's number; with @name written by the thread's
 *                 first wakeup, which takes the entry, under @lock
 * @pending_at:    lh_clock_stamp() of the handler entry of the earliest
 *                 wakeup the thread has not been switched in for; 0: none
 * @pending_switches: the thread's context-switch count when @pending_at was
 *                 set: a switch-in with another count is not this wakeup's
 *                 (the thread ran in between and served it without one)
 */
struct lh_irq_line {
	struct task_struct *thread;
	arch_spinlock_t lock;
	u64 thread_start;
	bool gone;
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
