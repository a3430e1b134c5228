/* SPDX-License-Identifier: GPL-2.0 */
/*
 * type_list.h - one row per latency type; see types.h for the rules.
 *
 * Included (without a guard) after defining LH_SWITCH() and/or LH_HIST();
 * a macro left undefined expands its rows to nothing, and both are
 * undefined again at the end.
 *
 * LH_SWITCH(ID, name, pid, needs, ops, clock) - an enable switch:
 *   ID     LH_SW_<ID>
 *   name   the file in enable/ (parameter enable_<name>)
 *   pid    LH_PID: a <name>/pid filter (parameter <name>_pid); LH_NO_PID
 *   needs  LH_NEED(ID) | ...: switches that must be on before this one,
 *          and whose disable turns it off; 0 for none
 *   ops    the probe set it hooks (struct lh_switch_ops), or NULL for a
 *          flag that the probes of its needs read
 *   clock  what its windows are timed on (enum lh_clock_kind, clock.h):
 *          LH_CLK_LOCAL, both ends on one CPU; LH_CLK_CROSS, the ends
 *          may be on two CPUs; LH_CLK_TIMER, the timer base's clock;
 *          LH_CLK_TIMER_CROSS, a timer part plus a cross-CPU part
 *
 * LH_HIST(ID, name, param, parent, sw, flags, window) - a histogram:
 *   ID      LH_HIST_<ID>
 *   name    as in status, the reset parameter and the trace events; its
 *           last component is its directory
 *   param   the parameter suffix: threshold_<param>
 *   parent  LH_HIST_<parent> whose directory holds its directory, or ROOT
 *           for latency_hist/ itself
 *   sw      LH_SW_<sw>, the switch that feeds it
 *   flags   LH_T_MAX: max_latency-CPUx files (victim and culprit);
 *           LH_T_EXPLAIN: explain-CPUx files, the breakdown of the
 *           window of each CPU's maximum (its probes call
 *           lh_explain_file());
 *           LH_T_LINES: a lines file, the per-line view (its ops'
 *           lines_show, printed by line_stats.c);
 *           LH_T_OUTLIER: outlier_us and outliers-CPUx files, every
 *           sample at or above a budget with its cause (its probes call
 *           lh_outlier_file() where the histogram took the sample;
 *           needs LH_T_EXPLAIN);
 *           LH_T_VIEWS: views, tasks and cgroups files, the per-task and
 *           per-cgroup views of a type whose victim is a task (its
 *           samples go through lh_sample_record*(), which files them there)
 *   window  what a counters window of it covers (<type>/counters), or
 *           NULL: it has no counters
 */
#ifndef LH_SWITCH
#define LH_SWITCH(...)
#endif
#ifndef LH_HIST
#define LH_HIST(...)
#endif

LH_SWITCH(PREEMPTIRQSOFF, preemptirqsoff, LH_NO_PID, 0, &lh_preemptirq_ops,
	  LH_CLK_LOCAL)
LH_SWITCH(WAKEUP, wakeup, LH_PID, 0, &lh_wakeup_ops, LH_CLK_CROSS)
LH_SWITCH(MISSED_TIMER_OFFSETS, missed_timer_offsets, LH_PID, 0,
	  &lh_timer_ops, LH_CLK_TIMER)
LH_SWITCH(TIMERANDWAKEUP, timerandwakeup, LH_NO_PID,
	  LH_NEED(WAKEUP) | LH_NEED(MISSED_TIMER_OFFSETS), NULL,
	  LH_CLK_TIMER_CROSS)
LH_SWITCH(SWITCHTIME, switchtime, LH_NO_PID, LH_NEED(WAKEUP),
	  &lh_switchtime_ops, LH_CLK_CROSS)
LH_SWITCH(TIMERWAKEUPSWITCH, timerwakeupswitch, LH_NO_PID,
	  LH_NEED(TIMERANDWAKEUP) | LH_NEED(SWITCHTIME), NULL,
	  LH_CLK_TIMER_CROSS)
LH_SWITCH(IRQ, irq, LH_NO_PID, 0, &lh_irq_ops, LH_CLK_CROSS)
LH_SWITCH(SOFTIRQ, softirq, LH_NO_PID, 0, &lh_softirq_ops, LH_CLK_LOCAL)

LH_HIST(IRQSOFF, "irqsoff", irqsoff, ROOT, PREEMPTIRQSOFF, LH_T_EXPLAIN,
	LH_WINDOW_SECTION)
LH_HIST(PREEMPTOFF, "preemptoff", preemptoff, ROOT, PREEMPTIRQSOFF,
	LH_T_EXPLAIN, LH_WINDOW_SECTION)
LH_HIST(PREEMPTIRQSOFF, "preemptirqsoff", preemptirqsoff, ROOT,
	PREEMPTIRQSOFF, LH_T_EXPLAIN, LH_WINDOW_SECTION)
LH_HIST(WAKEUP, "wakeup", wakeup, ROOT, WAKEUP,
	LH_T_MAX | LH_T_EXPLAIN | LH_T_OUTLIER | LH_T_VIEWS, LH_WINDOW_WAKEUP)
LH_HIST(WAKEUP_SHAREDPRIO, "wakeup/sharedprio", wakeup_sharedprio, WAKEUP,
	WAKEUP, LH_T_MAX | LH_T_EXPLAIN | LH_T_OUTLIER | LH_T_VIEWS,
	LH_WINDOW_WAKEUP)
LH_HIST(MISSED_TIMER_OFFSETS, "missed_timer_offsets", missed_timer_offsets,
	ROOT, MISSED_TIMER_OFFSETS,
	LH_T_MAX | LH_T_EXPLAIN | LH_T_OUTLIER | LH_T_VIEWS, LH_WINDOW_TIMER)
LH_HIST(TIMERANDWAKEUP, "timerandwakeup", timerandwakeup, ROOT,
	TIMERANDWAKEUP, LH_T_MAX | LH_T_VIEWS, NULL)
LH_HIST(SWITCHTIME, "switchtime", switchtime, ROOT, SWITCHTIME,
	LH_T_MAX | LH_T_VIEWS, NULL)
LH_HIST(TIMERWAKEUPSWITCH, "timerwakeupswitch", timerwakeupswitch, ROOT,
	TIMERWAKEUPSWITCH, LH_T_MAX | LH_T_VIEWS, NULL)
LH_HIST(IRQ, "irq", irq, ROOT, IRQ,
	LH_T_MAX | LH_T_EXPLAIN | LH_T_LINES | LH_T_OUTLIER, NULL)
LH_HIST(SOFTIRQ, "softirq", softirq, ROOT, SOFTIRQ,
	LH_T_MAX | LH_T_EXPLAIN | LH_T_LINES | LH_T_OUTLIER, NULL)

#undef LH_SWITCH
#undef LH_HIST
