/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timer.h - what the wakeup probes need from the missed-timer probes.
 */
#ifndef LH_TIMER_H
#define LH_TIMER_H

#include <linux/compiler.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/types.h>

/* struct lh_timer_offset - a missed offset waiting for its wakeup */
struct lh_timer_offset {
	struct task_struct *task;	/* identity only: never dereferenced */
	pid_t pid;
	s64 offset_us;
};

/* Written and read only by the owning CPU with interrupts off. */
DECLARE_PER_CPU(struct lh_timer_offset, lh_timer_offsets);

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
	struct lh_timer_offset *off = raw_cpu_ptr(&lh_timer_offsets);

	if (READ_ONCE(off->task) != p || off->pid != p->pid)
		return 0;
	WRITE_ONCE(off->task, NULL);
	return off->offset_us;
}

#endif /* LH_TIMER_H */
