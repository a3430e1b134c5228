/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_UACCESS_H
#define LH_SHIM_UACCESS_H
#include <string.h>

/* Every address the tests pass is mapped. */
static inline long copy_from_kernel_nofault(void *dst, const void *src,
					    size_t size)
{
	memcpy(dst, src, size);
	return 0;
}
#endif
