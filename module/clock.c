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
 * The mult/shift is computed from tsc_khz at load, as the kernel's cyc2ns
 * is, with the precision of clock_scale.h, and again when tsc_khz changes:
 * without TSC_KNOWN_FREQ the kernel refines it about a second after boot,
 * by up to 1 %, and switches from the tsc-early clocksource to tsc, so a
 * module loaded early (initramfs, modules-load.d) would keep the early
 * rate. The same notifier sees the new rate at the next update and starts
 * a scale generation (clock.h): windows open across it are dropped as
 * across a fall back. (cyc2ns also rescales on frequency changes of a TSC
 * without constant_tsc, but such a TSC is marked unstable then.)
 *
 * A resume from S3 or hibernation starts a generation too (a syscore
 * resume callback, lh_clock_resume()): the count may have restarted, or run
 * through the sleep, and local_clock()'s offset, which the kernel rewrites
 * at resume, hides either from its readers but not from a raw stamp.
 *
 * On arm and arm64 the counter is the architected timer's, read through
 * arch_timer_read_counter() (clock.h), and the kernel vouches for it while
 * it is the clocksource of timekeeping ("arch_sys_counter", which reads it
 * through the same pointer): the timer driver found it usable on every CPU
 * and set the pointer to the erratum workaround a CPU needs. It has no
 * "unstable" mark; the kernel's verdict against a counter is a change of
 * clocksource, which the same notifier sees at once and falls back on. The
 * rate is the counter's frequency register (CNTFRQ), taken only if it is
 * the rate timekeeping converts with (the clocksource's mult/shift turn
 * one second of counts into 1 s within 0.1 %): firmware that leaves
 * CNTFRQ wrong makes the kernel take the device tree's clock-frequency
 * instead.
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

#ifdef LH_HAVE_CYCLE_CLOCK
#include <linux/notifier.h>
#include <linux/pvclock_gtod.h>
#endif
#ifdef LH_HAVE_TSC_CLOCK
#include <asm/cpufeature.h>
#endif
#ifdef LH_HAVE_ARCH_TIMER_CLOCK
#include <linux/timekeeper_internal.h>
#include <asm/arch_timer.h>
#endif

struct lh_clock lh_clock __read_mostly;

/* Load time only (not in sysfs): auto, or kernel for the kernel's clocks. */
static char *lh_clock_param;
module_param_named(clock, lh_clock_param, charp, 0);
MODULE_PARM_DESC(clock, "auto (default: the TSC or ARM's architected counter where the kernel vouches for it) or kernel (its clocks only); load time only");

/* Why the clock is what it is, for status: no blanks (a status token). */
static const char *lh_clock_why = "no_cycle_clock_on_this_architecture";
/* Windows dropped: their ends were read on two clocks. */
static atomic_long_t lh_clock_drops = ATOMIC_LONG_INIT(0);
#ifdef LH_HAVE_CYCLE_CLOCK
/* The scale in force is for @lh_clock_freq counts per 1/@lh_clock_per s. */
static u32 lh_clock_freq, lh_clock_per;
#endif

/**
 * lh_clock_window_us_slow() - lh_clock_window_us() but for its inline case
 * @start: the window's first stamp
 * @end:   its last
 *
 * Out of line: on the cycle counter it runs only for the few windows open
 * across a fall back or a rescale (dropped and counted), for an end read
 * before the start (a negative sample, which the histogram counts as
 * such), for windows of LH_CLOCK_WINDOW_MAX counts or more (above every
 * histogram's range) and for the one window in 1000 that one scaling does
 * not tell (lh_cycles_window_us_quick()); with clock=kernel, for every
 * sample.
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
		diff = lh_clock_delta_ns(start, end);
	return div_s64(diff, NSEC_PER_USEC);
}

#ifdef LH_HAVE_TSC_CLOCK
/*
 * lh_clock_verdict - the kernel's verdict against the counter since load,
 * at a timekeeping update (@tk), or NULL: a TSC marked unstable
 */
static const char *lh_clock_verdict(void *tk)
{
	return check_tsc_unstable() ? "tsc_marked_unstable_since_load" : NULL;
}

/* lh_clock_rate - the TSC's rate now, in kHz: refined after boot, maybe */
static u32 lh_clock_rate(void)
{
	return READ_ONCE(tsc_khz);
}

/*
 * lh_clock_vouch - why the kernel vouches for the TSC (NULL if not, and
 * @why_not), its rate: @freq per 1/@per second
 */
static const char *lh_clock_vouch(u32 *freq, u32 *per, const char **why_not)
{
	*freq = lh_clock_rate();
	*per = MSEC_PER_SEC;
	if (!boot_cpu_has(X86_FEATURE_TSC) || !tsc_khz) {
		*why_not = "no_tsc_rate";
		return NULL;
	}
	if (check_tsc_unstable()) {
		*why_not = "tsc_marked_unstable";
		return NULL;
	}
	if (boot_cpu_has(X86_FEATURE_TSC_RELIABLE))
		return "tsc_reliable";
	if (boot_cpu_has(X86_FEATURE_CONSTANT_TSC) &&
	    boot_cpu_has(X86_FEATURE_NONSTOP_TSC))
		return "constant_tsc+nonstop_tsc";
	if (lh_clocksource_is_tsc())
		return "clocksource_tsc";
	*why_not = "tsc_not_clocksource_nor_constant+nonstop";
	return NULL;
}
#endif

#ifdef LH_HAVE_ARCH_TIMER_CLOCK
#define LH_ARCH_COUNTER_CS	"arch_sys_counter"

/* The clocksource the counter was taken on; set by the first watch. */
static struct clocksource *lh_clock_cs;

/*
 * lh_clock_verdict - the kernel's verdict against the counter since load,
 * at a timekeeping update (@tk), or NULL. The first update (at
 * registration, before any probe is hooked) checks that timekeeping reads
 * the counter, at CNTFRQ; later ones that it still reads it.
 */
static const char *lh_clock_verdict(void *priv)
{
	struct timekeeper *tk = priv;
	struct clocksource *cs = tk->tkr_mono.clock;
	u64 sec_ns;

	if (cs == lh_clock_cs)
		return NULL;
	if (lh_clock_cs)
		return "clocksource_changed_since_load";
	if (strcmp(cs->name, LH_ARCH_COUNTER_CS))
		return "clocksource_not_arch_sys_counter";
	/* One second of counts, in the clocksource's ns, within 0.1 %. */
	sec_ns = mul_u64_u32_shr(arch_timer_get_cntfrq(), cs->mult, cs->shift);
	if (sec_ns < NSEC_PER_SEC - NSEC_PER_MSEC ||
	    sec_ns > NSEC_PER_SEC + NSEC_PER_MSEC)
		return "cntfrq_not_the_clocksource_rate";
	lh_clock_cs = cs;
	return NULL;
}

/*
 * lh_clock_rate - the counter's rate now: the one at load (CNTFRQ is set by
 * the firmware; the kernel never changes the counter's rate)
 */
static u32 lh_clock_rate(void)
{
	return lh_clock_freq;
}

/* lh_clock_vouch - the counter's rate in Hz; the notifier checks the rest */
static const char *lh_clock_vouch(u32 *freq, u32 *per, const char **why_not)
{
	*freq = arch_timer_get_cntfrq();
	*per = 1;
	if (!*freq) {
		*why_not = "no_arch_counter_rate";
		return NULL;
	}
	return "clocksource_" LH_ARCH_COUNTER_CS;
}
#endif

#ifdef LH_HAVE_CYCLE_CLOCK
/* lh_clock_fall_back - read the kernel's clocks from now on, for good: @why */
static void lh_clock_fall_back(const char *why)
{
	WRITE_ONCE(lh_clock_why, why);
	/* Pairs with nothing: each reading carries its clock's mark. */
	WRITE_ONCE(lh_clock.mark, 0);
}

/*
 * lh_clock_rescale - the kernel changed the counter's rate to @freq: scale
 * the stamps of a new generation at it. A window open across the change
 * has ends of two generations and is dropped (lh_clock_window_us()), and
 * explain's replay skips the events of the old one; a window read wholly
 * in the old one is still scaled at its own rate until the next change
 * rewrites that generation's mult. Under the timekeeper's lock, or in
 * lh_clock_resume(): never both at once. Return: NULL, or why to fall back
 * instead.
 */
static const char *lh_clock_rescale(u32 freq)
{
	u64 mark = lh_clock.mark ^ LH_CLOCK_SCALE_BIT, mult = 0;

	if (freq)
		mult = lh_clock_calc_mult(freq, NSEC_PER_SEC / lh_clock_per,
					  lh_clock.shift);
	if (!mult || mult > U32_MAX)
		return "rate_changed_beyond_the_scale";
	WRITE_ONCE(*lh_clock_mult_slot(mark), mult);
	/* Pairs with the address dependency of lh_clock_mult(). */
	smp_wmb();
	WRITE_ONCE(lh_clock.mark, mark);
	lh_clock_freq = freq;
	return NULL;
}

/*
 * lh_clock_watch - timekeeping was updated (every tick of the CPU that keeps
 * time, and at every clocksource change): if the kernel has given its
 * verdict against the counter since, fall back to the kernel's clocks for
 * good; if it changed the counter's rate, rescale. Under the timekeeper's
 * raw lock with its sequence count held for writing: it reads no clock and
 * takes no lock.
 */
static int lh_clock_watch(struct notifier_block *nb, unsigned long was_set,
			  void *priv)
{
	const char *verdict;

	if (!lh_clock_on_cycles())
		return NOTIFY_DONE;
	verdict = lh_clock_verdict(priv);
	if (!verdict && unlikely(lh_clock_rate() != lh_clock_freq))
		verdict = lh_clock_rescale(lh_clock_rate());
	if (verdict)
		lh_clock_fall_back(verdict);
	return NOTIFY_DONE;
}

static struct notifier_block lh_clock_nb = {
	.notifier_call = lh_clock_watch,
};

/*
 * lh_clock_resume - syscore resume from S3 or hibernation: start a new
 * generation, at the counter's rate now. A TSC restarts near 0 in S3 (the
 * kernel adds an offset to local_clock() for it; stamps have none); one
 * that runs through it counts the whole sleep. Either way a window open
 * across the sleep is not latency: its ends now carry two generations and
 * it is dropped, as across a rescale, and explain's replay skips the
 * events before it. Runs on the boot CPU with interrupts off and the other
 * CPUs offline, so never at once with lh_clock_watch() (the other writer;
 * timekeeping's own resume is a syscore callback too), and it publishes
 * the generation as a rescale does. A window that opened before the sleep
 * and closed on the new count before this runs would keep the old mark:
 * only the boot CPU runs then, with interrupts off, and the sections it
 * could close are not filed during a suspend (preemptirq.c).
 */
static void lh_clock_resume(void)
{
	const char *why;

	if (!lh_clock_on_cycles())
		return;
	why = lh_clock_rescale(lh_clock_rate());
	if (why)
		lh_clock_fall_back(why);
}

LH_DEFINE_SYSCORE_RESUME(lh_clock_syscore, lh_clock_resume);

static bool lh_clock_watched;	/* lh_clock_nb and lh_clock_syscore are registered */
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
#ifdef LH_HAVE_CYCLE_CLOCK
	const char *why_not = NULL, *why;
	u32 freq, per, mult, shift;
#endif

	if (lh_clock_param && strcmp(lh_clock_param, "auto")) {
		if (strcmp(lh_clock_param, "kernel")) {
			pr_err("clock=%s: not auto or kernel\n", lh_clock_param);
			return -EINVAL;
		}
		lh_clock_why = "clock_parameter_kernel";
		return 0;
	}
#ifdef LH_HAVE_CYCLE_CLOCK
	why = lh_clock_vouch(&freq, &per, &why_not);
	if (!why) {
		lh_clock_why = why_not;
		return 0;
	}
	lh_clock_why = why;
	/* ns = cycles * 10^9 / (freq * per) */
	lh_clock_freq = freq;
	lh_clock_per = per;
	shift = lh_clock_calc_shift(freq, NSEC_PER_SEC / per);
	mult = lh_clock_calc_mult(freq, NSEC_PER_SEC / per, shift);
	lh_clock_set_cycles(mult, shift);
	/*
	 * Registration runs the watch once: a TSC marked since, or an ARM
	 * counter that is not timekeeping's, is seen here.
	 */
	if (pvclock_gtod_register_notifier(&lh_clock_nb)) {
		WRITE_ONCE(lh_clock.mark, 0);
		lh_clock_why = "no_timekeeping_notifier";
		return 0;
	}
	lh_register_syscore(&lh_clock_syscore);
	lh_clock_watched = true;
	pr_debug("clock: %s at %u per 1/%u s, mult %u shift %u\n",
		 LH_CYCLE_CLOCK_NAME, freq, per, mult, shift);
#endif
	return 0;
}

/**
 * lh_clock_exit() - stop watching timekeeping and resumes
 *
 * Context: module exit. When it returns the watch is not running: the
 * chain is called and changed under the same lock; no resume runs while
 * a module unloads (tasks are frozen during a suspend).
 */
void lh_clock_exit(void)
{
#ifdef LH_HAVE_CYCLE_CLOCK
	if (!lh_clock_watched)
		return;
	lh_unregister_syscore(&lh_clock_syscore);
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
 * windows are read on (tsc, arch_counter, local_clock, mono_fast; timer_base for a timer's
 * offset, which is defined in the timer base's clock; timer_base+X for a
 * sum), why the cycle counter is or is not read, and the windows dropped
 * because their ends were read on different clocks (all types together).
 *
 * Context: process context.
 */
void lh_clock_status(struct seq_file *m, enum lh_hist_id id)
{
	enum lh_clock_kind kind = lh_switches[lh_hist_types[id].sw].clock;
	const char *name = lh_clock_on_cycles() ? LH_CYCLE_CLOCK_NAME :
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
