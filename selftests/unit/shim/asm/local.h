/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_LOCAL_H
#define LH_SHIM_LOCAL_H

typedef struct { long a; } local_t;

#define local_read(l)		__atomic_load_n(&(l)->a, __ATOMIC_RELAXED)
#define local_set(l, i)		__atomic_store_n(&(l)->a, (i), __ATOMIC_RELAXED)
#define local_inc_return(l)	__atomic_add_fetch(&(l)->a, 1, __ATOMIC_RELAXED)
#endif
