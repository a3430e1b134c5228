/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_COMPILER_H
#define LH_SHIM_COMPILER_H
#include <sys/cdefs.h>		/* glibc's __always_inline */

#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#define notrace			__attribute__((__no_instrument_function__))
#define barrier()		__asm__ __volatile__("" : : : "memory")
#endif
