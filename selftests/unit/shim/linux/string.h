/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_STRING_H
#define LH_SHIM_STRING_H
#include <string.h>
#include <sys/types.h>

/* The kernel's strscpy(): always terminated, -E2BIG (-7) if truncated. */
static inline ssize_t strscpy(char *dst, const char *src, size_t size)
{
	size_t len = strnlen(src, size);

	if (!size)
		return -7;
	if (len == size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return -7;
	}
	memcpy(dst, src, len + 1);
	return len;
}
#endif
