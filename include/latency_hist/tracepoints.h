/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracepoints.h - attach probes to kernel tracepoints found by name.
 *
 * The scheduler, timer and preemptirq tracepoints are not exported to
 * modules, so register_trace_<name>() does not link. tracepoints.c looks each
 * one up once with for_each_kernel_tracepoint() and registers probes with
 * tracepoint_probe_register(), the way samples/trace_events/trace_custom_sched.c
 * and lttng-modules do. Every probe is type-checked against the kernel's own
 * prototype with check_trace_callback_type_<name>() where it is defined.
 */
#ifndef LH_TRACEPOINTS_H
#define LH_TRACEPOINTS_H

#include <linux/types.h>

enum lh_tp_id {
	LH_TP_SCHED_WAKING,
	LH_TP_SCHED_WAKEUP_NEW,
	LH_TP_SCHED_SWITCH,
	LH_TP_SCHED_MIGRATE_TASK,
	LH_TP_SCHED_PI_SETPRIO,
	LH_TP_SCHED_PROCESS_FREE,	/* task_views.c */
	LH_TP_HRTIMER_START,
	LH_TP_HRTIMER_EXPIRE_ENTRY,
	LH_TP_HRTIMER_EXPIRE_EXIT,
	LH_TP_IRQ_DISABLE,
	LH_TP_IRQ_ENABLE,
	LH_TP_PREEMPT_DISABLE,
	LH_TP_PREEMPT_ENABLE,
	LH_TP_CPU_IDLE,
	LH_TP_SYS_ENTER,
	LH_TP_SYS_EXIT,
	/* explain.c: where a window's time went */
	LH_TP_IRQ_HANDLER_ENTRY,
	LH_TP_IRQ_HANDLER_EXIT,
	LH_TP_SOFTIRQ_ENTRY,
	LH_TP_SOFTIRQ_EXIT,
	LH_TP_SOFTIRQ_RAISE,	/* softirq.c */
	LH_TP_NMI_HANDLER,
	/* x86 system vectors: device IRQ tracepoints do not see them */
	LH_TP_LOCAL_TIMER_ENTRY,
	LH_TP_LOCAL_TIMER_EXIT,
	LH_TP_RESCHEDULE_ENTRY,
	LH_TP_RESCHEDULE_EXIT,
	LH_TP_CALL_FUNCTION_ENTRY,
	LH_TP_CALL_FUNCTION_EXIT,
	LH_TP_CALL_FUNCTION_SINGLE_ENTRY,
	LH_TP_CALL_FUNCTION_SINGLE_EXIT,
	LH_TP_IRQ_WORK_ENTRY,
	LH_TP_IRQ_WORK_EXIT,
	LH_TP_X86_PLATFORM_IPI_ENTRY,
	LH_TP_X86_PLATFORM_IPI_EXIT,
	LH_TP_ERROR_APIC_ENTRY,
	LH_TP_ERROR_APIC_EXIT,
	LH_TP_SPURIOUS_APIC_ENTRY,
	LH_TP_SPURIOUS_APIC_EXIT,
	LH_TP_THERMAL_APIC_ENTRY,
	LH_TP_THERMAL_APIC_EXIT,
	LH_TP_THRESHOLD_APIC_ENTRY,
	LH_TP_THRESHOLD_APIC_EXIT,
	LH_TP_DEFERRED_ERROR_APIC_ENTRY,
	LH_TP_DEFERRED_ERROR_APIC_EXIT,
	LH_NR_TPS
};

/*
 * struct lh_probe - one probe function for one tracepoint
 * @prio: its place among the tracepoint's probes (higher runs first);
 *        0 means TRACEPOINT_DEFAULT_PRIO
 * @data: the probe's first argument (NULL for most)
 */
struct lh_probe {
	enum lh_tp_id tp;
	void *func;
	int prio;
	void *data;
};

void lh_tp_lookup(void);
bool lh_tp_found(enum lh_tp_id tp);
const char *lh_tp_name(enum lh_tp_id tp);
const char *lh_tp_first_missing(const struct lh_probe *probes, int nr_probes);
int lh_tp_hook(const struct lh_probe *probes, int nr_probes);
void lh_tp_unhook(const struct lh_probe *probes, int nr_probes);
bool lh_tp_slows_syscalls(const struct lh_probe *probes, int nr_probes);

#endif /* LH_TRACEPOINTS_H */
