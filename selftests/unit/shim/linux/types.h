/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-ins for the few kernel headers the histogram engine
 * (module/hist.c, module/hist_print.c) includes, so the unit tests compile
 * the very same source files. Only what the engine uses is provided.
 */
#ifndef LH_SHIM_TYPES_H
#define LH_SHIM_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef unsigned long long u64;
typedef long long s64;
typedef uint32_t u32;

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define READ_ONCE(x)		(*(volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile typeof(x) *)&(x) = (v))

#endif
