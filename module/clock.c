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
 * of clocksource because the TSC misbehaved marks it unstable; a change by
 * hand leaves the TSC as good as it was.
 *
 * The probes do not ask whether the TSC is still trusted (a call per
 * window): timekeeping's update notifier, exported for the same purpose
 * to KVM (which must know when the host stops timing on the TSC), asks at
 * every update, each tick of the CPU that keeps time, and falls back.
 * So the fall back comes within a tick of the kernel's verdict, which
 * itself comes from a watchdog that compares clocks every half second.
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
#include <linux/notifier.h>
#include <linux/pvclock_gtod.h>
#include <asm/cpufeature.h>
#endif

struct lh_clock lh_clock __read_mostly;

/* Load time only (not in sysfs): auto, or kernel for the kernel's clocks. */
static char *lh_clock_param;
module_param_named(clock, lh_clock_param, charp, 0);
MODULE_PARM_DESC(clock, "auto (default: the TSC where the kernel vouches for it) or kernel (its clocks only); load time only");

/* Why the clock is what it is, for status: no blanks (a status token). */
static const char *lh_clock_why = "no_cycle_clock_on_this_architecture";
/* Windows dropped: their ends were read on two clocks. */
static atomic_long_t lh_clock_drops = ATOMIC_LONG_INIT(0);

/**
 * lh_clock_window_us_slow() - lh_clock_window_us() but for its inline case
 * @start: the window's first stamp
 * @end:   its last
 *
 * Out of line: on the cycle counter it runs only for the few windows open
 * across a fall back (dropped and counted) and for an end read before the
 * start (a negative sample, which the histogram counts as such); with
 * clock=kernel, for every sample.
 *
 * Context: probe context, any.
 * Return: the microseconds, or LH_CLOCK_MIXED.
 */
noinline s64 notrace lh_clock_window_us_slow(u64 start, u64 end)
{
	s64 diff = (s64)(end - start);

	if (lh_clock_differs(start, end)) {
		atomic_long_inc(&lh_clock_drops);
		return LH_CLOCK_MIXED;
	}
	if (end & LH_CLOCK_CYCLES_BIT)
		return lh_clock_scale_signed(diff, lh_clock.us_mult,
					     lh_clock.us_shift);
	return div_s64(diff, NSEC_PER_USEC);
}

#ifdef LH_HAVE_TSC_CLOCK
/*
 * lh_clock_watch - timekeeping was updated (every tick of the CPU that keeps
 * time, and at every clocksource change): if the kernel has marked the TSC
 * unstable since, fall back to the kernel's clocks for good. Under the
 * timekeeper's raw lock with its sequence count held for writing: it reads
 * no clock and takes no lock.
 */
static int lh_clock_watch(struct notifier_block *nb, unsigned long was_set,
			  void *priv)
{
	if (READ_ONCE(lh_clock.cycles) && check_tsc_unstable()) {
		WRITE_ONCE(lh_clock_why, "tsc_marked_unstable_since_load");
		/* Pairs with nothing: each reading carries its clock's mark. */
		WRITE_ONCE(lh_clock.cycles, false);
	}
	return NOTIFY_DONE;
}

static struct notifier_block lh_clock_nb = {
	.notifier_call = lh_clock_watch,
};

static bool lh_clock_watched;	/* lh_clock_nb is registered */
#endif

/**
 * lh_clock_mono_ns() - CLOCK_MONOTONIC for a record's timestamp
 * @now: the window's end as the probes stamped it
 *
 * A cycle-counter stamp is not CLOCK_MONOTONIC: read that now, which is
 * the filing of the record, a few hundred ns after @now.
 *
 * Context: any.
 * Return: ns of CLOCK_MONOTONIC.
 */
u64 notrace lh_clock_mono_ns(u64 now)
{
	return now & LH_CLOCK_CYCLES_BIT ? ktime_get_mono_fast_ns() : now;
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
	/*
	 * ns = cycles * 10^6 / kHz, us = cycles * 10^3 / kHz; the 128-bit
	 * products cannot overflow.
	 */
	clocks_calc_mult_shift(&mult, &shift, tsc_khz, NSEC_PER_MSEC, 3600);
	lh_clock.mult = mult;
	lh_clock.shift = shift;
	clocks_calc_mult_shift(&mult, &shift, tsc_khz, USEC_PER_MSEC, 3600);
	lh_clock.us_mult = mult;
	lh_clock.us_shift = shift;
	WRITE_ONCE(lh_clock.cycles, true);
	/* Registration runs the watch once: a TSC marked since is seen here. */
	if (pvclock_gtod_register_notifier(&lh_clock_nb)) {
		WRITE_ONCE(lh_clock.cycles, false);
		lh_clock_why = "no_timekeeping_notifier";
		return 0;
	}
	lh_clock_watched = true;
	pr_debug("clock: tsc at %u kHz, ns mult %u shift %u, us mult %u shift %u\n",
		 tsc_khz, lh_clock.mult, lh_clock.shift, mult, shift);
#endif
	return 0;
}

/**
 * lh_clock_exit() - stop watching timekeeping
 *
 * Context: module exit. When it returns the watch is not running: the
 * chain is called and changed under the same lock.
 */
void lh_clock_exit(void)
{
#ifdef LH_HAVE_TSC_CLOCK
	if (lh_clock_watched)
		pvclock_gtod_unregister_notifier(&lh_clock_nb);
#endif
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
