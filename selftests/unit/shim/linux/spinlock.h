/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_SPINLOCK_H
#define LH_SHIM_SPINLOCK_H
#include <pthread.h>

#include <linux/irqflags.h>

typedef pthread_mutex_t arch_spinlock_t;

#define __ARCH_SPIN_LOCK_UNLOCKED	PTHREAD_MUTEX_INITIALIZER
#define arch_spin_lock(l)		pthread_mutex_lock(l)
#define arch_spin_unlock(l)		pthread_mutex_unlock(l)
#endif
