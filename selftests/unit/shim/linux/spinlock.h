/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_SPINLOCK_H
#define LH_SHIM_SPINLOCK_H
#include <pthread.h>

typedef pthread_mutex_t raw_spinlock_t;

#define raw_spin_lock_init(l)			pthread_mutex_init((l), NULL)
#define raw_spin_lock_irqsave(l, flags)		((void)(flags), pthread_mutex_lock(l))
#define raw_spin_unlock_irqrestore(l, flags)	((void)(flags), pthread_mutex_unlock(l))
#endif
