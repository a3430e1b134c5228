/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timer.h - what the wakeup probes need from the missed-timer probes.
 */
#ifndef LH_TIMER_H
#define LH_TIMER_H

#include <linux/compiler.h>
#include <linux/hrtimer.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/types.h>

#include <latency_hist/compat.h>

/*
 * struct lh_timer_offset - a missed offset waiting for its wakeup
 * @timer: the timer whose callback will make the wakeup
 */
struct lh_timer_offset {
	struct hrtimer *timer;
	struct task_struct *task;	/* identity only: never dereferenced */
	pid_t pid;
	s64 offset_us;
};

/*
 * One slot per CPU and expiry context: soft expiries (softirq, or the
 * ktimers thread on PREEMPT_RT) and hard ones (hard interrupt). A hard
 * expiry can interrupt a soft one's callback window, never the reverse,
 * and fills, gives away and frees its slot before the soft one goes on, so
 * each slot is only ever touched by one context at a time: plain stores
 * suffice, and no interrupt needs masking.
 */
enum lh_timer_ctx {
	LH_TIMER_SOFT,
	LH_TIMER_HARD,
	LH_NR_TIMER_CTX
};

/*
 * struct lh_timer_offset_cpu - the offsets of the expiries running on one CPU
 * @used:     @used[ctx]: @slot[ctx] holds an offset; each context writes
 *            only its own byte
 * @any_used: all of @used in one load: 0 is the common case of every
 *            wakeup and every expiry exit
 */
struct lh_timer_offset_cpu {
	union {
		u8 used[LH_NR_TIMER_CTX];
		u16 any_used;
	};
	struct lh_timer_offset slot[LH_NR_TIMER_CTX];
};

DECLARE_PER_CPU(struct lh_timer_offset_cpu, lh_timer_offsets);

/* lh_timer_ctx - the expiry context we are in */
static __always_inline enum lh_timer_ctx lh_timer_ctx(void)
{
	return in_hardirq() ? LH_TIMER_HARD : LH_TIMER_SOFT;
}

/**
 * lh_timer_offset_take() - the missed timer offset that woke @p, if any
 * @p: a task being woken
 *
 * Inline: it runs in every sched_waking probe while timerandwakeup is on.
 * hrtimer_wakeup() wakes the sleeper synchronously, so the waking runs in
 * the context and on the CPU of the expiry that filled the slot.
 *
 * Context: sched_waking, preemption off (try_to_wake_up() holds p->pi_lock
 * with interrupts off, or wakes current under a preemption guard).
 * Return: the offset in us, or 0 if @p was not woken by a counted late timer.
 */
static __always_inline s64 lh_timer_offset_take(struct task_struct *p)
{
	struct lh_timer_offset_cpu *oc;
	enum lh_timer_ctx ctx;

	if (likely(!raw_cpu_read(lh_timer_offsets.any_used)))
		return 0;
	oc = raw_cpu_ptr(&lh_timer_offsets);
	ctx = lh_timer_ctx();
	if (!oc->used[ctx] || oc->slot[ctx].task != p ||
	    oc->slot[ctx].pid != p->pid)
		return 0;
	WRITE_ONCE(oc->used[ctx], 0);
	return oc->slot[ctx].offset_us;
}

#endif /* LH_TIMER_H */
