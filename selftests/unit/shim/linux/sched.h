/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_SCHED_H
#define LH_SHIM_SCHED_H
#define TASK_COMM_LEN 16
#endif
