/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_ATOMIC_H
#define LH_SHIM_ATOMIC_H
#include <linux/types.h>

typedef struct { long long counter; } atomic64_t;

#define atomic64_inc(v)		__atomic_add_fetch(&(v)->counter, 1, __ATOMIC_RELAXED)
#define atomic64_set(v, i)	__atomic_store_n(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic64_read(v)	__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)

typedef struct { long counter; } atomic_long_t;

#define atomic_long_set(v, i)	__atomic_store_n(&(v)->counter, (i), __ATOMIC_RELAXED)
#define atomic_long_read(v)	__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#endif
