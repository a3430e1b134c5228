// SPDX-License-Identifier: GPL-2.0
/*
 * lh_irq_test - a threaded interrupt line the irq type's selftest fires
 *
 * The irq type measures a hard interrupt's entry to the switch-in of the
 * thread it woke. To know how many such interrupts came and what delayed
 * their thread, this module makes an interrupt line of its own: an irq
 * descriptor of the kernel's dummy chip, handled by handle_simple_irq, with a threaded handler requested as a
 * driver would (no primary handler, IRQF_ONESHOT): its thread is
 * irq/<irq>-lh_irq_test. It fires the line from a pinned hard hrtimer, so
 * the handler runs in a real timer interrupt on @cpu, the CPU its thread
 * binds itself to.
 *
 * Usage, all files in /sys/module/lh_irq_test/parameters/:
 *
 *   insmod lh_irq_test.ko cpu=1	# timer and thread on CPU 1
 *   cat irq				# the line's number
 *   echo 20 > count; echo 2000 > gap_us; echo 1 > trigger
 *					# 20 interrupts, 2 ms apart
 *   echo 3000 > hold_us; echo 1 > trigger
 *					# each inside a preempt-off section
 *   cat fired handled			# interrupts fired / threaded runs
 *
 * A run is a kthread "lh_irq_hold" bound to @cpu. Per interrupt it arms
 * the timer LH_FIRE_DELAY_US ahead, then either sleeps until the thread
 * has handled it or, with @hold_us, disables preemption first, spins until
 * the timer has fired and then @hold_us more on the clock, so the thread
 * woken by the interrupt waits for the end of the section: a sample of at
 * least @hold_us whose culprit is lh_irq_hold (spinning on the clock after
 * the interrupt, not udelay() from the arming: under TCG a vCPU the host
 * preempts through the whole udelay() sees the timer after the section).
 * Then it sleeps @gap_us. A write to trigger returns when the
 * run is over: 0, or -ETIMEDOUT if an interrupt's thread did not run
 * within a second. Runs are serialised by the module's parameter lock.
 *
 * Loading fires one interrupt and waits for its thread, which binds
 * itself to @cpu there, so that the samples of the runs are all filed on
 * @cpu.
 *
 * A write to renew ends the thread's life and starts another's, as a
 * driver rebind does: the handler is freed (its thread exits) and, once
 * the old thread's task_struct has gone back to the slab, requested on the
 * module's other line, whose new thread then serves one interrupt fired
 * from the writer's CPU. The lines alternate, so two threads in a row never
 * serve the same number. SLUB hands out a CPU's most recently freed object
 * first: with the writer and kthreadd on @cpu, where the old thread ran
 * last, the new thread often gets the old one's task_struct; reused counts
 * the renewals where it did. With keep set, a renewal keeps a reference on
 * the old thread's task_struct (at most LH_KEEP_MAX, dropped at unload): no
 * later task gets it, so every new thread has a task_struct of its own.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/wait.h>

#include <latency_hist/compat.h>

#include "lh_cpu_run.h"

#define LH_FIRE_DELAY_US	20	/* from arming the timer to the interrupt */
#define LH_HANDLED_TIMEOUT	HZ	/* for an interrupt's thread to run */
#define LH_FIRED_TIMEOUT_US	USEC_PER_SEC	/* for the timer, in a section */
#define LH_KEEP_MAX		128	/* exited threads' task_structs kept */

static unsigned int lh_cpu = 1;
module_param_named(cpu, lh_cpu, uint, 0444);
MODULE_PARM_DESC(cpu, "the CPU of the timer and the line's thread (load time)");
static unsigned int lh_count = 10;
module_param_named(count, lh_count, uint, 0644);
MODULE_PARM_DESC(count, "interrupts per run");
static unsigned int lh_gap_us = 2000;
module_param_named(gap_us, lh_gap_us, uint, 0644);
MODULE_PARM_DESC(gap_us, "microseconds between two interrupts");
static unsigned int lh_hold_us;
module_param_named(hold_us, lh_hold_us, uint, 0644);
MODULE_PARM_DESC(hold_us, "fire each inside a preempt-off section this long (0: none)");
static int lh_irq = -1;
module_param_named(irq, lh_irq, int, 0444);
MODULE_PARM_DESC(irq, "the line's number");
static int lh_irq_alt = -1;	/* the other line, free between renewals */
static atomic_t lh_reused = ATOMIC_INIT(0);
module_param_named(reused, lh_reused.counter, int, 0444);
MODULE_PARM_DESC(reused, "renewals whose new thread got the old thread's task_struct");
static bool lh_keep;
module_param_named(keep, lh_keep, bool, 0644);
MODULE_PARM_DESC(keep, "renew keeps the old thread's task_struct from reuse (until unload)");
static struct task_struct *lh_kept[LH_KEEP_MAX];
static unsigned int lh_nr_kept;
static atomic_t lh_renewed = ATOMIC_INIT(0);
module_param_named(renewed, lh_renewed.counter, int, 0444);
MODULE_PARM_DESC(renewed, "renewals since load");
static atomic_t lh_fired = ATOMIC_INIT(0);
module_param_named(fired, lh_fired.counter, int, 0444);
MODULE_PARM_DESC(fired, "interrupts fired since load");
static atomic_t lh_handled = ATOMIC_INIT(0);
module_param_named(handled, lh_handled.counter, int, 0444);
MODULE_PARM_DESC(handled, "runs of the threaded handler since load");

static DECLARE_WAIT_QUEUE_HEAD(lh_handled_wq);
/* The thread that last ran the handler; never dereferenced. */
static struct task_struct *lh_thread;
static bool lh_line_live;	/* the handler is requested on lh_irq */
static struct hrtimer lh_fire_timer;

/* lh_fire_fn - the timer interrupt: raise the line */
static enum hrtimer_restart lh_fire_fn(struct hrtimer *timer)
{
	atomic_inc(&lh_fired);
	generic_handle_irq(lh_irq);
	return HRTIMER_NORESTART;
}

/*
 * lh_thread_fn - the line's threaded handler; binds its thread to @cpu
 * (the kernel moves it only when the line's affinity changes)
 */
static irqreturn_t lh_thread_fn(int irq, void *dev_id)
{
	if (raw_smp_processor_id() != lh_cpu)
		set_cpus_allowed_ptr(current, cpumask_of(lh_cpu));
	WRITE_ONCE(lh_thread, current);
	atomic_inc(&lh_handled);
	wake_up(&lh_handled_wq);
	return IRQ_HANDLED;
}

/*
 * lh_hold - in the preempt-off section: spin until the timer has fired the
 * line (@fired interrupts since load), then @hold_us on the clock
 *
 * Return: 0, or -ETIMEDOUT if the timer did not fire within a second.
 */
static int lh_hold(int fired, unsigned int hold_us)
{
	ktime_t start = ktime_get();

	while (atomic_read(&lh_fired) < fired) {
		if (ktime_us_delta(ktime_get(), start) > LH_FIRED_TIMEOUT_US)
			return -ETIMEDOUT;
		cpu_relax();
	}
	start = ktime_get();
	while (ktime_us_delta(ktime_get(), start) < hold_us)
		cpu_relax();
	return 0;
}

/* lh_fire_one - fire the line once, in a preempt-off section if asked */
static int lh_fire_one(unsigned int hold_us)
{
	int target = atomic_read(&lh_handled) + 1;
	int fired = atomic_read(&lh_fired) + 1;
	int ret = 0;

	if (hold_us)
		preempt_disable();
	hrtimer_start(&lh_fire_timer, ns_to_ktime(LH_FIRE_DELAY_US * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	if (hold_us) {
		ret = lh_hold(fired, hold_us);
		preempt_enable();
		if (ret)
			return ret;
	}
	if (!wait_event_timeout(lh_handled_wq,
				atomic_read(&lh_handled) >= target,
				LH_HANDLED_TIMEOUT))
		return -ETIMEDOUT;
	return 0;
}

/* lh_run - fire @count interrupts from a kthread on the line's CPU */
static int lh_run(unsigned int count, unsigned int gap_us,
		  unsigned int hold_us)
{
	struct lh_cpu_run run = {
		.count = count,
		.gap_us = gap_us,
		.hold_us = hold_us,
		.step = lh_fire_one,
	};

	return lh_cpu_run(&run, lh_cpu, "lh_irq_hold");
}

/* lh_trigger_set - trigger: a run as the parameters say */
static int lh_trigger_set(const char *val, const struct kernel_param *kp)
{
	return lh_run(lh_count, lh_gap_us, lh_hold_us);
}

static const struct kernel_param_ops lh_trigger_ops = {
	.set = lh_trigger_set,
};
module_param_cb(trigger, &lh_trigger_ops, NULL, 0200);
MODULE_PARM_DESC(trigger, "write 1: fire count interrupts, return when done");

/* lh_desc_alloc - an irq descriptor of the dummy chip that can be requested */
static int lh_desc_alloc(void)
{
	int irq;

	/*
	 * No owner: request_threaded_irq() pins a descriptor's owner until
	 * free_irq(), and irq_alloc_desc() makes that this module, so the
	 * line it frees in its exit would keep it from being unloaded.
	 */
	irq = __irq_alloc_descs(-1, 0, 1, NUMA_NO_NODE, NULL, NULL);
	if (irq < 0)
		return irq;
	irq_set_chip_and_handler(irq, &dummy_irq_chip, handle_simple_irq);
	irq_clear_status_flags(irq, IRQ_NOREQUEST | IRQ_NOPROBE);
	return irq;
}

/* lh_line_request - a threaded handler on @irq: a new thread */
static int lh_line_request(int irq)
{
	return request_threaded_irq(irq, NULL, lh_thread_fn, IRQF_ONESHOT,
				    "lh_irq_test", &lh_handled);
}

/* lh_line_setup - two descriptors of the dummy chip, a threaded handler on one */
static int lh_line_setup(void)
{
	int ret;

	lh_irq = lh_desc_alloc();
	if (lh_irq < 0)
		return lh_irq;
	lh_irq_alt = lh_desc_alloc();
	if (lh_irq_alt < 0) {
		ret = lh_irq_alt;
		goto out_free_desc;
	}
	ret = lh_line_request(lh_irq);
	if (ret)
		goto out_free_alt;
	lh_line_live = true;
	return 0;

out_free_alt:
	irq_free_desc(lh_irq_alt);
out_free_desc:
	irq_free_desc(lh_irq);
	lh_irq = -1;
	return ret;
}

/* lh_line_teardown - undo lh_line_setup() */
static void lh_line_teardown(void)
{
	if (lh_line_live)
		free_irq(lh_irq, &lh_handled);
	irq_free_desc(lh_irq_alt);
	irq_free_desc(lh_irq);
}

/*
 * lh_renew_set - renew: free the handler (its thread exits), request it on
 * the other line (a new thread) and fire that once; the parameter lock
 * serialises renewals and runs. A failed request leaves no handler: every
 * later renewal and run fails too.
 */
static int lh_renew_set(const char *val, const struct kernel_param *kp)
{
	struct task_struct *old = READ_ONCE(lh_thread);
	int ret;

	if (!old || !lh_line_live)
		return -ENODEV;
	if (lh_keep) {
		if (lh_nr_kept == LH_KEEP_MAX)
			return -ENOSPC;
		/* Alive until free_irq() stops it. */
		lh_kept[lh_nr_kept++] = get_task_struct(old);
	}
	free_irq(lh_irq, &lh_handled);
	lh_line_live = false;
	/*
	 * The exited thread's last references go in RCU callbacks
	 * (delayed_put_task_struct(); on PREEMPT_RT a put there is deferred
	 * by one more): wait for both, so the task_struct is back in the
	 * slab before the new thread's is allocated.
	 */
	rcu_barrier();
	rcu_barrier();
	swap(lh_irq, lh_irq_alt);
	WRITE_ONCE(lh_thread, NULL);
	ret = lh_line_request(lh_irq);
	if (ret)
		return ret;
	lh_line_live = true;
	atomic_inc(&lh_renewed);
	ret = lh_fire_one(0);
	if (ret)
		return ret;
	if (READ_ONCE(lh_thread) == old)
		atomic_inc(&lh_reused);
	return 0;
}

static const struct kernel_param_ops lh_renew_ops = {
	.set = lh_renew_set,
};
module_param_cb(renew, &lh_renew_ops, NULL, 0200);
MODULE_PARM_DESC(renew, "write 1: a new thread on the other line, fired once");

static int __init lh_irq_test_init(void)
{
	int ret;

	if (lh_cpu >= nr_cpu_ids || !cpu_online(lh_cpu))
		return -EINVAL;
	lh_hrtimer_setup(&lh_fire_timer, lh_fire_fn, CLOCK_MONOTONIC,
			 HRTIMER_MODE_REL_PINNED_HARD);
	ret = lh_line_setup();
	if (ret)
		return ret;
	/* The thread's first run binds it to @cpu. */
	ret = lh_run(1, 0, 0);
	if (ret) {
		hrtimer_cancel(&lh_fire_timer);
		lh_line_teardown();
	}
	return ret;
}

static void __exit lh_irq_test_exit(void)
{
	hrtimer_cancel(&lh_fire_timer);
	lh_line_teardown();
	while (lh_nr_kept)
		put_task_struct(lh_kept[--lh_nr_kept]);
}

module_init(lh_irq_test_init);
module_exit(lh_irq_test_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("a threaded interrupt line fired from a timer, for the latency_hist selftests");
