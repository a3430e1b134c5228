// SPDX-License-Identifier: GPL-2.0
/*
 * Compiles only when the hrtimer_expire_entry tracepoint passes "now" by value
 * (upstream "Drop unnecessary pointer indirection", 7.1); before that it
 * passed a ktime_t pointer. The type check turns a mismatch into an error.
 */
#include <linux/hrtimer.h>
#include <trace/events/timer.h>

static void probe(void *data, struct hrtimer *timer, ktime_t now)
{
}

void lh_probe_hrtimer_expire_entry_by_value(void)
{
	check_trace_callback_type_hrtimer_expire_entry(probe);
}
