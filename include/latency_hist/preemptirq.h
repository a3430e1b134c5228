/* SPDX-License-Identifier: GPL-2.0 */
/*
 * preemptirq.h - module-lifetime setup of the critical-section probes
 * (preemptirq.c); their hook/unhook goes through lh_preemptirq_ops in
 * control.h like every other type.
 */
#ifndef LH_PREEMPTIRQ_H
#define LH_PREEMPTIRQ_H

int lh_preemptirq_init(void);
void lh_preemptirq_exit(void);

#endif /* LH_PREEMPTIRQ_H */
