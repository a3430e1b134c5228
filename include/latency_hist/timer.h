/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timer.h - what the wakeup probes need from the missed-timer probes.
 */
#ifndef LH_TIMER_H
#define LH_TIMER_H

#include <linux/compiler.h>
#include <linux/hrtimer.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/types.h>

#define LH_TIMER_OFFSET_SLOTS	2	/* a soft expiry and a hard one inside it */

/*
 * struct lh_timer_offset - a missed offset waiting for its wakeup
 * @timer: the timer whose callback will make the wakeup; NULL: free
 */
struct lh_timer_offset {
	struct hrtimer *timer;
	struct task_struct *task;	/* identity only: never dereferenced */
	pid_t pid;
	s64 offset_us;
};

/* struct lh_timer_offset_cpu - the offsets of the expiries running on one CPU */
struct lh_timer_offset_cpu {
	struct lh_timer_offset slot[LH_TIMER_OFFSET_SLOTS];
};

/*
 * Written and read only by the owning CPU with interrupts off: a slot is
 * filled in the expiry probe, taken by the wakeup the timer's callback
 * makes, and freed in the exit probe of the same timer (see timer.c).
 */
DECLARE_PER_CPU(struct lh_timer_offset_cpu, lh_timer_offsets);

/**
 * lh_timer_offset_take() - the missed timer offset that woke @p, if any
 * @p: a task being woken
 *
 * Inline: it runs in every sched_waking probe while timerandwakeup is on.
 *
 * Context: sched_waking, preemption off (try_to_wake_up() holds p->pi_lock
 * with interrupts off, or wakes current under a preemption guard); a
 * timer's offset is found on the CPU that ran the waking timer.
 * Return: the offset in us, or 0 if @p was not woken by a counted late timer.
 */
static __always_inline s64 lh_timer_offset_take(struct task_struct *p)
{
	struct lh_timer_offset_cpu *oc = raw_cpu_ptr(&lh_timer_offsets);
	int i;

	for (i = 0; i < LH_TIMER_OFFSET_SLOTS; i++) {
		struct lh_timer_offset *off = &oc->slot[i];

		if (off->timer && off->task == p && off->pid == p->pid) {
			off->timer = NULL;
			return off->offset_us;
		}
	}
	return 0;
}

#endif /* LH_TIMER_H */
