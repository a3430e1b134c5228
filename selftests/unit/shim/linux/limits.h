/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_LIMITS_H
#define LH_SHIM_LIMITS_H
#include <stdint.h>
#define S64_MAX INT64_MAX
#define U64_MAX UINT64_MAX
#define U32_MAX UINT32_MAX
#define S64_MIN INT64_MIN
#endif
