/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_IRQFLAGS_H
#define LH_SHIM_IRQFLAGS_H

/* User space has no interrupts to mask. */
#define raw_local_irq_save(flags)	((flags) = 0)
#define raw_local_irq_restore(flags)	((void)(flags))
#endif
