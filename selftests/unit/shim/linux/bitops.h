/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_BITOPS_H
#define LH_SHIM_BITOPS_H
#include <linux/bits.h>
#include <linux/types.h>

/* fls64 - the position of the most significant set bit, 1-based; 0 for 0 */
static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}
#endif
