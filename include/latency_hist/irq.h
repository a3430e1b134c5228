/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq.h - the irq type's per-line view (irq_lines.c), for debugfs.c and
 * control.c.
 */
#ifndef LH_IRQ_H
#define LH_IRQ_H

struct seq_file;

int lh_irq_lines_show(struct seq_file *m);
void lh_irq_lines_reset(void);

#endif /* LH_IRQ_H */
