// SPDX-License-Identifier: GPL-2.0
/*
 * Compiles only when ktime_get_snapshot() names the clocksource it read
 * (cs_id) and the x86 TSC has an id (6.2 to 7.2; 6.1 has no CSID_X86_TSC,
 * 7.3 spells it ktime_get_snapshot_id()).
 */
#include <linux/clocksource_ids.h>
#include <linux/timekeeping.h>

bool lh_probe_snapshot_tsc(void)
{
	struct system_time_snapshot snap;

	ktime_get_snapshot(&snap);
	return snap.cs_id == CSID_X86_TSC;
}
