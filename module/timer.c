// SPDX-License-Identifier: GPL-2.0
/*
 * timer.c - missed timer offsets: how late an hrtimer woke a sleeping task.
 *
 * A wakeup latency alone reads low when the timer interrupt that starts the
 * wakeup is itself late (interrupts were off): the lateness happens before
 * sched_waking. OSADL added this histogram for that reason. A sample is the
 * lateness of a sleeper hrtimer (nanosleep, clock_nanosleep,
 * schedule_hrtimeout: the callback is hrtimer_wakeup) at hrtimer_expire_entry:
 * the base's "now" minus the timer's expiry, in us, credited to the CPU that
 * runs the expiry. Other timers (timerfd, POSIX timers, itimers, kernel
 * timers) have no sleeping task and are not counted.
 *
 * hrtimer_wakeup is not exported; its address is learned at load time from a
 * sleeper this module sets up (and never starts) itself, so no kallsyms
 * lookup or kernel patch is needed.
 *
 * As in the RT patch, only real-time sleepers are counted whose wakeup would
 * preempt the interrupted task, or of equal priority but unable to run on
 * this CPU; missed_timer_offsets/pid narrows that to one thread.
 *
 * A sleeper armed with an expiry already in the past (an absolute sleep
 * after an overrun) would report its stale expiry as lateness. The RT patch
 * patched hrtimer to store the arming time ("praecox"); here the
 * hrtimer_start probe notes such timers in a small lock-free table and the
 * sample is measured from the arming time instead. An entry is dropped when
 * its timer expires or is armed again; one whose timer was cancelled
 * instead (a signal during nanosleep, a soft expiry on PREEMPT_RT) stays
 * until the table is full, and is then the first to give way: a new entry
 * replaces the one noted first (whatever their clock bases: arming times of
 * CLOCK_REALTIME and CLOCK_MONOTONIC timers do not compare). A stale entry
 * misleads nobody meanwhile: the sample is measured from the later of the
 * expiry and the arming time, and any later timer at the same address is
 * armed after the stale one was.
 *
 * For timerandwakeup, the offset is handed to the wakeup probe through a
 * per-CPU slot: hrtimer_wakeup() wakes the task on the same CPU, between
 * hrtimer_expire_entry and hrtimer_expire_exit, so no shared state or lock
 * is needed, and a slot is empty outside that window. A hard timer can
 * expire inside a soft timer's window (its interrupt arrives during the
 * soft callback), so each CPU has a slot for soft expiries and one for hard
 * ones (timer.h): the nested expiry neither overwrites nor clears the outer
 * one.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/math64.h>
#include <linux/mm_types.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <trace/events/timer.h>

#include <latency_hist/clock.h>
#include <latency_hist/compat.h>
#include <latency_hist/control.h>
#include <latency_hist/counters.h>
#include <latency_hist/explain.h>
#include <latency_hist/outlier.h>
#include <latency_hist/sample.h>
#include <latency_hist/timer.h>
#include <latency_hist/tracepoints.h>

#define LH_PRAECOX_SLOTS	64	/* sleepers armed in the past, in flight */
#define LH_PRAECOX_BUSY		1L	/* @timer of a slot being written */

/*
 * struct lh_praecox - a sleeper timer that was armed after its expiry
 * @timer:    0 when the slot is free, LH_PRAECOX_BUSY while its claimer
 *            writes it, then the struct hrtimer * it holds
 * @armed_ns: the timer base's time when it was armed; written only by the
 *            claimer, between its claim and its publication
 * @noted:    lh_praecox_ticket's count when it was noted: the age of the
 *            entry on one scale for every clock base (arming times of
 *            CLOCK_REALTIME and CLOCK_MONOTONIC timers do not compare)
 *
 * The claim protocol, which a litmus test models:
 *  - claim: cmpxchg @timer from 0 (a free slot) or from the timer read
 *    there (an eviction) to LH_PRAECOX_BUSY. A claimer whose cmpxchg
 *    fails writes nothing to the slot and tries no other way;
 *  - write: the claimer alone writes @armed_ns and @noted;
 *  - publish: store-release of the timer into @timer;
 *  - read: load-acquire of @timer; if it is the reader's timer, read
 *    @armed_ns, then (smp_rmb) take the slot with cmpxchg @timer from the
 *    timer to 0. Only a successful take uses the time: a failed one means
 *    the slot was evicted (or claimed anew) since the load, and the time
 *    may be another's.
 * A timer is armed, expires and is forgotten by its own sleeper's
 * serialised calls, so one timer is never noted twice at once.
 */
struct lh_praecox {
	atomic_long_t timer;
	s64 armed_ns;
	unsigned long noted;
};

/* Set once at init, before anything is hooked. */
static enum hrtimer_restart (*lh_hrtimer_wakeup)(struct hrtimer *timer);

static struct lh_praecox lh_praecox_table[LH_PRAECOX_SLOTS];
static atomic_t lh_praecox_used;	/* slots in use: 0 keeps expiry cheap */
static atomic_long_t lh_praecox_ticket;	/* entries noted so far */

DEFINE_PER_CPU(struct lh_timer_offset_cpu, lh_timer_offsets);

/* lh_is_sleeper - is this the timer of a sleeping task? */
static bool lh_is_sleeper(struct hrtimer *timer)
{
	return ACCESS_PRIVATE(timer, function) == lh_hrtimer_wakeup;
}

/* lh_praecox_owner - does @v, read from a slot's @timer, name a timer? */
static bool lh_praecox_owner(long v)
{
	return v && v != LH_PRAECOX_BUSY;
}

/*
 * lh_praecox_forget - drop the table entry of a timer, if any; with
 * @armed_ns, report its arming time (0 if none)
 */
static void lh_praecox_forget(struct hrtimer *timer, s64 *armed_ns)
{
	int i;

	for (i = 0; i < LH_PRAECOX_SLOTS; i++) {
		struct lh_praecox *slot = &lh_praecox_table[i];
		s64 armed;

		/* Acquire: the arming time written before the publication. */
		if (atomic_long_read_acquire(&slot->timer) != (long)timer)
			continue;
		armed = READ_ONCE(slot->armed_ns);
		/* Still ours after the read: the time is this timer's. */
		smp_rmb();
		if (atomic_long_cmpxchg(&slot->timer, (long)timer, 0) !=
		    (long)timer)
			continue;
		atomic_dec(&lh_praecox_used);
		if (armed_ns)
			*armed_ns = armed;
	}
}

/*
 * lh_praecox_oldest - the slot noted first, and the timer it held when
 * read (0 if none is published): when the table is full, that timer was
 * most likely cancelled long ago
 */
static struct lh_praecox *lh_praecox_oldest(long *timer)
{
	struct lh_praecox *oldest = NULL;
	unsigned long oldest_noted = 0;
	int i;

	*timer = 0;
	for (i = 0; i < LH_PRAECOX_SLOTS; i++) {
		struct lh_praecox *slot = &lh_praecox_table[i];
		long v = atomic_long_read_acquire(&slot->timer);
		unsigned long noted = READ_ONCE(slot->noted);

		if (!lh_praecox_owner(v))
			continue;
		/* A wrap-safe "noted before". */
		if (!oldest || (long)(noted - oldest_noted) < 0) {
			oldest = slot;
			oldest_noted = noted;
			*timer = v;
		}
	}
	return oldest;
}

/*
 * lh_praecox_claim - claim @slot from @old (0: free, or the timer to
 * evict) for @timer, write its arming time and publish it; a lost claim
 * writes nothing
 */
static bool lh_praecox_claim(struct lh_praecox *slot, long old,
			     struct hrtimer *timer, s64 armed_ns)
{
	if (atomic_long_read(&slot->timer) != old ||
	    atomic_long_cmpxchg(&slot->timer, old, LH_PRAECOX_BUSY) != old)
		return false;
	WRITE_ONCE(slot->armed_ns, armed_ns);
	WRITE_ONCE(slot->noted, atomic_long_inc_return(&lh_praecox_ticket));
	/* Release: a reader who finds @timer reads the fields above. */
	atomic_long_set_release(&slot->timer, (long)timer);
	return true;
}

/* lh_praecox_note - remember that a timer was armed after its expiry */
static void lh_praecox_note(struct hrtimer *timer, s64 armed_ns)
{
	struct lh_praecox *slot;
	long old;
	int i;

	for (i = 0; i < LH_PRAECOX_SLOTS; i++) {
		if (lh_praecox_claim(&lh_praecox_table[i], 0, timer, armed_ns)) {
			atomic_inc(&lh_praecox_used);
			return;
		}
	}
	/* Full: the oldest entry gives way (the count of used slots stays). */
	slot = lh_praecox_oldest(&old);
	if (slot && lh_praecox_claim(slot, old, timer, armed_ns))
		return;
	/* Lost a race for every slot: measured from the stale expiry. */
}

/* lh_probe_hrtimer_start - note sleepers armed with an expiry in the past */
static void notrace lh_probe_hrtimer_start(void *data, LH_HRTIMER_START_ARGS)
{
	s64 now_ns;

	if (!lh_is_sleeper(timer))
		return;

	if (atomic_read(&lh_praecox_used))
		lh_praecox_forget(timer, NULL);

	now_ns = ktime_to_ns(hrtimer_cb_get_time(timer));
	if (ktime_to_ns(hrtimer_get_expires(timer)) < now_ns)
		lh_praecox_note(timer, now_ns);
}

/* lh_counts - would this sleeper's wakeup preempt @curr (the RT patch's rule)? */
static bool lh_counts(struct task_struct *task, struct task_struct *curr,
		      int cpu)
{
	pid_t pid_filter = lh_pid(LH_SW_MISSED_TIMER_OFFSETS);

	if (pid_filter && task->pid != pid_filter)
		return false;
	if (task->prio >= MAX_RT_PRIO)
		return false;
	if (is_idle_task(curr) || task->prio < curr->prio)
		return true;
	return task->prio == curr->prio &&
	       !cpumask_test_cpu(cpu, task->cpus_ptr);
}

/*
 * lh_timer_offset_put - keep a counted offset for the wakeup of @task that
 * the timer's callback is about to make, in this context's slot
 */
static void notrace lh_timer_offset_put(struct hrtimer *timer,
					struct task_struct *task,
					s64 offset_us)
{
	struct lh_timer_offset_cpu *oc = this_cpu_ptr(&lh_timer_offsets);
	enum lh_timer_ctx ctx = lh_timer_ctx();

	oc->slot[ctx].timer = timer;
	oc->slot[ctx].task = task;
	oc->slot[ctx].pid = task->pid;
	oc->slot[ctx].offset_us = offset_us;
	/* After the fields: the waking reads them once it sees this. */
	barrier();
	WRITE_ONCE(oc->used[ctx], 1);
}

/*
 * lh_explain_timer - explain a late expiry from the timer's expiry (or
 * arming) at @start_ns on its base's clock, to @end_ns, now, on
 * CLOCK_MONOTONIC; out of line, only while explaining
 */
static noinline void notrace lh_explain_timer(struct hrtimer *timer, int cpu,
					      s64 lat_us, s64 start_ns,
					      u64 end_ns)
{
	s64 since_ns = ktime_to_ns(hrtimer_cb_get_time(timer)) - start_ns;

	lh_explain_file(LH_HIST_MISSED_TIMER_OFFSETS, cpu, lat_us,
			end_ns - max_t(s64, since_ns, 0), end_ns, current);
}

/*
 * lh_outlier_timer - file a late expiry of @task's timer that reached the
 * budget; its window as lh_explain_timer()'s, ending at stamp @end
 */
static noinline void notrace lh_outlier_timer(struct hrtimer *timer, int cpu,
					      s64 lat_us, s64 start_ns,
					      u64 end, struct task_struct *task)
{
	s64 since_ns = ktime_to_ns(hrtimer_cb_get_time(timer)) - start_ns;
	u64 end_ns = lh_clock_stamp_ns(end);

	lh_outlier_file(LH_HIST_MISSED_TIMER_OFFSETS, cpu, lat_us,
			end_ns - max_t(s64, since_ns, 0), end, task, current);
}

/* lh_probe_hrtimer_expire_entry - a timer is about to run: is it late? */
static void notrace lh_probe_hrtimer_expire_entry(void *data,
						  struct hrtimer *timer,
						  LH_EXPIRE_ENTRY_NOW_ARG)
{
	struct task_struct *task;
	s64 start_ns, lat_ns, armed_ns = 0;
	int cpu;

	if (!lh_is_sleeper(timer))
		return;
	task = READ_ONCE(container_of(timer, struct hrtimer_sleeper,
				      timer)->task);
	if (!task)
		return;

	start_ns = ktime_to_ns(hrtimer_get_expires(timer));
	if (atomic_read(&lh_praecox_used)) {
		lh_praecox_forget(timer, &armed_ns);
		if (armed_ns > start_ns)
			start_ns = armed_ns;
	}
	lat_ns = ktime_to_ns(lh_now(now)) - start_ns;
	if (lat_ns < 0)		/* expired early, inside its slack */
		return;

	/* Soft timers expire in preemptible context on PREEMPT_RT and on 7.x. */
	preempt_disable_notrace();
	cpu = smp_processor_id();
	if (lh_counts(task, current, cpu)) {
		s64 lat_us = div_s64(lat_ns, LH_NSEC_PER_USEC);
		u64 end = lh_clock_stamp();

		if (lh_sample_record(LH_HIST_MISSED_TIMER_OFFSETS, cpu, lat_us,
				     lat_us, task, current, end) &&
		    lh_outlier(LH_HIST_MISSED_TIMER_OFFSETS, lat_us))
			lh_outlier_timer(timer, cpu, lat_us, start_ns, end,
					 task);
		if (lh_explaining())
			lh_explain_timer(timer, cpu, lat_us, start_ns,
					 lh_clock_stamp_ns(end));
		if (lh_counting())
			lh_pmu_file_since_switch(LH_HIST_MISSED_TIMER_OFFSETS,
						 lat_us);
		if (lh_switch_enabled(LH_SW_TIMERANDWAKEUP))
			lh_timer_offset_put(timer, task, lat_us);
	}
	preempt_enable_notrace();
}

/*
 * lh_probe_hrtimer_expire_exit - the callback is over: the offset of this
 * timer, if its wakeup did not take it, is no longer wanted
 */
static void notrace lh_probe_hrtimer_expire_exit(void *data,
						 struct hrtimer *timer)
{
	struct lh_timer_offset_cpu *oc;
	enum lh_timer_ctx ctx;

	/* The common case, one preempt-safe load: no offset waits here. */
	if (likely(!this_cpu_read(lh_timer_offsets.any_used)))
		return;
	preempt_disable_notrace();
	oc = this_cpu_ptr(&lh_timer_offsets);
	ctx = lh_timer_ctx();
	/* Not taken by a wakeup (or not ours): no longer wanted. */
	if (oc->used[ctx] && oc->slot[ctx].timer == timer)
		WRITE_ONCE(oc->used[ctx], 0);
	preempt_enable_notrace();
}

/* Hooked in this order: start first, so no armed-in-the-past timer is missed. */
static const struct lh_probe lh_timer_probes[] = {
	{ LH_TP_HRTIMER_START,		lh_probe_hrtimer_start },
	{ LH_TP_HRTIMER_EXPIRE_EXIT,	lh_probe_hrtimer_expire_exit },
	{ LH_TP_HRTIMER_EXPIRE_ENTRY,	lh_probe_hrtimer_expire_entry },
};

/* lh_timer_clear - empty the praecox table and the offset slots */
static void lh_timer_clear(void)
{
	int i, cpu;

	for (i = 0; i < LH_PRAECOX_SLOTS; i++) {
		atomic_long_set(&lh_praecox_table[i].timer, 0);
		lh_praecox_table[i].armed_ns = 0;
		lh_praecox_table[i].noted = 0;
	}
	atomic_set(&lh_praecox_used, 0);
	atomic_long_set(&lh_praecox_ticket, 0);
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&lh_timer_offsets, cpu), 0,
		       sizeof(struct lh_timer_offset_cpu));
}

/* lh_timer_prepare - type-check the probes; learn hrtimer_wakeup */
static const char *lh_timer_prepare(void)
{
	struct hrtimer_sleeper sl;

	check_trace_callback_type_hrtimer_start(lh_probe_hrtimer_start);
	check_trace_callback_type_hrtimer_expire_exit(lh_probe_hrtimer_expire_exit);
	check_trace_callback_type_hrtimer_expire_entry(lh_probe_hrtimer_expire_entry);

	lh_hrtimer_sleeper_on_stack(&sl);
	lh_hrtimer_wakeup = ACCESS_PRIVATE(&sl.timer, function);
	destroy_hrtimer_on_stack(&sl.timer);

	if (!lh_hrtimer_wakeup)
		return "cannot identify sleeper timers in this kernel";
	return NULL;
}

const struct lh_switch_ops lh_timer_ops = {
	.probes		= lh_timer_probes,
	.nr_probes	= ARRAY_SIZE(lh_timer_probes),
	.missing	= "hrtimer tracepoints not found",
	.prepare	= lh_timer_prepare,
	.clear		= lh_timer_clear,
};
