/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lh_bench_tp.h - find a built-in tracepoint by name and call its probes,
 * for the benchmark modules and the selftests' probe-call module.
 *
 * The scheduler, timer and preemptirq tracepoints are not exported, so these
 * modules look them up the way module/tracepoints.c does, with one walk over
 * the kernel's tracepoint table, and call the probes attached to one the way
 * the tracepoint itself does.
 */
#ifndef LH_BENCH_TP_H
#define LH_BENCH_TP_H

#include <linux/string.h>
#include <linux/tracepoint.h>

#include <latency_hist/compat.h>

/* struct lh_bench_tp_find - a name to look up and what was found */
struct lh_bench_tp_find {
	const char *name;
	struct tracepoint *tp;
};

/* lh_bench_tp_match - for_each_kernel_tracepoint() callback */
static inline void lh_bench_tp_match(struct tracepoint *tp, void *priv)
{
	struct lh_bench_tp_find *find = priv;

	if (!find->tp && !strcmp(tp->name, find->name))
		find->tp = tp;
}

/**
 * lh_bench_tp() - look up a built-in tracepoint
 * @name: its name, e.g. "sched_switch"
 *
 * Context: process context.
 * Return: the tracepoint, or NULL if this kernel lacks it.
 */
static inline struct tracepoint *lh_bench_tp(const char *name)
{
	struct lh_bench_tp_find find = { .name = name };

	for_each_kernel_tracepoint(lh_bench_tp_match, &find);
	return find.tp;
}

/*
 * LH_CALL_PROBES - call every probe attached to a tracepoint, as
 * __DO_TRACE does; interrupts must be off (rcu-sched read side)
 */
#define LH_CALL_PROBES(tp, fn_type, ...)				\
	do {								\
		struct tracepoint_func *__f;				\
									\
		__f = rcu_dereference_sched((tp)->funcs);		\
		for (; __f && __f->func; __f++)				\
			((fn_type)__f->func)(__f->data, __VA_ARGS__);	\
	} while (0)

/**
 * lh_call_sched_switch_probes() - call every probe attached to sched_switch
 * for a switch from @prev (left runnable) to @next
 * @tp:   the sched_switch tracepoint
 * @prev: the task switched out
 * @next: the task switched in
 *
 * Context: interrupts off (rcu-sched read side), as the scheduler calls it.
 */
static inline void lh_call_sched_switch_probes(struct tracepoint *tp,
					       struct task_struct *prev,
					       struct task_struct *next)
{
	struct tracepoint_func *f = rcu_dereference_sched(tp->funcs);

	for (; f && f->func; f++)
		lh_sched_switch_probe_call(f->func, f->data, prev, next);
}

#endif /* LH_BENCH_TP_H */
