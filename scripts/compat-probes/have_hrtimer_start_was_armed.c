// SPDX-License-Identifier: GPL-2.0
/*
 * Compiles only when the hrtimer_start tracepoint has the "was_armed"
 * argument (7.1, backported to 6.1.175, 6.6.141, 6.12.91 and 6.18.33).
 */
#include <linux/hrtimer.h>
#include <trace/events/timer.h>

static void probe(void *data, struct hrtimer *timer, enum hrtimer_mode mode,
		  bool was_armed)
{
}

void lh_probe_hrtimer_start_was_armed(void)
{
	check_trace_callback_type_hrtimer_start(probe);
}
