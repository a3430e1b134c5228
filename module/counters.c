// SPDX-License-Identifier: GPL-2.0
/*
 * counters.c - hardware and software counters over each latency window,
 * through the in-kernel perf_event API: the probe side, which reads them.
 * counters_events.c creates and releases the events, counters_names.c
 * turns names into perf's types and configs, counters_print.c shows them.
 *
 * A long window with few instructions retired and few cycles means the CPU
 * was stalled, halted or in SMM; one full of instructions means something
 * else ran; many cache misses point at memory. While counting is on
 * (counters/enable), each CPU holds one pinned counting event per entry of
 * the event set (counters/events), created when counting starts or the CPU
 * comes online and released when counting stops or the CPU goes down. The
 * hotplug callbacks only withdraw events from the probes and hand the rest
 * to a work item: they run with cpu_hotplug_lock held, and creating or
 * releasing a software event (context-switches, ...) takes it again, a
 * recursion lockdep reports. Probes read the events
 * on their own CPU with interrupts off: perf_event_read_local() is not
 * exported, so, as lttng-modules does, the event's PMU read callback
 * updates the count of an event that is active on this CPU, and anything
 * else (an event that failed, or sits in error state because the hard-lockup
 * watchdog holds the counter it needs) is never read.
 *
 * Windows, per latency type (all on the CPU the sample is filed under):
 *  - irqsoff, preemptoff, preemptirqsoff: exactly the section.
 *  - wakeup, wakeup/sharedprio: from the later of the wakee's sched_waking,
 *    if it ran on the wakee's CPU, and that CPU's last context switch, to
 *    the switch-in. A wakeup from another CPU cannot start the window there
 *    (the target CPU's counters can only be read on it), so its window
 *    starts at the target's last context switch before the switch-in: it
 *    covers what the target CPU ran until the wakee got it, and may begin
 *    before the waking.
 *  - missed_timer_offsets: from the CPU's last context switch to the late
 *    expiry: no event marks the instant the timer was due, so the window
 *    covers the lateness and whatever ran before it on that CPU, or only
 *    the part of the lateness since a switch made after the timer was due.
 * Each window's own length (window_ns) is kept with its counts, so rates
 * (IPC, GHz) are over what was counted. It is CLOCK_MONOTONIC
 * (ktime_get_mono_fast_ns()), not local_clock(): where sched_clock is
 * unstable (a TSC the clocksource watchdog rejected), local_clock() on a
 * CPU with interrupts off advances at most a tick past that CPU's last
 * tick, and an 8 ms window read 3.6 ms while the TSC counted 9 ms.
 *
 * Cost: with counting off, a patched-out static branch in the probes; with
 * it on, one read per event per window edge plus one at each context switch.
 *
 * Statistics live in per-CPU memory written only by the CPU itself with
 * interrupts off; readers copy them without a lock (a reader racing a
 * sample may see its sum without its window, never a torn 64-bit value).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>

#include <latency_hist/compat.h>
#include <latency_hist/counters_priv.h>

DEFINE_STATIC_KEY_FALSE(lh_counting_key);

/**
 * lh_pmu_read() - read this CPU's active events
 * @mark: filled with the values, the time and the generation
 *
 * Context: probe context, on the CPU whose counters are wanted; preemption
 * or interrupts off. Takes no lock; interrupts go off for the reads.
 */
void notrace lh_pmu_read(struct lh_pmu_mark *mark)
{
	struct lh_pmu_cpu *pc;
	unsigned long flags;
	int i, cpu, nr;

	raw_local_irq_save(flags);
	cpu = smp_processor_id();
	pc = this_cpu_ptr(lh_pmu_cpus);
	nr = READ_ONCE(lh_pmu_set.nr);
	mark->ok = 0;
	for (i = 0; i < nr; i++) {
		struct perf_event *ev = READ_ONCE(pc->ev[i]);

		if (!ev || READ_ONCE(ev->oncpu) != cpu ||
		    READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE)
			continue;
		ev->pmu->read(ev);
		mark->val[i] = local64_read(&ev->count);
		mark->ok |= BIT(i);
	}
	mark->ns = ktime_get_mono_fast_ns();
	mark->gen = READ_ONCE(lh_pmu_gen);
	raw_local_irq_restore(flags);
}

/* lh_pmu_account - add one window to this CPU's statistics of @id; irqs off */
static void notrace lh_pmu_account(enum lh_hist_id id, s64 lat_us,
				   const struct lh_pmu_mark *start,
				   const struct lh_pmu_mark *end)
{
	struct lh_pmu_stats *st = &this_cpu_ptr(lh_pmu_stats)->hist[id];
	bool is_max = !st->max_valid || lat_us > st->max_lat_us;
	u32 ok = start->ok & end->ok;
	u64 win_ns = end->ns - start->ns;
	int i;

	st->windows++;
	st->lat_sum_us += lat_us;
	st->win_sum_ns += win_ns;
	for (i = 0; i < LH_PMU_MAX_EVENTS; i++) {
		if (!(ok & BIT(i)))
			continue;
		st->nr[i]++;
		st->sum[i] += end->val[i] - start->val[i];
		if (is_max)
			st->max_val[i] = end->val[i] - start->val[i];
	}
	if (is_max) {
		st->max_lat_us = lat_us;
		st->max_win_ns = win_ns;
		st->max_ok = ok;
		st->max_valid = true;
	}
}

/**
 * lh_pmu_file() - end a window that began at @start and count it for @id
 * @id:     the histogram the sample went into
 * @lat_us: the sample
 * @start:  the counters when the window began, on this CPU
 *
 * A window begun in another counting generation (or never) is not counted.
 *
 * Context: probe context on the window's CPU; preemption or interrupts off.
 */
void notrace lh_pmu_file(enum lh_hist_id id, s64 lat_us,
			 const struct lh_pmu_mark *start)
{
	struct lh_pmu_mark end;
	unsigned long flags;

	raw_local_irq_save(flags);
	lh_pmu_read(&end);
	if (start->gen == end.gen)
		lh_pmu_account(id, lat_us, start, &end);
	raw_local_irq_restore(flags);
}

/**
 * lh_pmu_file_since_switch() - count a window that began at this CPU's last
 * context switch (a late timer)
 * @id:     the histogram the sample went into
 * @lat_us: the sample
 *
 * Context: probe context; preemption or interrupts off.
 */
void notrace lh_pmu_file_since_switch(enum lh_hist_id id, s64 lat_us)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	lh_pmu_file(id, lat_us, &this_cpu_ptr(lh_pmu_cpus)->sw);
	raw_local_irq_restore(flags);
}

/**
 * lh_pmu_wakeup_start() - sched_waking of @p: if it runs on @p's CPU, the
 * wakeup's window can start here
 * @p: the wakee
 *
 * Context: sched_waking probe.
 */
void notrace lh_pmu_wakeup_start(struct task_struct *p)
{
	struct lh_pmu_cpu *pc;
	unsigned long flags;

	raw_local_irq_save(flags);
	if (task_cpu(p) == smp_processor_id()) {
		pc = this_cpu_ptr(lh_pmu_cpus);
		lh_pmu_read(&pc->wake);
		pc->wake_pid = p->pid;
		WRITE_ONCE(pc->wake_task, p);
	}
	raw_local_irq_restore(flags);
}

/**
 * lh_pmu_wakeup_file() - count the window of a wakeup that ends now
 * @id:     LH_HIST_WAKEUP or LH_HIST_WAKEUP_SHAREDPRIO
 * @lat_us: the sample
 * @next:   the wakee, being switched in on this CPU
 *
 * Context: sched_switch probe (interrupts off), before lh_pmu_switch().
 */
void notrace lh_pmu_wakeup_file(enum lh_hist_id id, s64 lat_us,
				struct task_struct *next)
{
	struct lh_pmu_cpu *pc = this_cpu_ptr(lh_pmu_cpus);
	const struct lh_pmu_mark *start = &pc->sw;
	u32 gen = READ_ONCE(lh_pmu_gen);

	/*
	 * The waking mark of this generation, if it is later than the last
	 * switch or the switch mark is of an older one; a mark of an older
	 * generation never starts a window (lh_pmu_file() would drop it).
	 */
	if (pc->wake_task == next && pc->wake_pid == next->pid &&
	    pc->wake.gen == gen &&
	    (pc->sw.gen != gen || pc->wake.ns > pc->sw.ns))
		start = &pc->wake;
	lh_pmu_file(id, lat_us, start);
}

/*
 * lh_pmu_switch - sched_switch, after the latency probes: a new edge for the
 * windows that start at a context switch; hooked at a lower priority than
 * the wakeup probe, which reads the previous edge
 */
static void notrace lh_pmu_switch(void *data, LH_SCHED_SWITCH_ARGS)
{
	struct lh_pmu_cpu *pc = this_cpu_ptr(lh_pmu_cpus);

	lh_pmu_read(&pc->sw);
	if (pc->wake_task == next)
		WRITE_ONCE(pc->wake_task, NULL);
}

const struct lh_probe lh_pmu_probes[] = {
	{ LH_TP_SCHED_SWITCH, lh_pmu_switch, TRACEPOINT_DEFAULT_PRIO - 1 },
};

const int lh_pmu_nr_probes = ARRAY_SIZE(lh_pmu_probes);

/**
 * lh_pmu_probes_prepare() - type-check the probe against the kernel's
 * prototype
 *
 * Context: module init.
 */
void lh_pmu_probes_prepare(void)
{
	check_trace_callback_type_sched_switch(lh_pmu_switch);
}

