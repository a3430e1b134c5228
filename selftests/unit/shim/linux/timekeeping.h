/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_TIMEKEEPING_H
#define LH_SHIM_TIMEKEEPING_H
#include <linux/types.h>
u64 ktime_get_mono_fast_ns(void);
#endif
