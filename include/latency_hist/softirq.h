/* SPDX-License-Identifier: GPL-2.0 */
/*
 * softirq.h - the softirq type's setup (main.c) and per-vector view
 * (debugfs.c, control.c), both in softirq.c.
 */
#ifndef LH_SOFTIRQ_H
#define LH_SOFTIRQ_H

struct seq_file;

int lh_softirq_init(void);
void lh_softirq_exit(void);
int lh_softirq_lines_show(struct seq_file *m);

#endif /* LH_SOFTIRQ_H */
