/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lh_trace.h - the latency_hist trace events, in tracefs under
 * events/latency_hist/.
 *
 * lh_sample: every sample a histogram counts, with its type (the number of
 * its row in type_list.h, and its name, so that no tool needs a table of
 * them), CPU and latency,
 * and for the victim/culprit types the two tasks (the critical-section types
 * name the task that ran the section as the culprit and no victim; the
 * switch types name the culprit from a copy taken at the switch-in;
 * softirq names the vector as victim, from a copy as its max record does). Like
 * every trace event it is a patched-out jump until someone enables it, so
 * the probes pay nothing for it by default; enabled, `trace-cmd record -e
 * latency_hist` and hist triggers see each sample.
 *
 * lh_threshold: a sample reached its type's threshold; written just before
 * the module stops the ring buffer, so it is the last event of the trace.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM latency_hist

#if !defined(LH_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define LH_TRACE_H

#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include <latency_hist/hist.h>
#include <latency_hist/types.h>

TRACE_EVENT(lh_sample,

	TP_PROTO(int type, int cpu, s64 latency_us, s64 timeroffset_us,
		 struct task_struct *victim,
		 const struct lh_task_info *victim_copy,
		 struct task_struct *culprit,
		 const struct lh_task_info *culprit_copy),

	TP_ARGS(type, cpu, latency_us, timeroffset_us, victim, victim_copy,
		culprit, culprit_copy),

	TP_STRUCT__entry(
		__field(int,	type)
		__array(char,	type_name, LH_TYPE_NAME_MAX)
		__field(int,	cpu)
		__field(s64,	latency_us)
		__field(s64,	timeroffset_us)
		__field(pid_t,	victim_pid)
		__field(int,	victim_prio)
		__array(char,	victim_comm, TASK_COMM_LEN)
		__field(pid_t,	culprit_pid)
		__field(int,	culprit_prio)
		__array(char,	culprit_comm, TASK_COMM_LEN)
	),

	TP_fast_assign(
		__entry->type = type;
		strscpy_pad(__entry->type_name, lh_hist_types[type].name,
			    LH_TYPE_NAME_MAX);
		__entry->cpu = cpu;
		__entry->latency_us = latency_us;
		__entry->timeroffset_us = timeroffset_us;
		if (victim_copy) {
			__entry->victim_pid = victim_copy->pid;
			__entry->victim_prio = victim_copy->prio;
			memcpy(__entry->victim_comm, victim_copy->comm,
			       TASK_COMM_LEN);
		} else if (victim) {
			__entry->victim_pid = victim->pid;
			__entry->victim_prio = victim->prio;
			memcpy(__entry->victim_comm, victim->comm, TASK_COMM_LEN);
		} else {
			__entry->victim_pid = 0;
			__entry->victim_prio = 0;
			memset(__entry->victim_comm, 0, TASK_COMM_LEN);
		}
		if (culprit_copy) {
			__entry->culprit_pid = culprit_copy->pid;
			__entry->culprit_prio = culprit_copy->prio;
			memcpy(__entry->culprit_comm, culprit_copy->comm,
			       TASK_COMM_LEN);
		} else {
			__entry->culprit_pid = culprit->pid;
			__entry->culprit_prio = culprit->prio;
			memcpy(__entry->culprit_comm, culprit->comm,
			       TASK_COMM_LEN);
		}
	),

	TP_printk("type=%s cpu=%d latency_us=%lld timeroffset_us=%lld victim=%s:%d prio=%d culprit=%s:%d prio=%d",
		  __entry->type_name, __entry->cpu,
		  __entry->latency_us, __entry->timeroffset_us,
		  __entry->victim_comm, __entry->victim_pid, __entry->victim_prio,
		  __entry->culprit_comm, __entry->culprit_pid, __entry->culprit_prio)
);

TRACE_EVENT(lh_threshold,

	TP_PROTO(int type, int cpu, s64 latency_us, s64 threshold_us),

	TP_ARGS(type, cpu, latency_us, threshold_us),

	TP_STRUCT__entry(
		__field(int,	type)
		__array(char,	type_name, LH_TYPE_NAME_MAX)
		__field(int,	cpu)
		__field(s64,	latency_us)
		__field(s64,	threshold_us)
	),

	TP_fast_assign(
		__entry->type = type;
		strscpy_pad(__entry->type_name, lh_hist_types[type].name,
			    LH_TYPE_NAME_MAX);
		__entry->cpu = cpu;
		__entry->latency_us = latency_us;
		__entry->threshold_us = threshold_us;
	),

	TP_printk("type=%s cpu=%d latency_us=%lld threshold_us=%lld: tracing stopped",
		  __entry->type_name, __entry->cpu,
		  __entry->latency_us, __entry->threshold_us)
);

#endif /* LH_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH latency_hist
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE lh_trace
#include <trace/define_trace.h>
