// SPDX-License-Identifier: GPL-2.0
/*
 * Compiles only when ktime_get_snapshot_id() (7.3: a snapshot of one clock
 * id) exists and names the clocksource it read, with an id for the TSC.
 */
#include <linux/clocksource_ids.h>
#include <linux/time.h>
#include <linux/timekeeping.h>

bool lh_probe_snapshot_id_tsc(void)
{
	struct system_time_snapshot snap;

	ktime_get_snapshot_id(CLOCK_MONOTONIC, &snap);
	return snap.cs_id == CSID_X86_TSC;
}
