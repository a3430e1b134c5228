// SPDX-License-Identifier: GPL-2.0
/*
 * latency_hist - the PREEMPT_RT patch's latency histograms as a module.
 *
 * Real-time Linux engineers used the RT patch's kernel/trace/latency_hist.c
 * (CONFIG_WAKEUP_LATENCY_HIST and friends, -rt up to 4.9) to keep per-CPU
 * 1 us histograms of effective latencies (wakeup, missed timer offsets) and
 * of their potential sources (irqs-off and preempt-off sections) running for
 * weeks on test rigs, and to name the victim and the culprit of the worst
 * case. It left the RT patch when hist triggers arrived. This module brings
 * the same files and formats back on stock and PREEMPT_RT kernels without
 * patching the kernel: it hooks the existing tracepoints by name.
 *
 * Data flows: tracepoint -> probe (wakeup.c, ...) -> per-CPU state ->
 * histogram engine (hist.c) -> debugfs/seq_file (debugfs.c, hist_print.c);
 * with counting on, perf counters over the same windows (counters.c).
 * control.c owns everything a user can change; params.c mirrors it as module
 * parameters for rigs where lockdown forbids debugfs writes.
 *
 * Cost: nothing is hooked until a type is enabled; an enabled probe is a few
 * loads and stores plus, per sample, one atomic increment. Reading a
 * histogram copies it and never pauses recording.
 *
 * Based on the interface of latency_hist.c by Carsten Emde, with code going
 * back to Yi Yang and Steven Rostedt; this is a new implementation.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>

#include <latency_hist/clock.h>
#include <latency_hist/control.h>
#include <latency_hist/counters.h>
#include <latency_hist/debugfs.h>
#include <latency_hist/explain.h>
#include <latency_hist/outlier.h>
#include <latency_hist/preemptirq.h>
#include <latency_hist/softirq.h>
#include <latency_hist/task_views.h>
#include <latency_hist/tracepoints.h>

/* lh_init - find tracepoints, build the tree, apply load-time parameters */
static int __init lh_init(void)
{
	int ret;

	ret = lh_types_check();
	if (ret)
		return ret;

	ret = lh_clock_init();
	if (ret)
		return ret;

	lh_tp_lookup();
	ret = lh_preemptirq_init();
	if (ret)
		goto out_clock_exit;

	ret = lh_softirq_init();
	if (ret)
		goto out_preemptirq_exit;

	ret = lh_counters_init();
	if (ret)
		goto out_softirq_exit;

	ret = lh_explain_init();
	if (ret)
		goto out_counters_exit;

	lh_outlier_init();
	lh_task_views_init();
	ret = lh_control_init();
	if (ret)
		goto out_task_views_exit;

	ret = lh_debugfs_init();
	if (ret)
		goto out_control_exit;

	ret = lh_control_start();
	if (ret)
		goto out_remove_debugfs;
	return 0;

out_remove_debugfs:
	lh_debugfs_exit();
out_control_exit:
	lh_control_exit();
out_task_views_exit:
	lh_task_views_exit();
	lh_outlier_exit();
	lh_explain_exit();
out_counters_exit:
	lh_counters_exit();
out_softirq_exit:
	lh_softirq_exit();
out_preemptirq_exit:
	lh_preemptirq_exit();
out_clock_exit:
	lh_clock_exit();
	return ret;
}

/* lh_exit - remove the tree first, then unhook and free */
static void __exit lh_exit(void)
{
	lh_debugfs_exit();
	lh_control_exit();
	lh_task_views_exit();
	lh_outlier_exit();
	lh_explain_exit();
	lh_counters_exit();
	lh_softirq_exit();
	lh_preemptirq_exit();
	lh_clock_exit();
}

module_init(lh_init);
module_exit(lh_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The latency-hist developers");
MODULE_DESCRIPTION("Per-CPU latency histograms of the PREEMPT_RT patch, as a module");
MODULE_VERSION(LH_VERSION);
