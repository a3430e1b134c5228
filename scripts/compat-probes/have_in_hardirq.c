// SPDX-License-Identifier: GPL-2.0
/*
 * Compiles only when in_hardirq() exists (5.11; Debian's 5.10-rt has it from
 * the RT patch, its 5.10 does not, which spells it in_irq()).
 */
#include <linux/preempt.h>

bool lh_probe_in_hardirq(void)
{
	return in_hardirq();
}
