// SPDX-License-Identifier: GPL-2.0
/*
 * softirq.c - the softirq type: from the first raise of a softirq vector
 * on a CPU to that vector's entry on that CPU.
 *
 * The kernel keeps the raised vectors per CPU and runs them on that CPU:
 * every softirq_raise site ORs the raising CPU's own mask, with interrupts
 * off (__raise_softirq_irqoff(), and on PREEMPT_RT with ktimers, 6.13 or
 * Debian's 6.12-rt, raise_ktimers_thread() for TIMER and HRTIMER); another
 * CPU's softirqs are raised by an IPI that raises them there. A sample is
 * the time from the first raise of a vector since it last ran on the CPU to
 * its next softirq_entry there, filed on that CPU, the vector as victim and
 * the task it runs in as culprit (Documentation/latency_hist.rst,
 * "softirq/", says where that is on PREEMPT_RT and elsewhere). Per vector,
 * the same samples feed softirq/lines.
 *
 * Not filed: a raise while the vector is pending starts no window of its
 * own, be the first raise seen or not (the raise probe reads the CPU's
 * pending mask). The kernel clears its mask before it runs the raised
 * vectors, so a raise between that and the vector's entry finds the first
 * raise's stamp still there: that entry serves both, and the vector's
 * second run files nothing. A vector run without a raise seen (one raised before the type
 * was enabled) files nothing either.
 *
 * How: per CPU, a stamp per vector, only touched on its CPU with
 * interrupts off: the raise probe (the kernel asserts interrupts off) sets
 * it if it is 0, the entry probe takes it and files. NMIs raise no
 * softirqs. The per-vector statistics are per CPU too, behind a per-CPU
 * lock taken by the entry probe and by readers, never by two CPUs' probes;
 * a sample goes there only when the CPU's histogram took it (under that
 * lock, inside which the histogram's own lock nests), and a reset
 * empties them in the histograms' quiet period, so softirq/lines and the
 * histograms hold the same samples.
 * On PREEMPT_RT a vector runs with migration off, so its entry probe,
 * preemptible there on 7.x, stays on the CPU it files for.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/interrupt.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <trace/events/irq.h>

#include <latency_hist/clock.h>
#include <latency_hist/control.h>
#include <latency_hist/events.h>
#include <latency_hist/explain.h>
#include <latency_hist/hist_mem.h>
#include <latency_hist/line_stats.h>
#include <latency_hist/outlier.h>
#include <latency_hist/sample.h>
#include <latency_hist/softirq.h>
#include <latency_hist/tracepoints.h>

/* The kernel's names of the vectors (softirq_to_name[] is not exported). */
static const char *const lh_softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};

/*
 * struct lh_softirq_cpu - one CPU's vectors
 * @raised_at: per vector, lh_clock_local_stamp() of its first raise since
 *             it last ran, 0 if none; read and written only on this CPU,
 *             interrupts off
 * @lock:      guards @vectors; taken, interrupts off, by this CPU's entry
 *             probe and by readers
 * @vectors:   per vector, the samples filed on this CPU since the last reset
 */
struct lh_softirq_cpu {
	u64 raised_at[NR_SOFTIRQS];
	arch_spinlock_t lock;
	struct lh_line_stats vectors[NR_SOFTIRQS];
};

/* Allocated at load, freed at unload: the probes use it without a check. */
static struct lh_softirq_cpu __percpu *lh_softirq_cpus;
static int lh_softirq_hp_state;

/* this_cpu_lh_softirq - this CPU's vectors */
static __always_inline struct lh_softirq_cpu *this_cpu_lh_softirq(void)
{
	return this_cpu_ptr(lh_softirq_cpus);
}

/*
 * lh_softirq_raise - softirq_raise: stamp the vector's first raise; every
 * raise site runs with interrupts off (lockdep asserts it), so nothing of
 * this CPU comes between the test and the store
 *
 * The tracepoint fires before the raise sets the vector's bit in the CPU's
 * mask: a bit already set is a raise that came before, unseen (the type
 * was off, or the CPU went down with it pending), and this raise starts
 * no window. Stamped, it would file a sample shorter than the wait. The
 * mask is this CPU's, read with interrupts off like the kernel's own
 * readers. PREEMPT_RT kernels with ktimers keep TIMER and HRTIMER in a
 * mask of their own that modules cannot read (pending_timer_softirq):
 * for those two this check sees them pending only once ktimers moved them
 * to the CPU's mask, just before running them.
 */
static void notrace lh_softirq_raise(void *data, unsigned int vec_nr)
{
	struct lh_softirq_cpu *sc = this_cpu_lh_softirq();

	if (likely(vec_nr < NR_SOFTIRQS && !sc->raised_at[vec_nr]) &&
	    !(local_softirq_pending() & BIT(vec_nr)))
		sc->raised_at[vec_nr] = lh_clock_local_stamp();
}

/*
 * lh_softirq_victim - the vector @vec_nr as a sample's victim: its number as
 * pid, its name as comm, the priority of @ran_in, the task it runs in
 */
static __always_inline void lh_softirq_victim(struct lh_task_info *victim,
					      unsigned int vec_nr,
					      struct task_struct *ran_in)
{
	victim->pid = vec_nr;
	victim->prio = ran_in->prio;
	strscpy_pad(victim->comm, lh_softirq_names[vec_nr], TASK_COMM_LEN);
}

/*
 * lh_softirq_record_max - keep a new maximum of the CPU: the vector as
 * victim (lh_softirq_victim()), @ran_in as culprit
 */
static noinline void lh_softirq_record_max(struct lh_hist_cpu *h,
					   s64 lat_us, unsigned int vec_nr,
					   struct task_struct *ran_in, u64 now)
{
	struct lh_max_record rec = {
		.valid = true,
		.latency_us = lat_us,
		.timestamp_ns = lh_clock_mono_ns(now),
	};

	lh_softirq_victim(&rec.victim, vec_nr, ran_in);
	lh_task_info_fill(&rec.culprit, ran_in);
	lh_hist_record_max(h, &rec);
}

/*
 * lh_softirq_explain - a sample of @lat_us of vector @vec_nr from
 * @raised_at to @now (stamps) on @cpu: file it in the outlier log if
 * @outlier, and explain it if it is the CPU's new maximum; its window is
 * one of that length ending at @now on explain's clock. Preemption is off
 * for the replays, which the entry probe is not on PREEMPT_RT. Out of
 * line, only for an outlier or while explaining.
 */
static noinline void notrace lh_softirq_explain(int cpu, unsigned int vec_nr,
						s64 lat_us, u64 raised_at,
						u64 now, bool outlier)
{
	u64 len_ns = lh_clock_delta_ns(raised_at, now);
	u64 end, end_ns, start_ns;

	preempt_disable_notrace();
	/*
	 * On the cycle clock @now is that instant: no second read. Else it
	 * is local_clock(), and the end is read again on explain's clock.
	 */
	end = now & LH_CLOCK_CYCLES_BIT ? now : lh_clock_stamp();
	end_ns = lh_clock_stamp_ns(end);
	start_ns = end_ns - min(len_ns, end_ns);
	if (outlier) {
		struct lh_task_info victim;

		lh_softirq_victim(&victim, vec_nr, current);
		lh_outlier_file_info(LH_HIST_SOFTIRQ, cpu, lat_us, start_ns,
				     end, &victim, current);
	}
	if (lh_explaining())
		lh_explain_file(LH_HIST_SOFTIRQ, cpu, lat_us, start_ns, end_ns,
				current);
	preempt_enable_notrace();
}

/*
 * lh_softirq_file - vector @vec_nr, raised at @raised_at, runs now on
 * @cpu in current: file the sample in the vector's line and the CPU's
 * histogram
 */
static noinline void notrace lh_softirq_file(struct lh_softirq_cpu *sc,
					     int cpu, unsigned int vec_nr,
					     u64 raised_at)
{
	u64 now = lh_clock_local_stamp();
	struct lh_hist_cpu *h;
	unsigned long flags;
	bool recorded, outlier;
	s64 lat_us;

	if (!lh_clock_window_us(raised_at, now, &lat_us))
		return;
	h = lh_hist_cpu_filing(LH_HIST_SOFTIRQ, cpu);
	/*
	 * The line holds what the histogram took (a reset refuses), and a
	 * reader of the line, under its lock, sees both or neither.
	 */
	flags = lh_line_lock(&sc->lock);
	recorded = lh_hist_record(h, lat_us);
	if (recorded)
		lh_line_stats_file(&sc->vectors[vec_nr], lat_us, cpu, current);
	lh_line_unlock(&sc->lock, flags);
	if (recorded && unlikely(lh_hist_beats_max(h, lat_us)))
		lh_softirq_record_max(h, lat_us, vec_nr, current, now);
	if (lh_sample_out_wanted()) {
		struct lh_task_info victim;

		lh_softirq_victim(&victim, vec_nr, current);
		lh_sample_out_victim_copy(LH_HIST_SOFTIRQ, cpu, lat_us, &victim,
					  current);
	}
	outlier = recorded && lh_outlier(LH_HIST_SOFTIRQ, lat_us);
	if (outlier || lh_explaining())
		lh_softirq_explain(cpu, vec_nr, lat_us, raised_at, now,
				   outlier);
}

/* lh_softirq_entry - softirq_entry: the end of the vector's window, if open */
static void notrace lh_softirq_entry(void *data, unsigned int vec_nr)
{
	struct lh_softirq_cpu *sc;
	unsigned long flags;
	u64 raised_at;

	if (unlikely(vec_nr >= NR_SOFTIRQS))
		return;
	/* Off: a raise by an interrupt must not fall between read and clear. */
	raw_local_irq_save(flags);
	sc = this_cpu_lh_softirq();
	raised_at = sc->raised_at[vec_nr];
	sc->raised_at[vec_nr] = 0;
	raw_local_irq_restore(flags);
	if (raised_at)
		lh_softirq_file(sc, raw_smp_processor_id(), vec_nr, raised_at);
}

/*
 * Hooked in this order: the entry first, so no raise is stamped unserved.
 * The entry probe runs before explain's of the same tracepoint, so that
 * the vector's own entry comes after the window it ends. Both run before
 * ftrace's events of their tracepoints: validate_softirq.sh reads each
 * lh_sample event as the sample of the softirq_entry after it, and the
 * raise's and the filing's gaps to ftrace's clock then nearly cancel.
 */
static const struct lh_probe lh_softirq_probes[] = {
	{ LH_TP_SOFTIRQ_ENTRY,	lh_softirq_entry, TRACEPOINT_DEFAULT_PRIO + 1 },
	{ LH_TP_SOFTIRQ_RAISE,	lh_softirq_raise, TRACEPOINT_DEFAULT_PRIO + 1 },
};

/* lh_softirq_cpu_clear - forget @cpu's stamps and statistics */
static void lh_softirq_cpu_clear(int cpu)
{
	struct lh_softirq_cpu *sc = per_cpu_ptr(lh_softirq_cpus, cpu);
	unsigned long flags;
	int vec_nr;

	flags = lh_line_lock(&sc->lock);
	memset(sc->raised_at, 0, sizeof(sc->raised_at));
	for (vec_nr = 0; vec_nr < NR_SOFTIRQS; vec_nr++)
		lh_line_stats_clear(&sc->vectors[vec_nr]);
	lh_line_unlock(&sc->lock, flags);
}

/* lh_softirq_clear - every CPU's stamps and statistics; no probe runs */
static void lh_softirq_clear(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		lh_softirq_cpu_clear(cpu);
}

/*
 * lh_softirq_reset - a reset of softirq, in its quiet period: empty the
 * statistics of every vector, keeping the raises still waiting to run
 */
static void lh_softirq_reset(void)
{
	unsigned long flags;
	int cpu, vec_nr;

	for_each_possible_cpu(cpu) {
		struct lh_softirq_cpu *sc = per_cpu_ptr(lh_softirq_cpus, cpu);

		flags = lh_line_lock(&sc->lock);
		for (vec_nr = 0; vec_nr < NR_SOFTIRQS; vec_nr++)
			lh_line_stats_clear(&sc->vectors[vec_nr]);
		lh_line_unlock(&sc->lock, flags);
	}
}

/* lh_softirq_context - where this kernel runs a raised vector, one word */
static const char *lh_softirq_context(void)
{
	return IS_ENABLED(CONFIG_PREEMPT_RT) ? "PREEMPT_RT" : "irq_exit";
}

/**
 * lh_softirq_lines_show() - print softirq/lines
 * @m: the seq_file
 *
 * "#context <where>" (PREEMPT_RT: in the task that re-enables bottom
 * halves or in ksoftirqd; irq_exit: also, and first, at the end of a hard
 * interrupt), "#vector name samples min mean p99 p99.9 max max_cpu
 * culprit_pid culprit", one line per vector with samples, its CPUs'
 * statistics summed, and "#other 0": every vector has its line.
 *
 * Context: process context.
 * Return: 0, or -ENOMEM.
 */
int lh_softirq_lines_show(struct seq_file *m)
{
	struct lh_line_stats *sum, *copy;
	unsigned long flags;
	int cpu, vec_nr;

	sum = kmalloc_array(2, sizeof(*sum), GFP_KERNEL);
	if (!sum)
		return -ENOMEM;
	copy = sum + 1;
	lh_lines_print_header(m, "context", lh_softirq_context(), "vector");
	for (vec_nr = 0; vec_nr < NR_SOFTIRQS; vec_nr++) {
		lh_line_stats_clear(sum);
		for_each_possible_cpu(cpu) {
			struct lh_softirq_cpu *sc =
				per_cpu_ptr(lh_softirq_cpus, cpu);

			flags = lh_line_lock(&sc->lock);
			*copy = sc->vectors[vec_nr];
			lh_line_unlock(&sc->lock, flags);
			lh_line_stats_add(sum, copy);
		}
		if (sum->nr_samples)
			lh_line_stats_print(m, vec_nr, lh_softirq_names[vec_nr],
					    sum);
	}
	seq_puts(m, "#other 0\n");
	kfree(sum);
	return 0;
}

/* lh_softirq_prepare - type-check the probes; the kernel's vectors are ours */
static const char *lh_softirq_prepare(void)
{
	BUILD_BUG_ON(ARRAY_SIZE(lh_softirq_names) != NR_SOFTIRQS);
	check_trace_callback_type_softirq_raise(lh_softirq_raise);
	check_trace_callback_type_softirq_entry(lh_softirq_entry);
	return NULL;
}

const struct lh_switch_ops lh_softirq_ops = {
	.probes		= lh_softirq_probes,
	.nr_probes	= ARRAY_SIZE(lh_softirq_probes),
	.missing	= "softirq tracepoints not found",
	.prepare	= lh_softirq_prepare,
	.clear		= lh_softirq_clear,
	.reset		= lh_softirq_reset,
	.lines_show	= lh_softirq_lines_show,
};

/*
 * lh_softirq_cpu_prepare - a CPU comes up: drop the stamps of raises it
 * left pending when it went down, which would otherwise be filed as one
 * window that spans its time offline
 */
static int lh_softirq_cpu_prepare(unsigned int cpu)
{
	struct lh_softirq_cpu *sc = per_cpu_ptr(lh_softirq_cpus, cpu);
	unsigned long flags;

	flags = lh_line_lock(&sc->lock);
	memset(sc->raised_at, 0, sizeof(sc->raised_at));
	lh_line_unlock(&sc->lock, flags);
	return 0;
}

/**
 * lh_softirq_init() - allocate every CPU's vectors and register the
 * hotplug callback that forgets an offline CPU's raises
 *
 * Context: module init, before the probes can be hooked; may sleep.
 * Return: 0, -ENOMEM or an error of the CPU hotplug core.
 */
int lh_softirq_init(void)
{
	int cpu, ret;

	lh_softirq_cpus = alloc_percpu(struct lh_softirq_cpu);
	if (!lh_softirq_cpus)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct lh_softirq_cpu *sc = per_cpu_ptr(lh_softirq_cpus, cpu);

		sc->lock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
	}
	lh_softirq_clear();
	ret = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN,
					"latency_hist/softirq:prepare",
					lh_softirq_cpu_prepare, NULL);
	if (ret < 0)
		goto out_free_cpus;
	lh_softirq_hp_state = ret;
	return 0;

out_free_cpus:
	free_percpu(lh_softirq_cpus);
	return ret;
}

/**
 * lh_softirq_exit() - undo lh_softirq_init()
 *
 * Context: module exit or failed init, the probes unhooked; may sleep.
 */
void lh_softirq_exit(void)
{
	cpuhp_remove_state_nocalls(lh_softirq_hp_state);
	free_percpu(lh_softirq_cpus);
}
