/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lh_cpu_run.h - a run of a test module (lh_irq_test.c, lh_softirq_test.c):
 * @count steps, @gap_us apart, in a kthread bound to one CPU, started by a
 * write to the module's trigger parameter, which returns when it is over.
 */
#ifndef LH_CPU_RUN_H
#define LH_CPU_RUN_H

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>

#include "lh_kthread_wait.h"

/*
 * struct lh_cpu_run - one trigger write, shared with its kthread
 * @step:    one step, given @hold_us; 0 or an error that ends the run
 * @err:     the first error
 */
struct lh_cpu_run {
	unsigned int count;
	unsigned int gap_us;
	unsigned int hold_us;
	int (*step)(unsigned int hold_us);
	int err;
	struct completion finished;
};

/* lh_cpu_run_thread - the run, on its CPU */
static inline int lh_cpu_run_thread(void *data)
{
	struct lh_cpu_run *run = data;
	unsigned int i;

	for (i = 0; i < run->count && !run->err; i++) {
		run->err = run->step(run->hold_us);
		if (run->gap_us)
			usleep_range(run->gap_us, run->gap_us + run->gap_us / 8);
	}
	complete(&run->finished);
	return lh_kthread_wait_stop();
}

/*
 * lh_cpu_run - do @run in a kthread named @comm bound to @cpu; 0, the
 * run's error, or -EINVAL if @cpu is offline
 */
static inline int lh_cpu_run(struct lh_cpu_run *run, unsigned int cpu,
			     const char *comm)
{
	struct task_struct *task;

	if (!cpu_online(cpu))
		return -EINVAL;
	init_completion(&run->finished);
	task = kthread_create(lh_cpu_run_thread, run, "%s", comm);
	if (IS_ERR(task))
		return PTR_ERR(task);
	kthread_bind(task, cpu);
	wake_up_process(task);
	wait_for_completion(&run->finished);
	kthread_stop(task);
	return run->err;
}

#endif /* LH_CPU_RUN_H */
