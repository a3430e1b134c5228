// SPDX-License-Identifier: GPL-2.0
/*
 * preemptirq.c - critical sections: irqsoff, preemptoff and preemptirqsoff.
 *
 * These are the "potential sources of latency" of the RT patch: how long
 * each CPU ran with interrupts off, with preemption off, and with both off
 * (from the moment the second went off until either came back). They need
 * the preemptirq tracepoints (irq_disable/irq_enable need
 * CONFIG_TRACE_IRQFLAGS, preempt_disable/preempt_enable need
 * CONFIG_TRACE_PREEMPT_TOGGLE); no Debian binary kernel has them, so there
 * the types are reported unavailable.
 *
 * Only outermost sections are seen: the kernel fires these tracepoints only
 * on the transitions (tracing_irq_cpu for interrupts, preempt_count() == val
 * for preemption). Unlike the RT patch, a preempt-off section starts at the
 * real preempt_disable(), not only at idle exit.
 *
 * Idle: the idle loop waits with interrupts and preemption disabled, which
 * is not latency. The RT patch excluded it through the critical-timings
 * hooks, which a module cannot use; here, as in bcc's criticalstat, entering
 * idle (the exported cpu_idle tracepoint) discards the open sections, and
 * they restart at the next transition. The idle task never enables
 * preemption, so the path from idle exit to the next task is not measured.
 *
 * CPU hotplug: a CPU going offline leaves idle without the cpu_idle event,
 * with the section its last schedule() opened still open; it must not close
 * as one huge sample when the CPU comes back. A hotplug callback that runs
 * before the CPU boots again discards its sections.
 *
 * WARNING: these probes run on every outermost interrupt and preemption
 * toggle, millions of times a second. They are notrace, skip NMI context,
 * take no lock and allocate nothing. A per-CPU busy flag keeps them from
 * seeing a tracepoint their own code might fire.
 *
 * Interrupts: the irq_disable/irq_enable tracepoints fire with interrupts
 * off, but the preempt_disable/preempt_enable ones fire with them on. The
 * preempt probes therefore mask interrupts while they time and file
 * (raw_local_irq_save(): untraced, unseen by lockdep, so nothing inside may
 * take a lockdep-tracked lock or toggle interrupts the traced way; the
 * histogram engine's lock is an arch spinlock for this reason). Otherwise
 * an interrupt landing in the probe would find the CPU busy and its own
 * irqs-off section, and every section inside it, would go unseen; and one
 * landing before the clock read would start the preempt-off section late,
 * without the interrupt's time. The interrupt is taken right after that
 * part instead, once the CPU is no longer busy, and measured. The
 * lh_sample trace event and the threshold come after it, with interrupts as
 * the tracepoint left them: a tracer attached there may toggle interrupts
 * the traced way, and the sections that makes are measured, but not traced
 * (the emitting flag keeps tracing from recursing).
 *
 * Clock: lh_clock_local_stamp() (clock.h): the TSC where the kernel vouches
 * for it, else local_clock(); consistent on one CPU, which is all a
 * section needs. A section whose ends were read on two clocks is dropped.
 *
 * Explain: while explain/enable is 1 (a static branch, patched out while
 * it is 0), a closed section also reads CLOCK_MONOTONIC before interrupts
 * come back, and a section that beats its CPU's maximum is broken down
 * (explain.c) over the @len_ns that end there: the interrupts that ran in a
 * preempt-off section, and the rest as the time of the task that owns it.
 *
 * Every probe runs with interrupts or preemption off (the tracepoints fire
 * after the disable and before the enable), so the CPU cannot change under
 * it: the raw per-CPU accessors are exact, and they spare debug kernels the
 * DEBUG_PREEMPT check of each this_cpu_ptr()/smp_processor_id() on the
 * hottest path of the module.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <trace/events/power.h>
#include <trace/events/preemptirq.h>

#include <latency_hist/clock.h>
#include <latency_hist/control.h>
#include <latency_hist/counters.h>
#include <latency_hist/events.h>
#include <latency_hist/explain.h>
#include <latency_hist/hist_mem.h>
#include <latency_hist/preemptirq.h>
#include <latency_hist/tracepoints.h>

/* The two things a CPU can switch off; each has a section of its own. */
enum lh_off {
	LH_OFF_IRQS,
	LH_OFF_PREEMPT,
	LH_NR_OFF
};

/*
 * struct lh_section - one kind of open critical section on one CPU
 * @start:    lh_clock_local_stamp() when it began
 * @open:     a section is being timed
 * @mark:     the counters when it began, if counting was on
 */
struct lh_section {
	u64 start;
	bool open;
	struct lh_pmu_mark mark;
};

/*
 * struct lh_sections_cpu - the open sections of one CPU; only it touches them
 * @busy:     timing and filing in one of our probes (a probe that finds it
 *            set does nothing: it could only be our own code's tracepoint)
 * @emitting: tracing a sample (lh_sample_out()): a probe run from a tracer
 *            attached there still times and files, but traces nothing
 */
struct lh_sections_cpu {
	struct lh_section off[LH_NR_OFF];	/* irqsoff, preemptoff */
	struct lh_section both;			/* preemptirqsoff */
	bool busy;
	bool emitting;
};

static DEFINE_PER_CPU(struct lh_sections_cpu, lh_sections_cpus);

/* The dynamic hotplug state of lh_preemptirq_cpu_prepare(). */
static enum cpuhp_state lh_preemptirq_hp_state;

static const enum lh_hist_id lh_off_hist[LH_NR_OFF] = {
	[LH_OFF_IRQS]		= LH_HIST_IRQSOFF,
	[LH_OFF_PREEMPT]	= LH_HIST_PREEMPTOFF,
};

/* lh_section_open - start timing unless a section is open already */
static __always_inline void lh_section_open(struct lh_section *s, u64 now)
{
	if (s->open)
		return;
	s->start = now;
	s->open = true;
	if (lh_counting())
		lh_pmu_read(&s->mark);
}

/*
 * lh_section_close - stop timing and file the sample, if a section was
 * open; true if one was, with its latency in @lat_us (to be traced with
 * lh_sample_out() once interrupts are back as the tracepoint had them)
 */
static __always_inline bool lh_section_close(struct lh_section *s,
					     enum lh_hist_id id, int cpu,
					     u64 now, s64 *lat_us)
{
	if (!s->open)
		return false;
	s->open = false;
	if (!lh_clock_window_ok(s->start, now))
		return false;
	*lat_us = lh_clock_us(s->start, now);
	lh_hist_record(lh_hist_cpu_filing(id, cpu), *lat_us);
	if (lh_counting())
		lh_pmu_file(id, *lat_us, &s->mark);
	return true;
}

/*
 * lh_sections_enter - this CPU's sections, or NULL in NMI or when nested
 * in our own probe; callers run with interrupts disabled
 */
static __always_inline struct lh_sections_cpu *lh_sections_enter(void)
{
	struct lh_sections_cpu *sc;

	if (in_nmi())
		return NULL;
	sc = raw_cpu_ptr(&lh_sections_cpus);
	if (sc->busy)
		return NULL;
	sc->busy = true;
	barrier();
	return sc;
}

/* lh_sections_leave - end of a probe */
static __always_inline void lh_sections_leave(struct lh_sections_cpu *sc)
{
	barrier();
	sc->busy = false;
}

/*
 * lh_went_off - @what went off: open its section, and "both" if the other
 * is off. For preemption, interrupts are on: they are masked from before
 * the busy check to after the clock read and the stores.
 */
static __always_inline void lh_went_off(enum lh_off what)
{
	struct lh_sections_cpu *sc;
	unsigned long flags = 0;
	u64 now;

	if (what == LH_OFF_PREEMPT)
		raw_local_irq_save(flags);
	sc = lh_sections_enter();
	if (sc) {
		now = lh_clock_local_stamp();
		lh_section_open(&sc->off[what], now);
		if (sc->off[!what].open)
			lh_section_open(&sc->both, now);
		/* Before interrupts come back: see lh_came_on(). */
		lh_sections_leave(sc);
	}
	if (what == LH_OFF_PREEMPT)
		raw_local_irq_restore(flags);
}

/*
 * lh_explain_section - explain a section of @id of @len_ns that ended at
 * @end_ns (CLOCK_MONOTONIC), if it is its CPU's new maximum; out of line,
 * only while explaining
 */
static noinline void notrace lh_explain_section(enum lh_hist_id id, int cpu,
						s64 lat_us, u64 len_ns,
						u64 end_ns)
{
	lh_explain_file(id, cpu, lat_us, end_ns - min(len_ns, end_ns), end_ns,
			current);
}

/*
 * lh_came_on - @what came back on: close its section and "both". For
 * preemption, interrupts are on: they are masked while the samples are
 * timed and filed, and back on while they are traced, so that a tracer or
 * a threshold running in the lh_sample event sees them as the tracepoint
 * left them. An interrupt held off meanwhile arrives when they come back,
 * with the CPU no longer busy, and is measured.
 */
static __always_inline void lh_came_on(enum lh_off what)
{
	enum lh_hist_id id = lh_off_hist[what];
	struct lh_sections_cpu *sc;
	unsigned long flags = 0;
	s64 lat_us = 0, both_us = 0;
	bool closed, both_closed;
	u64 now, len_ns = 0, both_ns = 0, end_ns = 0;
	int cpu;

	if (what == LH_OFF_PREEMPT)
		raw_local_irq_save(flags);
	sc = lh_sections_enter();
	if (!sc) {
		if (what == LH_OFF_PREEMPT)
			raw_local_irq_restore(flags);
		return;
	}
	now = lh_clock_local_stamp();
	cpu = raw_smp_processor_id();
	if (lh_explaining()) {
		/* the window ends here, before a held-off interrupt runs */
		end_ns = lh_clock_ns();
		len_ns = lh_clock_delta_ns(sc->off[what].start, now);
		both_ns = lh_clock_delta_ns(sc->both.start, now);
	}
	closed = lh_section_close(&sc->off[what], id, cpu, now, &lat_us);
	both_closed = lh_section_close(&sc->both, LH_HIST_PREEMPTIRQSOFF, cpu,
				       now, &both_us);
	/* Not busy before interrupts come back: the one held off is measured. */
	lh_sections_leave(sc);
	if (what == LH_OFF_PREEMPT)
		raw_local_irq_restore(flags);
	if (likely(!closed && !both_closed) || sc->emitting)
		return;
	sc->emitting = true;
	barrier();
	if (closed)
		lh_sample_out(id, cpu, lat_us, 0, NULL, current);
	if (both_closed)
		lh_sample_out(LH_HIST_PREEMPTIRQSOFF, cpu, both_us, 0, NULL,
			      current);
	if (closed && end_ns)
		lh_explain_section(id, cpu, lat_us, len_ns, end_ns);
	if (both_closed && end_ns)
		lh_explain_section(LH_HIST_PREEMPTIRQSOFF, cpu, both_us,
				   both_ns, end_ns);
	barrier();
	sc->emitting = false;
}

/* lh_probe_irq_disable - interrupts went off */
static void notrace lh_probe_irq_disable(void *data, unsigned long ip,
					 unsigned long parent_ip)
{
	lh_went_off(LH_OFF_IRQS);
}

/* lh_probe_irq_enable - interrupts came back on */
static void notrace lh_probe_irq_enable(void *data, unsigned long ip,
					unsigned long parent_ip)
{
	lh_came_on(LH_OFF_IRQS);
}

/* lh_probe_preempt_disable - preemption went off; interrupts may be on */
static void notrace lh_probe_preempt_disable(void *data, unsigned long ip,
					     unsigned long parent_ip)
{
	lh_went_off(LH_OFF_PREEMPT);
}

/* lh_probe_preempt_enable - preemption comes back on; interrupts may be on */
static void notrace lh_probe_preempt_enable(void *data, unsigned long ip,
					    unsigned long parent_ip)
{
	lh_came_on(LH_OFF_PREEMPT);
}

/* lh_probe_cpu_idle - entering idle: the open sections are not latency */
static void notrace lh_probe_cpu_idle(void *data, unsigned int state,
				      unsigned int cpu_id)
{
	struct lh_sections_cpu *sc;

	if (state == (unsigned int)PWR_EVENT_EXIT)
		return;
	sc = lh_sections_enter();
	if (!sc)
		return;
	sc->off[LH_OFF_IRQS].open = false;
	sc->off[LH_OFF_PREEMPT].open = false;
	sc->both.open = false;
	lh_sections_leave(sc);
}

/* Hooked in this order: idle first, then the ends, then the starts. */
static const struct lh_probe lh_preemptirq_probes[] = {
	{ LH_TP_CPU_IDLE,		lh_probe_cpu_idle },
	{ LH_TP_IRQ_ENABLE,		lh_probe_irq_enable },
	{ LH_TP_PREEMPT_ENABLE,		lh_probe_preempt_enable },
	{ LH_TP_IRQ_DISABLE,		lh_probe_irq_disable },
	{ LH_TP_PREEMPT_DISABLE,	lh_probe_preempt_disable },
};

/* lh_sections_clear_cpu - forget @cpu's open sections; none of its probes may run */
static void lh_sections_clear_cpu(unsigned int cpu)
{
	memset(per_cpu_ptr(&lh_sections_cpus, cpu), 0,
	       sizeof(struct lh_sections_cpu));
}

/* lh_preemptirq_clear - forget every open section; no probe may be running */
static void lh_preemptirq_clear(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		lh_sections_clear_cpu(cpu);
}

/*
 * lh_preemptirq_cpu_prepare - hotplug: @cpu is offline and about to boot;
 * runs on the CPU that brings it up, so no probe runs on @cpu meanwhile
 */
static int lh_preemptirq_cpu_prepare(unsigned int cpu)
{
	lh_sections_clear_cpu(cpu);
	return 0;
}

/* lh_preemptirq_prepare - type-check the probes where the kernel declares them */
static const char *lh_preemptirq_prepare(void)
{
	check_trace_callback_type_cpu_idle(lh_probe_cpu_idle);
#ifdef CONFIG_TRACE_IRQFLAGS
	check_trace_callback_type_irq_enable(lh_probe_irq_enable);
	check_trace_callback_type_irq_disable(lh_probe_irq_disable);
#endif
#ifdef CONFIG_TRACE_PREEMPT_TOGGLE
	check_trace_callback_type_preempt_enable(lh_probe_preempt_enable);
	check_trace_callback_type_preempt_disable(lh_probe_preempt_disable);
#endif
	return NULL;
}

const struct lh_switch_ops lh_preemptirq_ops = {
	.probes		= lh_preemptirq_probes,
	.nr_probes	= ARRAY_SIZE(lh_preemptirq_probes),
	.missing	= "preemptirq tracepoints not present in this kernel",
	.prepare	= lh_preemptirq_prepare,
	.clear		= lh_preemptirq_clear,
};

/**
 * lh_preemptirq_init() - register the hotplug callback that discards the
 * sections an offline CPU left open
 *
 * Context: module init; may sleep.
 * Return: 0 or a negative error from the CPU hotplug core.
 */
int lh_preemptirq_init(void)
{
	int ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN,
					"latency_hist/preemptirq:prepare",
					lh_preemptirq_cpu_prepare, NULL);
	if (ret < 0)
		return ret;
	lh_preemptirq_hp_state = ret;
	return 0;
}

/**
 * lh_preemptirq_exit() - remove the hotplug callback of lh_preemptirq_init()
 *
 * Context: module exit or failed init; may sleep.
 */
void lh_preemptirq_exit(void)
{
	cpuhp_remove_state_nocalls(lh_preemptirq_hp_state);
}
