// SPDX-License-Identifier: GPL-2.0
/*
 * lh_probe_bench - in-kernel microbenchmark of the probes attached to the
 * tracepoints latency_hist uses.
 *
 * The pipe benchmark measures a whole system; this measures the probe bodies
 * alone. At load time it calls, over and over, every probe attached to a
 * tracepoint (whoever attached it: latency_hist, lh_empty_probes, nothing)
 * with the arguments the scheduler or hrtimer code would pass, the way the
 * tracepoint itself iterates its probe array, and prints the time per round
 * to the kernel log. Run it with nothing attached to learn the cost of the
 * loop itself; subtract that.
 *
 * Scenarios (a round is what one real event costs):
 *   wakeup       sched_waking of an RT task, the sched_switch that runs it,
 *                and a switch back to the loading task (3 calls)
 *   timer        hrtimer_start of a sleeper, hrtimer_expire_entry 3 us late,
 *                hrtimer_expire_exit (3 calls)
 *   timerwakeup  expire_entry, sched_waking, expire_exit, switch in, switch
 *                back: a timer-woken RT task (5 calls)
 *   preemptoff   preempt_disable, preempt_enable inside an irqs-off section
 *                (2 calls; only where the preemptirq tracepoints exist)
 *   irqsoff      irq_disable, irq_enable (2 calls; idem)
 *   syscall      raw_syscalls sys_enter and sys_exit of the loading task
 *                (2 calls): the common path of switchtime's probes
 *   irq          irq_handler_entry and irq_handler_exit of a device IRQ
 *                (2 calls): what each interrupt pays while explain is on
 *                (an x86 vector's entry and exit probes are the same code)
 *   irqthread    a threaded interrupt and its thread: irq_handler_entry,
 *                irq_handler_exit returning IRQ_WAKE_THREAD of an action
 *                whose thread is the woken kthread, the sched_switch that
 *                runs it and the switch back (4 calls): what an interrupt
 *                of a threaded line pays while the irq type is on
 *   softirq      softirq_entry and softirq_exit (2 calls; idem)
 *   softirqraise softirq_raise of HI and its softirq_entry (2 calls): what
 *                a raise and the run it starts pay while the softirq type
 *                is on (the entry's exit is the softirq scenario's)
 *   hrtimer      hrtimer_expire_entry and hrtimer_expire_exit of a timer
 *                nobody armed through hrtimer_start (2 calls): what every
 *                hrtimer callback pays while explain is on
 *   wakers_one   many wakers, one target: a kthread bound to one other CPU
 *                calls sched_waking of the RT task, whose task_cpu() is the
 *                target CPU, over and over (interrupts off around each
 *                call, a gap of waker_gap idle iterations between calls,
 *                as a real waker does a wakeup's other work), while the
 *                target CPU switches the task in and back every 20-40 us;
 *                a round is one waking, and its time is everything every
 *                CPU executed meanwhile divided by the wakings
 *   wakers_all   the same with a waker on every CPU but the target, all at
 *                once: where latency_hist's per-target-CPU lock is
 *                contended (1 waker on a 2-CPU machine, like wakers_one)
 *   c_*          building blocks of the probes, for comparison: one
 *                ktime_get_mono_fast_ns(), one local_clock(), one
 *                raw_spin_lock_irqsave()/unlock_irqrestore() pair, one
 *                lh_clock_stamp() reading the cycle counter (c_tsc: the
 *                TSC of x86 with a TSC rate, or ARM's architected counter,
 *                whether or not latency_hist would take it), and
 *                c_arch_lock: the common path of latency_hist's wakeup
 *                lock (raw_local_irq_save(), arch_spin_trylock(),
 *                arch_spin_unlock(), raw_local_irq_restore())
 *
 * The woken task is a kthread of this module that never runs before unload
 * (SCHED_FIFO 50, so latency_hist follows it); the calls are made on its CPU
 * with interrupts off, in batches, from an IPI handler run by the loading
 * process, which is the "current" task the probes see (load it from a
 * SCHED_OTHER shell so that the sleeper preempts it, as the timer rule needs).
 *
 *   insmod lh_probe_bench.ko [calls=1000000] [only=PREFIX] [waker_gap=300]
 *   dmesg | grep lh_probe_bench
 *
 * Under -icount every vCPU's instructions advance the one guest clock, and
 * qemu runs the vCPUs of a TCG guest in turn, a slice each: the wakers_*
 * figures are instructions of the whole machine per waking, and two wakers
 * meet on the lock only where one's slice ended while it held or waited
 * for it (Documentation/performance.rst, "Scale").
 *
 * Under qemu -icount shift=0 one nanosecond of guest time is one guest
 * instruction, so the figures are instruction counts. Loading always fails
 * (-EAGAIN) once the results are printed, so nothing stays loaded.
 *
 * WARNING: it calls other modules' probes with made-up events and leaves
 * latency_hist's histograms full of them; use it in a benchmark VM only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/clocksource.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>

#include <latency_hist/clock.h>
#include <latency_hist/compat.h>

#ifdef LH_HAVE_ARCH_TIMER_CLOCK
#include <asm/arch_timer.h>
#endif

#include "lh_bench_tp.h"

#define LH_BENCH_BATCH		1000	/* rounds per irqs-off stretch */
#define LH_BENCH_LATE_NS	3000	/* how late the fake timer expires */

static unsigned int calls = 1000000;
module_param(calls, uint, 0444);
MODULE_PARM_DESC(calls, "probe calls per scenario (at least; default 1000000)");

static char *only;
module_param(only, charp, 0444);
MODULE_PARM_DESC(only, "run only the scenarios whose name starts with this");

static unsigned int waker_gap = 300;
module_param(waker_gap, uint, 0444);
MODULE_PARM_DESC(waker_gap, "idle loop iterations between two wakings of a wakers_* waker (default 300)");

static bool count_fair;
module_param(count_fair, bool, 0444);
MODULE_PARM_DESC(count_fair, "count the wakers_* wakings that take latency_hist's out-of-line fair lock path (a kprobe: untimed)");

/* This module's own copy of latency_hist's clock, for the c_tsc scenario. */
struct lh_clock lh_clock;

typedef void (*lh_task_fn)(void *data, struct task_struct *p);
typedef void (*lh_entry_fn)(void *data, struct hrtimer *timer,
			    LH_EXPIRE_ENTRY_NOW_ARG);
typedef void (*lh_exit_fn)(void *data, struct hrtimer *timer);
typedef void (*lh_ip_fn)(void *data, unsigned long ip, unsigned long parent_ip);
typedef void (*lh_sys_fn)(void *data, struct pt_regs *regs, long id_or_ret);
typedef void (*lh_irq_entry_fn)(void *data, int irq, struct irqaction *action);
typedef void (*lh_irq_exit_fn)(void *data, int irq, struct irqaction *action,
			       int ret);
typedef void (*lh_softirq_fn)(void *data, unsigned int vec_nr);

enum lh_bench_tp_id {
	LH_B_WAKING,
	LH_B_SWITCH,
	LH_B_START,
	LH_B_ENTRY,
	LH_B_EXIT,
	LH_B_PREEMPT_OFF,
	LH_B_PREEMPT_ON,
	LH_B_IRQ_OFF,
	LH_B_IRQ_ON,
	LH_B_SYS_ENTER,
	LH_B_SYS_EXIT,
	LH_B_IRQ_ENTRY,
	LH_B_IRQ_EXIT,
	LH_B_SOFTIRQ_ENTRY,
	LH_B_SOFTIRQ_EXIT,
	LH_B_SOFTIRQ_RAISE,
	LH_B_NR_TPS
};

static const char *const lh_bench_tp_names[LH_B_NR_TPS] = {
	[LH_B_WAKING]		= "sched_waking",
	[LH_B_SWITCH]		= "sched_switch",
	[LH_B_START]		= "hrtimer_start",
	[LH_B_ENTRY]		= "hrtimer_expire_entry",
	[LH_B_EXIT]		= "hrtimer_expire_exit",
	[LH_B_PREEMPT_OFF]	= "preempt_disable",
	[LH_B_PREEMPT_ON]	= "preempt_enable",
	[LH_B_IRQ_OFF]		= "irq_disable",
	[LH_B_IRQ_ON]		= "irq_enable",
	[LH_B_SYS_ENTER]	= "sys_enter",
	[LH_B_SYS_EXIT]		= "sys_exit",
	[LH_B_IRQ_ENTRY]	= "irq_handler_entry",
	[LH_B_IRQ_EXIT]		= "irq_handler_exit",
	[LH_B_SOFTIRQ_ENTRY]	= "softirq_entry",
	[LH_B_SOFTIRQ_EXIT]	= "softirq_exit",
	[LH_B_SOFTIRQ_RAISE]	= "softirq_raise",
};

/* struct lh_bench - the state one run of the benchmark works on */
struct lh_bench {
	struct tracepoint *tps[LH_B_NR_TPS];
	struct task_struct *victim;	/* RT kthread, asleep until unload */
	struct hrtimer_sleeper *sl;	/* its (never started) sleeper timer */
	void (*round)(struct lh_bench *b);
	unsigned int rounds;		/* per batch */
	raw_spinlock_t lock;		/* for the "lock" component */
	arch_spinlock_t arch_lock;	/* for the "arch_lock" component */
	u64 sink_ns;			/* keeps clock reads from being optimised out */
	u64 elapsed_ns;
};

/*
 * lh_bench_switch_back - the switch that puts the CPU's running task back;
 * prev must be current for the sched_switch trace event (it BUG()s
 * otherwise), so this is current -> current
 */
static void lh_bench_switch_back(struct lh_bench *b)
{
	lh_call_sched_switch_probes(b->tps[LH_B_SWITCH], current, current);
}

/* lh_bench_wakeup_round - waking, switch to the wakee, switch back */
static void lh_bench_wakeup_round(struct lh_bench *b)
{
	LH_CALL_PROBES(b->tps[LH_B_WAKING], lh_task_fn, b->victim);
	lh_call_sched_switch_probes(b->tps[LH_B_SWITCH], current, b->victim);
	lh_bench_switch_back(b);
}

/* lh_bench_hrtimer_start - hrtimer_start of the sleeper, to expire in 1 ms */
static void lh_bench_hrtimer_start(struct lh_bench *b)
{
	struct tracepoint_func *f;

	hrtimer_set_expires(&b->sl->timer, ktime_add_ms(ktime_get(), 1));
	f = rcu_dereference_sched(b->tps[LH_B_START]->funcs);
	for (; f && f->func; f++)
		lh_hrtimer_start_probe_call(f->func, f->data, &b->sl->timer,
					    HRTIMER_MODE_ABS);
}

/* lh_bench_expire_entry - hrtimer_expire_entry of the sleeper, a bit late */
static void lh_bench_expire_entry(struct lh_bench *b)
{
	ktime_t now = ktime_get();

	hrtimer_set_expires(&b->sl->timer, ktime_sub_ns(now, LH_BENCH_LATE_NS));
	LH_CALL_PROBES(b->tps[LH_B_ENTRY], lh_entry_fn, &b->sl->timer,
		       lh_now_arg(now));
}

/* lh_bench_timer_round - arm the sleeper, expire it late, finish the expiry */
static void lh_bench_timer_round(struct lh_bench *b)
{
	lh_bench_hrtimer_start(b);
	lh_bench_expire_entry(b);
	LH_CALL_PROBES(b->tps[LH_B_EXIT], lh_exit_fn, &b->sl->timer);
}

/* lh_bench_timerwakeup_round - a late timer wakes the RT task, which runs */
static void lh_bench_timerwakeup_round(struct lh_bench *b)
{
	lh_bench_expire_entry(b);
	LH_CALL_PROBES(b->tps[LH_B_WAKING], lh_task_fn, b->victim);
	LH_CALL_PROBES(b->tps[LH_B_EXIT], lh_exit_fn, &b->sl->timer);
	lh_call_sched_switch_probes(b->tps[LH_B_SWITCH], current, b->victim);
	lh_bench_switch_back(b);
}

/* lh_bench_preemptoff_round - a preempt-off section inside irqs off */
static void lh_bench_preemptoff_round(struct lh_bench *b)
{
	LH_CALL_PROBES(b->tps[LH_B_PREEMPT_OFF], lh_ip_fn, _THIS_IP_, _RET_IP_);
	LH_CALL_PROBES(b->tps[LH_B_PREEMPT_ON], lh_ip_fn, _THIS_IP_, _RET_IP_);
}

/* lh_bench_irqsoff_round - an irqs-off section */
static void lh_bench_irqsoff_round(struct lh_bench *b)
{
	LH_CALL_PROBES(b->tps[LH_B_IRQ_OFF], lh_ip_fn, _THIS_IP_, _RET_IP_);
	LH_CALL_PROBES(b->tps[LH_B_IRQ_ON], lh_ip_fn, _THIS_IP_, _RET_IP_);
}

/*
 * lh_bench_syscall_round - a system call's sys_enter and sys_exit, of the
 * current task, which no followed wakeup switched in: every system call of
 * every task pays this while switchtime is on (plus the slow path itself,
 * which the pipe and syscall workloads show)
 */
static void lh_bench_syscall_round(struct lh_bench *b)
{
	struct pt_regs *regs = task_pt_regs(current);

	LH_CALL_PROBES(b->tps[LH_B_SYS_ENTER], lh_sys_fn, regs, 39);
	LH_CALL_PROBES(b->tps[LH_B_SYS_EXIT], lh_sys_fn, regs, 0);
}

static struct irqaction lh_bench_action = { .name = "lh_bench" };
/* a threaded line's action: its thread, the woken kthread, is set at load */
static struct irqaction lh_bench_thread_action = { .name = "lh_bench_thread" };

/*
 * lh_bench_irq_round - a device interrupt's handler entry and exit: what
 * every interrupt pays while explain is on
 */
static void lh_bench_irq_round(struct lh_bench *b)
{
	LH_CALL_PROBES(b->tps[LH_B_IRQ_ENTRY], lh_irq_entry_fn, 11,
		       &lh_bench_action);
	LH_CALL_PROBES(b->tps[LH_B_IRQ_EXIT], lh_irq_exit_fn, 11,
		       &lh_bench_action, 1);
}

/*
 * lh_bench_irqthread_round - a threaded line's interrupt wakes its thread,
 * which is switched in and out: a window of the irq type, opened and filed
 */
static void lh_bench_irqthread_round(struct lh_bench *b)
{
	LH_CALL_PROBES(b->tps[LH_B_IRQ_ENTRY], lh_irq_entry_fn, 12,
		       &lh_bench_thread_action);
	LH_CALL_PROBES(b->tps[LH_B_IRQ_EXIT], lh_irq_exit_fn, 12,
		       &lh_bench_thread_action, IRQ_WAKE_THREAD);
	lh_call_sched_switch_probes(b->tps[LH_B_SWITCH], current, b->victim);
	lh_bench_switch_back(b);
}

/* lh_bench_softirq_round - a softirq vector's entry and exit */
static void lh_bench_softirq_round(struct lh_bench *b)
{
	LH_CALL_PROBES(b->tps[LH_B_SOFTIRQ_ENTRY], lh_softirq_fn, 1);
	LH_CALL_PROBES(b->tps[LH_B_SOFTIRQ_EXIT], lh_softirq_fn, 1);
}

/*
 * lh_bench_softirqraise_round - a raise of HI and the entry of its run: a
 * window of the softirq type, opened and filed
 */
static void lh_bench_softirqraise_round(struct lh_bench *b)
{
	LH_CALL_PROBES(b->tps[LH_B_SOFTIRQ_RAISE], lh_softirq_fn, HI_SOFTIRQ);
	LH_CALL_PROBES(b->tps[LH_B_SOFTIRQ_ENTRY], lh_softirq_fn, HI_SOFTIRQ);
}

/*
 * lh_bench_hrtimer_round - an hrtimer callback's expire entry and exit, of
 * a timer no hrtimer_start announced (missed_timer_offsets ignores it):
 * what every hrtimer callback pays while explain is on
 */
static void lh_bench_hrtimer_round(struct lh_bench *b)
{
	ktime_t now = hrtimer_get_expires(&b->sl->timer);

	LH_CALL_PROBES(b->tps[LH_B_ENTRY], lh_entry_fn, &b->sl->timer,
		       lh_now_arg(now));
	LH_CALL_PROBES(b->tps[LH_B_EXIT], lh_exit_fn, &b->sl->timer);
}

/* lh_bench_mono_fast_round - the clock the wakeup probes read */
static void lh_bench_mono_fast_round(struct lh_bench *b)
{
	b->sink_ns += ktime_get_mono_fast_ns();
}

/* lh_bench_local_clock_round - the clock the critical-section probes read */
static void lh_bench_local_clock_round(struct lh_bench *b)
{
	b->sink_ns += local_clock();
}

/*
 * lh_bench_report - print a scenario's cost per round and per call, given
 * in centi-ns: div_u64_rem(), as a u64 "/" needs a libgcc helper on 32-bit
 */
static void lh_bench_report(const char *name, unsigned int rounds,
			    unsigned int calls, u64 per_round_cns,
			    u64 per_call_cns)
{
	u32 round_frac, call_frac;
	u64 round_ns = div_u64_rem(per_round_cns, 100, &round_frac);
	u64 call_ns = div_u64_rem(per_call_cns, 100, &call_frac);

	pr_info("scenario=%s rounds=%u calls=%u ns_per_round=%llu.%02u ns_per_call=%llu.%02u\n",
		name, rounds, calls, round_ns, round_frac, call_ns, call_frac);
}

/* lh_bench_tsc_round - latency_hist's clock helper reading the TSC */
static void lh_bench_tsc_round(struct lh_bench *b)
{
	b->sink_ns += lh_clock_stamp();
}

/* lh_bench_lock_round - a raw spinlock taken and released, irqsave */
static void lh_bench_lock_round(struct lh_bench *b)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&b->lock, flags);
	b->sink_ns++;
	raw_spin_unlock_irqrestore(&b->lock, flags);
}

/*
 * lh_bench_arch_lock_round - the common path of latency_hist's per-target
 * wakeup lock (module/wakeup.c, lh_wakeup_lock()/lh_wakeup_unlock()): an
 * inline trylock under raw interrupt disabling, the fair lock out of line
 */
static void lh_bench_arch_lock_round(struct lh_bench *b)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	if (unlikely(!arch_spin_trylock(&b->arch_lock)))
		arch_spin_lock(&b->arch_lock);
	b->sink_ns++;
	arch_spin_unlock(&b->arch_lock);
	raw_local_irq_restore(flags);
}

/* lh_bench_batch - IPI handler: time one batch of rounds, interrupts off */
static void lh_bench_batch(void *arg)
{
	struct lh_bench *b = arg;
	unsigned int i;
	u64 t0_ns;

	t0_ns = ktime_get_ns();
	for (i = 0; i < b->rounds; i++)
		b->round(b);
	b->elapsed_ns += ktime_get_ns() - t0_ns;
}

static atomic_long_t lh_bench_fair_hits;

/* lh_bench_fair_pre - kprobe on latency_hist's lh_wakeup_spin_fair(): count */
static int lh_bench_fair_pre(struct kprobe *kp, struct pt_regs *regs)
{
	atomic_long_inc(&lh_bench_fair_hits);
	return 0;
}

static struct kprobe lh_bench_fair_kp = {
	.symbol_name	= "lh_wakeup_spin_fair",
	.pre_handler	= lh_bench_fair_pre,
};

/* struct lh_bench_wakers - the shared state of a wakers_* scenario */
struct lh_bench_wakers {
	struct lh_bench *b;
	unsigned int rounds;		/* wakings per waker */
	atomic_t left;			/* wakers still at work */
	struct completion done;		/* the last one finished */
};

/*
 * lh_bench_waker_fn - a waker's body: wake the RT task of the target CPU
 * @rounds times, interrupts off around each call as in try_to_wake_up(),
 * then wait to be stopped
 */
static int lh_bench_waker_fn(void *arg)
{
	struct lh_bench_wakers *ws = arg;
	struct lh_bench *b = ws->b;
	unsigned int i, j;

	for (i = 0; i < ws->rounds; i++) {
		local_irq_disable();
		LH_CALL_PROBES(b->tps[LH_B_WAKING], lh_task_fn, b->victim);
		local_irq_enable();
		/* A pause lets qemu run another vCPU: the wakers interleave. */
		for (j = 0; j < waker_gap; j++)
			cpu_relax();
		if (i % LH_BENCH_BATCH == LH_BENCH_BATCH - 1)
			cond_resched();
	}
	if (atomic_dec_and_test(&ws->left))
		complete(&ws->done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(MAX_SCHEDULE_TIMEOUT);
	return 0;
}

/*
 * lh_bench_wakers_run - @nr_wakers kthreads on the CPUs other than @cpu
 * wake the RT task of @cpu at once, while @cpu (the loading task, pinned
 * there) switches it in and back every 20-40 us; print the guest time per
 * waking, which under -icount is every vCPU's instructions per waking
 */
static void lh_bench_wakers_run(struct lh_bench *b, const char *name,
				unsigned int nr_wakers, int cpu)
{
	struct task_struct **wakers;
	struct lh_bench_wakers ws = { .b = b };
	unsigned int n = 0, pairs = 0;
	u64 t0_ns, elapsed_ns, per_round_cns;
	long fair0;
	int w;

	wakers = kcalloc(nr_wakers, sizeof(*wakers), GFP_KERNEL);
	if (!wakers)
		return;
	ws.rounds = DIV_ROUND_UP(calls, nr_wakers);
	atomic_set(&ws.left, nr_wakers);
	init_completion(&ws.done);
	for_each_online_cpu(w) {
		struct task_struct *t;

		if (w == cpu || n == nr_wakers)
			continue;
		t = kthread_create_on_cpu(lh_bench_waker_fn, &ws, w,
					  "lh_bench_waker/%u");
		if (IS_ERR(t))
			break;
		get_task_struct(t);
		wakers[n++] = t;
	}
	if (n < nr_wakers) {
		pr_info("scenario=%s skipped: %u of %u wakers started\n", name,
			n, nr_wakers);
		/* never woken: kthread_stop() ends them before their body runs */
		goto out;
	}

	fair0 = atomic_long_read(&lh_bench_fair_hits);
	t0_ns = ktime_get_ns();
	for (w = 0; w < n; w++)
		wake_up_process(wakers[w]);
	while (atomic_read(&ws.left)) {
		local_irq_disable();
		lh_call_sched_switch_probes(b->tps[LH_B_SWITCH], current, b->victim);
		lh_bench_switch_back(b);
		local_irq_enable();
		pairs++;
		usleep_range(20, 40);
	}
	wait_for_completion(&ws.done);
	elapsed_ns = ktime_get_ns() - t0_ns;

	per_round_cns = div_u64(elapsed_ns * 100, ws.rounds * n);
	lh_bench_report(name, ws.rounds * n, ws.rounds * n, per_round_cns,
			per_round_cns);
	pr_info("wakers scenario=%s wakers=%u target_cpu=%d switch_pairs=%u waker_gap=%u\n",
		name, n, cpu, pairs, waker_gap);
	if (count_fair)
		pr_info("fair scenario=%s wakings=%u fair_path=%ld\n", name,
			ws.rounds * n,
			atomic_long_read(&lh_bench_fair_hits) - fair0);
out:
	while (n--) {
		kthread_stop(wakers[n]);
		put_task_struct(wakers[n]);
	}
	kfree(wakers);
}

/* struct lh_bench_scenario - one thing to measure */
struct lh_bench_scenario {
	const char *name;
	void (*round)(struct lh_bench *b);
	unsigned int calls_per_round;
	unsigned long needs;		/* BIT() of each tracepoint it calls */
	int wakers;			/* wakers_*: 1, or -1 for every other CPU */
};

static const struct lh_bench_scenario lh_bench_scenarios[] = {
	{ "wakeup", lh_bench_wakeup_round, 3,
	  BIT(LH_B_WAKING) | BIT(LH_B_SWITCH) },
	{ "timer", lh_bench_timer_round, 3,
	  BIT(LH_B_START) | BIT(LH_B_ENTRY) | BIT(LH_B_EXIT) },
	{ "timerwakeup", lh_bench_timerwakeup_round, 5,
	  BIT(LH_B_WAKING) | BIT(LH_B_SWITCH) | BIT(LH_B_ENTRY) |
	  BIT(LH_B_EXIT) },
	{ "preemptoff", lh_bench_preemptoff_round, 2,
	  BIT(LH_B_PREEMPT_OFF) | BIT(LH_B_PREEMPT_ON) },
	{ "irqsoff", lh_bench_irqsoff_round, 2,
	  BIT(LH_B_IRQ_OFF) | BIT(LH_B_IRQ_ON) },
	{ "syscall", lh_bench_syscall_round, 2,
	  BIT(LH_B_SYS_ENTER) | BIT(LH_B_SYS_EXIT) },
	{ "irq", lh_bench_irq_round, 2,
	  BIT(LH_B_IRQ_ENTRY) | BIT(LH_B_IRQ_EXIT) },
	{ "irqthread", lh_bench_irqthread_round, 4,
	  BIT(LH_B_IRQ_ENTRY) | BIT(LH_B_IRQ_EXIT) | BIT(LH_B_SWITCH) },
	{ "softirq", lh_bench_softirq_round, 2,
	  BIT(LH_B_SOFTIRQ_ENTRY) | BIT(LH_B_SOFTIRQ_EXIT) },
	{ "softirqraise", lh_bench_softirqraise_round, 2,
	  BIT(LH_B_SOFTIRQ_RAISE) | BIT(LH_B_SOFTIRQ_ENTRY) },
	{ "hrtimer", lh_bench_hrtimer_round, 2,
	  BIT(LH_B_ENTRY) | BIT(LH_B_EXIT) },
	/* what the probes are made of, for the report; no tracepoint */
	{ "c_mono_fast", lh_bench_mono_fast_round, 1, 0 },
	{ "c_local_clock", lh_bench_local_clock_round, 1, 0 },
	{ "c_raw_lock", lh_bench_lock_round, 1, 0 },
	{ "c_tsc", lh_bench_tsc_round, 1, 0 },
	{ "c_arch_lock", lh_bench_arch_lock_round, 1, 0 },
	{ "wakers_one", NULL, 1, BIT(LH_B_WAKING) | BIT(LH_B_SWITCH), 1 },
	{ "wakers_all", NULL, 1, BIT(LH_B_WAKING) | BIT(LH_B_SWITCH), -1 },
};

/* lh_bench_has_tps - does this kernel have every tracepoint a scenario calls? */
static bool lh_bench_has_tps(const struct lh_bench *b,
			     const struct lh_bench_scenario *s)
{
	int i;

	for (i = 0; i < LH_B_NR_TPS; i++) {
		if ((s->needs & BIT(i)) && !b->tps[i])
			return false;
	}
	return true;
}

/* lh_bench_run - run one scenario on @cpu and print its figures */
static void lh_bench_run(struct lh_bench *b, const struct lh_bench_scenario *s,
			 int cpu)
{
	unsigned int nr_rounds = DIV_ROUND_UP(calls, s->calls_per_round);
	unsigned int done = 0;
	u64 per_round_cns;	/* centi-ns */

	b->round = s->round;
	b->elapsed_ns = 0;
	while (done < nr_rounds) {
		b->rounds = min_t(unsigned int, LH_BENCH_BATCH, nr_rounds - done);
		smp_call_function_single(cpu, lh_bench_batch, b, 1);
		done += b->rounds;
		cond_resched();
	}
	per_round_cns = div_u64(b->elapsed_ns * 100, nr_rounds);
	lh_bench_report(s->name, nr_rounds, nr_rounds * s->calls_per_round,
			per_round_cns,
			div_u64(per_round_cns, s->calls_per_round));
}

/* lh_bench_victim_fn - the woken task's body: wait for unload */
static int lh_bench_victim_fn(void *unused)
{
	while (!kthread_should_stop())
		schedule_timeout_interruptible(MAX_SCHEDULE_TIMEOUT);
	return 0;
}

/* lh_bench_init - run every scenario this kernel supports, then fail the load */
static int __init lh_bench_init(void)
{
	struct hrtimer_sleeper sl;
	struct lh_bench *b;
	int i, cpu;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	for (i = 0; i < LH_B_NR_TPS; i++)
		b->tps[i] = lh_bench_tp(lh_bench_tp_names[i]);

	b->victim = kthread_create(lh_bench_victim_fn, NULL, "lh_bench_victim");
	if (IS_ERR(b->victim)) {
		i = PTR_ERR(b->victim);
		kfree(b);
		return i;
	}
	get_task_struct(b->victim);
	lh_bench_thread_action.thread = b->victim;
	raw_spin_lock_init(&b->lock);
	b->arch_lock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
	sched_set_fifo(b->victim);
	lh_hrtimer_sleeper_on_stack(&sl);
	sl.task = b->victim;
	b->sl = &sl;

	/* Run on the victim's CPU, so wakeup and switch use the same state. */
	cpu = task_cpu(b->victim);
	set_cpus_allowed_ptr(current, cpumask_of(cpu));
	pr_info("start cpu=%d calls=%u\n", cpu, calls);
	if (count_fair) {
		i = register_kprobe(&lh_bench_fair_kp);
		if (i) {
			pr_info("fair_path skipped: no kprobe on lh_wakeup_spin_fair (%d)\n",
				i);
			count_fair = false;
		}
	}

#ifdef LH_HAVE_TSC_CLOCK
	if (tsc_khz) {
		u32 shift = lh_clock_calc_shift(tsc_khz, NSEC_PER_MSEC);

		lh_clock_set_cycles(lh_clock_calc_mult(tsc_khz, NSEC_PER_MSEC,
						       shift), shift);
	}
#elif defined(LH_HAVE_ARCH_TIMER_CLOCK)
	if (arch_timer_get_cntfrq()) {
		u32 freq = arch_timer_get_cntfrq();
		u32 shift = lh_clock_calc_shift(freq, NSEC_PER_SEC);

		lh_clock_set_cycles(lh_clock_calc_mult(freq, NSEC_PER_SEC,
						       shift), shift);
	}
#endif
	for (i = 0; i < ARRAY_SIZE(lh_bench_scenarios); i++) {
		const struct lh_bench_scenario *s = &lh_bench_scenarios[i];

		if (only && strncmp(s->name, only, strlen(only)))
			continue;
		if (s->round == lh_bench_tsc_round && !lh_clock_on_cycles())
			pr_info("scenario=%s skipped: no TSC rate\n", s->name);
		else if (s->wakers && num_online_cpus() < 2)
			pr_info("scenario=%s skipped: one CPU\n", s->name);
		else if (s->wakers && lh_bench_has_tps(b, s))
			lh_bench_wakers_run(b, s->name, s->wakers > 0 ?
					    s->wakers : num_online_cpus() - 1,
					    cpu);
		else if (lh_bench_has_tps(b, s))
			lh_bench_run(b, s, cpu);
		else
			pr_info("scenario=%s skipped: tracepoint missing\n",
				s->name);
	}
	if (count_fair)
		unregister_kprobe(&lh_bench_fair_kp);
	pr_info("done\n");

	sl.task = NULL;
	destroy_hrtimer_on_stack(&sl.timer);
	kthread_stop(b->victim);
	put_task_struct(b->victim);
	kfree(b);
	return -EAGAIN;
}

module_init(lh_bench_init);

MODULE_DESCRIPTION("latency_hist benchmark: cost of the attached probe bodies");
MODULE_LICENSE("GPL");
