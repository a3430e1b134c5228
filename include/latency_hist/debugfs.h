/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debugfs.h - the latency_hist/ tree in debugfs.
 */
#ifndef LH_DEBUGFS_H
#define LH_DEBUGFS_H

int lh_debugfs_init(void);
void lh_debugfs_exit(void);

#endif /* LH_DEBUGFS_H */
