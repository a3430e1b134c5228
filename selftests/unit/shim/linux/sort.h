/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_SORT_H
#define LH_SHIM_SORT_H
#include <stdlib.h>

/* The kernel's sort() with no swap function: qsort() */
#define sort(base, num, size, cmp, swap)	qsort(base, num, size, cmp)
#endif
