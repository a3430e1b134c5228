/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-ins for the few kernel headers the histogram engine
 * (module/hist.c, module/hist_print.c) and the explain replay
 * (module/explain_replay.c) include, so the unit tests compile the very
 * same source files. Only what they use is provided.
 */
#ifndef LH_SHIM_TYPES_H
#define LH_SHIM_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/limits.h>

typedef unsigned long long u64;
typedef long long s64;
typedef uint32_t u32;
typedef int32_t s32;
typedef uint16_t u16;
typedef int16_t s16;
typedef uint8_t u8;

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
/*
 * A test may set lh_shim_read_hook to run right after every READ_ONCE(),
 * with the address read: a writer (an NMI, say) between two reads.
 */
extern void (*lh_shim_read_hook)(const void *addr);
#define READ_ONCE(x) ({							\
	typeof(x) __v = *(volatile typeof(x) *)&(x);			\
	if (unlikely(lh_shim_read_hook))				\
		lh_shim_read_hook((const void *)&(x));		\
	__v;								\
})
#define WRITE_ONCE(x, v)	(*(volatile typeof(x) *)&(x) = (v))

#endif
