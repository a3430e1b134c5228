/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_BITS_H
#define LH_SHIM_BITS_H
#define BIT(nr)			(1UL << (nr))
#define BIT_ULL(nr)		(1ULL << (nr))
#endif
