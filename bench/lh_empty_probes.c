// SPDX-License-Identifier: GPL-2.0
/*
 * lh_empty_probes - the floor of the latency_hist benchmark: probes that do
 * nothing, on the tracepoints latency_hist hooks.
 *
 * Whatever latency_hist costs beyond this module is the cost of its probe
 * bodies; what this module costs over an unloaded kernel is the price of
 * having a probe attached at all (the tracepoint's static key, the call
 * through the probe array), which no tracepoint-based tool can avoid.
 *
 *   insmod lh_empty_probes.ko                  wakeup and timer tracepoints
 *   insmod lh_empty_probes.ko preemptirq=1     ... and the preemptirq ones
 *
 * Loading fails with -ENODEV if a requested tracepoint is missing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>
#include <trace/events/syscalls.h>
#include <trace/events/timer.h>

#include <latency_hist/compat.h>

#include "lh_bench_tp.h"

static bool preemptirq;
module_param(preemptirq, bool, 0444);
MODULE_PARM_DESC(preemptirq, "also hook irq_*, preempt_* and cpu_idle");

static bool syscalls;
module_param(syscalls, bool, 0444);
MODULE_PARM_DESC(syscalls, "also hook raw_syscalls sys_enter and sys_exit (every system call takes the slow path)");

/* lh_empty_task - sched_waking, sched_wakeup_new */
static void notrace lh_empty_task(void *data, struct task_struct *p)
{
}

/* lh_empty_switch - sched_switch */
static void notrace lh_empty_switch(void *data, LH_SCHED_SWITCH_ARGS)
{
}

/* lh_empty_migrate - sched_migrate_task */
static void notrace lh_empty_migrate(void *data, struct task_struct *p,
				     int dest_cpu)
{
}

/* lh_empty_hrtimer_start - hrtimer_start */
static void notrace lh_empty_hrtimer_start(void *data, LH_HRTIMER_START_ARGS)
{
}

/* lh_empty_expire_entry - hrtimer_expire_entry */
static void notrace lh_empty_expire_entry(void *data, struct hrtimer *timer,
					  LH_EXPIRE_ENTRY_NOW_ARG)
{
}

/* lh_empty_expire_exit - hrtimer_expire_exit */
static void notrace lh_empty_expire_exit(void *data, struct hrtimer *timer)
{
}

/* lh_empty_ip - irq_disable, irq_enable, preempt_disable, preempt_enable */
static void notrace lh_empty_ip(void *data, unsigned long ip,
				unsigned long parent_ip)
{
}

/* lh_empty_syscall - sys_enter, sys_exit */
static void notrace lh_empty_syscall(void *data, struct pt_regs *regs,
				     long id_or_ret)
{
}

/* lh_empty_idle - cpu_idle */
static void notrace lh_empty_idle(void *data, unsigned int state,
				  unsigned int cpu_id)
{
}

/* struct lh_empty_probe - one empty probe on one tracepoint */
struct lh_empty_probe {
	const char *name;
	void *func;
	bool preemptirq;
	bool syscalls;
	struct tracepoint *tp;	/* set while hooked */
};

/* The same tracepoints, in the same order, as latency_hist hooks them. */
static struct lh_empty_probe lh_empty_probes[] = {
	{ "sched_switch",		lh_empty_switch },
	{ "sched_migrate_task",		lh_empty_migrate },
	{ "sched_wakeup_new",		lh_empty_task },
	{ "sched_waking",		lh_empty_task },
	{ "hrtimer_start",		lh_empty_hrtimer_start },
	{ "hrtimer_expire_exit",	lh_empty_expire_exit },
	{ "hrtimer_expire_entry",	lh_empty_expire_entry },
	{ "cpu_idle",			lh_empty_idle, true },
	{ "irq_enable",			lh_empty_ip, true },
	{ "preempt_enable",		lh_empty_ip, true },
	{ "irq_disable",		lh_empty_ip, true },
	{ "preempt_disable",		lh_empty_ip, true },
	{ "sys_enter",			lh_empty_syscall, false, true },
	{ "sys_exit",			lh_empty_syscall, false, true },
};

/* lh_empty_unhook - unregister every hooked probe, in reverse order */
static void lh_empty_unhook(void)
{
	int i;

	for (i = ARRAY_SIZE(lh_empty_probes) - 1; i >= 0; i--) {
		struct lh_empty_probe *p = &lh_empty_probes[i];

		if (!p->tp)
			continue;
		WARN_ON_ONCE(tracepoint_probe_unregister(p->tp, p->func, NULL));
		p->tp = NULL;
	}
	tracepoint_synchronize_unregister();
}

/* lh_empty_init - hook every requested probe or none */
static int __init lh_empty_init(void)
{
	struct tracepoint *tp;
	int i, ret;

	check_trace_callback_type_sched_switch(lh_empty_switch);
	check_trace_callback_type_sched_migrate_task(lh_empty_migrate);
	check_trace_callback_type_sched_waking(lh_empty_task);
	check_trace_callback_type_hrtimer_start(lh_empty_hrtimer_start);
	check_trace_callback_type_hrtimer_expire_entry(lh_empty_expire_entry);
	check_trace_callback_type_hrtimer_expire_exit(lh_empty_expire_exit);
#ifdef CONFIG_HAVE_SYSCALL_TRACEPOINTS
	check_trace_callback_type_sys_enter(lh_empty_syscall);
	check_trace_callback_type_sys_exit(lh_empty_syscall);
#endif

	for (i = 0; i < ARRAY_SIZE(lh_empty_probes); i++) {
		struct lh_empty_probe *p = &lh_empty_probes[i];

		if ((p->preemptirq && !preemptirq) || (p->syscalls && !syscalls))
			continue;
		tp = lh_bench_tp(p->name);
		ret = tp ? tracepoint_probe_register(tp, p->func, NULL) : -ENODEV;
		if (ret) {
			pr_err("cannot hook %s: %d\n", p->name, ret);
			lh_empty_unhook();
			return ret;
		}
		p->tp = tp;
	}
	return 0;
}

/* lh_empty_exit - unhook everything */
static void __exit lh_empty_exit(void)
{
	lh_empty_unhook();
}

module_init(lh_empty_init);
module_exit(lh_empty_exit);

MODULE_DESCRIPTION("latency_hist benchmark floor: empty probes on its tracepoints");
MODULE_LICENSE("GPL");
