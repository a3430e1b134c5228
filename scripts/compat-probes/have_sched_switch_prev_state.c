// SPDX-License-Identifier: GPL-2.0
/*
 * Compiles only when the sched_switch tracepoint passes the previous task's
 * state as a last argument, "unsigned int prev_state" (5.18; 5.10 to 5.17
 * pass preempt, prev and next only). The type check turns a mismatch into
 * an error.
 */
#include <linux/sched.h>
#include <trace/events/sched.h>

static void probe(void *data, bool preempt, struct task_struct *prev,
		  struct task_struct *next, unsigned int prev_state)
{
}

void lh_probe_sched_switch_prev_state(void)
{
	check_trace_callback_type_sched_switch(probe);
}
