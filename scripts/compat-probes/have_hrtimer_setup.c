// SPDX-License-Identifier: GPL-2.0
/*
 * Compiles only when hrtimer_setup() exists (6.13); older kernels spell it
 * hrtimer_init() plus an assignment of the callback, newer ones lack that.
 */
#include <linux/hrtimer.h>

static enum hrtimer_restart lh_probe_fn(struct hrtimer *timer)
{
	return HRTIMER_NORESTART;
}

void lh_probe_hrtimer_setup(struct hrtimer *timer)
{
	hrtimer_setup(timer, lh_probe_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
}
