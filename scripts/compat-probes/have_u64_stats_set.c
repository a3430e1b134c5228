// SPDX-License-Identifier: GPL-2.0
/*
 * Compiles only when u64_stats_set() exists (5.19; Debian's 5.10-rt has it
 * from the RT patch's backport, Debian's 5.10 does not).
 */
#include <linux/u64_stats_sync.h>

void lh_probe_u64_stats_set(u64_stats_t *p)
{
	u64_stats_set(p, 1);
}
