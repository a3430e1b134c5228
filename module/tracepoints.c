// SPDX-License-Identifier: GPL-2.0
/*
 * tracepoints.c - find kernel tracepoints by name and hook probe sets.
 *
 * All tracepoints we use are built into vmlinux, so one walk over the kernel's
 * tracepoint table at load time finds them; a name that is not found (the
 * preemptirq events on kernels without CONFIG_PREEMPTIRQ_TRACEPOINTS) makes
 * the latency types that need it unavailable, which the status file reports.
 *
 * A probe set is hooked all-or-nothing and unhooked in reverse order,
 * followed by tracepoint_synchronize_unregister(), so that when lh_tp_unhook()
 * returns no CPU is still inside one of its probes and the caller may clear
 * or free whatever the probes used.
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
	[LH_TP_HRTIMER_START]		= "hrtimer_start",
	[LH_TP_HRTIMER_EXPIRE_ENTRY]	= "hrtimer_expire_entry",
	[LH_TP_HRTIMER_EXPIRE_EXIT]	= "hrtimer_expire_exit",
	[LH_TP_IRQ_DISABLE]		= "irq_disable",
	[LH_TP_IRQ_ENABLE]		= "irq_enable",
	[LH_TP_PREEMPT_DISABLE]		= "preempt_disable",
	[LH_TP_PREEMPT_ENABLE]		= "preempt_enable",
	[LH_TP_CPU_IDLE]		= "cpu_idle",
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
 * Context: process context; takes the kernel's tracepoint mutex.
 * Return: 0, -ENODEV if a tracepoint is missing, or the registration error.
 */
int lh_tp_hook(const struct lh_probe *probes, int nr_probes)
{
	int i, ret;

	if (lh_tp_first_missing(probes, nr_probes))
		return -ENODEV;

	for (i = 0; i < nr_probes; i++) {
		ret = tracepoint_probe_register_prio(lh_tps[probes[i].tp],
						     probes[i].func, NULL,
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
							 probes[i].func, NULL));
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
							 probes[i].func, NULL));
	tracepoint_synchronize_unregister();
}
