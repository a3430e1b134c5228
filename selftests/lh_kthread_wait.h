/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lh_kthread_wait.h - the end of the test modules' worker threads
 * (lh_load_test.c, lh_cpu_run.h): the task that started the thread
 * waits for its completion, then stops it with kthread_stop().
 */
#ifndef LH_KTHREAD_WAIT_H
#define LH_KTHREAD_WAIT_H

#include <linux/kthread.h>
#include <linux/sched.h>

/*
 * lh_kthread_wait_stop - after its last complete(): the thread's data is
 * on the writer's stack, so only kthread_stop() may end it
 */
static inline int lh_kthread_wait_stop(void)
{
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

#endif /* LH_KTHREAD_WAIT_H */
