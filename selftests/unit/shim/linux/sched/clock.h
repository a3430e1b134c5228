/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_SCHED_CLOCK_H
#define LH_SHIM_SCHED_CLOCK_H
#include <linux/types.h>
u64 local_clock(void);
#endif
