// SPDX-License-Identifier: GPL-2.0
/*
 * tracepoints.c - find kernel tracepoints by name and hook probe sets.
 *
 * All tracepoints we use are built into vmlinux, so one walk over the kernel's
 * tracepoint table at load time finds them; a name that is not found (the
 * preemptirq events on kernels without CONFIG_PREEMPTIRQ_TRACEPOINTS) makes
 * the latency types that need it unavailable, which the status file reports.
 *
 * A probe set is hooked all-or-nothing after a grace period, so that its
 * probes see what the caller wrote before hooking them, and unhooked in
 * reverse order followed by another, so that when lh_tp_unhook() returns no
 * CPU is still inside one of its probes and the caller may clear or free
 * whatever the probes used.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include <latency_hist/tracepoints.h>

static const char *const lh_tp_names[LH_NR_TPS] = {
	[LH_TP_SCHED_WAKING]		= "sched_waking",
	[LH_TP_SCHED_WAKEUP_NEW]	= "sched_wakeup_new",
	[LH_TP_SCHED_SWITCH]		= "sched_switch",
	[LH_TP_SCHED_MIGRATE_TASK]	= "sched_migrate_task",
	[LH_TP_SCHED_PI_SETPRIO]	= "sched_pi_setprio",
	[LH_TP_SCHED_PROCESS_FREE]	= "sched_process_free",
	[LH_TP_HRTIMER_START]		= "hrtimer_start",
	[LH_TP_HRTIMER_EXPIRE_ENTRY]	= "hrtimer_expire_entry",
	[LH_TP_HRTIMER_EXPIRE_EXIT]	= "hrtimer_expire_exit",
	[LH_TP_IRQ_DISABLE]		= "irq_disable",
	[LH_TP_IRQ_ENABLE]		= "irq_enable",
	[LH_TP_PREEMPT_DISABLE]		= "preempt_disable",
	[LH_TP_PREEMPT_ENABLE]		= "preempt_enable",
	[LH_TP_CPU_IDLE]		= "cpu_idle",
	[LH_TP_SYS_ENTER]		= "sys_enter",
	[LH_TP_SYS_EXIT]		= "sys_exit",
	[LH_TP_IRQ_HANDLER_ENTRY]	= "irq_handler_entry",
	[LH_TP_IRQ_HANDLER_EXIT]	= "irq_handler_exit",
	[LH_TP_SOFTIRQ_ENTRY]	= "softirq_entry",
	[LH_TP_SOFTIRQ_EXIT]	= "softirq_exit",
	[LH_TP_SOFTIRQ_RAISE]	= "softirq_raise",
	[LH_TP_NMI_HANDLER]	= "nmi_handler",
	[LH_TP_LOCAL_TIMER_ENTRY]	= "local_timer_entry",
	[LH_TP_LOCAL_TIMER_EXIT]	= "local_timer_exit",
	[LH_TP_RESCHEDULE_ENTRY]	= "reschedule_entry",
	[LH_TP_RESCHEDULE_EXIT]	= "reschedule_exit",
	[LH_TP_CALL_FUNCTION_ENTRY]	= "call_function_entry",
	[LH_TP_CALL_FUNCTION_EXIT]	= "call_function_exit",
	[LH_TP_CALL_FUNCTION_SINGLE_ENTRY]	= "call_function_single_entry",
	[LH_TP_CALL_FUNCTION_SINGLE_EXIT]	= "call_function_single_exit",
	[LH_TP_IRQ_WORK_ENTRY]	= "irq_work_entry",
	[LH_TP_IRQ_WORK_EXIT]	= "irq_work_exit",
	[LH_TP_X86_PLATFORM_IPI_ENTRY]	= "x86_platform_ipi_entry",
	[LH_TP_X86_PLATFORM_IPI_EXIT]	= "x86_platform_ipi_exit",
	[LH_TP_ERROR_APIC_ENTRY]	= "error_apic_entry",
	[LH_TP_ERROR_APIC_EXIT]	= "error_apic_exit",
	[LH_TP_SPURIOUS_APIC_ENTRY]	= "spurious_apic_entry",
	[LH_TP_SPURIOUS_APIC_EXIT]	= "spurious_apic_exit",
	[LH_TP_THERMAL_APIC_ENTRY]	= "thermal_apic_entry",
	[LH_TP_THERMAL_APIC_EXIT]	= "thermal_apic_exit",
	[LH_TP_THRESHOLD_APIC_ENTRY]	= "threshold_apic_entry",
	[LH_TP_THRESHOLD_APIC_EXIT]	= "threshold_apic_exit",
	[LH_TP_DEFERRED_ERROR_APIC_ENTRY]	= "deferred_error_apic_entry",
	[LH_TP_DEFERRED_ERROR_APIC_EXIT]	= "deferred_error_apic_exit",
};

/* Filled once by lh_tp_lookup() before anything can hook; read-only after. */
static struct tracepoint *lh_tps[LH_NR_TPS];

/* lh_tp_match - for_each_kernel_tracepoint() callback: remember ours */
static void lh_tp_match(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < LH_NR_TPS; i++) {
		if (!lh_tps[i] && !strcmp(tp->name, lh_tp_names[i]))
			lh_tps[i] = tp;
	}
}

/**
 * lh_tp_lookup() - find every tracepoint latency_hist may hook
 *
 * Context: process context, module init.
 */
void lh_tp_lookup(void)
{
	for_each_kernel_tracepoint(lh_tp_match, NULL);
}

/**
 * lh_tp_name() - the name of a tracepoint
 * @tp: the tracepoint
 *
 * Context: any.
 */
const char *lh_tp_name(enum lh_tp_id tp)
{
	return lh_tp_names[tp];
}

/**
 * lh_tp_found() - does this kernel have a tracepoint?
 * @tp: the tracepoint
 *
 * Context: any, after lh_tp_lookup().
 */
bool lh_tp_found(enum lh_tp_id tp)
{
	return lh_tps[tp];
}

/**
 * lh_tp_first_missing() - name the first tracepoint of a probe set that this
 * kernel lacks
 * @probes:    the probe set
 * @nr_probes: its length
 *
 * Context: any.
 * Return: the tracepoint name, or NULL when the whole set can be hooked.
 */
const char *lh_tp_first_missing(const struct lh_probe *probes, int nr_probes)
{
	int i;

	for (i = 0; i < nr_probes; i++) {
		if (!lh_tps[probes[i].tp])
			return lh_tp_names[probes[i].tp];
	}
	return NULL;
}

/**
 * lh_tp_hook() - register every probe of a set, or none
 * @probes:    the probe set, registered in array order
 * @nr_probes: its length
 *
 * Context: process context; may sleep (one grace period, and the kernel's
 * tracepoint mutex).
 * Return: 0, -ENODEV if a tracepoint is missing, or the registration error.
 */
int lh_tp_hook(const struct lh_probe *probes, int nr_probes)
{
	int i, ret;

	if (lh_tp_first_missing(probes, nr_probes))
		return -ENODEV;

	/*
	 * The probes read without a flag of their own what the caller wrote
	 * just before (the state it cleared, explain's rings, a first
	 * histogram array). The registration publishes the probe array with
	 * rcu_assign_pointer(), but a probe called through it orders its loads
	 * after that only by a control dependency (the indirect call), and on
	 * a tracepoint that already has two probes the registration patches
	 * no code, which would order them. A grace period between those writes
	 * and the publication orders them on every tracepoint
	 * (tools/litmus/tracepoint-hook.litmus; races/tracepoint-hook-no-gp.litmus
	 * is the race without it). An enable is rare; the unhook pays the same.
	 */
	tracepoint_synchronize_unregister();

	for (i = 0; i < nr_probes; i++) {
		ret = tracepoint_probe_register_prio(lh_tps[probes[i].tp],
						     probes[i].func,
						     probes[i].data,
						     probes[i].prio ?:
						     TRACEPOINT_DEFAULT_PRIO);
		if (ret) {
			pr_err("cannot hook %s: %d\n",
			       lh_tp_names[probes[i].tp], ret);
			goto out_unregister;
		}
	}
	return 0;

out_unregister:
	while (i--)
		WARN_ON_ONCE(tracepoint_probe_unregister(lh_tps[probes[i].tp],
							 probes[i].func,
							 probes[i].data));
	tracepoint_synchronize_unregister();
	return ret;
}

/**
 * lh_tp_unhook() - unregister a probe set hooked by lh_tp_hook()
 * @probes:    the probe set
 * @nr_probes: its length
 *
 * Returns only when no probe of the set can still be running on any CPU.
 *
 * Context: process context; may sleep.
 */
void lh_tp_unhook(const struct lh_probe *probes, int nr_probes)
{
	int i;

	for (i = nr_probes - 1; i >= 0; i--)
		WARN_ON_ONCE(tracepoint_probe_unregister(lh_tps[probes[i].tp],
							 probes[i].func,
							 probes[i].data));
	tracepoint_synchronize_unregister();
}

/**
 * lh_tp_slows_syscalls() - does a probe set hook a raw_syscalls tracepoint?
 * @probes:    the probe set
 * @nr_probes: its length
 *
 * While a probe is registered on sys_enter or sys_exit, the kernel sets the
 * syscall-tracepoint work flag on every task, so every system call of every
 * task takes the slow entry and exit path: the status file says so.
 *
 * Context: any.
 */
bool lh_tp_slows_syscalls(const struct lh_probe *probes, int nr_probes)
{
	int i;

	for (i = 0; i < nr_probes; i++) {
		if (probes[i].tp == LH_TP_SYS_ENTER ||
		    probes[i].tp == LH_TP_SYS_EXIT)
			return true;
	}
	return false;
}
