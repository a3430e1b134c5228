/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_TIME64_H
#define LH_SHIM_TIME64_H
#define USEC_PER_SEC 1000000L
#endif
