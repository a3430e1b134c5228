// SPDX-License-Identifier: GPL-2.0
/*
 * Compiles only when hrtimer_setup_sleeper_on_stack() exists (6.13); older
 * kernels spell it hrtimer_init_sleeper_on_stack(), newer ones lack that.
 */
#include <linux/hrtimer.h>

void lh_probe_hrtimer_setup_sleeper_on_stack(struct hrtimer_sleeper *sl)
{
	hrtimer_setup_sleeper_on_stack(sl, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
}
