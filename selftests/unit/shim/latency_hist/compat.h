/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's compat header reads the feature probes of a kernel build;
 * the host has none: no LH_HAVE_* is defined (no cycle counter, no x86
 * vectors), which is what the code compiled here needs to know.
 */
#ifndef LH_SHIM_COMPAT_H
#define LH_SHIM_COMPAT_H
#endif
