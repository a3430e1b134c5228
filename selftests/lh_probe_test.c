// SPDX-License-Identifier: GPL-2.0
/*
 * lh_probe_test - call latency_hist's probes with made-up events, for the
 * selftests of orderings a real workload cannot be made to produce on cue
 *
 * Some defects need events in an exact order: a hard sleeper timer whose
 * expiry nests in a soft one's callback window, or a wakeup whose waking and
 * switch-in straddle a restart of the counters. This module calls every
 * probe attached to the scheduler and hrtimer tracepoints (whoever attached
 * it) with the arguments the kernel would pass, in the order a scenario
 * names, the way bench/lh_probe_bench.c does for timing.
 *
 * At load it creates two kthreads on @cpu that run once and then sleep until
 * unload: "lh_probe_a" (SCHED_FIFO 50) and "lh_probe_b" (SCHED_FIFO 1), the
 * wakees of the scenarios (latency_hist follows a wakeup on task_cpu() of
 * the wakee, so they must be on @cpu); their thread ids are in tid_a and
 * tid_b. A scenario is
 * run by writing its name to run; it runs in a kthread bound to @cpu (the
 * SCHED_OTHER task the probes see as current), with preemption off (and
 * interrupts off around context switches), and the write returns when it
 * is done:
 *
 *   nested_expiry  hrtimer_expire_entry of a sleeper of A that is 5 ms late
 *                  (a soft expiry: task context, interrupts on), inside its
 *                  callback window a hard interrupt (a hard irq_work) that
 *                  runs the expire_entry of a sleeper of B 3 ms late, the
 *                  waking of B and B's expire_exit, as a hard timer
 *                  interrupt would; then the waking of A, A's expire_exit,
 *                  and A switched in and out: timerandwakeup must file A
 *                  with its own 5 ms offset
 *   waking_a       the waking of A on @cpu (its wakeup and counter window
 *                  start here)
 *   switch_in_a    A switched in and out again on @cpu
 *   switching_out_a  the waking of A while it still switches out of the
 *                  sleep that ends (A is asleep, off its runqueue, as
 *                  between __schedule()'s dequeue and its sched_switch),
 *                  then that switch (A to the runner), then A switched in:
 *                  one wakeup of A, to be measured
 *   switching_out_delayed_a  as switching_out_a, but A's dequeue delayed
 *                  as EEVDF does (6.12 and later: se.sched_delayed set,
 *                  on_rq still 1) while its waking is called, under A's
 *                  pi_lock as try_to_wake_up() holds it; have_sched_delayed
 *                  reads 0 where the kernel has no delayed dequeue, and
 *                  the scenario fails there with EOPNOTSUPP
 *   praecox_bases  hrtimer_start of 64 CLOCK_REALTIME sleepers (made-up
 *                  timers, never expired) armed 1 s after their expiry,
 *                  enough to fill latency_hist's table of arming times
 *                  (64 slots); then of a CLOCK_MONOTONIC sleeper of A
 *                  armed 5 ms after its expiry; then of one more REALTIME
 *                  one, which must evict an older REALTIME entry, not A's;
 *                  10 us later A's timer expires: missed_timer_offsets must
 *                  file about 10 us for A, measured from its arming time
 *                  (not 5000 us from its stale expiry). Last, every made-up
 *                  timer is started again in the future, which empties the
 *                  table.
 *
 *   insmod lh_probe_test.ko cpu=1; cat /sys/module/lh_probe_test/parameters/tid_a
 *   echo nested_expiry > /sys/module/lh_probe_test/parameters/run
 *
 * WARNING: the events are made up; the histograms hold them afterwards.
 * Load it only in a test machine.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include <latency_hist/compat.h>

#include "lh_bench_tp.h"

#define LH_PT_LATE_A_NS	(5 * NSEC_PER_MSEC)	/* the outer (soft) expiry */
#define LH_PT_LATE_B_NS	(3 * NSEC_PER_MSEC)	/* the nested (hard) expiry */
#define LH_PT_PRAECOX_REAL	65	/* timer.c's LH_PRAECOX_SLOTS + 1 */
#define LH_PT_PAST_REAL_NS	NSEC_PER_SEC	/* the REALTIME ones' staleness */
#define LH_PT_EXPIRY_DELAY_US	10	/* A's arming to its expiry */

typedef void (*lh_task_fn)(void *data, struct task_struct *p);
typedef void (*lh_entry_fn)(void *data, struct hrtimer *timer,
			    LH_EXPIRE_ENTRY_NOW_ARG);
typedef void (*lh_exit_fn)(void *data, struct hrtimer *timer);
typedef void (*lh_start_fn)(void *data, LH_HRTIMER_START_ARGS);

enum lh_pt_tp_id {
	LH_PT_WAKING,
	LH_PT_SWITCH,
	LH_PT_ENTRY,
	LH_PT_EXIT,
	LH_PT_START,
	LH_PT_NR_TPS
};

static const char *const lh_pt_tp_names[LH_PT_NR_TPS] = {
	[LH_PT_WAKING]	= "sched_waking",
	[LH_PT_SWITCH]	= "sched_switch",
	[LH_PT_ENTRY]	= "hrtimer_expire_entry",
	[LH_PT_EXIT]	= "hrtimer_expire_exit",
	[LH_PT_START]	= "hrtimer_start",
};

/* Set at init, read-only after. */
static int lh_pt_cpu;
static struct tracepoint *lh_pt_tps[LH_PT_NR_TPS];
static struct task_struct *lh_pt_a, *lh_pt_b;
static bool lh_pt_have_sched_delayed = IS_ENABLED(LH_HAVE_SCHED_DELAYED);
static int lh_pt_tid_a, lh_pt_tid_b;
/*
 * praecox_bases' REALTIME sleeper timers: copies of one set up at init,
 * never armed in the kernel, only shown to the probes (which use them as
 * identities and read their callback, base and expiry)
 */
static struct hrtimer *lh_pt_real;

/* The nested (hard) expiry of nested_expiry, run as a hard irq_work. */
static struct hrtimer_sleeper *lh_pt_nested_sl;
static ktime_t lh_pt_nested_now;
static atomic_t lh_pt_nested_done;
static void lh_pt_nested_fn(struct irq_work *work);
static struct irq_work lh_pt_nested_work = IRQ_WORK_INIT_HARD(lh_pt_nested_fn);

/* struct lh_pt_run - one scenario run, on the writer's stack */
struct lh_pt_run {
	void (*fn)(void);
	struct completion done;
};

/* lh_pt_waking - the waking of @p on this CPU */
static void lh_pt_waking(struct task_struct *p)
{
	LH_CALL_PROBES(lh_pt_tps[LH_PT_WAKING], lh_task_fn, p);
}

/*
 * lh_pt_switch_in - @p switched in, then the CPU back to current (prev must
 * be current for the sched_switch trace event, which checks it); with
 * interrupts off, as the scheduler calls it
 */
static void lh_pt_switch_in(struct task_struct *p)
{
	unsigned long flags;

	local_irq_save(flags);
	lh_call_sched_switch_probes(lh_pt_tps[LH_PT_SWITCH], current, p);
	lh_call_sched_switch_probes(lh_pt_tps[LH_PT_SWITCH], current, current);
	local_irq_restore(flags);
}

/*
 * lh_pt_switch_out - @prev, which is not current, switched out to current,
 * with interrupts off. Only the probes registered without data are called
 * (latency_hist's): the sched_switch trace event's, perf's and BPF's have
 * data, and the trace event's checks that prev is current
 * (__trace_sched_switch_state(): a BUG_ON() with CONFIG_SCHED_DEBUG).
 */
static void lh_pt_switch_out(struct task_struct *prev)
{
	struct tracepoint_func *f;
	unsigned long flags;

	local_irq_save(flags);
	f = rcu_dereference_sched(lh_pt_tps[LH_PT_SWITCH]->funcs);
	for (; f && f->func; f++) {
		if (!f->data)
			lh_sched_switch_probe_call(f->func, NULL, prev,
						   current);
	}
	local_irq_restore(flags);
}

/* lh_pt_entry - hrtimer_expire_entry of @sl, which is @late_ns late now */
static void lh_pt_entry(struct hrtimer_sleeper *sl, ktime_t now, u64 late_ns)
{
	hrtimer_set_expires(&sl->timer, ktime_sub_ns(now, late_ns));
	LH_CALL_PROBES(lh_pt_tps[LH_PT_ENTRY], lh_entry_fn, &sl->timer,
		       lh_now_arg(now));
}

/* lh_pt_start - hrtimer_start of @timer with expiry @expires */
static void lh_pt_start(struct hrtimer *timer, ktime_t expires)
{
	struct tracepoint_func *f;

	hrtimer_set_expires(timer, expires);
	f = rcu_dereference_sched(lh_pt_tps[LH_PT_START]->funcs);
	for (; f && f->func; f++)
		lh_hrtimer_start_probe_call((lh_start_fn)f->func, f->data,
					    timer, HRTIMER_MODE_ABS);
}

/* lh_pt_exit - hrtimer_expire_exit of @sl */
static void lh_pt_exit(struct hrtimer_sleeper *sl)
{
	LH_CALL_PROBES(lh_pt_tps[LH_PT_EXIT], lh_exit_fn, &sl->timer);
}

/* lh_pt_nested_fn - hard interrupt: the whole expiry of B's sleeper */
static void lh_pt_nested_fn(struct irq_work *work)
{
	lh_pt_entry(lh_pt_nested_sl, lh_pt_nested_now, LH_PT_LATE_B_NS);
	lh_pt_waking(lh_pt_b);
	lh_pt_exit(lh_pt_nested_sl);
	atomic_set_release(&lh_pt_nested_done, 1);
}

/* lh_pt_nested_expiry - a hard expiry (B) inside a soft one's window (A) */
static void lh_pt_nested_expiry(void)
{
	struct hrtimer_sleeper sa, sb;
	ktime_t now = ktime_get();

	lh_hrtimer_sleeper_on_stack(&sa);
	lh_hrtimer_sleeper_on_stack(&sb);
	sa.task = lh_pt_a;
	sb.task = lh_pt_b;

	lh_pt_entry(&sa, now, LH_PT_LATE_A_NS);
	lh_pt_nested_sl = &sb;
	lh_pt_nested_now = now;
	atomic_set(&lh_pt_nested_done, 0);
	irq_work_queue(&lh_pt_nested_work);
	/* Interrupts are on: the irq_work's interrupt comes on this CPU. */
	while (!atomic_read_acquire(&lh_pt_nested_done))
		cpu_relax();
	lh_pt_waking(lh_pt_a);
	lh_pt_exit(&sa);
	lh_pt_switch_in(lh_pt_a);

	sa.task = NULL;
	sb.task = NULL;
	destroy_hrtimer_on_stack(&sa.timer);
	destroy_hrtimer_on_stack(&sb.timer);
}

/* lh_pt_praecox_bases - a full table of REALTIME arming times must keep A's MONOTONIC one */
static void lh_pt_praecox_bases(void)
{
	ktime_t real_past = ktime_sub_ns(ktime_get_real(), LH_PT_PAST_REAL_NS);
	struct hrtimer_sleeper sm;
	ktime_t now;
	int i;

	lh_hrtimer_sleeper_on_stack(&sm);
	sm.task = lh_pt_a;

	for (i = 0; i < LH_PT_PRAECOX_REAL - 1; i++)
		lh_pt_start(&lh_pt_real[i], real_past);
	lh_pt_start(&sm.timer, ktime_sub_ns(ktime_get(), LH_PT_LATE_A_NS));
	lh_pt_start(&lh_pt_real[i], real_past);
	udelay(LH_PT_EXPIRY_DELAY_US);
	now = ktime_get();
	LH_CALL_PROBES(lh_pt_tps[LH_PT_ENTRY], lh_entry_fn, &sm.timer,
		       lh_now_arg(now));
	lh_pt_exit(&sm);

	for (i = 0; i < LH_PT_PRAECOX_REAL; i++)
		lh_pt_start(&lh_pt_real[i],
			    ktime_add_ns(ktime_get_real(), LH_PT_PAST_REAL_NS));
	sm.task = NULL;
	destroy_hrtimer_on_stack(&sm.timer);
}

/* lh_pt_waking_a - the waking of A alone */
static void lh_pt_waking_a(void)
{
	lh_pt_waking(lh_pt_a);
}

/* lh_pt_switch_in_a - A switched in alone */
static void lh_pt_switch_in_a(void)
{
	lh_pt_switch_in(lh_pt_a);
}

/* lh_pt_switching_out_a - A woken while it still switches out of its sleep */
static void lh_pt_switching_out_a(void)
{
	lh_pt_waking(lh_pt_a);
	lh_pt_switch_out(lh_pt_a);
	lh_pt_switch_in(lh_pt_a);
}

/*
 * lh_pt_switching_out_delayed_a - A woken while it switches out of a sleep
 * whose dequeue EEVDF delayed: on_rq and se.sched_delayed made 1 around the
 * waking, under A's pi_lock (no try_to_wake_up() of A can look meanwhile),
 * and put back; A sleeps until unload, so nothing else reads them
 */
static void lh_pt_switching_out_delayed_a(void)
{
#ifdef LH_HAVE_SCHED_DELAYED
	struct task_struct *a = lh_pt_a;
	unsigned char delayed;
	unsigned long flags;
	int on_rq;

	raw_spin_lock_irqsave(&a->pi_lock, flags);
	on_rq = a->on_rq;
	delayed = a->se.sched_delayed;
	WRITE_ONCE(a->on_rq, 1);	/* TASK_ON_RQ_QUEUED */
	WRITE_ONCE(a->se.sched_delayed, 1);
	lh_pt_waking(a);
	WRITE_ONCE(a->se.sched_delayed, delayed);
	WRITE_ONCE(a->on_rq, on_rq);
	raw_spin_unlock_irqrestore(&a->pi_lock, flags);
	lh_pt_switch_out(a);
	lh_pt_switch_in(a);
#endif
}

/* struct lh_pt_scenario - a name for run, and what it calls */
struct lh_pt_scenario {
	const char *name;
	void (*fn)(void);
};

static const struct lh_pt_scenario lh_pt_scenarios[] = {
	{ "nested_expiry",	lh_pt_nested_expiry },
	{ "waking_a",		lh_pt_waking_a },
	{ "switch_in_a",	lh_pt_switch_in_a },
	{ "switching_out_a",	lh_pt_switching_out_a },
	{ "switching_out_delayed_a", lh_pt_switching_out_delayed_a },
	{ "praecox_bases",	lh_pt_praecox_bases },
};

/*
 * lh_pt_runner - kthread on @cpu: one scenario, preemption off (the probes
 * are called as a tracepoint calls them, in an rcu-sched read side)
 */
static int lh_pt_runner(void *data)
{
	struct lh_pt_run *run = data;

	preempt_disable();
	run->fn();
	preempt_enable();
	complete(&run->done);
	return 0;
}

/* lh_pt_run_set - run=NAME: run a scenario on @cpu and wait for it */
static int lh_pt_run_set(const char *val, const struct kernel_param *kp)
{
	struct lh_pt_run run;
	struct task_struct *t;
	int i;

	for (i = 0; i < ARRAY_SIZE(lh_pt_scenarios); i++) {
		if (sysfs_streq(val, lh_pt_scenarios[i].name))
			break;
	}
	if (i == ARRAY_SIZE(lh_pt_scenarios)) {
		pr_err("run: want nested_expiry, waking_a, switch_in_a, switching_out_a, switching_out_delayed_a or praecox_bases\n");
		return -EINVAL;
	}
	if (!lh_pt_a)
		return -EBUSY;	/* a load-time run=: not set up yet */
	if (lh_pt_scenarios[i].fn == lh_pt_switching_out_delayed_a &&
	    !lh_pt_have_sched_delayed)
		return -EOPNOTSUPP;
	if (!cpu_online(lh_pt_cpu))
		return -ENODEV;

	run.fn = lh_pt_scenarios[i].fn;
	init_completion(&run.done);
	t = kthread_create(lh_pt_runner, &run, "lh_probe_run");
	if (IS_ERR(t))
		return PTR_ERR(t);
	kthread_bind(t, lh_pt_cpu);
	wake_up_process(t);
	wait_for_completion(&run.done);
	return 0;
}

static const struct kernel_param_ops lh_pt_run_ops = {
	.set = lh_pt_run_set,
};

module_param_named(cpu, lh_pt_cpu, int, 0444);
MODULE_PARM_DESC(cpu, "CPU of the wakees and the scenarios (load time; 0 default)");
module_param_named(tid_a, lh_pt_tid_a, int, 0444);
MODULE_PARM_DESC(tid_a, "Thread id of wakee A, SCHED_FIFO 50 (read-only)");
module_param_named(tid_b, lh_pt_tid_b, int, 0444);
MODULE_PARM_DESC(tid_b, "Thread id of wakee B, SCHED_FIFO 1 (read-only)");
module_param_cb(run, &lh_pt_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "Write a scenario name: nested_expiry, waking_a, switch_in_a, switching_out_a, switching_out_delayed_a, praecox_bases");
module_param_named(have_sched_delayed, lh_pt_have_sched_delayed, bool, 0444);
MODULE_PARM_DESC(have_sched_delayed, "1: the kernel delays fair dequeues (se.sched_delayed), switching_out_delayed_a runs (read-only)");

/* lh_pt_wakee_fn - a wakee's body: sleep until unload */
static int lh_pt_wakee_fn(void *unused)
{
	while (!kthread_should_stop())
		schedule_timeout_interruptible(MAX_SCHEDULE_TIMEOUT);
	return 0;
}

/*
 * lh_pt_wakee - create a wakee bound to @cpu, held until unload; it runs
 * once, so that the scheduler moves it there (a new task sits on the CPU
 * that forked it, whatever its affinity), and then sleeps for good
 */
static struct task_struct *lh_pt_wakee(const char *name, bool fifo_low)
{
	struct task_struct *t;
	int tries;

	t = kthread_create(lh_pt_wakee_fn, NULL, "%s", name);
	if (IS_ERR(t))
		return t;
	get_task_struct(t);
	kthread_bind(t, lh_pt_cpu);
	if (fifo_low)
		sched_set_fifo_low(t);
	else
		sched_set_fifo(t);
	wake_up_process(t);
	for (tries = 0; tries < 1000; tries++) {
		if (task_cpu(t) == lh_pt_cpu && !task_is_running(t))
			return t;
		usleep_range(1000, 2000);
	}
	pr_err("%s did not go to sleep on CPU %d\n", name, lh_pt_cpu);
	kthread_stop(t);
	put_task_struct(t);
	return ERR_PTR(-EAGAIN);
}

/* lh_pt_wakee_stop - end a wakee of lh_pt_wakee() */
static void lh_pt_wakee_stop(struct task_struct *t)
{
	kthread_stop(t);
	put_task_struct(t);
}

/* lh_pt_real_alloc - the REALTIME timers of praecox_bases, copies of one sleeper's */
static int lh_pt_real_alloc(void)
{
	struct hrtimer_sleeper tmpl;
	int i;

	lh_pt_real = kcalloc(LH_PT_PRAECOX_REAL, sizeof(*lh_pt_real), GFP_KERNEL);
	if (!lh_pt_real)
		return -ENOMEM;
	lh_hrtimer_sleeper_on_stack_clock(&tmpl, CLOCK_REALTIME, HRTIMER_MODE_ABS);
	for (i = 0; i < LH_PT_PRAECOX_REAL; i++)
		lh_pt_real[i] = tmpl.timer;
	destroy_hrtimer_on_stack(&tmpl.timer);
	return 0;
}

/* lh_probe_test_init - find the tracepoints, create the wakees */
static int __init lh_probe_test_init(void)
{
	struct task_struct *a, *b;
	int i, err;

	if (lh_pt_cpu < 0 || lh_pt_cpu >= nr_cpu_ids || !cpu_online(lh_pt_cpu)) {
		pr_err("cpu: want an online CPU number\n");
		return -EINVAL;
	}
	for (i = 0; i < LH_PT_NR_TPS; i++) {
		lh_pt_tps[i] = lh_bench_tp(lh_pt_tp_names[i]);
		if (!lh_pt_tps[i]) {
			pr_err("tracepoint %s not found\n", lh_pt_tp_names[i]);
			return -ENODEV;
		}
	}
	err = lh_pt_real_alloc();
	if (err)
		return err;
	a = lh_pt_wakee("lh_probe_a", false);
	if (IS_ERR(a)) {
		err = PTR_ERR(a);
		goto out_free_real;
	}
	b = lh_pt_wakee("lh_probe_b", true);
	if (IS_ERR(b)) {
		err = PTR_ERR(b);
		goto out_stop_a;
	}
	lh_pt_tid_a = a->pid;
	lh_pt_tid_b = b->pid;
	lh_pt_b = b;
	/* Last: a run write finds either no wakees or both. */
	smp_store_release(&lh_pt_a, a);
	return 0;

out_stop_a:
	lh_pt_wakee_stop(a);
out_free_real:
	kfree(lh_pt_real);
	return err;
}

/* lh_probe_test_exit - end the wakees; no run outlives its write */
static void __exit lh_probe_test_exit(void)
{
	irq_work_sync(&lh_pt_nested_work);
	lh_pt_wakee_stop(lh_pt_a);
	lh_pt_wakee_stop(lh_pt_b);
	kfree(lh_pt_real);
}

module_init(lh_probe_test_init);
module_exit(lh_probe_test_exit);
MODULE_DESCRIPTION("Made-up event sequences for latency_hist's probes, for the selftests");
MODULE_LICENSE("GPL");
