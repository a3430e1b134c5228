/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - the one place where kernel versions differ.
 *
 * Every difference is decided by a compile-time feature probe
 * (scripts/compat-probes/<name>.c -> LH_<NAME> in the generated
 * lh_features.h), not by LINUX_VERSION_CODE: Debian backports tracepoint
 * changes into its stable kernels, so version numbers would lie. The rest of
 * the module uses only the spellings defined here.
 */
#ifndef LH_COMPAT_H
#define LH_COMPAT_H

#include <linux/cgroup.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/u64_stats_sync.h>

#include <generated/lh_features.h>

/*
 * hrtimer_expire_entry passes the base's "now" by value from 7.1 on, by
 * pointer before. Probes declare LH_EXPIRE_ENTRY_NOW_ARG and read lh_now().
 */
#ifdef LH_HAVE_HRTIMER_EXPIRE_ENTRY_BY_VALUE
#define LH_EXPIRE_ENTRY_NOW_ARG	ktime_t now
#define lh_now(now)		(now)
#define lh_now_arg(now)		(now)	/* for a caller of the probes */
#else
#define LH_EXPIRE_ENTRY_NOW_ARG	ktime_t *now
#define lh_now(now)		(*(now))
#define lh_now_arg(now)		(&(now))
#endif

/* hrtimer_start gained "bool was_armed" in 7.1 and in late 6.1/6.12 stables. */
#ifdef LH_HAVE_HRTIMER_START_WAS_ARMED
#define LH_HRTIMER_START_ARGS \
	struct hrtimer *timer, enum hrtimer_mode mode, bool was_armed
#else
#define LH_HRTIMER_START_ARGS \
	struct hrtimer *timer, enum hrtimer_mode mode
#endif

/*
 * sched_switch gained "unsigned int prev_state" in 5.18; no probe reads it.
 * Probes are declared with LH_SCHED_SWITCH_ARGS.
 */
#ifdef LH_HAVE_SCHED_SWITCH_PREV_STATE
#define LH_SCHED_SWITCH_ARGS \
	bool preempt, struct task_struct *prev, struct task_struct *next, \
	unsigned int prev_state
#else
#define LH_SCHED_SWITCH_ARGS \
	bool preempt, struct task_struct *prev, struct task_struct *next
#endif

/**
 * lh_sched_switch_probe_call() - call a sched_switch probe as the
 * tracepoint does, for a switch that leaves @prev runnable (the test and
 * bench modules call probes directly)
 * @probe: the probe function
 * @data:  its registration data
 * @prev:  the task switched out
 * @next:  the task switched in
 *
 * Context: interrupts off, as the scheduler calls it.
 */
static inline void lh_sched_switch_probe_call(void (*probe)(void *data,
							    LH_SCHED_SWITCH_ARGS),
					      void *data,
					      struct task_struct *prev,
					      struct task_struct *next)
{
#ifdef LH_HAVE_SCHED_SWITCH_PREV_STATE
	probe(data, false, prev, next, TASK_RUNNING);
#else
	probe(data, false, prev, next);
#endif
}

/**
 * lh_hrtimer_start_probe_call() - call an hrtimer_start probe as the
 * tracepoint does (the benchmark calls probes directly)
 * @probe: the probe function
 * @data:  its registration data
 * @timer: the timer being started
 * @mode:  its mode
 *
 * Context: as the probe requires.
 */
static inline void lh_hrtimer_start_probe_call(void (*probe)(void *data,
							     LH_HRTIMER_START_ARGS),
					       void *data,
					       struct hrtimer *timer,
					       enum hrtimer_mode mode)
{
#ifdef LH_HAVE_HRTIMER_START_WAS_ARMED
	probe(data, timer, mode, false);
#else
	probe(data, timer, mode);
#endif
}

/**
 * lh_hrtimer_sleeper_on_stack_clock() - set up an on-stack sleeper of a
 * clock, as nanosleep does
 * @sl:       the sleeper
 * @clock_id: its clock (CLOCK_MONOTONIC, CLOCK_REALTIME, ...)
 * @mode:     HRTIMER_MODE_REL or _ABS (a relative CLOCK_REALTIME timer is
 *            a CLOCK_MONOTONIC one)
 *
 * hrtimer_setup_sleeper_on_stack() replaced hrtimer_init_sleeper_on_stack()
 * in 6.13.
 *
 * Context: process context.
 */
static inline void lh_hrtimer_sleeper_on_stack_clock(struct hrtimer_sleeper *sl,
						     clockid_t clock_id,
						     enum hrtimer_mode mode)
{
#ifdef LH_HAVE_HRTIMER_SETUP_SLEEPER_ON_STACK
	hrtimer_setup_sleeper_on_stack(sl, clock_id, mode);
#else
	hrtimer_init_sleeper_on_stack(sl, clock_id, mode);
#endif
}

/**
 * lh_hrtimer_sleeper_on_stack() - set up an on-stack CLOCK_MONOTONIC sleeper
 * @sl: the sleeper
 *
 * Context: process context.
 */
static inline void lh_hrtimer_sleeper_on_stack(struct hrtimer_sleeper *sl)
{
	lh_hrtimer_sleeper_on_stack_clock(sl, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
}

/**
 * lh_hrtimer_setup() - initialise an hrtimer with its callback
 * @timer:    the timer
 * @function: its callback
 * @clock_id: the clock it runs on
 * @mode:     its mode
 *
 * hrtimer_setup() replaced hrtimer_init() and the assignment of the
 * callback in 6.13. Used by the test-load module.
 *
 * Context: process context.
 */
static inline void lh_hrtimer_setup(struct hrtimer *timer,
				    enum hrtimer_restart (*function)(struct hrtimer *),
				    clockid_t clock_id, enum hrtimer_mode mode)
{
#ifdef LH_HAVE_HRTIMER_SETUP
	hrtimer_setup(timer, function, clock_id, mode);
#else
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
#endif
}

/*
 * in_hardirq() replaced in_irq() in 5.11 (5.10-rt has it from the RT patch).
 */
#ifndef LH_HAVE_IN_HARDIRQ
#define in_hardirq()		in_irq()
#endif

/*
 * IRQ_WORK_INIT_HARD() (5.11, and 5.10-rt's RT patch) marks an irq_work
 * that runs in hard interrupt context even on PREEMPT_RT. Without the RT
 * patch every irq_work runs there: a plain initializer is the same. Used by
 * the test-load module.
 */
#ifndef LH_HAVE_IRQ_WORK_INIT_HARD
#define IRQ_WORK_INIT_HARD(fn)	{ .func = (fn) }
#endif

/*
 * task_is_running() came with the rename of task_struct::state to __state
 * (5.14). Used by the test-load modules.
 */
#ifndef LH_HAVE_TASK_IS_RUNNING
#define task_is_running(task)	(READ_ONCE((task)->state) == TASK_RUNNING)
#endif

/*
 * u64_stats_set() came in 5.19 (and with the RT patch into 5.10-rt); before,
 * u64_stats_t is a local64_t where a long is 64 bits, a plain u64 (under
 * the syncp's seqcount) where it is 32.
 */
#ifndef LH_HAVE_U64_STATS_SET
static inline void u64_stats_set(u64_stats_t *p, u64 val)
{
#if BITS_PER_LONG == 64
	local64_set(&p->v, val);
#else
	p->v = val;
#endif
}
#endif

/**
 * lh_task_sched_delayed() - is @p a fair task that blocked but is still on
 * its runqueue, its dequeue delayed (EEVDF's DELAY_DEQUEUE, 6.12)?
 * @p: the task
 *
 * Such a task has on_rq == 1 (TASK_ON_RQ_QUEUED) although it sleeps; the
 * kernel's own test is task_is_runnable(). Before 6.12 a blocked task is
 * always dequeued at once: false.
 *
 * Context: any; a racy read, its caller orders it.
 * Return: true if the dequeue is delayed.
 */
static __always_inline bool lh_task_sched_delayed(struct task_struct *p)
{
#ifdef LH_HAVE_SCHED_DELAYED
	return READ_ONCE(p->se.sched_delayed);
#else
	return false;
#endif
}

/**
 * lh_kmalloc_size_roundup() - the size kmalloc() hands out for a request
 * @size: the request, in bytes
 *
 * kmalloc_size_roundup() exists from 6.1 on; before, the same answer comes
 * from the kmalloc cache kmalloc_index() picks (96 and 192 bytes are the
 * two caches that are not a power of two) or, above the largest cache, from
 * the page allocator's order.
 *
 * Context: any.
 * Return: bytes.
 */
static inline size_t lh_kmalloc_size_roundup(size_t size)
{
#ifdef LH_HAVE_KMALLOC_SIZE_ROUNDUP
	return kmalloc_size_roundup(size);
#else
	unsigned int index;

	if (!size)
		return 0;
	if (size > KMALLOC_MAX_CACHE_SIZE)
		return PAGE_SIZE << get_order(size);
	index = kmalloc_index(size);
	if (index == 1)
		return 96;
	if (index == 2)
		return 192;
	return (size_t)1 << index;
#endif
}

/*
 * The x86 system vectors (local timer, IPIs, irq work, ...) have entry and
 * exit tracepoints of their own (asm/trace/irq_vectors.h); the device IRQ
 * tracepoints do not see them. Other architectures have none: there the
 * time of such interrupts counts as that of what they interrupted.
 */
#if defined(CONFIG_X86) && defined(CONFIG_X86_LOCAL_APIC)
#define LH_HAVE_X86_IRQ_VECTORS	1
#endif

/*
 * A cycle counter the module may read and scale itself
 * (include/latency_hist/clock.h): the x86 TSC on 64-bit kernels, where
 * rdtsc(), tsc_khz and check_tsc_unstable() exist on every kernel from 6.1
 * on; or ARM's architected timer (arm and arm64), read through
 * arch_timer_read_counter(), the reader the kernel's arch_sys_counter
 * clocksource and sched_clock call, exported to modules, which the timer
 * driver points at the erratum workaround a CPU needs (the inline
 * __arch_counter_get_cntvct_stable() needs symbols that are not exported).
 * Other architectures use the kernel's clocks.
 */
#if defined(CONFIG_X86_64) && defined(CONFIG_X86_TSC)
#define LH_HAVE_TSC_CLOCK	1
#elif (defined(CONFIG_ARM) || defined(CONFIG_ARM64)) && \
	defined(CONFIG_ARM_ARCH_TIMER)
#define LH_HAVE_ARCH_TIMER_CLOCK	1
#endif
#if defined(LH_HAVE_TSC_CLOCK) || defined(LH_HAVE_ARCH_TIMER_CLOCK)
#define LH_HAVE_CYCLE_CLOCK	1
#endif

/*
 * Is the kernel's timekeeping reading the TSC right now? Then CLOCK_MONOTONIC
 * itself is the TSC of whichever CPU reads it, scaled by one mult/shift:
 * the kernel trusts it across CPUs. ktime_get_snapshot() names the
 * clocksource from 6.2 on; 7.3 spells it ktime_get_snapshot_id(); 6.1 has
 * no id for the TSC (there the CPU flags alone decide).
 */
#if defined(LH_HAVE_KTIME_GET_SNAPSHOT_TSC) || \
	defined(LH_HAVE_KTIME_GET_SNAPSHOT_ID_TSC)
#include <linux/clocksource_ids.h>
#include <linux/time.h>
#include <linux/timekeeping.h>

static inline bool lh_clocksource_is_tsc(void)
{
	struct system_time_snapshot snap;

#ifdef LH_HAVE_KTIME_GET_SNAPSHOT_TSC
	ktime_get_snapshot(&snap);
#else
	ktime_get_snapshot_id(CLOCK_MONOTONIC, &snap);
#endif
	return snap.cs_id == CSID_X86_TSC;
}
#else
static inline bool lh_clocksource_is_tsc(void)
{
	return false;
}
#endif

/*
 * A syscore resume callback (the boot CPU, interrupts off, the others
 * offline). 6.19 (and Debian's 6.12.117) register a struct syscore holding
 * const ops whose callbacks take a data pointer; older kernels register the
 * struct syscore_ops itself, callbacks without one.
 * LH_DEFINE_SYSCORE_RESUME(name, fn) defines @name, whose resume calls
 * void fn(void); lh_register_syscore(&name) and lh_unregister_syscore(&name).
 */
#include <linux/syscore_ops.h>

#ifdef LH_HAVE_REGISTER_SYSCORE
#define LH_DEFINE_SYSCORE_RESUME(name, fn)				\
static void name##_resume(void *data)					\
{									\
	fn();								\
}									\
static const struct syscore_ops name##_ops = {				\
	.resume = name##_resume,					\
};									\
static struct syscore name = {						\
	.ops = &name##_ops,						\
}

#define lh_register_syscore(s)		register_syscore(s)
#define lh_unregister_syscore(s)	unregister_syscore(s)
#else
#define LH_DEFINE_SYSCORE_RESUME(name, fn)				\
static struct syscore_ops name = {					\
	.resume = fn,							\
}

#define lh_register_syscore(s)		register_syscore_ops(s)
#define lh_unregister_syscore(s)	unregister_syscore_ops(s)
#endif

/**
 * lh_task_cgroup_id() - the id of a task's cgroup on the default (v2)
 * hierarchy: its kernfs node id, 64 bits, never reused while the system
 * runs
 * @p: the task, alive
 *
 * Without CONFIG_CGROUPS there is none: 0, which the per-cgroup views
 * count in "#other".
 *
 * Context: any but NMI; takes no lock (an RCU read-side section, which
 * may nest in any other).
 * Return: the cgroup id, or 0.
 */
static __always_inline u64 lh_task_cgroup_id(struct task_struct *p)
{
#ifdef LH_HAVE_TASK_DFL_CGROUP
	u64 id;

	rcu_read_lock();
	id = cgroup_id(task_dfl_cgroup(p));
	rcu_read_unlock();
	return id;
#else
	return 0;
#endif
}

/**
 * lh_cgroup_path_of_id() - the path of a cgroup v2 from its id, relative
 * to the cgroup2 root ("/" for the root itself)
 * @id:  the cgroup id (lh_task_cgroup_id())
 * @buf: where the path goes
 * @len: its size
 *
 * cgroup_get_from_id() (5.15) finds a cgroup even when no task is left in
 * it. Before, a task of the cgroup is looked for among the live threads:
 * a cgroup that none is in any more has no name here.
 *
 * Context: process context; may sleep.
 * Return: 0, or a negative error (no such cgroup, not visible from the
 * reader's cgroup namespace, no cgroups in this kernel).
 */
static inline int lh_cgroup_path_of_id(u64 id, char *buf, size_t len)
{
#if defined(LH_HAVE_CGROUP_GET_FROM_ID)
	struct cgroup *cgrp = cgroup_get_from_id(id);
	int ret;

	if (IS_ERR_OR_NULL(cgrp))
		return -ENOENT;
	ret = cgroup_path(cgrp, buf, len);
	cgroup_put(cgrp);
	return ret < 0 ? ret : 0;
#elif defined(LH_HAVE_TASK_DFL_CGROUP)
	struct task_struct *g, *t;
	struct cgroup *cgrp = NULL;
	int ret;

	rcu_read_lock();
	for_each_process_thread(g, t) {
		struct cgroup *c = task_dfl_cgroup(t);

		if (cgroup_id(c) == id) {
			if (css_tryget(&c->self))
				cgrp = c;
			break;
		}
	}
	rcu_read_unlock();
	if (!cgrp)
		return -ENOENT;
	ret = cgroup_path(cgrp, buf, len);
	cgroup_put(cgrp);
	return ret < 0 ? ret : 0;
#else
	return -ENODEV;
#endif
}

#endif /* LH_COMPAT_H */
