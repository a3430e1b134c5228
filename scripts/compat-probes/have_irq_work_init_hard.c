// SPDX-License-Identifier: GPL-2.0
/*
 * Compiles only when IRQ_WORK_INIT_HARD() exists (5.11; Debian's 5.10-rt has
 * it from the RT patch, its 5.10 has neither it nor IRQ_WORK_INIT()).
 */
#include <linux/irq_work.h>

static void lh_probe_fn(struct irq_work *work)
{
}

struct irq_work lh_probe_work = IRQ_WORK_INIT_HARD(lh_probe_fn);
