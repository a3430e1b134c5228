// SPDX-License-Identifier: GPL-2.0
/*
 * lh_softirq_test - raises of a softirq vector the softirq type's selftest
 * controls
 *
 * The softirq type measures a vector's first raise on a CPU to its entry
 * there. To know how many raises came and what delayed their runs, this
 * module raises HI_SOFTIRQ through a tasklet of its own
 * (tasklet_hi_schedule(), which raises the vector when the tasklet was not
 * scheduled yet), and waits for the tasklet to run before it raises again:
 * so each raise is a first raise, and runs once.
 *
 * Usage, all files in /sys/module/lh_softirq_test/parameters/:
 *
 *   insmod lh_softirq_test.ko cpu=1	# raises on CPU 1
 *   echo 20 > count; echo 2000 > gap_us; echo 1 > trigger
 *					# 20 raises from a hard hrtimer, 2 ms apart
 *   echo 5000 > hold_us; echo 1 > trigger
 *					# each inside a bottom-halves-off section
 *   cat raised ran			# raises / tasklet runs since load
 *
 * A run is a kthread "lh_softirq_hold" bound to @cpu. Per raise it either
 * arms a pinned hard hrtimer LH_RAISE_DELAY_US ahead whose interrupt
 * raises the vector (it runs at irq_exit, or in ksoftirqd on PREEMPT_RT),
 * or, with @hold_us, disables bottom halves, raises the vector itself and
 * spins @hold_us on the clock before enabling them again, so the vector
 * runs at that local_bh_enable(), in lh_softirq_hold: a sample of at least
 * @hold_us whose culprit is lh_softirq_hold. With @pending_us as well, the
 * section first marks the vector pending without a raise event (a raise
 * latency_hist did not see) and spins @pending_us before it raises: a
 * raise while the vector is pending, which starts no window. Then it waits for the tasklet
 * and sleeps @gap_us. A write to trigger returns when the run is over: 0,
 * or -ETIMEDOUT if a raise did not run within a second. Runs are
 * serialised by the module's parameter lock.
 *
 *   insmod lh_softirq_test.ko cpu=1 reset_stall_us=5000
 *
 * also stalls every reset of a latency_hist type that long, by a kprobe
 * on lh_counters_reset(), which control.c calls after it has emptied the
 * histograms: samples filed meanwhile are in them, and must be in the
 * lines too (softirq_lines_reset.sh).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bottom_half.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/wait.h>

#include <latency_hist/compat.h>

#include "lh_cpu_run.h"

#define LH_RAISE_DELAY_US	20	/* from arming the timer to its raise */
#define LH_RAN_TIMEOUT		HZ	/* for a raise to run */

static unsigned int lh_cpu = 1;
module_param_named(cpu, lh_cpu, uint, 0444);
MODULE_PARM_DESC(cpu, "the CPU the vector is raised on (load time)");
static unsigned int lh_count = 10;
module_param_named(count, lh_count, uint, 0644);
MODULE_PARM_DESC(count, "raises per run");
static unsigned int lh_gap_us = 2000;
module_param_named(gap_us, lh_gap_us, uint, 0644);
MODULE_PARM_DESC(gap_us, "microseconds between two raises");
static unsigned int lh_hold_us;
module_param_named(hold_us, lh_hold_us, uint, 0644);
MODULE_PARM_DESC(hold_us, "raise inside a bottom-halves-off section this long (0: from a timer)");
static unsigned int lh_reset_stall_us;
static unsigned int lh_pending_us;
module_param_named(pending_us, lh_pending_us, uint, 0644);
MODULE_PARM_DESC(pending_us, "with hold_us: mark the vector pending unseen this long before the raise");

module_param_named(reset_stall_us, lh_reset_stall_us, uint, 0444);
MODULE_PARM_DESC(reset_stall_us, "stall each reset of latency_hist after its histograms are emptied (load time; 0: no)");
static atomic_t lh_raised = ATOMIC_INIT(0);
module_param_named(raised, lh_raised.counter, int, 0444);
MODULE_PARM_DESC(raised, "raises of HI_SOFTIRQ since load");
static atomic_t lh_ran = ATOMIC_INIT(0);
module_param_named(ran, lh_ran.counter, int, 0444);
MODULE_PARM_DESC(ran, "runs of the tasklet since load");

static DECLARE_WAIT_QUEUE_HEAD(lh_ran_wq);
static struct hrtimer lh_raise_timer;
static struct tasklet_struct lh_tasklet;

/* lh_raise - schedule the tasklet: HI_SOFTIRQ is raised on this CPU */
static void lh_raise(void)
{
	atomic_inc(&lh_raised);
	tasklet_hi_schedule(&lh_tasklet);
}

/* lh_raise_fn - the timer interrupt: raise the vector */
static enum hrtimer_restart lh_raise_fn(struct hrtimer *timer)
{
	lh_raise();
	return HRTIMER_NORESTART;
}

/* lh_tasklet_fn - the vector's run */
static void lh_tasklet_fn(struct tasklet_struct *t)
{
	atomic_inc(&lh_ran);
	wake_up(&lh_ran_wq);
}

/* lh_spin_us - spin @us on the clock */
static void lh_spin_us(unsigned int us)
{
	ktime_t start = ktime_get();

	while (ktime_us_delta(ktime_get(), start) < us)
		cpu_relax();
}

/*
 * lh_mark_pending - HI pending on this CPU with no softirq_raise event: a
 * raise latency_hist did not see, as one before the type was enabled or
 * its CPU came online (interrupts off, as raise_softirq() has them)
 */
static void lh_mark_pending(void)
{
	unsigned long flags;

	local_irq_save(flags);
	or_softirq_pending(BIT(HI_SOFTIRQ));
	local_irq_restore(flags);
}

/* lh_raise_one - raise once, from the timer or in a BH-off section */
static int lh_raise_one(unsigned int hold_us)
{
	unsigned int pending_us = READ_ONCE(lh_pending_us);
	int target = atomic_read(&lh_ran) + 1;

	if (hold_us) {
		local_bh_disable();
		if (pending_us) {
			lh_mark_pending();
			lh_spin_us(pending_us);
		}
		lh_raise();
		lh_spin_us(hold_us);
		local_bh_enable();
	} else {
		hrtimer_start(&lh_raise_timer,
			      ns_to_ktime(LH_RAISE_DELAY_US * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_PINNED_HARD);
	}
	if (!wait_event_timeout(lh_ran_wq, atomic_read(&lh_ran) >= target,
				LH_RAN_TIMEOUT))
		return -ETIMEDOUT;
	return 0;
}

/* lh_trigger_set - trigger: a run as the parameters say */
static int lh_trigger_set(const char *val, const struct kernel_param *kp)
{
	struct lh_cpu_run run = {
		.count = lh_count,
		.gap_us = lh_gap_us,
		.hold_us = lh_hold_us,
		.step = lh_raise_one,
	};

	return lh_cpu_run(&run, lh_cpu, "lh_softirq_hold");
}

static const struct kernel_param_ops lh_trigger_ops = {
	.set = lh_trigger_set,
};
module_param_cb(trigger, &lh_trigger_ops, NULL, 0200);
MODULE_PARM_DESC(trigger, "write 1: raise count times, return when done");

/* lh_reset_stall - a reset reaches lh_counters_reset(): stall it */
static int lh_reset_stall(struct kprobe *p, struct pt_regs *regs)
{
	udelay(lh_reset_stall_us);
	return 0;
}

static struct kprobe lh_reset_kprobe = {
	.symbol_name = "lh_counters_reset",
	.pre_handler = lh_reset_stall,
};

static int __init lh_softirq_test_init(void)
{
	int ret;

	if (lh_cpu >= nr_cpu_ids || !cpu_online(lh_cpu))
		return -EINVAL;
	if (lh_reset_stall_us) {
		ret = register_kprobe(&lh_reset_kprobe);
		if (ret) {
			pr_err("cannot probe lh_counters_reset: %d\n", ret);
			return ret;
		}
	}
	tasklet_setup(&lh_tasklet, lh_tasklet_fn);
	lh_hrtimer_setup(&lh_raise_timer, lh_raise_fn, CLOCK_MONOTONIC,
			 HRTIMER_MODE_REL_PINNED_HARD);
	return 0;
}

static void __exit lh_softirq_test_exit(void)
{
	hrtimer_cancel(&lh_raise_timer);
	tasklet_kill(&lh_tasklet);
	if (lh_reset_stall_us)
		unregister_kprobe(&lh_reset_kprobe);
}

module_init(lh_softirq_test_init);
module_exit(lh_softirq_test_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("raises of HI_SOFTIRQ from a timer or a bottom-halves-off section, for the latency_hist selftests");
