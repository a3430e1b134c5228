// SPDX-License-Identifier: GPL-2.0
/*
 * clock.c - choose the clock the probes read (include/latency_hist/clock.h),
 * fall back from it, and say which in status.
 *
 * The cycle counter is taken where the kernel vouches for it across CPUs
 * and over time, by what a module can see on x86: a TSC with a known rate
 * (tsc_khz) that the kernel has not marked unstable (check_tsc_unstable():
 * the boot-time and hotplug synchronization checks and the clocksource
 * watchdog mark it), and that either runs at a constant rate and does not
 * stop in idle (constant_tsc and nonstop_tsc: kvmclock prefers the TSC on
 * the same condition), or is reliable by the CPU's or hypervisor's word
 * (tsc_reliable), or is the clocksource of the kernel's timekeeping at
 * load (then CLOCK_MONOTONIC itself is the TSC of whichever CPU reads it,
 * scaled by one mult/shift, kept under the clocksource watchdog). Then
 * local_clock() reads the same counter on every CPU, and
 * sched_clock_stable(), which a module cannot call, is true. A later change
 * of clocksource because the TSC misbehaved marks it unstable, which the
 * probes see; a change by hand leaves the TSC as good as it was.
 *
 * The mult/shift is computed once from tsc_khz, as the kernel's cyc2ns is
 * (which only rescales on frequency changes of a TSC without constant_tsc,
 * which this does not take).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/clocksource.h>
#include <linux/errno.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/time64.h>

#include <latency_hist/clock.h>
#include <latency_hist/types.h>

#ifdef LH_HAVE_TSC_CLOCK
#include <asm/cpufeature.h>
#endif

struct lh_clock lh_clock __read_mostly;

/* Load time only (not in sysfs): auto, or kernel for the kernel's clocks. */
static char *lh_clock_param;
module_param_named(clock, lh_clock_param, charp, 0);
MODULE_PARM_DESC(clock, "auto (default: the TSC where the kernel vouches for it) or kernel (its clocks only); load time only");

/* Why the clock is what it is, for status: no blanks (a status token). */
static const char *lh_clock_why = "no_cycle_clock_on_this_architecture";
/* Windows dropped: ends on two clocks, or the counter marked unstable. */
static atomic_long_t lh_clock_drops = ATOMIC_LONG_INIT(0);

/**
 * lh_clock_drop() - a window is not filed: count it; if the kernel marked
 * the cycle counter unstable, fall back to the kernel's clocks for good
 *
 * Out of line: it runs for the few windows open across a fall back, and
 * for the windows that find the counter unstable before the first of
 * them has switched.
 *
 * Context: probe context, any.
 */
noinline void notrace lh_clock_drop(void)
{
	atomic_long_inc(&lh_clock_drops);
	if (READ_ONCE(lh_clock.cycles) && lh_cycles_unstable()) {
		WRITE_ONCE(lh_clock_why, "tsc_marked_unstable_since_load");
		/* Pairs with nothing: each reading carries its clock's mark. */
		WRITE_ONCE(lh_clock.cycles, false);
	}
}

/**
 * lh_clock_mono_ns() - CLOCK_MONOTONIC for a record's timestamp
 * @now_ns: the window's end as the probes read it
 *
 * A cycle-counter reading is not CLOCK_MONOTONIC: read that now, which is
 * the filing of the record, a few hundred ns after @now_ns.
 *
 * Context: any.
 * Return: ns of CLOCK_MONOTONIC.
 */
u64 notrace lh_clock_mono_ns(u64 now_ns)
{
	return now_ns & LH_CLOCK_CYCLES_BIT ? ktime_get_mono_fast_ns() : now_ns;
}

/**
 * lh_clock_init() - take the cycle counter if the kernel vouches for it
 * and the clock parameter allows it
 *
 * Context: module init, before any probe is hooked.
 * Return: 0, or -EINVAL for a clock parameter other than auto or kernel.
 */
int lh_clock_init(void)
{
#ifdef LH_HAVE_TSC_CLOCK
	u32 mult, shift;
#endif

	if (lh_clock_param && strcmp(lh_clock_param, "auto")) {
		if (strcmp(lh_clock_param, "kernel")) {
			pr_err("clock=%s: not auto or kernel\n", lh_clock_param);
			return -EINVAL;
		}
		lh_clock_why = "clock_parameter_kernel";
		return 0;
	}
#ifdef LH_HAVE_TSC_CLOCK
	if (!boot_cpu_has(X86_FEATURE_TSC) || !tsc_khz) {
		lh_clock_why = "no_tsc_rate";
		return 0;
	}
	if (check_tsc_unstable()) {
		lh_clock_why = "tsc_marked_unstable";
		return 0;
	}
	if (boot_cpu_has(X86_FEATURE_TSC_RELIABLE)) {
		lh_clock_why = "tsc_reliable";
	} else if (boot_cpu_has(X86_FEATURE_CONSTANT_TSC) &&
		   boot_cpu_has(X86_FEATURE_NONSTOP_TSC)) {
		lh_clock_why = "constant_tsc+nonstop_tsc";
	} else if (lh_clocksource_is_tsc()) {
		lh_clock_why = "clocksource_tsc";
	} else {
		lh_clock_why = "tsc_not_clocksource_nor_constant+nonstop";
		return 0;
	}
	/* ns = cycles * 10^6 / kHz; the 128-bit product cannot overflow. */
	clocks_calc_mult_shift(&mult, &shift, tsc_khz, NSEC_PER_MSEC, 3600);
	lh_clock.mult = mult;
	lh_clock.shift = shift;
	WRITE_ONCE(lh_clock.cycles, true);
	pr_debug("clock: tsc at %u kHz, mult %u shift %u\n", tsc_khz, mult,
		 shift);
#endif
	return 0;
}

/* lh_clock_fallback_name - the kernel clock a kind falls back to */
static const char *lh_clock_fallback_name(enum lh_clock_kind kind)
{
	return kind == LH_CLK_LOCAL ? "local_clock" : "mono_fast";
}

/**
 * lh_clock_status() - print a histogram's clock tokens for status
 * @m:  the seq_file
 * @id: the histogram
 *
 * " clock=<clock> clock_why=<reason> clock_drops=<n>": the clock its
 * windows are read on (tsc, local_clock, mono_fast; timer_base for a timer's
 * offset, which is defined in the timer base's clock; timer_base+X for a
 * sum), why the cycle counter is or is not read, and the windows dropped
 * because their ends were read on different clocks (all types together).
 *
 * Context: process context.
 */
void lh_clock_status(struct seq_file *m, enum lh_hist_id id)
{
	enum lh_clock_kind kind = lh_switches[lh_hist_types[id].sw].clock;
	const char *name = READ_ONCE(lh_clock.cycles) ? "tsc" :
			   lh_clock_fallback_name(kind);

	seq_puts(m, " clock=");
	if (kind == LH_CLK_TIMER)
		seq_puts(m, "timer_base");
	else
		seq_printf(m, "%s%s", kind == LH_CLK_TIMER_CROSS ?
			   "timer_base+" : "", name);
	seq_printf(m, " clock_why=%s clock_drops=%ld", READ_ONCE(lh_clock_why),
		   atomic_long_read(&lh_clock_drops));
}
