/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_KERNEL_H
#define LH_SHIM_KERNEL_H
#include <linux/types.h>

#define min(a, b)		((a) < (b) ? (a) : (b))
#define min_t(type, a, b)	((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), #cond)
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#endif
