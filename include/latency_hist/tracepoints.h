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
	LH_TP_HRTIMER_START,
	LH_TP_HRTIMER_EXPIRE_ENTRY,
	LH_TP_HRTIMER_EXPIRE_EXIT,
	LH_TP_IRQ_DISABLE,
	LH_TP_IRQ_ENABLE,
	LH_TP_PREEMPT_DISABLE,
	LH_TP_PREEMPT_ENABLE,
	LH_TP_CPU_IDLE,
	LH_NR_TPS
};

/*
 * struct lh_probe - one probe function for one tracepoint
 * @prio: its place among the tracepoint's probes (higher runs first);
 *        0 means TRACEPOINT_DEFAULT_PRIO
 */
struct lh_probe {
	enum lh_tp_id tp;
	void *func;
	int prio;
};

void lh_tp_lookup(void);
const char *lh_tp_first_missing(const struct lh_probe *probes, int nr_probes);
int lh_tp_hook(const struct lh_probe *probes, int nr_probes);
void lh_tp_unhook(const struct lh_probe *probes, int nr_probes);

#endif /* LH_TRACEPOINTS_H */
