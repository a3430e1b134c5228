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
 * real preempt_disable(), not only at idle exit. What is not latency is left
 * out: idle (lh_probe_cpu_idle()), a CPU's way offline and back
 * (lh_preemptirq_cpu_prepare(), lh_preemptirq_cpu_online()), suspend and
 * hibernation (lh_preemptirq_pm()).
 *
 * WARNING: these probes run on every outermost interrupt and preemption
 * toggle, millions of times a second. They are notrace, skip NMI context,
 * take no lock and allocate nothing. Their inline path files what needs no
 * call (lh_sections_plain(), lh_section_quick()) and calls nothing; the
 * rest goes to one out-of-line general path, where a per-CPU busy flag
 * keeps them from seeing a tracepoint their own code might fire. The
 * preempt probes mask interrupts while they time and file: lh_went_off().
 *
 * Clock: lh_clock_local_stamp() (clock.h): the TSC where the kernel vouches
 * for it, else local_clock(); consistent on one CPU, which is all a
 * section needs. A section whose ends were read on two clocks is dropped.
 * While explain is on, a section that beats its CPU's maximum is broken
 * down by explain.c: lh_sections_report().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/notifier.h>
#include <linux/smp.h>
#include <linux/suspend.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/ktime.h>
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
 * @lat_us:   the latency of the section that closed last, for
 *            lh_sections_report()
 * @len_ns:   while explaining: that section's length in ns...
 * @end_ns:   ...and CLOCK_MONOTONIC (lh_clock_ns()) when it closed
 * @mark:     the counters when it began, if counting was on
 * @hist:     this CPU's histogram of its type, set before the probes are
 *            hooked (lh_preemptirq_clear())
 */
struct lh_section {
	u64 start;
	bool open;
	struct lh_hist_cpu *hist;
	s64 lat_us;
	u64 len_ns;
	u64 end_ns;
	struct lh_pmu_mark mark;
};

/*
 * struct lh_section_held - a section closed while its CPU was emitting,
 * to be explained once that is done
 */
struct lh_section_held {
	bool valid;
	s64 lat_us;
	u64 len_ns;
	u64 end_ns;
};

/*
 * struct lh_section_deferred - a section closed while its CPU was emitting,
 * to be traced once that is done
 */
struct lh_section_deferred {
	enum lh_hist_id id;
	s64 lat_us;
};

/*
 * Sections a report traces after its own: those closed meanwhile, by a
 * tracer attached to lh_sample or by an interrupt taken then (its handler,
 * and the softirqs run on its return, toggle interrupts dozens of times:
 * 39 sections in one report seen under emulation). Past these, a section
 * is counted as untraced (status), never lost silently.
 */
#define LH_SECTIONS_DEFERRED	64

/*
 * struct lh_sections_cpu - the open sections of one CPU; only it touches them
 * @busy:        timing and filing in one of our probes (a probe that finds
 *               it set does nothing: it could only be our own tracepoint)
 * @emitting:    tracing or explaining samples (lh_sections_report()): a
 *               probe run meanwhile (an interrupt, a tracer attached there)
 *               still times and files, and leaves its sample in @deferred
 *               and its explanation in @held
 * @held:        per off[] index, then "both": the longest section closed
 *               while emitting and not explained yet
 */
struct lh_sections_cpu {
	struct lh_section off[LH_NR_OFF];	/* irqsoff, preemptoff */
	struct lh_section both;			/* preemptirqsoff */
	bool busy;
	bool emitting;
	struct lh_section_held held[LH_NR_OFF + 1];
};

/*
 * struct lh_sections_deferral - the samples one CPU closed while emitting,
 * not traced yet; changed with interrupts off, as an interrupt's probe may
 * add one
 * @nr:   how many of @slot are filled
 * @slot: the samples, in the order they closed
 */
struct lh_sections_deferral {
	unsigned int nr;
	struct lh_section_deferred slot[LH_SECTIONS_DEFERRED];
};

/*
 * Per CPU, allocated where the preemptirq tracepoints exist (1 KiB a CPU,
 * from the dynamic per-CPU allocator rather than the few KiB all modules
 * share for static per-CPU data); until unload.
 */
static struct lh_sections_deferral __percpu *lh_sections_deferred;

/* What lh_came_on() closed, for lh_sections_report(). */
#define LH_CLOSED_OFF		BIT(0)	/* the section of what came on */
#define LH_CLOSED_BOTH		BIT(1)	/* preemptirqsoff */
#define LH_CLOSED_MEASURED	BIT(2)	/* explain on: @len_ns, @end_ns are set */

static DEFINE_PER_CPU(struct lh_sections_cpu, lh_sections_cpus);

/*
 * lh_this_sections - this CPU's sections, for a probe. Every probe runs with
 * interrupts or preemption off (the tracepoints fire after the disable and
 * before the enable), so the CPU cannot change under it: the raw per-CPU
 * accessor is exact, and spares debug kernels the DEBUG_PREEMPT check of
 * this_cpu_ptr() on the hottest path of the module.
 */
static __always_inline struct lh_sections_cpu *lh_this_sections(void)
{
	return raw_cpu_ptr(&lh_sections_cpus);
}

/* lh_sections - the sections of @cpu, for control code */
static struct lh_sections_cpu *lh_sections(unsigned int cpu)
{
	return per_cpu_ptr(&lh_sections_cpus, cpu);
}

/* The dynamic hotplug states of lh_preemptirq_cpu_prepare() and _online(). */
static enum cpuhp_state lh_preemptirq_hp_state;
static enum cpuhp_state lh_preemptirq_hp_online;

static const enum lh_hist_id lh_off_hist[LH_NR_OFF] = {
	[LH_OFF_IRQS]		= LH_HIST_IRQSOFF,
	[LH_OFF_PREEMPT]	= LH_HIST_PREEMPTOFF,
};

/*
 * lh_section_mark - read the counters at a section's start; out of line,
 * only while counting. Reading them may toggle interrupts the traced way:
 * the CPU is busy meanwhile, so our probes ignore that.
 */
static noinline void notrace lh_section_mark(struct lh_sections_cpu *sc,
					     struct lh_section *s)
{
	sc->busy = true;
	barrier();
	lh_pmu_read(&s->mark);
	barrier();
	sc->busy = false;
}

/* lh_section_start - start timing at @now unless a section is open already */
static __always_inline void lh_section_start(struct lh_section *s, u64 now)
{
	if (s->open)
		return;
	s->start = now;
	s->open = true;
}

/*
 * lh_section_open - lh_section_start(), and the counters if counting: the
 * general path
 */
static __always_inline void lh_section_open(struct lh_sections_cpu *sc,
					    struct lh_section *s, u64 now)
{
	if (s->open)
		return;
	lh_section_start(s, now);
	if (lh_counting())
		lh_section_mark(sc, s);
}

/*
 * lh_section_close - stop timing and file the sample, if a section was
 * open; LH_CLOSED_OFF if one was, with its latency left in @s->lat_us (to
 * be traced by lh_sections_report() once interrupts are back as the
 * tracepoint had them), else 0
 */
static __always_inline unsigned int lh_section_close(struct lh_section *s,
						     enum lh_hist_id id,
						     u64 now)
{
	s64 lat_us;

	if (!s->open)
		return 0;
	s->open = false;
	if (!lh_clock_window_us(s->start, now, &lat_us))
		return 0;
	s->lat_us = lat_us;
	lh_hist_record(s->hist, lat_us);
	if (lh_counting())
		lh_pmu_file(id, lat_us, &s->mark);
	return LH_CLOSED_OFF;
}

/*
 * lh_sections_plain - is filing all that is asked of the section probes:
 * the cycle clock (@mark, as lh_clock_mark() read it, a cycle stamp's), no
 * counting, no explain? Then lh_went_off() and lh_came_on() take their
 * inline path, which calls nothing (so saves no register) and fires no
 * tracepoint (so needs no busy flag); anything else takes the general
 * path, out of line.
 */
static __always_inline bool lh_sections_plain(u64 mark)
{
	return lh_clock_marks_cycles(mark) && !lh_counting() && !lh_explaining();
}

/*
 * lh_went_off_general - lh_went_off() on the kernel's clock or while
 * counting: the section reads the counters when it opens
 */
static noinline void notrace lh_went_off_general(struct lh_sections_cpu *sc,
						 enum lh_off what,
						 unsigned long flags)
{
	u64 now = lh_clock_local_stamp();

	lh_section_open(sc, &sc->off[what], now);
	if (sc->off[!what].open)
		lh_section_open(sc, &sc->both, now);
	if (what == LH_OFF_PREEMPT)
		raw_local_irq_restore(flags);
}

/*
 * lh_went_off - @what went off: open its section, and "both" if the other
 * is off. For preemption, interrupts are on: they are masked from before
 * the busy check to after the clock read and the stores.
 *
 * The irq_disable/irq_enable tracepoints fire with interrupts off, the
 * preempt_disable/preempt_enable ones with them on. The preempt probes mask
 * them while they time and file (raw_local_irq_save(): untraced, unseen by
 * lockdep, so nothing inside may take a lockdep-tracked lock or toggle
 * interrupts the traced way; the histogram engine's lock is an arch
 * spinlock for this reason). Otherwise an interrupt landing in the probe
 * would find the CPU busy, and its own irqs-off section, and every section
 * inside it, would go unseen; one landing before the clock read would
 * start the preempt-off section late, without the interrupt's time. The
 * interrupt is taken right after instead, once the CPU is no longer busy,
 * and measured. The lh_sample trace event and the threshold come after it
 * (lh_sections_report()), with interrupts as the tracepoint left them.
 */
static __always_inline void lh_went_off(enum lh_off what)
{
	struct lh_sections_cpu *sc;
	unsigned long flags = 0;
	u64 mark, now;

	if (in_nmi())
		return;
	if (what == LH_OFF_PREEMPT)
		raw_local_irq_save(flags);
	sc = lh_this_sections();
	if (unlikely(sc->busy))
		goto out;
	mark = lh_clock_mark();
	if (unlikely(!lh_sections_plain(mark))) {
		lh_went_off_general(sc, what, flags);
		return;
	}
	now = lh_cycle_stamp(mark);
	lh_section_start(&sc->off[what], now);
	if (sc->off[!what].open)
		lh_section_start(&sc->both, now);
out:
	if (what == LH_OFF_PREEMPT)
		raw_local_irq_restore(flags);
}

/* lh_section_measure - explain on: an open section's length and end */
static __always_inline void lh_section_measure(struct lh_section *s, u64 now,
					       u64 end_ns)
{
	if (!s->open)
		return;
	s->len_ns = lh_clock_delta_ns(s->start, now);
	s->end_ns = end_ns;
}

/*
 * lh_sections_measure - explain on: the lengths of the sections closing at
 * @now and their end in CLOCK_MONOTONIC, read before interrupts come back
 * (an interrupt held off runs after the window); out of line. Only the
 * open ones are written: an interrupt that lands before
 * lh_sections_report() reads them closes none of them. On the cycle clock
 * the end is the closing stamp converted. explain.c breaks a section that
 * beats its CPU's maximum down over the @len_ns that end there: the
 * interrupts that ran in a preempt-off section, and the rest as the time
 * of the task that owns it. (explain/enable is a static branch, patched out
 * while it is 0.)
 */
static noinline unsigned int notrace
lh_sections_measure(struct lh_sections_cpu *sc, enum lh_off what, u64 now)
{
	u64 end_ns;

	/* On the cycle clock @now is that instant: no second read. */
	if (now & LH_CLOCK_CYCLES_BIT)
		end_ns = lh_clock_stamp_ns(now);
	else
		end_ns = lh_clock_ns();
	lh_section_measure(&sc->off[what], now, end_ns);
	lh_section_measure(&sc->both, now, end_ns);
	return LH_CLOSED_MEASURED;
}

/*
 * lh_explain_section - explain a section of @id of @len_ns that ended at
 * @end_ns (CLOCK_MONOTONIC), if it is its CPU's new maximum
 */
static void notrace lh_explain_section(enum lh_hist_id id, int cpu,
				       s64 lat_us, u64 len_ns, u64 end_ns)
{
	lh_explain_file(id, cpu, lat_us, end_ns - min(len_ns, end_ns), end_ns,
			current);
}

/*
 * lh_section_defer - keep a section of @id filed on @cpu while its
 * context was emitting, to be traced when that is done; if
 * LH_SECTIONS_DEFERRED wait already, count it in status's untraced=
 * instead (not while a reset empties the histogram, which refused the
 * sample). The interrupts go off untraced: an interrupt's probe may add
 * one too.
 */
static void notrace lh_section_defer(struct lh_sections_cpu *sc,
				     enum lh_hist_id id, int cpu, s64 lat_us)
{
	struct lh_sections_deferral *df = this_cpu_ptr(lh_sections_deferred);
	struct lh_hist_cpu *h;
	unsigned long flags;
	unsigned int n;

	raw_local_irq_save(flags);
	n = df->nr;
	if (n < LH_SECTIONS_DEFERRED) {
		df->slot[n].id = id;
		df->slot[n].lat_us = lat_us;
		df->nr = n + 1;
	}
	raw_local_irq_restore(flags);
	if (n < LH_SECTIONS_DEFERRED)
		return;
	h = lh_hist_cpu_filing(id, cpu);
	/* Pairs with smp_store_release() in lh_hist_cpu_reset_end(). */
	if (!smp_load_acquire(&h->resetting))
		atomic_long_inc(&h->untraced);
}

/*
 * lh_sections_trace_deferred - trace what closed while this CPU was
 * emitting, in the order it closed, those that close meanwhile too (at
 * most LH_SECTIONS_DEFERRED: the slots are not reused before the end);
 * then stop emitting, with interrupts off: a section an interrupt closes
 * after that is traced by its own report, none waits for the next
 */
static void notrace lh_sections_trace_deferred(struct lh_sections_cpu *sc,
					       int cpu)
{
	struct lh_sections_deferral *df = this_cpu_ptr(lh_sections_deferred);
	struct lh_section_deferred d;
	unsigned long flags;
	unsigned int i = 0;

	for (;;) {
		raw_local_irq_save(flags);
		if (i >= df->nr) {
			df->nr = 0;
			barrier();
			sc->emitting = false;
			raw_local_irq_restore(flags);
			return;
		}
		d = df->slot[i++];
		raw_local_irq_restore(flags);
		lh_sample_out(d.id, cpu, d.lat_us, 0, NULL, current);
	}
}

/* lh_section_hold - keep a section closed while emitting, if the longest */
static void notrace lh_section_hold(struct lh_section_held *hd, s64 lat_us,
				    u64 len_ns, u64 end_ns)
{
	if (hd->valid && hd->lat_us >= lat_us)
		return;
	hd->lat_us = lat_us;
	hd->len_ns = len_ns;
	hd->end_ns = end_ns;
	hd->valid = true;
}

/*
 * lh_sections_explain_held - explain what closed while this CPU was
 * emitting; one pass: what closes meanwhile waits for the next report
 */
static void notrace lh_sections_explain_held(struct lh_sections_cpu *sc,
					     int cpu)
{
	int i;

	for (i = 0; i <= LH_NR_OFF; i++) {
		struct lh_section_held hd = sc->held[i];

		if (!hd.valid)
			continue;
		sc->held[i].valid = false;
		barrier();
		lh_explain_section(i < LH_NR_OFF ? lh_off_hist[i] :
				   LH_HIST_PREEMPTIRQSOFF, cpu, hd.lat_us,
				   hd.len_ns, hd.end_ns);
	}
}

/*
 * lh_sections_reporting - is anything attached to closed sections: the
 * lh_sample event, a threshold or explain? Patched-out branches: while
 * none is, a closed section costs no more than its filing.
 */
static __always_inline bool lh_sections_reporting(void)
{
	return lh_sample_out_wanted() || lh_explaining();
}

/*
 * lh_sections_report - trace, threshold and explain what lh_came_on() of
 * @what closed (@closed: LH_CLOSED_*); out of line, only while something
 * is attached. Interrupts are as the tracepoint left them. The results are
 * read first: a tracer attached to lh_sample may toggle preemption or
 * interrupts the traced way, or an interrupt come, and the sections that
 * closes are filed over them, and traced after (see @emitting).
 */
static noinline void notrace lh_sections_report(struct lh_sections_cpu *sc,
						enum lh_off what,
						unsigned int closed)
{
	const struct lh_section *s = &sc->off[what], *b = &sc->both;
	enum lh_hist_id id = lh_off_hist[what];
	int cpu = raw_smp_processor_id();
	s64 lat_us = s->lat_us, both_us = b->lat_us;
	u64 len_ns = s->len_ns, end_ns = s->end_ns;
	u64 both_ns = b->len_ns, both_end_ns = b->end_ns;

	if (sc->emitting) {
		/*
		 * Inside our own report (an interrupt taken while it emits,
		 * or a tracer attached to lh_sample): traced and explained
		 * when it is done, never from here, where a tracer run from
		 * ours could run ours again.
		 */
		if (lh_sample_out_wanted()) {
			if (closed & LH_CLOSED_OFF)
				lh_section_defer(sc, id, cpu, lat_us);
			if (closed & LH_CLOSED_BOTH)
				lh_section_defer(sc, LH_HIST_PREEMPTIRQSOFF,
						 cpu, both_us);
		}
		if ((closed & LH_CLOSED_MEASURED) && (closed & LH_CLOSED_OFF))
			lh_section_hold(&sc->held[what], lat_us, len_ns, end_ns);
		if ((closed & LH_CLOSED_MEASURED) && (closed & LH_CLOSED_BOTH))
			lh_section_hold(&sc->held[LH_NR_OFF], both_us, both_ns,
					both_end_ns);
		return;
	}
	sc->emitting = true;
	barrier();
	if (closed & LH_CLOSED_OFF)
		lh_sample_out(id, cpu, lat_us, 0, NULL, current);
	if (closed & LH_CLOSED_BOTH)
		lh_sample_out(LH_HIST_PREEMPTIRQSOFF, cpu, both_us, 0, NULL,
			      current);
	if (closed & LH_CLOSED_MEASURED) {
		if (closed & LH_CLOSED_OFF)
			lh_explain_section(id, cpu, lat_us, len_ns, end_ns);
		if (closed & LH_CLOSED_BOTH)
			lh_explain_section(LH_HIST_PREEMPTIRQSOFF, cpu, both_us,
					   both_ns, both_end_ns);
	}
	if (lh_explaining())
		lh_sections_explain_held(sc, cpu);
	lh_sections_trace_deferred(sc, cpu);
}

/*
 * lh_came_on_general - lh_came_on() but for its inline path: the kernel's
 * clock, counting or explain, or a section the inline path cannot file
 * (@now is its stamp then, else 0). The CPU is busy while the samples are
 * timed and filed: counting and explain call out, and a tracepoint they
 * fire must not reach our probes.
 */
static noinline void notrace lh_came_on_general(struct lh_sections_cpu *sc,
						enum lh_off what,
						unsigned long flags, u64 now)
{
	unsigned int closed = 0;

	sc->busy = true;
	barrier();
	if (!now)
		now = lh_clock_local_stamp();
	if (lh_explaining())
		closed = lh_sections_measure(sc, what, now);
	closed |= lh_section_close(&sc->off[what], lh_off_hist[what], now);
	if (lh_section_close(&sc->both, LH_HIST_PREEMPTIRQSOFF, now))
		closed |= LH_CLOSED_BOTH;
	/* Not busy before interrupts come back: the one held off is measured. */
	barrier();
	sc->busy = false;
	if (what == LH_OFF_PREEMPT)
		raw_local_irq_restore(flags);
	if (lh_sections_reporting() && (closed & ~LH_CLOSED_MEASURED))
		lh_sections_report(sc, what, closed);
}

/*
 * lh_section_quick - can the inline path file @s (@open: whether it is),
 * ending at cycle stamp @now? Yes if it is not open, or if its latency,
 * left in @lat_us, fits the histogram's buckets (lh_clock_cycles_us(): a
 * start on the cycle counter, not after @now).
 */
static __always_inline bool lh_section_quick(const struct lh_section *s,
					     bool open, u64 now, u64 *lat_us)
{
	s64 us;

	if (!open)
		return true;
	if (!lh_clock_cycles_us(s->start, now, &us))
		return false;
	*lat_us = us;
	return *lat_us < LH_NR_BUCKETS;
}

/* lh_section_file - the inline path: close @s and count @lat_us */
static __always_inline void lh_section_file(struct lh_section *s, u64 lat_us)
{
	s->open = false;
	s->lat_us = lat_us;
	lh_hist_count(s->hist, lat_us);
}

/*
 * lh_came_on - @what came back on: close its section and "both". For
 * preemption, interrupts are on: they are masked while the samples are
 * timed and filed, and back on for lh_sections_report(), so that a tracer
 * or a threshold running in the lh_sample event sees them as the
 * tracepoint left them. An interrupt held off meanwhile arrives when they
 * come back, and is measured.
 *
 * The inline path files only what needs no call: the cycle clock, no
 * counting or explain, latencies within the histogram. It looks at both
 * sections before it changes either, so that anything else can go to
 * lh_came_on_general() as if the inline path had not run.
 */
static __always_inline void lh_came_on(enum lh_off what)
{
	struct lh_section *s, *both;
	struct lh_sections_cpu *sc;
	unsigned int closed = 0;
	unsigned long flags = 0;
	u64 mark, now, lat_us = 0, both_us = 0;
	bool s_open, both_open;

	if (in_nmi())
		return;
	if (what == LH_OFF_PREEMPT)
		raw_local_irq_save(flags);
	sc = lh_this_sections();
	if (unlikely(sc->busy))
		goto out;
	mark = lh_clock_mark();
	if (unlikely(!lh_sections_plain(mark))) {
		lh_came_on_general(sc, what, flags, 0);
		return;
	}
	now = lh_cycle_stamp(mark);
	s = &sc->off[what];
	both = &sc->both;
	s_open = s->open;
	both_open = both->open;
	if (unlikely(!lh_section_quick(s, s_open, now, &lat_us) ||
		     !lh_section_quick(both, both_open, now, &both_us))) {
		lh_came_on_general(sc, what, flags, now);
		return;
	}
	if (s_open) {
		lh_section_file(s, lat_us);
		closed = LH_CLOSED_OFF;
	}
	if (both_open) {
		lh_section_file(both, both_us);
		closed |= LH_CLOSED_BOTH;
	}
out:
	if (what == LH_OFF_PREEMPT)
		raw_local_irq_restore(flags);
	if (lh_sample_out_wanted() && closed)
		lh_sections_report(sc, what, closed);
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

/*
 * lh_probe_cpu_idle - entering idle: the open sections are not latency
 *
 * The idle loop waits with interrupts and preemption disabled. The RT
 * patch excluded it through the critical-timings hooks, which a module
 * cannot use; here, as in bcc's criticalstat, entering idle (the exported
 * cpu_idle tracepoint) discards the open sections, and they restart at the
 * next transition. The idle task never enables preemption, so the path
 * from idle exit to the next task is not measured.
 */
static void notrace lh_probe_cpu_idle(void *data, unsigned int state,
				      unsigned int cpu_id)
{
	struct lh_sections_cpu *sc;

	if (state == (unsigned int)PWR_EVENT_EXIT)
		return;
	if (in_nmi())
		return;
	sc = lh_this_sections();
	if (sc->busy)
		return;
	sc->off[LH_OFF_IRQS].open = false;
	sc->off[LH_OFF_PREEMPT].open = false;
	sc->both.open = false;
}

/* Hooked in this order: idle first, then the ends, then the starts. */
static const struct lh_probe lh_preemptirq_probes[] = {
	{ LH_TP_CPU_IDLE,		lh_probe_cpu_idle },
	{ LH_TP_IRQ_ENABLE,		lh_probe_irq_enable },
	{ LH_TP_PREEMPT_ENABLE,		lh_probe_preempt_enable },
	{ LH_TP_IRQ_DISABLE,		lh_probe_irq_disable },
	{ LH_TP_PREEMPT_DISABLE,	lh_probe_preempt_disable },
};

/* lh_sections_forget - forget @sc's open sections; none of its probes may run */
static void lh_sections_forget(struct lh_sections_cpu *sc)
{
	sc->off[LH_OFF_IRQS].open = false;
	sc->off[LH_OFF_PREEMPT].open = false;
	sc->both.open = false;
	sc->busy = false;
	sc->emitting = false;
	memset(sc->held, 0, sizeof(sc->held));
	/* lh_sections_deferred: a report always empties its CPU's, none waits */
}

/*
 * lh_preemptirq_clear - forget every open section and point each at its
 * CPU's histogram (the first enable allocated them before this runs, and
 * they stay until unload); no probe may be running
 */
static void lh_preemptirq_clear(void)
{
	struct lh_sections_cpu *sc;
	enum lh_off what;
	int cpu;

	for_each_possible_cpu(cpu) {
		sc = lh_sections(cpu);
		memset(sc, 0, sizeof(*sc));
		for (what = 0; what < LH_NR_OFF; what++)
			sc->off[what].hist = lh_hist_cpu(lh_off_hist[what], cpu);
		sc->both.hist = lh_hist_cpu(LH_HIST_PREEMPTIRQSOFF, cpu);
	}
}

/*
 * lh_preemptirq_cpu_prepare - hotplug: @cpu is offline and about to boot;
 * runs on the CPU that brings it up, so no probe runs on @cpu meanwhile
 *
 * A CPU going offline leaves idle without the cpu_idle event, with the
 * section its last schedule() opened still open: it must not close as one
 * huge sample when the CPU comes back. And the CPU's probes time nothing
 * until lh_preemptirq_cpu_online() has run on it.
 */
static int lh_preemptirq_cpu_prepare(unsigned int cpu)
{
	struct lh_sections_cpu *sc = lh_sections(cpu);

	lh_sections_forget(sc);
	sc->busy = true;
	return 0;
}

/*
 * lh_preemptirq_cpu_online - hotplug, on @cpu once it runs tasks: its
 * probes time sections again, from a local_clock() that has caught up
 *
 * Where sched_clock is unstable (a TSC the kernel does not trust, so the
 * sections read local_clock()), a CPU that comes back reads its
 * local_clock() from where it went offline, held within a tick of that,
 * until its first tick brings it up to date: the tick's own interrupt
 * would then file the time offline as one irqs-off section. Calling what
 * the idle loop calls at wakeup brings it up to date now, and only then
 * do the probes start; it does nothing where sched_clock is stable.
 */
static int lh_preemptirq_cpu_online(unsigned int cpu)
{
	unsigned long flags;

	sched_clock_idle_wakeup_event();
	/* The probes of this CPU find it busy and ignore the toggles. */
	local_irq_save(flags);
	lh_sections_forget(lh_this_sections());
	local_irq_restore(flags);
	return 0;
}

/*
 * lh_sections_suspend - IPI: this CPU's probes time and file nothing until
 * lh_sections_resume(); interrupts are off, so no probe of this CPU is
 * between its busy stores
 */
static void lh_sections_suspend(void *unused)
{
	lh_this_sections()->busy = true;
}

/* lh_sections_resume - IPI: forget this CPU's open sections, file again */
static void lh_sections_resume(void *unused)
{
	lh_sections_forget(lh_this_sections());
}

/*
 * lh_preemptirq_pm - PM notifier: no section is filed from the start of a
 * suspend or hibernation to its end
 *
 * Suspend-to-idle waits in enter_s2idle_proper() with interrupts off and
 * emits no cpu_idle event, so the section open there would close at resume
 * as long as the suspend, on every CPU. So every CPU is busy from
 * PM_*_PREPARE (its probes time and file nothing) until PM_POST_*, which
 * forgets every open section and lets them in again. It costs the probes
 * nothing: they test the busy flag already. A CPU taken offline and back
 * during the suspend (S3) is cleared by lh_preemptirq_cpu_prepare() and
 * measured again from then on.
 */
static int lh_preemptirq_pm(struct notifier_block *nb, unsigned long action,
			    void *unused)
{
	switch (action) {
	case PM_SUSPEND_PREPARE:
	case PM_HIBERNATION_PREPARE:
	case PM_RESTORE_PREPARE:
		on_each_cpu(lh_sections_suspend, NULL, 1);
		break;
	case PM_POST_SUSPEND:
	case PM_POST_HIBERNATION:
	case PM_POST_RESTORE:
		on_each_cpu(lh_sections_resume, NULL, 1);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block lh_preemptirq_pm_nb = {
	.notifier_call = lh_preemptirq_pm,
};

/*
 * lh_preemptirq_prepare - type-check the probes where the kernel declares
 * them; where the tracepoints exist, allocate the deferred-trace lists
 */
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
	if (lh_tp_first_missing(lh_preemptirq_probes,
				ARRAY_SIZE(lh_preemptirq_probes)))
		return NULL;	/* unavailable for the reason "missing" gives */
	lh_sections_deferred = alloc_percpu(struct lh_sections_deferral);
	if (!lh_sections_deferred)
		return "cannot allocate the per-CPU lists of sections to trace";
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
 * lh_preemptirq_init() - register the hotplug callbacks that discard the
 * sections an offline CPU left open and hold its probes until its clock
 * caught up, and the PM notifier that keeps a suspend out of them
 *
 * Context: module init; may sleep.
 * Return: 0 or a negative error from the CPU hotplug core or the PM
 * notifier chain.
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
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					"latency_hist/preemptirq:online",
					lh_preemptirq_cpu_online, NULL);
	if (ret < 0)
		goto out_remove_state;
	lh_preemptirq_hp_online = ret;
	ret = register_pm_notifier(&lh_preemptirq_pm_nb);
	if (ret)
		goto out_remove_online;
	return 0;

out_remove_online:
	cpuhp_remove_state_nocalls(lh_preemptirq_hp_online);
out_remove_state:
	cpuhp_remove_state_nocalls(lh_preemptirq_hp_state);
	return ret;
}

/**
 * lh_preemptirq_exit() - undo lh_preemptirq_init()
 *
 * Context: module exit or failed init; may sleep.
 */
void lh_preemptirq_exit(void)
{
	free_percpu(lh_sections_deferred);
	lh_sections_deferred = NULL;
	unregister_pm_notifier(&lh_preemptirq_pm_nb);
	cpuhp_remove_state_nocalls(lh_preemptirq_hp_online);
	cpuhp_remove_state_nocalls(lh_preemptirq_hp_state);
}
