/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_MATH64_H
#define LH_SHIM_MATH64_H
#include <linux/types.h>

static inline s64 div64_s64(s64 a, s64 b) { return a / b; }
static inline u64 div_u64(u64 a, u32 b) { return a / b; }
static inline u64 div64_u64(u64 a, u64 b) { return a / b; }
static inline u64 div_u64_rem(u64 a, u32 b, u32 *rem)
{
	*rem = a % b;
	return a / b;
}
static inline u64 div64_u64_rem(u64 a, u64 b, u64 *rem)
{
	*rem = a % b;
	return a / b;
}
/* floor(a * mul / div); the kernel's x86-64 version is mulq + divq */
static inline u64 mul_u64_u64_div_u64(u64 a, u64 mul, u64 div)
{
	return (u64)((unsigned __int128)a * mul / div);
}
static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)((unsigned __int128)a * mul >> shift);
}
#endif
