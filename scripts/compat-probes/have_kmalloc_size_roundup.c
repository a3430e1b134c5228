// SPDX-License-Identifier: GPL-2.0
/*
 * Compiles only when kmalloc_size_roundup() exists (6.1): the size kmalloc()
 * really hands out for a request.
 */
#include <linux/slab.h>

size_t lh_probe_kmalloc_size_roundup(size_t size)
{
	return kmalloc_size_roundup(size);
}
