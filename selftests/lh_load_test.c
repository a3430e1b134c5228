// SPDX-License-Identifier: GPL-2.0
/*
 * lh_load_test - inject known preempt-off / irqs-off sections for the
 * latency_hist selftests
 *
 * The latency_hist tests need latencies whose length and place they know in
 * advance: a section with preemption or interrupts disabled on a chosen CPU,
 * of a chosen length, a chosen number of times. This module makes them, the
 * way kernel/trace/preemptirq_delay_test.c does for the irqsoff and
 * preemptoff tracers (which Debian does not build).
 *
 * Usage, all files in /sys/module/lh_load_test/parameters/:
 *
 *   insmod lh_load_test.ko cpu=1 delay_us=500 mode=irq count=10 gap_us=2000
 *   echo 1 > trigger			# runs the sections, returns when done
 *   echo preemptirq > mode; echo 1 > trigger
 *   echo 1 > nested; echo 1 > trigger	# the same with a nested pair inside
 *   echo hardirq > mode; echo 1 > trigger	# sections in a timer interrupt
 *   echo 1 > busy_gap; echo 1 > trigger	# ... while the CPU toggles preemption
 *   echo preempt > mode; echo 4000 > irq_spin_us; echo 1 > trigger
 *					# a timer interrupt spinning inside each
 *   cat sections_done			# sections completed since load
 *   cat spins				# hardirq mode: when each spin of the last run ran
 *   echo 70 > praecox_cancel		# arm and cancel 70 past-due sleepers
 *   echo 1 > mark_tsc_unstable; echo 1 > trigger	# x86: the kernel is told,
 *					# halfway through the first section, that
 *					# the TSC is unstable (latency_hist's
 *					# clock falls back with sections open)
 *   echo K > refine_tsc_khz; echo 1 > trigger	# x86: halfway through the
 *					# first section the kernel's tsc_khz
 *					# becomes K, as its refinement a second
 *					# after boot does (latency_hist rescales
 *					# with sections open); tsc_khz reads it
 *
 * Loading with trigger=1 also runs the sections once, from module init; if
 * that run fails, the load fails with its error.
 *
 * Each run creates a kthread named "lh_load_test", bound to @cpu, so it is
 * the culprit a histogram records. The thread spins for @delay_us with
 * preemption disabled ("preempt"), interrupts disabled ("irq"), or both
 * ("preemptirq"), through the traced preempt_disable()/local_irq_save(), so
 * the preemptirq tracepoints see the sections. In "hardirq" mode the section
 * is the callback of a pinned hard hrtimer instead, which spins @delay_us in
 * interrupt context on @cpu, @gap_us after the kthread arms it: a hard
 * interrupt that takes that long, for the tests that explain a latency by
 * the interrupts in its window. Meanwhile the kthread sleeps, or, with
 * @busy_gap, toggles preemption in a tight loop, so that the interrupt
 * lands inside the preemption tracepoints' probes. With @nested set, each
 * section disables the same things a second time halfway through and
 * re-enables them at once: an inner pair that must not end or split the
 * section. Between sections it sleeps @gap_us with everything enabled, plus
 * a part of @gap_spread_us that changes from one gap to the next, so that a
 * periodic task cannot stay in step with the sections.
 *
 * With @irq_spin_us in preempt mode, each section also arms that timer to
 * fire a quarter of the way into it and spin @irq_spin_us in interrupt
 * context: a hard interrupt inside a preempt-off section (the section is
 * still @delay_us of wall time, or longer if the interrupt outlasts it).
 *
 * On x86, with @nmi_spin_us, the timer's callback sends its own CPU an NMI
 * halfway through its spin (an NMI IPI through the exported apic driver,
 * as the kernel's NMI backtrace does); the module's NMI handler (an
 * NMI_LOCAL one) claims it and spins @nmi_spin_us there, so that the
 * nmi_handler tracepoint fires with a known duration inside a known
 * interrupt. It claims only the NMIs it asked for, so nothing is reported
 * as unknown and no backtrace is printed; "nmis" counts them.
 *
 * In hardirq mode (and with @irq_spin_us) the module also logs, for the last run, when each spin
 * began and ended on CLOCK_MONOTONIC (ktime_get_ns(), read in the callback
 * around the spin): "spins" prints one "<start_us> <end_us>" line per spin,
 * up to LH_SPIN_LOG of them, so a test can tell whether a window it measured
 * holds an injected spin or only an emulator stall.
 *
 * A write to trigger returns only when the run is over: the write's return
 * value is 0 (all sections done) or the error that stopped the run. Only a
 * fatal signal interrupts the wait (a shell's SIGCHLD must not), and then
 * the thread is stopped after its current section. Runs are serialised by
 * the module's parameter lock, which sysfs holds around every parameter
 * read and write: while a run is in progress, reading or writing any of
 * these files blocks until it ends, and rmmod waits for it too.
 *
 * A write of N to praecox_cancel arms N sleeper hrtimers (the callback of
 * nanosleep) with an expiry 50 ms in the past and cancels each before it
 * can fire, each in a kthread of its own (so at its own address), with
 * interrupts off: the sleepers a signal cuts short right after an overrun,
 * which latency_hist must not remember forever.
 *
 * WARNING: this module disables interrupts for up to 100 ms per section, on
 * purpose. Load it only in a test machine.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/preempt.h>
#include <linux/sched/task.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/timekeeping.h>

#ifdef CONFIG_X86_TSC
#include <asm/tsc.h>
#endif

#include <latency_hist/compat.h>

#include "lh_kthread_wait.h"

#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/irq_vectors.h>
#include <asm/nmi.h>
#define LH_HAVE_NMI_IPI	1
#else
#define LH_HAVE_NMI_IPI	0
#endif

#define LH_MAX_DELAY_US		100000	/* 100 ms: longest section we spin */
#define LH_MAX_COUNT		100000	/* sections per trigger */
#define LH_MAX_GAP_US		1000000	/* 1 s between sections */
#define LH_MAX_PRAECOX		200	/* past-due sleepers per write: a kthread each */
#define LH_PRAECOX_PAST_NS	(50 * NSEC_PER_MSEC)	/* how far in the past */
/*
 * Identical clock reads in a row after which a section gives up: a clock
 * that does not move with interrupts off (the jiffies clocksource) must not
 * turn a section into a hang.
 */
#define LH_CLOCK_STALL_READS	1000000
#define LH_SPIN_LOG		128	/* hardirq spins a run logs */

enum lh_mode {
	LH_MODE_PREEMPT,
	LH_MODE_IRQ,
	LH_MODE_PREEMPTIRQ,
	LH_MODE_HARDIRQ,
};

static const char * const lh_mode_names[] = {
	[LH_MODE_PREEMPT]	= "preempt",
	[LH_MODE_IRQ]		= "irq",
	[LH_MODE_PREEMPTIRQ]	= "preemptirq",
	[LH_MODE_HARDIRQ]	= "hardirq",
};

/* An unsigned parameter with the range its setter accepts. */
struct lh_uint_param {
	unsigned int val;
	unsigned int min;
	unsigned int max;
};

/*
 * Parameter state. Written only by the parameter setters and read only by
 * lh_run(), all under kernel_param_lock(THIS_MODULE).
 */
static int lh_cpu;
static enum lh_mode lh_mode = LH_MODE_IRQ;
static bool lh_nested;
static bool lh_busy_gap;
static bool lh_mark_tsc;
static unsigned int lh_refine_tsc_khz;
static struct lh_uint_param lh_delay_us = {
	.val = 100, .min = 1, .max = LH_MAX_DELAY_US,
};

static struct lh_uint_param lh_count = {
	.val = 1, .min = 1, .max = LH_MAX_COUNT,
};

static struct lh_uint_param lh_gap_us = {
	.val = 1000, .min = 0, .max = LH_MAX_GAP_US,
};

static struct lh_uint_param lh_gap_spread_us = {
	.val = 0, .min = 0, .max = LH_MAX_GAP_US,
};

static struct lh_uint_param lh_irq_spin_us = {
	.val = 0, .min = 0, .max = LH_MAX_DELAY_US,
};

/* 1 ms: the kernel reports an NMI handler that runs longer */
static struct lh_uint_param lh_nmi_spin_us = {
	.val = 0, .min = 0, .max = 900,
};

/* NMI: the spin of the one asked for (0: none asked), the ones claimed. */
#if LH_HAVE_NMI_IPI
static atomic64_t lh_nmi_pending_ns;
#endif
static unsigned long lh_nmis;

static unsigned long lh_sections_done;
/* Set once init is past the point where a trigger may run a load. */
static bool lh_ready;
/* trigger=1 given at load time; init runs it. */
static bool lh_trigger_at_load;

/*
 * hardirq mode: the timer whose callback is the section (runs are
 * serialised, so one is enough), how long it spins, whether it ran, and
 * what its spin returned. Set up at init, cancelled at exit.
 */
static struct hrtimer lh_hardirq_timer;
static u64 lh_hardirq_delay_ns;
static atomic_t lh_hardirq_fired;
static int lh_hardirq_err;

/*
 * hardirq mode: CLOCK_MONOTONIC at the start and the end of each spin of
 * the last run, the first LH_SPIN_LOG of them. Written by the callback
 * (one at a time: a run arms the timer only after the last one ran),
 * cleared by lh_run() before its thread starts, read by the "spins"
 * parameter under the parameter lock that serialises runs.
 */
static u64 lh_spin_start_ns[LH_SPIN_LOG], lh_spin_end_ns[LH_SPIN_LOG];
static unsigned int lh_nr_spins;

/* One run, shared by the trigger writer (owner, on its stack) and the kthread. */
struct lh_run {
	int cpu;
	enum lh_mode mode;
	bool nested;
	bool busy_gap;
	bool mark_tsc;		/* the first section marks the TSC unstable */
	unsigned int tsc_khz;	/* the first section sets tsc_khz to it */
	u64 delay_ns;
	unsigned int count;
	unsigned int gap_us;
	unsigned int gap_spread_us;
	u64 irq_spin_ns;	/* preempt mode: a timer interrupt spins inside */
	unsigned int nr_done;	/* written by the kthread until @finished */
	int err;		/* written by the kthread until @finished */
	struct completion finished;
};

/* lh_spin_ns - spin until @delay_ns have passed on the monotonic clock */
static int lh_spin_ns(u64 delay_ns)
{
	u64 start_ns, now_ns, last_ns;
	unsigned int stalled_reads = 0;

	/*
	 * Not local_clock(): with an unstable sched_clock (common under
	 * emulation) it is clamped to one tick past the last tick this CPU
	 * saw, so with interrupts off it would stop advancing.
	 */
	start_ns = ktime_get_ns();
	now_ns = start_ns;
	last_ns = start_ns;
	while (now_ns - start_ns < delay_ns) {
		cpu_relax();
		now_ns = ktime_get_ns();
		if (now_ns != last_ns) {
			last_ns = now_ns;
			stalled_reads = 0;
		} else if (++stalled_reads > LH_CLOCK_STALL_READS) {
			return -ETIME;
		}
	}
	return 0;
}

/* lh_disable - disable what @mode names; returns the saved irq flags */
static unsigned long lh_disable(enum lh_mode mode)
{
	unsigned long flags = 0;

	if (mode != LH_MODE_IRQ)
		preempt_disable();
	if (mode != LH_MODE_PREEMPT)
		local_irq_save(flags);
	return flags;
}

/* lh_enable - undo lh_disable(), in reverse order */
static void lh_enable(enum lh_mode mode, unsigned long flags)
{
	if (mode != LH_MODE_PREEMPT)
		local_irq_restore(flags);
	if (mode != LH_MODE_IRQ)
		preempt_enable();
}

/* lh_mark_tsc_unstable - tell the kernel the TSC is unstable (x86 only) */
static void lh_mark_tsc_unstable(void)
{
#ifdef CONFIG_X86_TSC
	mark_tsc_unstable("lh_load_test mark_tsc_unstable=1");
#endif
}

/*
 * lh_refine_tsc - set the kernel's tsc_khz to @khz, as
 * tsc_refine_calibration_work() does (x86 only)
 */
static void lh_refine_tsc(unsigned int khz)
{
#ifdef CONFIG_X86_TSC
	WRITE_ONCE(tsc_khz, khz);
#endif
}

/* lh_hardirq_arm - arm the spinning timer @delay_ns ahead on this CPU */
static void lh_hardirq_arm(u64 spin_ns, u64 delay_ns)
{
	WRITE_ONCE(lh_hardirq_delay_ns, spin_ns);
	atomic_set(&lh_hardirq_fired, 0);
	hrtimer_start(&lh_hardirq_timer, ns_to_ktime(delay_ns),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * lh_hardirq_wait - wait until the armed timer's callback has run, asleep
 * or toggling preemption (@busy); its spin's result, or -EINTR if stopped
 */
static int lh_hardirq_wait(bool busy)
{
	while (!atomic_read_acquire(&lh_hardirq_fired)) {
		if (kthread_should_stop()) {
			hrtimer_cancel(&lh_hardirq_timer);
			return -EINTR;
		}
		if (busy) {
			/* each pair is one outermost preempt-off section */
			preempt_disable();
			preempt_enable();
			cpu_relax();
		} else {
			usleep_range(100, 200);
		}
	}
	return lh_hardirq_err;
}

/* lh_section - hold the CPU with preemption and/or interrupts off once */
static int lh_section(const struct lh_run *run)
{
	unsigned long flags, inner_flags;
	u64 first_ns = run->nested || run->mark_tsc || run->tsc_khz ?
		       run->delay_ns / 2 : 0;
	int ret;

	flags = lh_disable(run->mode);
	if (run->irq_spin_ns)
		lh_hardirq_arm(run->irq_spin_ns, run->delay_ns / 4);
	ret = lh_spin_ns(first_ns);
	if (!ret && run->nested) {
		inner_flags = lh_disable(run->mode);
		lh_enable(run->mode, inner_flags);
	}
	if (!ret && run->mark_tsc)
		lh_mark_tsc_unstable();
	if (!ret && run->tsc_khz)
		lh_refine_tsc(run->tsc_khz);
	if (!ret)
		ret = lh_spin_ns(run->delay_ns - first_ns);
	lh_enable(run->mode, flags);
	if (run->irq_spin_ns) {
		int irq_ret = lh_hardirq_wait(false);

		ret = ret ? ret : irq_ret;
	}
	if (ret == -ETIME)
		pr_err("clock did not advance during a section, run aborted\n");
	return ret;
}

#if LH_HAVE_NMI_IPI
/*
 * lh_nmi_fn - claim the NMI lh_hardirq_fn() sent, if one is pending, and
 * spin its time (on the NMI-safe clock: ktime_get_ns() is not)
 */
static int lh_nmi_fn(unsigned int type, struct pt_regs *regs)
{
	u64 spin_ns = atomic64_xchg(&lh_nmi_pending_ns, 0), start_ns;

	if (!spin_ns)
		return NMI_DONE;
	start_ns = ktime_get_mono_fast_ns();
	while (ktime_get_mono_fast_ns() - start_ns < spin_ns)
		cpu_relax();
	WRITE_ONCE(lh_nmis, READ_ONCE(lh_nmis) + 1);
	return NMI_HANDLED;
}
#endif

/*
 * lh_hardirq_spin - spin @delay_ns in interrupt context, with an NMI to
 * this CPU halfway through if @nmi_spin_us asks for one (x86)
 */
static int lh_hardirq_spin(u64 delay_ns)
{
	u64 nmi_ns = (u64)READ_ONCE(lh_nmi_spin_us.val) * NSEC_PER_USEC;
	int ret;

	if (!LH_HAVE_NMI_IPI || !nmi_ns)
		return lh_spin_ns(delay_ns);
	ret = lh_spin_ns(delay_ns / 2);
#if LH_HAVE_NMI_IPI
	atomic64_set(&lh_nmi_pending_ns, nmi_ns);
	apic->send_IPI_mask(cpumask_of(smp_processor_id()), NMI_VECTOR);
#endif
	return ret ? ret : lh_spin_ns(delay_ns - delay_ns / 2);
}

/* lh_hardirq_fn - hardirq mode: the section is this timer interrupt */
static enum hrtimer_restart lh_hardirq_fn(struct hrtimer *timer)
{
	u64 start_ns = ktime_get_ns();

	lh_hardirq_err = lh_hardirq_spin(READ_ONCE(lh_hardirq_delay_ns));
	if (lh_nr_spins < LH_SPIN_LOG) {
		lh_spin_start_ns[lh_nr_spins] = start_ns;
		lh_spin_end_ns[lh_nr_spins] = ktime_get_ns();
		lh_nr_spins++;
	}
	/* Release: the kthread reads lh_hardirq_err after it sees this. */
	atomic_set_release(&lh_hardirq_fired, 1);
	return HRTIMER_NORESTART;
}

/*
 * lh_hardirq_section - hardirq mode: arm the timer @gap_us ahead and wait
 * until its callback has run, asleep or toggling preemption
 */
static int lh_hardirq_section(struct lh_run *run, unsigned int gap_us)
{
	lh_hardirq_arm(run->delay_ns, (u64)gap_us * NSEC_PER_USEC);
	return lh_hardirq_wait(run->busy_gap);
}

/*
 * lh_gap_of - the sleep after section @i: @gap_us plus a multiplicative
 * hash of @i spread over 0..@gap_spread_us, the same for every run
 */
static unsigned int lh_gap_of(const struct lh_run *run, unsigned int i)
{
	u32 hash = (i + 1) * 2654435761U;

	return run->gap_us + (u32)(((u64)hash * (run->gap_spread_us + 1)) >> 32);
}

/* lh_load_thread - kthread body: run the sections, then wait to be joined */
static int lh_load_thread(void *data)
{
	struct lh_run *run = data;
	unsigned int i, gap_us;

	for (i = 0; i < run->count && !kthread_should_stop(); i++) {
		if (run->mode == LH_MODE_HARDIRQ) {
			/* the gap comes before each section: the timer's delay */
			run->err = lh_hardirq_section(run, lh_gap_of(run, i));
			if (run->err)
				break;
			run->nr_done++;
			continue;
		}
		run->err = lh_section(run);
		run->mark_tsc = false;
		run->tsc_khz = 0;
		if (run->err)
			break;
		run->nr_done++;
		if (i + 1 == run->count)
			break;
		gap_us = lh_gap_of(run, i);
		if (gap_us)
			usleep_range(gap_us, gap_us + gap_us / 8);
		else
			cond_resched();
	}
	complete(&run->finished);
	return lh_kthread_wait_stop();
}

/* lh_run - run the configured sections on the target CPU and wait for them */
static int lh_run(void)
{
	struct lh_run run = {
		.cpu = lh_cpu,
		.mode = lh_mode,
		.nested = lh_nested,
		.busy_gap = lh_busy_gap,
		.mark_tsc = lh_mark_tsc,
		.tsc_khz = lh_refine_tsc_khz,
		.delay_ns = (u64)lh_delay_us.val * NSEC_PER_USEC,
		.count = lh_count.val,
		.gap_us = lh_gap_us.val,
		.gap_spread_us = lh_gap_spread_us.val,
		.irq_spin_ns = (u64)lh_irq_spin_us.val * NSEC_PER_USEC,
	};
	struct task_struct *task;
	int ret;

#ifndef CONFIG_X86_TSC
	if (run.mark_tsc || run.tsc_khz) {
		pr_err("mark_tsc_unstable, refine_tsc_khz: no TSC on this architecture\n");
		return -EOPNOTSUPP;
	}
#endif
	if (run.tsc_khz && run.mode == LH_MODE_HARDIRQ) {
		pr_err("refine_tsc_khz: not in hardirq mode\n");
		return -EINVAL;
	}
	if (run.mark_tsc && (run.mode == LH_MODE_HARDIRQ ||
			     IS_ENABLED(CONFIG_PREEMPT_RT))) {
		/* it takes the clocksource watchdog's (sleeping on RT) lock */
		pr_err("mark_tsc_unstable: not in hardirq mode nor on PREEMPT_RT\n");
		return -EINVAL;
	}
	lh_mark_tsc = false;	/* once */
	lh_refine_tsc_khz = 0;
	/* The CPU was online when cpu= was written; it may not be now. */
	if (!cpu_online(run.cpu)) {
		pr_err("cpu %d is offline\n", run.cpu);
		return -EINVAL;
	}
	/* Interrupts cannot come inside a section that has them off. */
	if (run.irq_spin_ns && run.mode != LH_MODE_PREEMPT) {
		pr_err("irq_spin_us needs mode=preempt\n");
		return -EINVAL;
	}
	init_completion(&run.finished);
	lh_nr_spins = 0;
	task = kthread_create(lh_load_thread, &run, "lh_load_test");
	if (IS_ERR(task))
		return PTR_ERR(task);
	kthread_bind(task, run.cpu);
	wake_up_process(task);

	ret = wait_for_completion_killable(&run.finished);
	/* Joins the thread; if we were killed, it stops after its section. */
	kthread_stop(task);

	lh_sections_done += run.nr_done;
	return ret ? ret : run.err;
}

/* struct lh_praecox_run - one praecox_cancel write, shared with its kthreads */
struct lh_praecox_run {
	atomic_t nr_armed;	/* kthreads that armed and cancelled their sleeper */
	atomic_t nr_failed;	/* ... whose sleeper fired before the cancel */
	unsigned int n;
	struct completion all_armed;
};

/*
 * lh_praecox_thread - arm a sleeper on this kthread's own stack with an
 * expiry in the past and cancel it before it fires (interrupts are off on
 * this CPU, so the interrupt the arming programs cannot run first); then
 * stay until stopped, so the next kthread's sleeper lies elsewhere: timers
 * at one address would replace each other's entries in latency_hist
 */
static int lh_praecox_thread(void *data)
{
	struct lh_praecox_run *run = data;
	ktime_t past = ktime_sub_ns(ktime_get(), LH_PRAECOX_PAST_NS);
	struct hrtimer_sleeper sl;
	unsigned long flags;
	int ret;

	lh_hrtimer_sleeper_on_stack(&sl);
	hrtimer_set_expires(&sl.timer, past);
	local_irq_save(flags);
	hrtimer_sleeper_start_expires(&sl, HRTIMER_MODE_ABS_PINNED);
	ret = hrtimer_try_to_cancel(&sl.timer);
	local_irq_restore(flags);
	/* Not cancelled: it fired; it must be over before the stack goes. */
	if (ret != 1) {
		hrtimer_cancel(&sl.timer);
		atomic_inc(&run->nr_failed);
	}
	destroy_hrtimer_on_stack(&sl.timer);
	if (atomic_inc_return(&run->nr_armed) == run->n)
		complete(&run->all_armed);
	return lh_kthread_wait_stop();
}

/*
 * lh_praecox_cancel - arm and cancel @n past-due sleepers, each in a
 * kthread of its own, all alive until every one is done
 */
static int lh_praecox_cancel(unsigned int n)
{
	struct lh_praecox_run run = { .n = n };
	struct task_struct **tasks;
	unsigned int i, started = 0;
	int ret = 0;

	tasks = kcalloc(n, sizeof(*tasks), GFP_KERNEL);
	if (!tasks)
		return -ENOMEM;
	init_completion(&run.all_armed);
	for (i = 0; i < n; i++) {
		tasks[i] = kthread_run(lh_praecox_thread, &run, "lh_praecox/%u", i);
		if (IS_ERR(tasks[i])) {
			ret = PTR_ERR(tasks[i]);
			break;
		}
		get_task_struct(tasks[i]);
		started++;
	}
	if (started == n)
		wait_for_completion(&run.all_armed);
	/* Each stopped kthread has armed already (kthread_stop waits for it). */
	for (i = 0; i < started; i++) {
		kthread_stop(tasks[i]);
		put_task_struct(tasks[i]);
	}
	kfree(tasks);
	if (!ret && atomic_read(&run.nr_failed)) {
		pr_err("praecox_cancel: %d sleepers fired before they could be cancelled\n",
		       atomic_read(&run.nr_failed));
		ret = -EAGAIN;
	}
	return ret;
}

/* lh_praecox_cancel_set - praecox_cancel=N: arm and cancel N past-due sleepers */
static int lh_praecox_cancel_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;

	if (kstrtouint(val, 0, &n) || !n || n > LH_MAX_PRAECOX) {
		pr_err("praecox_cancel: want a count in 1..%u\n", LH_MAX_PRAECOX);
		return -EINVAL;
	}
	if (!lh_ready)
		return -EBUSY;
	return lh_praecox_cancel(n);
}

static const struct kernel_param_ops lh_praecox_cancel_ops = {
	.set = lh_praecox_cancel_set,
};

/* lh_uint_param_set - parse an unsigned parameter and check its range */
static int lh_uint_param_set(const char *val, const struct kernel_param *kp)
{
	struct lh_uint_param *param = kp->arg;
	unsigned int new_val;

	if (kstrtouint(val, 0, &new_val) || new_val < param->min ||
	    new_val > param->max) {
		pr_err("%s: want an integer in %u..%u\n", kp->name,
		       param->min, param->max);
		return -EINVAL;
	}
	param->val = new_val;
	return 0;
}

/* lh_uint_param_get - print an unsigned parameter */
static int lh_uint_param_get(char *buffer, const struct kernel_param *kp)
{
	const struct lh_uint_param *param = kp->arg;

	return sysfs_emit(buffer, "%u\n", param->val);
}

static const struct kernel_param_ops lh_uint_param_ops = {
	.set = lh_uint_param_set,
	.get = lh_uint_param_get,
};

/* lh_cpu_param_set - accept an online CPU number */
static int lh_cpu_param_set(const char *val, const struct kernel_param *kp)
{
	int cpu;

	if (kstrtoint(val, 0, &cpu) || cpu < 0 || cpu >= nr_cpu_ids ||
	    !cpu_online(cpu)) {
		pr_err("cpu: want an online CPU number\n");
		return -EINVAL;
	}
	lh_cpu = cpu;
	return 0;
}

static const struct kernel_param_ops lh_cpu_param_ops = {
	.set = lh_cpu_param_set,
	.get = param_get_int,
};

/* lh_mode_param_set - accept "preempt", "irq", "preemptirq" or "hardirq" */
static int lh_mode_param_set(const char *val, const struct kernel_param *kp)
{
	int mode = sysfs_match_string(lh_mode_names, val);

	if (mode < 0) {
		pr_err("mode: want preempt, irq, preemptirq or hardirq\n");
		return -EINVAL;
	}
	lh_mode = mode;
	return 0;
}

/* lh_mode_param_get - print the mode name */
static int lh_mode_param_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%s\n", lh_mode_names[lh_mode]);
}

static const struct kernel_param_ops lh_mode_param_ops = {
	.set = lh_mode_param_set,
	.get = lh_mode_param_get,
};

/* lh_trigger_set - on "1", run the sections now (or from init at load) */
static int lh_trigger_set(const char *val, const struct kernel_param *kp)
{
	unsigned int go;

	if (kstrtouint(val, 0, &go) || go != 1) {
		pr_err("trigger: write 1 to run the sections\n");
		return -EINVAL;
	}
	/* At load time the other parameters may not be parsed yet. */
	if (!lh_ready) {
		lh_trigger_at_load = true;
		return 0;
	}
	return lh_run();
}

static const struct kernel_param_ops lh_trigger_ops = {
	.set = lh_trigger_set,
};

/* lh_readonly_set - refuse to set a result parameter */
static int lh_readonly_set(const char *val, const struct kernel_param *kp)
{
	pr_err("%s is read-only\n", kp->name);
	return -EINVAL;
}

static const struct kernel_param_ops lh_readonly_ulong_ops = {
	.set = lh_readonly_set,
	.get = param_get_ulong,
};

/* lh_spins_get - print "<start_us> <end_us>" per logged spin of the last run */
static int lh_spins_get(char *buffer, const struct kernel_param *kp)
{
	unsigned int i;
	int len = 0;

	for (i = 0; i < lh_nr_spins; i++)
		len += sysfs_emit_at(buffer, len, "%llu %llu\n",
				     div_u64(lh_spin_start_ns[i], NSEC_PER_USEC),
				     div_u64(lh_spin_end_ns[i], NSEC_PER_USEC));
	return len;
}

static const struct kernel_param_ops lh_spins_ops = {
	.set = lh_readonly_set,
	.get = lh_spins_get,
};

module_param_cb(cpu, &lh_cpu_param_ops, &lh_cpu, 0644);
MODULE_PARM_DESC(cpu, "CPU the sections run on (0 default)");
module_param_cb(mode, &lh_mode_param_ops, NULL, 0644);
MODULE_PARM_DESC(mode, "What a section disables: preempt, irq or preemptirq; or hardirq: a timer interrupt (irq default)");
module_param_named(nested, lh_nested, bool, 0644);
MODULE_PARM_DESC(nested, "Disable once more halfway through each section (0 default)");
module_param_named(mark_tsc_unstable, lh_mark_tsc, bool, 0644);
MODULE_PARM_DESC(mark_tsc_unstable, "x86, not PREEMPT_RT: the next run's first section marks the TSC unstable halfway through (0 default)");
module_param_named(refine_tsc_khz, lh_refine_tsc_khz, uint, 0644);
MODULE_PARM_DESC(refine_tsc_khz, "x86: the next run's first section sets the kernel's tsc_khz to this halfway through (0 default: leave it)");
#ifdef CONFIG_X86_TSC
module_param_named(tsc_khz, tsc_khz, uint, 0444);
MODULE_PARM_DESC(tsc_khz, "x86: the kernel's tsc_khz");
#endif
module_param_named(busy_gap, lh_busy_gap, bool, 0644);
MODULE_PARM_DESC(busy_gap, "hardirq mode: toggle preemption in a loop until each interrupt, instead of sleeping (0 default)");
module_param_cb(delay_us, &lh_uint_param_ops, &lh_delay_us, 0644);
MODULE_PARM_DESC(delay_us, "Length of each section in microseconds, 1..100000 (100 us default)");
module_param_cb(count, &lh_uint_param_ops, &lh_count, 0644);
MODULE_PARM_DESC(count, "Sections per trigger, 1..100000 (1 default)");
module_param_cb(gap_us, &lh_uint_param_ops, &lh_gap_us, 0644);
MODULE_PARM_DESC(gap_us, "Sleep between sections in microseconds, 0..1000000 (1000 us default)");
module_param_cb(gap_spread_us, &lh_uint_param_ops, &lh_gap_spread_us, 0644);
MODULE_PARM_DESC(gap_spread_us, "Add 0..this many microseconds to each gap, varying, 0..1000000 (0 default)");
module_param_cb(irq_spin_us, &lh_uint_param_ops, &lh_irq_spin_us, 0644);
MODULE_PARM_DESC(irq_spin_us, "preempt mode: a timer interrupt a quarter into each section spins this many microseconds, 0..100000 (0 default: none)");
module_param_cb(nmi_spin_us, &lh_uint_param_ops, &lh_nmi_spin_us, 0644);
MODULE_PARM_DESC(nmi_spin_us, "x86: the timer interrupt sends its CPU an NMI halfway, whose handler spins this many microseconds, 0..900 (0 default: none)");
module_param_cb(nmis, &lh_readonly_ulong_ops, &lh_nmis, 0444);
MODULE_PARM_DESC(nmis, "NMIs the module sent itself and claimed since load (read-only)");
module_param_cb(trigger, &lh_trigger_ops, NULL, 0200);
MODULE_PARM_DESC(trigger, "Write 1 to run the sections; returns when they are done");
module_param_cb(sections_done, &lh_readonly_ulong_ops, &lh_sections_done, 0444);
MODULE_PARM_DESC(sections_done, "Sections completed since load (read-only)");
module_param_cb(spins, &lh_spins_ops, NULL, 0444);
MODULE_PARM_DESC(spins, "hardirq mode: \"<start_us> <end_us>\" of each spin of the last run, CLOCK_MONOTONIC (read-only)");
module_param_cb(praecox_cancel, &lh_praecox_cancel_ops, NULL, 0200);
MODULE_PARM_DESC(praecox_cancel, "Write N: arm N sleeper timers 50 ms past due and cancel each before it fires");

/* lh_load_test_init - run the load-time trigger, if any, and open for triggers */
static int __init lh_load_test_init(void)
{
	int ret = 0;

	lh_hrtimer_setup(&lh_hardirq_timer, lh_hardirq_fn, CLOCK_MONOTONIC,
			 HRTIMER_MODE_REL_PINNED_HARD);
#if LH_HAVE_NMI_IPI
	ret = register_nmi_handler(NMI_LOCAL, lh_nmi_fn, 0, "lh_load_test");
	if (ret)
		return ret;
#endif
	kernel_param_lock(THIS_MODULE);
	if (lh_trigger_at_load)
		ret = lh_run();
	lh_ready = true;
	kernel_param_unlock(THIS_MODULE);
#if LH_HAVE_NMI_IPI
	if (ret)
		unregister_nmi_handler(NMI_LOCAL, "lh_load_test");
#endif
	return ret;
}

/*
 * lh_load_test_exit - no run outlives its trigger write, and a run waits for
 * every timer it arms or cancels it: the cancel is for symmetry only
 */
static void __exit lh_load_test_exit(void)
{
	hrtimer_cancel(&lh_hardirq_timer);
#if LH_HAVE_NMI_IPI
	unregister_nmi_handler(NMI_LOCAL, "lh_load_test");
#endif
}

module_init(lh_load_test_init);
module_exit(lh_load_test_exit);
MODULE_DESCRIPTION("Preempt-off / irqs-off section generator for the latency_hist selftests");
MODULE_LICENSE("GPL");
