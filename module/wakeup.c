// SPDX-License-Identifier: GPL-2.0
/*
 * wakeup.c - wakeup latency: exclusive (wakeup/) and shared priority
 * (wakeup/sharedprio/) histograms with victim/culprit max records.
 *
 * A sample is the time from sched_waking (or sched_wakeup_new for a new
 * task) of a task to the sched_switch that runs it. sched_waking is the
 * point the in-kernel wakeup tracer and the hist-trigger recipe use since
 * 4.3, so the delay of a remote-wakeup IPI is included. A task moved before
 * it runs (sched_migrate_task) takes its wakeup along, and the sample is
 * filed on the CPU that switches it in.
 *
 * As in the PREEMPT_RT patch, each CPU tracks at most one woken task, the
 * most important one waiting to run there: without a pid filter only
 * real-time tasks (kernel prio below MAX_RT_PRIO: FIFO, RR, DEADLINE and
 * PI-boosted tasks, on every kernel version), with one only that thread,
 * whatever its policy.
 *
 * wakeup/ holds the waits during which nothing that ran on the CPU could
 * keep the wakee from running: the latency of the kernel and the hardware.
 * A wait behind a more important real-time task is the priority design and
 * is filed nowhere (with a pid filter: in sharedprio), a wait behind an
 * equal one goes to sharedprio. How the switch probe decides:
 * lh_wakeup_switch_locked(); priority inheritance:
 * lh_probe_sched_pi_setprio().
 *
 * No task reference is held (a task pointer is an identity, checked with
 * the pid, never dereferenced later) and there is no global lock, only one
 * per target CPU (struct lh_wakeup_cpu). The clock is lh_clock_stamp()
 * (clock.h), consistent across CPUs; a wakeup whose ends were read on two
 * clocks is dropped. Documentation/latency_hist.rst, "wakeup/", has the
 * rules and the differences from the RT patch.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/irqflags.h>
#include <linux/math64.h>
#include <linux/mm_types.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <trace/events/sched.h>

#include <latency_hist/clock.h>
#include <latency_hist/control.h>
#include <latency_hist/counters.h>
#include <latency_hist/explain.h>
#include <latency_hist/outlier.h>
#include <latency_hist/sample.h>
#include <latency_hist/switchtime.h>
#include <latency_hist/timer.h>
#include <latency_hist/tracepoints.h>

#define LH_PRIO_NONE	INT_MAX	/* the idle task: it competes with no wakee */

/*
 * struct lh_wakeup - one tracked wakeup
 * @chosen: the pid filter chose it: outranked, it goes to sharedprio
 *          instead of being dropped
 * @on_rq:  its on_rq when it woke, kept as read (0, TASK_ON_RQ_QUEUED or
 *          _MIGRATING): 0, it was off its runqueue, so its next switch-out
 *          can only be the end of that sleep's own switch, not a run
 */
struct lh_wakeup {
	struct task_struct *task;	/* identity only: never dereferenced */
	pid_t pid;
	int prio;
	u64 start;		/* lh_clock_stamp() */
	s64 timer_offset_us;	/* missed offset of the timer that woke it */
	bool sharedprio;
	bool chosen;
	u8 on_rq;
};

/*
 * struct lh_wakeup_cpu - wakeup state of one target CPU
 * @lock:    guards @tracked; wakers on any CPU, this CPU's sched_switch,
 *           sched_migrate_task and sched_pi_setprio take it
 *           (lh_wakeup_lock()), never together with another CPU's
 * @tracked: the wakeup waiting to run here (task == NULL: none)
 *
 * The lock is an arch_spinlock_t taken inline with raw interrupt disabling,
 * as the trace core's clocks and max-latency buffers do: the out-of-line
 * raw_spin_lock_irqsave()/unlock pair and its preempt-count and lockdep
 * bookkeeping cost as much as the rest of the waker's work
 * (Documentation/performance.rst). It is held for a few loads and stores,
 * never together with another lock of ours, and nothing inside it can fire
 * a tracepoint or sleep, on PREEMPT_RT too. Its uncontended case is one
 * inline trylock; a failed trylock falls back, out of line, to the fair
 * (queued) arch_spin_lock(), so many wakers aimed at one CPU cannot starve
 * that CPU's switch, which holds its runqueue lock meanwhile.
 */
struct lh_wakeup_cpu {
	arch_spinlock_t lock;
	struct lh_wakeup tracked;
};

static DEFINE_PER_CPU(struct lh_wakeup_cpu, lh_wakeup_cpus);

/* lh_wakeup_cpu - the wakeup state of target CPU @cpu */
static __always_inline struct lh_wakeup_cpu *lh_wakeup_cpu(unsigned int cpu)
{
	return per_cpu_ptr(&lh_wakeup_cpus, cpu);
}

/* lh_wakeup_spin_fair - the contended case: wait in the lock's fair queue */
static noinline void notrace lh_wakeup_spin_fair(struct lh_wakeup_cpu *wc)
{
	arch_spin_lock(&wc->lock);
}

/* lh_wakeup_spin - take @wc's lock, interrupts off: one inline trylock, else fair */
static __always_inline void lh_wakeup_spin(struct lh_wakeup_cpu *wc)
{
	if (unlikely(!arch_spin_trylock(&wc->lock)))
		lh_wakeup_spin_fair(wc);
}

/*
 * lh_wakeup_lock - take @wc's lock from any context: interrupts go off
 * first, so an interrupt's wakeup on this CPU cannot spin on a lock its
 * own CPU holds
 */
static __always_inline unsigned long lh_wakeup_lock(struct lh_wakeup_cpu *wc)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	lh_wakeup_spin(wc);
	return flags;
}

/* lh_wakeup_unlock - release what lh_wakeup_lock() took */
static __always_inline void lh_wakeup_unlock(struct lh_wakeup_cpu *wc,
					     unsigned long flags)
{
	arch_spin_unlock(&wc->lock);
	raw_local_irq_restore(flags);
}

/* lh_task_prio - a task's prio as a competitor; the idle task competes with none */
static __always_inline int lh_task_prio(struct task_struct *t)
{
	return is_idle_task(t) ? LH_PRIO_NONE : t->prio;
}

/*
 * lh_outranks - could a task of @prio keep a wakee of @wakee_prio from
 * running? Only a real-time or deadline one: fair tasks share the CPU.
 */
static __always_inline bool lh_outranks(int prio, int wakee_prio)
{
	return prio < wakee_prio && prio < MAX_RT_PRIO;
}

/*
 * lh_wakeup_meet - a task of @prio ran (or runs) on the CPU while @cur waits:
 * forget @cur if it was outranked (a wakee the pid filter chose goes to
 * sharedprio instead), mark it shared at equal priority; caller holds the
 * lock and @cur->task is set
 */
static __always_inline void lh_wakeup_meet(struct lh_wakeup *cur, int prio)
{
	if (lh_outranks(prio, cur->prio) && !cur->chosen)
		cur->task = NULL;
	else if (prio <= cur->prio)
		cur->sharedprio = true;
}

/*
 * lh_wakeup_wins - may a woken task be tracked on @wc? Marks it shared if
 * it ties; the caller then stores it
 *
 * Caller holds @wc->lock. @w is the candidate. A less important wakee than
 * the tracked one would wait behind it by design; an equal one shares.
 * Whether anything running on the CPU outranks @w is decided by the switch
 * probe, which sees every task that runs before it.
 */
static __always_inline bool lh_wakeup_wins(struct lh_wakeup_cpu *wc,
					   struct lh_wakeup *w)
{
	struct lh_wakeup *cur = &wc->tracked;

	if (cur->task && cur->task != w->task) {
		if (w->prio > cur->prio)
			return false;
		if (w->prio == cur->prio)
			w->sharedprio = true;
	}
	return true;
}

/*
 * lh_wakeup_wanted - does the current filter still want this wakeup? The
 * pid filter may have changed while it was pending.
 */
static __always_inline bool lh_wakeup_wanted(pid_t pid, int prio)
{
	pid_t pid_filter = lh_pid(LH_SW_WAKEUP);

	return pid_filter ? pid == pid_filter : prio < MAX_RT_PRIO;
}

/*
 * lh_wakeup_rival - a wakee the pid filter does not follow: if it has the
 * followed one's priority, that one now shares it
 */
static noinline void notrace lh_wakeup_rival(struct task_struct *p)
{
	struct lh_wakeup_cpu *wc = lh_wakeup_cpu(task_cpu(p));
	unsigned long flags;

	if (!READ_ONCE(wc->tracked.task) ||
	    p->prio != READ_ONCE(wc->tracked.prio))
		return;
	flags = lh_wakeup_lock(wc);
	if (wc->tracked.task && p->prio == wc->tracked.prio)
		wc->tracked.sharedprio = true;
	lh_wakeup_unlock(wc, flags);
}

/*
 * lh_task_on_rq - is the woken @p on its runqueue (0: off it, asleep for
 * good)? The kernel's value, which fits a byte.
 *
 * sched_waking fires once try_to_wake_up() has seen @p's sleeping state,
 * and may fire while @p is still switching out: __schedule() has dequeued
 * it but not yet reached sched_switch. If @p is dequeued, it cannot run
 * before this wakeup enqueues it (after it has left its CPU), so a switch
 * with @p as prev is the end of that switch-out. If it is still queued, the
 * wakeup only sets it running again (ttwu_runnable()) and it may go on
 * running without a switch: its next switch-out is a run.
 *
 * The read barrier orders this load after try_to_wake_up()'s load of the
 * state, as its own smp_rmb() does for the same load after the tracepoint:
 * without it an old 0, from before the enqueue that preceded the sleep
 * being woken, could be read (tools/litmus/wakeup-dequeued.litmus).
 */
static __always_inline u8 lh_task_on_rq(struct task_struct *p)
{
	/* after try_to_wake_up()'s load of p's state: see above */
	smp_rmb();
	return READ_ONCE(p->on_rq);
}

/*
 * lh_wakeup_track - offer @p's wakeup, started at @start, to @wc, whose lock
 * the caller took with interrupts off (@flags); release it, and start the
 * counters if @p is now the tracked wakee
 */
static __always_inline void lh_wakeup_track(struct lh_wakeup_cpu *wc,
					    struct task_struct *p, u64 start,
					    s64 timer_offset_us, bool chosen,
					    unsigned long flags)
{
	struct lh_wakeup w = {
		.task = p,
		.pid = p->pid,
		.prio = p->prio,
		.start = start,
		.timer_offset_us = timer_offset_us,
		.chosen = chosen,
	};

	if (lh_wakeup_wins(wc, &w)) {
		/* read late: one value less to keep in a register */
		w.on_rq = lh_task_on_rq(p);
		wc->tracked = w;
	}
	lh_wakeup_unlock(wc, flags);
	/* Only the tracked wakee's window matters; it is the last one offered. */
	if (lh_counting() && READ_ONCE(wc->tracked.task) == p)
		lh_pmu_wakeup_start(p);
}

/*
 * lh_wakeup_track_contended - the trylock failed: wait in the lock's fair
 * queue, then lh_wakeup_track(). Out of line with everything it needs in
 * its arguments, so that the waking's common path calls nothing and keeps
 * its values in scratch registers (no callee-saved register to save in
 * every sched_waking, followed or not).
 */
static noinline void notrace lh_wakeup_track_contended(struct lh_wakeup_cpu *wc,
						       struct task_struct *p,
						       u64 start,
						       s64 timer_offset_us,
						       bool chosen,
						       unsigned long flags)
{
	arch_spin_lock(&wc->lock);
	lh_wakeup_track(wc, p, start, timer_offset_us, chosen, flags);
}

/*
 * lh_wakeup_begin - a followed task became runnable at @start: take its
 * timer's missed offset and offer it to the CPU it will run on (@chosen:
 * the pid filter names it)
 */
static __always_inline void lh_wakeup_begin(struct task_struct *p, u64 start,
					    bool chosen)
{
	struct lh_wakeup_cpu *wc;
	unsigned long flags;
	s64 timer_offset_us;

	/* Filled only while timerandwakeup is on, which the filing checks. */
	timer_offset_us = lh_timer_offset_take(p);
	wc = lh_wakeup_cpu(task_cpu(p));

	/* lh_wakeup_lock(), its contended case a tail call */
	raw_local_irq_save(flags);
	if (unlikely(!arch_spin_trylock(&wc->lock))) {
		lh_wakeup_track_contended(wc, p, start, timer_offset_us, chosen,
					  flags);
		return;
	}
	lh_wakeup_track(wc, p, start, timer_offset_us, chosen, flags);
}

/*
 * lh_wakeup_begin_kernel_clock - lh_wakeup_begin() on the kernel's clock,
 * out of line: its read is a call, and the waking's common path makes none
 * (@pid_filter as the waking read it: the common path's register)
 */
static noinline void notrace lh_wakeup_begin_kernel_clock(struct task_struct *p,
							  pid_t pid_filter)
{
	lh_wakeup_begin(p, lh_clock_stamp(), pid_filter != 0);
}

/*
 * lh_wakeup_start - sched_waking/sched_wakeup_new: a task becomes runnable;
 * inline in both probes, the start of every followed wakeup
 */
static __always_inline void lh_wakeup_start(struct task_struct *p)
{
	pid_t pid_filter = lh_pid(LH_SW_WAKEUP);
	u64 mark;

	if (pid_filter) {
		if (p->pid != pid_filter) {
			lh_wakeup_rival(p);
			return;
		}
	} else if (p->prio >= MAX_RT_PRIO) {
		return;
	}

	mark = lh_clock_mark();
	if (!lh_clock_marks_cycles(mark)) {
		lh_wakeup_begin_kernel_clock(p, pid_filter);
		return;
	}
	lh_wakeup_begin(p, lh_cycle_stamp(mark), pid_filter != 0);
}

/* lh_probe_sched_waking - start of a wakeup */
static void notrace lh_probe_sched_waking(void *data, struct task_struct *p)
{
	lh_wakeup_start(p);
}

/* lh_probe_sched_wakeup_new - start of a new task's first wakeup */
static void notrace lh_probe_sched_wakeup_new(void *data,
					      struct task_struct *p)
{
	lh_wakeup_start(p);
}

/* lh_probe_sched_migrate_task - a task moves: its pending wakeup follows */
static void notrace lh_probe_sched_migrate_task(void *data,
						struct task_struct *p,
						int dest_cpu)
{
	struct lh_wakeup_cpu *src = lh_wakeup_cpu(task_cpu(p));
	struct lh_wakeup_cpu *dst;
	struct lh_wakeup w;
	unsigned long flags;

	if (READ_ONCE(src->tracked.task) != p || task_cpu(p) == dest_cpu)
		return;

	flags = lh_wakeup_lock(src);
	w = src->tracked;
	if (w.task == p && w.pid == p->pid)
		src->tracked.task = NULL;
	lh_wakeup_unlock(src, flags);
	if (w.task != p || w.pid != p->pid)
		return;

	dst = lh_wakeup_cpu(dest_cpu);
	flags = lh_wakeup_lock(dst);
	if (lh_wakeup_wins(dst, &w))
		dst->tracked = w;
	lh_wakeup_unlock(dst, flags);
}

/* lh_task_running - is @t running on its CPU right now? */
static __always_inline bool lh_task_running(struct task_struct *t)
{
#ifdef CONFIG_SMP
	return READ_ONCE(t->on_cpu);
#else
	return t == current;
#endif
}

/*
 * lh_probe_sched_pi_setprio - a task's priority changes by priority
 * inheritance: if it is running on a CPU with a tracked wakeup, the best
 * priority it has before or after the change is a task the wakee met
 *
 * A priority change of the running task makes no switch: a boost above the
 * wakee (rt_mutex_setprio(), constant on PREEMPT_RT) keeps the wakee from
 * preempting, and a deboost before it runs would hide that from the switch
 * probe. sched_setscheduler() on a running task fires no tracepoint: a wait
 * behind a task made less important while it ran is filed (documented).
 */
static void notrace lh_probe_sched_pi_setprio(void *data,
					      struct task_struct *tsk,
					      struct task_struct *pi_task)
{
	int new_prio = pi_task ? min(tsk->normal_prio, pi_task->prio) :
				 tsk->normal_prio;
	int prio = min(tsk->prio, new_prio);
	struct lh_wakeup_cpu *wc;
	unsigned long flags;

	/* Not running: if it runs before the wakee, its switch-in decides. */
	if (!lh_task_running(tsk))
		return;
	wc = lh_wakeup_cpu(task_cpu(tsk));
	if (!READ_ONCE(wc->tracked.task) || prio > READ_ONCE(wc->tracked.prio))
		return;

	flags = lh_wakeup_lock(wc);
	if (wc->tracked.task && wc->tracked.task != tsk)
		lh_wakeup_meet(&wc->tracked, prio);
	lh_wakeup_unlock(wc, flags);
}

/*
 * lh_wakeup_record - file a finished wakeup of @lat_us (from @start to
 * @now) on @cpu, where it ran; an exclusive-priority one also goes, with
 * its timer's missed offset added, into timerandwakeup, and its switch-in
 * starts a switchtime sample
 */
static __always_inline void lh_wakeup_record(u64 start, s64 lat_us,
					     s64 timer_offset_us,
					     bool sharedprio, int cpu,
					     struct task_struct *prev,
					     struct task_struct *next,
					     u64 now)
{
	enum lh_hist_id id = sharedprio ? LH_HIST_WAKEUP_SHAREDPRIO :
					  LH_HIST_WAKEUP;

	if (lh_sample_record(id, cpu, lat_us, 0, next, prev, now) &&
	    lh_outlier(id, lat_us))
		lh_outlier_file(id, cpu, lat_us, lh_clock_stamp_ns(start), now,
				next, prev);
	if (lh_explaining())
		lh_explain_file(id, cpu, lat_us, lh_clock_stamp_ns(start),
				lh_clock_stamp_ns(now), prev);
	if (lh_counting())
		lh_pmu_wakeup_file(id, lat_us, next);
	if (sharedprio)
		return;
	if (lh_switch_enabled(LH_SW_TIMERANDWAKEUP))
		lh_sample_record(LH_HIST_TIMERANDWAKEUP, cpu,
				 timer_offset_us + lat_us, timer_offset_us,
				 next, prev, now);
	if (lh_switch_enabled(LH_SW_SWITCHTIME))
		lh_switchtime_start(next, prev, now, lat_us, timer_offset_us);
}

/*
 * lh_wakeup_file_quick - lh_wakeup_record() of what needs no call: a
 * window on the cycle counter that fits the histogram (and timerandwakeup's,
 * if on), no new maximum, and nothing else asked of a sample (no trace
 * event, threshold, explain, counting, switchtime or per-task views). False, having filed
 * nothing, for anything else.
 */
static __always_inline bool lh_wakeup_file_quick(u64 start, u64 now,
						 s64 timer_offset_us,
						 bool sharedprio)
{
	struct lh_hist_cpu *h, *taw = NULL;
	s64 lat_us, taw_us = 0;
	int cpu;

	if (lh_sample_out_wanted() || lh_explaining() || lh_counting() ||
	    lh_task_views_active())
		return false;
	if (!lh_clock_cycles_us(start, now, &lat_us) ||
	    lat_us >= LH_NR_BUCKETS)
		return false;
	/* Interrupts are off: this CPU; read late, kept in no register. */
	cpu = raw_smp_processor_id();
	h = lh_hist_cpu_filing(sharedprio ? LH_HIST_WAKEUP_SHAREDPRIO :
					    LH_HIST_WAKEUP, cpu);
	if (lh_hist_beats_max(h, lat_us) ||
	    lh_outlier(sharedprio ? LH_HIST_WAKEUP_SHAREDPRIO : LH_HIST_WAKEUP,
		       lat_us))
		return false;
	if (!sharedprio) {
		if (lh_switch_enabled(LH_SW_SWITCHTIME))
			return false;
		if (lh_switch_enabled(LH_SW_TIMERANDWAKEUP)) {
			taw_us = timer_offset_us + lat_us;
			taw = lh_hist_cpu_filing(LH_HIST_TIMERANDWAKEUP, cpu);
			if ((u64)taw_us >= LH_NR_BUCKETS ||
			    lh_hist_beats_max(taw, taw_us))
				return false;
		}
	}
	lh_hist_count(h, lat_us);
	if (taw)
		lh_hist_count(taw, taw_us);
	return true;
}

/*
 * lh_wakeup_end - file a wakeup that ended at @now with @next switching
 * in: what lh_wakeup_file_quick() leaves, out of line
 */
static noinline void notrace lh_wakeup_end(u64 start, u64 now,
					   s64 timer_offset_us,
					   bool sharedprio,
					   struct task_struct *prev,
					   struct task_struct *next)
{
	s64 lat_us;

	if (lh_clock_window_us(start, now, &lat_us))
		lh_wakeup_record(start, lat_us, timer_offset_us, sharedprio,
				 smp_processor_id(), prev, next, now);
}

/*
 * lh_wakeup_switch_locked - sched_switch on a CPU with a tracked wakeup,
 * @wc's lock held (interrupts are off): end it, drop it or mark it shared,
 * unlock, and file the one that ended. Calls nothing but to file what
 * lh_wakeup_file_quick() cannot, as a tail call.
 *
 * Every task that runs on the CPU between the waking and the switch-in is,
 * at some switch of that CPU, either prev or next: the task running when
 * the wakee woke is the prev of the first of them, the last one to run the
 * prev of the switch-in itself. So comparing both with the wakee at every
 * switch (lh_wakeup_meet()) sees every task it waited behind, and no
 * per-CPU copy of the running task's priority, which could be stale or
 * raced, is kept. Only a real-time or deadline task outranks: the fair
 * class has no strict priorities, so a SCHED_OTHER thread followed by pid
 * at most shares its priority with another fair task.
 */
static __always_inline void lh_wakeup_switch_locked(struct lh_wakeup_cpu *wc,
						    struct task_struct *prev,
						    struct task_struct *next,
						    u64 now)
{
	struct lh_wakeup *cur = &wc->tracked;
	/*
	 * What a wakeup that ended and is still wanted needs, copied out in
	 * scalars: few enough to stay in scratch registers across the unlock.
	 * A stamp is never 0, so @start says whether there is one.
	 */
	u64 start = 0;
	s64 timer_offset_us = 0;
	bool sharedprio = false;

	if (!cur->task) {
		/* taken meanwhile by a migration */
	} else if (prev == cur->task && cur->on_rq) {
		/* it was running already */
		cur->task = NULL;
	} else {
		if (prev != cur->task)
			/* prev ran while the wakee waited: it gave up the CPU */
			lh_wakeup_meet(cur, lh_task_prio(prev));
		else
			/* woken while it switched out of its sleep: queued now */
			cur->on_rq = 1;	/* kernel/sched/sched.h's TASK_ON_RQ_QUEUED */
		if (cur->task && next == cur->task && next->pid == cur->pid) {
			if (lh_wakeup_wanted(next->pid, cur->prio)) {
				start = cur->start;
				timer_offset_us = cur->timer_offset_us;
				sharedprio = cur->sharedprio;
			}
			cur->task = NULL;
		} else if (cur->task) {
			/* someone else goes first: a more important one drops it */
			lh_wakeup_meet(cur, lh_task_prio(next));
		}
	}
	arch_spin_unlock(&wc->lock);

	if (!start)
		return;
	if (!lh_wakeup_file_quick(start, now, timer_offset_us, sharedprio))
		lh_wakeup_end(start, now, timer_offset_us, sharedprio, prev,
			      next);
}

/*
 * lh_wakeup_switch_slow - lh_wakeup_switch() on the kernel's clock (@now
 * 0: read it here) or with the lock contended
 */
static noinline void notrace lh_wakeup_switch_slow(struct lh_wakeup_cpu *wc,
						   struct task_struct *prev,
						   struct task_struct *next,
						   u64 now)
{
	if (!now)
		now = lh_clock_stamp();
	/* Interrupts are off: lh_wakeup_spin() is lh_wakeup_lock() here. */
	lh_wakeup_spin(wc);
	lh_wakeup_switch_locked(wc, prev, next, now);
}

/*
 * lh_wakeup_switch - sched_switch on a CPU with a tracked wakeup; out of
 * line, so that the common switch with nothing tracked costs the probe one
 * this-CPU load. Its common case (the cycle clock, the lock free, a sample
 * lh_wakeup_file_quick() files) calls nothing; the rest are tail calls. (It
 * still saves three registers, after the trylock: the inline filing keeps
 * live what the general one would need.)
 */
static noinline void notrace lh_wakeup_switch(struct lh_wakeup_cpu *wc,
					      struct task_struct *prev,
					      struct task_struct *next)
{
	u64 mark = lh_clock_mark(), now;

	if (!lh_clock_marks_cycles(mark)) {
		lh_wakeup_switch_slow(wc, prev, next, 0);
		return;
	}
	/* Before the lock: waiting for it is our time, not the wakee's. */
	now = lh_cycle_stamp(mark);
	if (unlikely(!arch_spin_trylock(&wc->lock))) {
		lh_wakeup_switch_slow(wc, prev, next, now);
		return;
	}
	lh_wakeup_switch_locked(wc, prev, next, now);
}

/* lh_probe_sched_switch - end of a wakeup, or a reason to drop or share it */
static void notrace lh_probe_sched_switch(void *data, LH_SCHED_SWITCH_ARGS)
{
	/*
	 * The scheduler calls this with interrupts off, on the switching CPU:
	 * the per-CPU operation below is a single instruction there.
	 */
	if (__this_cpu_read(lh_wakeup_cpus.tracked.task))
		lh_wakeup_switch(this_cpu_ptr(&lh_wakeup_cpus), prev, next);
}

/* Hooked in this order; sched_switch first so no started wakeup is missed. */
static const struct lh_probe lh_wakeup_probes[] = {
	{ LH_TP_SCHED_SWITCH,		lh_probe_sched_switch },
	{ LH_TP_SCHED_PI_SETPRIO,	lh_probe_sched_pi_setprio },
	{ LH_TP_SCHED_MIGRATE_TASK,	lh_probe_sched_migrate_task },
	{ LH_TP_SCHED_WAKEUP_NEW,	lh_probe_sched_wakeup_new },
	{ LH_TP_SCHED_WAKING,		lh_probe_sched_waking },
};

/* lh_wakeup_clear - forget every tracked wakeup; no probe may be running */
static void lh_wakeup_clear(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct lh_wakeup_cpu *wc = lh_wakeup_cpu(cpu);

		wc->lock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
		memset(&wc->tracked, 0, sizeof(wc->tracked));
	}
}

/* lh_wakeup_prepare - type-check the probes; wakeup needs nothing else */
static const char *lh_wakeup_prepare(void)
{
	check_trace_callback_type_sched_switch(lh_probe_sched_switch);
	check_trace_callback_type_sched_pi_setprio(lh_probe_sched_pi_setprio);
	check_trace_callback_type_sched_migrate_task(lh_probe_sched_migrate_task);
	check_trace_callback_type_sched_wakeup_new(lh_probe_sched_wakeup_new);
	check_trace_callback_type_sched_waking(lh_probe_sched_waking);
	return NULL;
}

const struct lh_switch_ops lh_wakeup_ops = {
	.probes		= lh_wakeup_probes,
	.nr_probes	= ARRAY_SIZE(lh_wakeup_probes),
	.missing	= "scheduler tracepoints not found",
	.prepare	= lh_wakeup_prepare,
	.clear		= lh_wakeup_clear,
};
