// SPDX-License-Identifier: GPL-2.0
/*
 * irq.c - the irq type: from a device interrupt's hard handler to the
 * switch-in of the interrupt thread it woke.
 *
 * On PREEMPT_RT, and on a kernel booted with threadirqs, a device's handler
 * runs in a thread (irq/N-name, SCHED_FIFO 50); the hard interrupt only
 * wakes it. A sample is the time from irq_handler_entry of the action to
 * the sched_switch that runs the action's thread, filed on the CPU that
 * switches it in, with the thread as victim and the task switched out for
 * it as culprit. Per line, irq_lines.c keeps the same samples (irq/lines).
 *
 * How: the entry probe stamps the entry of a threaded action per CPU; the
 * exit probe, when the handler returned IRQ_WAKE_THREAD (the kernel then
 * wakes action->thread), hands the stamp to the thread's entry in the
 * table of irq_priv.h with the thread's context-switch count; the
 * sched_switch probe of the CPU that switches the thread in files it if
 * the count is unchanged. What is not filed, and why:
 *  - a second interrupt before the thread ran: the first, earliest unserved
 *    entry is kept;
 *  - an interrupt while its thread runs: the thread serves it without being
 *    woken (IRQTF_RUNTHREAD), so no switch-in belongs to it; its next
 *    switch-in, after the thread slept, sees another count and files
 *    nothing. So does one that races with the thread's own switch-out;
 *  - a nested interrupt's outer handler (its entry stamp was overwritten);
 *    NMIs do not fire these tracepoints;
 *  - the threads beyond the table (LH_IRQ_NR_LINES live threads, or a
 *    probe run of LH_IRQ_PROBE_RUN entries all held by live threads):
 *    counted as "other" in irq/lines;
 *  - a forced-threaded action's secondary thread (woken by the first).
 *
 * A sample goes into its line only when the CPU's histogram took it, under
 * the entry's lock (a CPU histogram's lock nests inside it): a reset
 * empties the lines in the histograms' quiet period, so the lines and the
 * histograms hold the same samples, but for the rows of exited threads
 * whose entries new threads took over since the last reset.
 *
 * Threads come and go while the type is on (a driver rebinds, a module is
 * reloaded, ethtool -L), and the slab hands an exited thread's task_struct
 * to a later task: an entry is a thread's by its pointer and its start
 * time, the sched_process_free probe marks an exited thread's entry gone,
 * and a new thread takes an empty entry, else a gone one (irq_priv.h).
 *
 * No allocation, no global lock in the probes: one lock per table entry,
 * taken by the line's interrupt and the thread's switch-in; the per-CPU
 * entry stamp is written and read on its CPU with interrupts off.
 * Disabling unhooks the probes (lh_tp_unhook() waits for those in flight)
 * before lh_irq_clear() empties the table.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/hash.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <trace/events/irq.h>
#include <trace/events/sched.h>

#include <latency_hist/clock.h>
#include <latency_hist/compat.h>
#include <latency_hist/control.h>
#include <latency_hist/explain.h>
#include <latency_hist/hist_mem.h>
#include <latency_hist/irq.h>
#include <latency_hist/irq_priv.h>
#include <latency_hist/outlier.h>
#include <latency_hist/sample.h>
#include <latency_hist/tracepoints.h>

#define LH_IRQ_PROBE_RUN	8	/* entries a thread may be from its hash */
#define LH_IRQ_PROBE_TRIES	3	/* load-time tests of threadirqs */
#define LH_IRQ_PROBE_RETRY_MS	20	/* between two of them */

/*
 * struct lh_irq_cpu - the threaded action whose handler runs on this CPU
 * @action:   NULL when none; written and read only on this CPU, interrupts
 *            off (a nested handler overwrites it, and its outer's exit
 *            then sees another action and files nothing)
 * @entry_at: lh_clock_stamp() of its irq_handler_entry
 */
struct lh_irq_cpu {
	const struct irqaction *action;
	u64 entry_at;
};

static DEFINE_PER_CPU(struct lh_irq_cpu, lh_irq_cpus);

struct lh_irq_line lh_irq_lines[LH_IRQ_NR_LINES] = {
	[0 ... LH_IRQ_NR_LINES - 1] = { .lock = __ARCH_SPIN_LOCK_UNLOCKED },
};

atomic_long_t lh_irq_other = ATOMIC_LONG_INIT(0);
const char *lh_irq_threaded_by;

/* this_cpu_lh_irq - this CPU's handler state */
static __always_inline struct lh_irq_cpu *this_cpu_lh_irq(void)
{
	return this_cpu_ptr(&lh_irq_cpus);
}

/* lh_irq_run_first - the first entry of @thread's probe run */
static __always_inline u32 lh_irq_run_first(const struct task_struct *thread)
{
	return hash_ptr(thread, ilog2(LH_IRQ_NR_LINES));
}

/* lh_irq_run_line - entry @i of the probe run that starts at @first */
static __always_inline struct lh_irq_line *lh_irq_run_line(u32 first, int i)
{
	return &lh_irq_lines[(first + i) % LH_IRQ_NR_LINES];
}

/*
 * lh_irq_line_hint - the entry whose owner pointer is @thread, or NULL;
 * unlocked, so only a hint: the entry may be an exited thread's on the
 * same task_struct, or change owner before its lock is taken
 */
static struct lh_irq_line *lh_irq_line_hint(const struct task_struct *thread)
{
	u32 first = lh_irq_run_first(thread);
	int i;

	for (i = 0; i < LH_IRQ_PROBE_RUN; i++) {
		struct lh_irq_line *line = lh_irq_run_line(first, i);

		if (READ_ONCE(line->thread) == thread)
			return line;
	}
	return NULL;
}

/* lh_irq_line_is - under @line's lock: is it @thread's, this very thread's? */
static __always_inline bool lh_irq_line_is(const struct lh_irq_line *line,
					   const struct task_struct *thread)
{
	return line->thread == thread &&
	       line->thread_start == thread->start_time;
}

/*
 * lh_irq_line_take - under @line's lock: make it the entry of @thread, the
 * handler of @action on line @irq, forgetting whatever it held (an exited
 * thread's row)
 */
static void lh_irq_line_take(struct lh_irq_line *line,
			     struct task_struct *thread, int irq,
			     const struct irqaction *action)
{
	WRITE_ONCE(line->thread, thread);
	line->thread_start = thread->start_time;
	WRITE_ONCE(line->gone, false);
	line->irq = irq;
	strscpy(line->name, action->name ?: "?", LH_IRQ_NAME_LEN);
	line->pending_at = 0;
	line->pending_switches = 0;
	lh_line_stats_clear(&line->stats);
}

/*
 * lh_irq_line_lock_own - lock and return the entry of @thread, or NULL:
 * the entry that holds its pointer, taken over if it is an exited
 * thread's on the same task_struct (a task_struct holds one task at a
 * time, so that thread is gone even if sched_process_free was not seen);
 * else an empty entry of its probe run, else a gone one. @irq and @action
 * name the line a new entry is for. *@flags gets the lock's interrupt state.
 *
 * The pointer is looked for in the whole run first: an entry emptied by a
 * reset may come before the thread's own, and one thread never has two.
 * Only the thread's own wakeups take entries for it, and those never run
 * on two CPUs at once (one handler run per action at a time).
 */
static struct lh_irq_line *lh_irq_line_lock_own(struct task_struct *thread,
						int irq,
						const struct irqaction *action,
						unsigned long *flags)
{
	u32 first = lh_irq_run_first(thread);
	struct lh_irq_line *line;
	int i;

	for (i = 0; i < LH_IRQ_PROBE_RUN; i++) {
		line = lh_irq_run_line(first, i);
		if (READ_ONCE(line->thread) != thread)
			continue;
		*flags = lh_line_lock(&line->lock);
		if (line->thread == thread) {
			if (line->thread_start != thread->start_time)
				lh_irq_line_take(line, thread, irq, action);
			return line;
		}
		lh_line_unlock(&line->lock, *flags);	/* taken over meanwhile */
	}
	for (i = 0; i < LH_IRQ_PROBE_RUN; i++) {
		line = lh_irq_run_line(first, i);
		/* Claims of one entry by two threads at once: one wins. */
		if (READ_ONCE(line->thread) ||
		    cmpxchg(&line->thread, NULL, thread))
			continue;
		*flags = lh_line_lock(&line->lock);
		lh_irq_line_take(line, thread, irq, action);
		return line;
	}
	for (i = 0; i < LH_IRQ_PROBE_RUN; i++) {
		line = lh_irq_run_line(first, i);
		if (!READ_ONCE(line->gone))
			continue;
		*flags = lh_line_lock(&line->lock);
		if (line->gone) {
			lh_irq_line_take(line, thread, irq, action);
			return line;
		}
		lh_line_unlock(&line->lock, *flags);
	}
	return NULL;
}

/* lh_irq_entry - irq_handler_entry: stamp a threaded action's entry */
static void notrace lh_irq_entry(void *data, int irq,
				 struct irqaction *action)
{
	struct lh_irq_cpu *ic;

	if (!READ_ONCE(action->thread))
		return;
	ic = this_cpu_lh_irq();
	ic->action = action;
	ic->entry_at = lh_clock_stamp();
}

/*
 * lh_irq_wake - the handler of @action on line @irq, entered at @entry_at,
 * wakes @thread: note the entry unless an earlier one is still unserved
 */
static noinline void notrace lh_irq_wake(int irq,
					 const struct irqaction *action,
					 struct task_struct *thread,
					 u64 entry_at)
{
	unsigned long nr_switches = lh_task_nr_switches(thread);
	struct lh_irq_line *line;
	unsigned long flags;

	line = lh_irq_line_lock_own(thread, irq, action, &flags);
	if (!line) {
		atomic_long_inc(&lh_irq_other);
		return;
	}
	if (!line->pending_at || line->pending_switches != nr_switches) {
		line->pending_at = entry_at;
		line->pending_switches = nr_switches;
	}
	lh_line_unlock(&line->lock, flags);
}

/* lh_irq_exit - irq_handler_exit: a handler that wakes its thread */
static void notrace lh_irq_exit(void *data, int irq,
				struct irqaction *action, int ret)
{
	struct task_struct *thread = READ_ONCE(action->thread);
	struct lh_irq_cpu *ic;

	if (ret != IRQ_WAKE_THREAD || !thread)
		return;
	ic = this_cpu_lh_irq();
	if (ic->action != action)
		return;		/* nested: the stamp is another handler's */
	ic->action = NULL;
	lh_irq_wake(irq, action, thread, ic->entry_at);
}

/*
 * lh_irq_switch_in - @next, an interrupt thread with an unserved entry,
 * is switched in for @prev: file the entry if the thread has not run since
 */
static noinline void notrace lh_irq_switch_in(struct lh_irq_line *line,
					      struct task_struct *prev,
					      struct task_struct *next)
{
	int cpu = smp_processor_id();
	struct lh_hist_cpu *h = lh_hist_cpu_filing(LH_HIST_IRQ, cpu);
	u64 now = lh_clock_stamp();
	bool measured = false, recorded = false;
	unsigned long flags;
	u64 entry_at;
	s64 lat_us;

	flags = lh_line_lock(&line->lock);
	if (!lh_irq_line_is(line, next)) {
		/* an exited thread's entry, or another's by now */
		lh_line_unlock(&line->lock, flags);
		return;
	}
	entry_at = line->pending_at;
	line->pending_at = 0;
	if (entry_at && line->pending_switches == lh_task_nr_switches(next) &&
	    lh_clock_window_us(entry_at, now, &lat_us)) {
		measured = true;
		/* A line holds what the histogram took (a reset refuses). */
		recorded = lh_hist_record(h, lat_us);
		if (recorded)
			lh_line_stats_file(&line->stats, lat_us, cpu, prev);
	}
	lh_line_unlock(&line->lock, flags);
	if (!measured)
		return;
	if (recorded && unlikely(lh_hist_beats_max(h, lat_us)))
		lh_sample_record_max(h, lat_us, 0, next, prev, now);
	lh_sample_out(LH_HIST_IRQ, cpu, lat_us, 0, next, prev);
	if (recorded && lh_outlier(LH_HIST_IRQ, lat_us))
		lh_outlier_file(LH_HIST_IRQ, cpu, lat_us,
				lh_clock_stamp_ns(entry_at), now, next, prev);
	if (lh_explaining())
		lh_explain_file(LH_HIST_IRQ, cpu, lat_us,
				lh_clock_stamp_ns(entry_at),
				lh_clock_stamp_ns(now), prev);
}

/* lh_irq_sched_switch - sched_switch: is @next a thread an entry waits for? */
static void notrace lh_irq_sched_switch(void *data, LH_SCHED_SWITCH_ARGS)
{
	struct lh_irq_line *line;

	if (likely(!(next->flags & PF_KTHREAD)))
		return;
	line = lh_irq_line_hint(next);
	if (line && READ_ONCE(line->pending_at))
		lh_irq_switch_in(line, prev, next);
}

/*
 * lh_irq_process_free - sched_process_free: an exited thread's entry is
 * gone; its row stays until a reset, or a new thread takes the entry
 */
static void notrace lh_irq_process_free(void *data, struct task_struct *p)
{
	struct lh_irq_line *line;
	unsigned long flags;

	if (likely(!(p->flags & PF_KTHREAD)))
		return;
	line = lh_irq_line_hint(p);
	if (!line)
		return;
	flags = lh_line_lock(&line->lock);
	if (lh_irq_line_is(line, p)) {
		WRITE_ONCE(line->gone, true);
		line->pending_at = 0;
	}
	lh_line_unlock(&line->lock, flags);
}

/*
 * Hooked in this order: the exits first, so no thread exits unseen once it
 * has an entry; the switch-in next, so no noted entry waits forever.
 */
static const struct lh_probe lh_irq_probes[] = {
	{ LH_TP_SCHED_PROCESS_FREE,	lh_irq_process_free },
	{ LH_TP_SCHED_SWITCH,		lh_irq_sched_switch },
	{ LH_TP_IRQ_HANDLER_ENTRY,	lh_irq_entry },
	{ LH_TP_IRQ_HANDLER_EXIT,	lh_irq_exit },
};

/*
 * lh_irq_clear - empty the table and every CPU's stamp; no probe may run,
 * a reader of irq/lines may (so each entry is emptied under its lock)
 */
static void lh_irq_clear(void)
{
	unsigned long flags;
	int i;

	for (i = 0; i < LH_IRQ_NR_LINES; i++) {
		struct lh_irq_line *line = &lh_irq_lines[i];

		flags = lh_line_lock(&line->lock);
		WRITE_ONCE(line->thread, NULL);
		line->thread_start = 0;
		WRITE_ONCE(line->gone, false);
		line->irq = 0;
		memset(line->name, 0, sizeof(line->name));
		line->pending_at = 0;
		line->pending_switches = 0;
		lh_line_stats_clear(&line->stats);
		lh_line_unlock(&line->lock, flags);
	}
	atomic_long_set(&lh_irq_other, 0);
	for_each_possible_cpu(i)
		memset(per_cpu_ptr(&lh_irq_cpus, i), 0,
		       sizeof(struct lh_irq_cpu));
}

#if defined(CONFIG_IRQ_FORCED_THREADING) && !defined(CONFIG_PREEMPT_RT)
/* The task that raises the test line: its handler runs there unless threaded. */
static struct task_struct *lh_irq_prober;

/* lh_irq_probe_handler - where the kernel ran the handler of the test line */
static irqreturn_t lh_irq_probe_handler(int irq, void *ran_in)
{
	WRITE_ONCE(*(int *)ran_in, current == lh_irq_prober ? 1 : 2);
	return IRQ_HANDLED;
}

/*
 * lh_irq_probe_line - in a kworker (lh_irq_forced_threads()): request a
 * handler on a line of our own, raise it from this task with interrupts
 * off and see whether the handler ran here or in a thread; 1 if in a
 * thread, 0 if here, or the error that kept the line from being set up
 */
static long lh_irq_probe_line(void *unused)
{
	int ran_in = 0;
	int irq, ret;

	irq = irq_alloc_desc(NUMA_NO_NODE);
	if (irq < 0)
		return irq;
	irq_set_chip_and_handler(irq, &dummy_irq_chip, handle_simple_irq);
	irq_clear_status_flags(irq, IRQ_NOREQUEST | IRQ_NOPROBE);
	lh_irq_prober = current;
	ret = request_irq(irq, lh_irq_probe_handler, 0, KBUILD_MODNAME, &ran_in);
	if (ret)
		goto out_free_desc;
	local_irq_disable();
	generic_handle_irq(irq);
	local_irq_enable();
	synchronize_irq(irq);
	free_irq(irq, &ran_in);
	ret = READ_ONCE(ran_in) == 2;
out_free_desc:
	irq_free_desc(irq);
	return ret;
}

/*
 * lh_irq_forced_threads - does this kernel thread every handler
 * (threadirqs)? 1 if so, 0 if not, or the error of the last try. The
 * switch is not exported, so a line of our own is asked, once, at load, in
 * up to LH_IRQ_PROBE_TRIES tries: a failed allocation is no answer. In a
 * kworker, not in the loading task: the kernel's interrupt code warns
 * when one of its own allocations fails half way (/proc/irq/N/node in
 * 6.12), and that is not the module's to show (the random failures of
 * fault_inject.sh's loads are confined to the loading task; its irq case
 * fails the first allocation here, the descriptor's, which fails cleanly).
 */
static int lh_irq_forced_threads(void)
{
	long ret = -EAGAIN;
	int i;

	for (i = 0; i < LH_IRQ_PROBE_TRIES; i++) {
		if (i)
			msleep(LH_IRQ_PROBE_RETRY_MS);
		ret = work_on_cpu_safe(raw_smp_processor_id(),
				       lh_irq_probe_line, NULL);
		if (ret >= 0)
			break;
	}
	return ret;
}
#else
/* lh_irq_forced_threads - all threaded on PREEMPT_RT; never without the option */
static int lh_irq_forced_threads(void)
{
	return IS_ENABLED(CONFIG_PREEMPT_RT);
}
#endif

/* The reason irq is unavailable when the load-time test failed. */
static char lh_irq_unknown[96];

/*
 * lh_irq_prepare - type-check the probes; unavailable where device
 * interrupts are not threaded, or where that could not be told at load
 * (the reason names the error: never "not threaded" for a failed test)
 */
static const char *lh_irq_prepare(void)
{
	int threaded;

	check_trace_callback_type_sched_process_free(lh_irq_process_free);
	check_trace_callback_type_sched_switch(lh_irq_sched_switch);
	check_trace_callback_type_irq_handler_entry(lh_irq_entry);
	check_trace_callback_type_irq_handler_exit(lh_irq_exit);
	threaded = lh_irq_forced_threads();
	if (threaded < 0) {
		snprintf(lh_irq_unknown, sizeof(lh_irq_unknown),
			 "cannot tell whether interrupts are threaded (error %d at load; load the module again)",
			 threaded);
		pr_warn("irq unavailable: %s\n", lh_irq_unknown);
		return lh_irq_unknown;
	}
	if (!threaded)
		return "interrupts are not threaded (no PREEMPT_RT, no threadirqs)";
	lh_irq_threaded_by = IS_ENABLED(CONFIG_PREEMPT_RT) ? "PREEMPT_RT" :
			     "threadirqs";
	return NULL;
}

const struct lh_switch_ops lh_irq_ops = {
	.probes		= lh_irq_probes,
	.nr_probes	= ARRAY_SIZE(lh_irq_probes),
	.missing	= "irq or sched tracepoints not found",
	.prepare	= lh_irq_prepare,
	.clear		= lh_irq_clear,
	.reset		= lh_irq_lines_reset,
	.lines_show	= lh_irq_lines_show,
};
