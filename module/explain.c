// SPDX-License-Identifier: GPL-2.0
/*
 * explain.c - where the time of each CPU's worst window went.
 *
 * A maximum says how long; this says why. While explain/enable is 1, each
 * CPU's ring (explain_ring.c) records its interrupts, softirqs, hrtimer
 * callbacks, NMIs, idle states and context switches. Only when a sample of
 * a type with LH_T_EXPLAIN in its row becomes its CPU's maximum (rare, out
 * of line) is the window of that sample replayed from the ring of the CPU
 * it is filed under (explain_replay.c) and kept as that CPU's record of
 * the type, which explain-CPUx shows (explain_print.c): hardirq, softirq,
 * nmi, thread and other, each with its time and its details, adding up to
 * the window.
 *
 * This file turns explain on and off, files samples into records and
 * keeps the records and their locks. Off costs one patched-out static
 * branch in the filing paths (lh_explaining()) and nothing hooked; on, a
 * replay of at most LH_X_RING events per new maximum
 * (Documentation/performance.rst).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/irqflags.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/u64_stats_sync.h>

#include <latency_hist/compat.h>
#include <latency_hist/explain.h>
#include <latency_hist/explain_priv.h>
#include <latency_hist/hist_mem.h>

DEFINE_STATIC_KEY_FALSE(lh_explain_key);

/* Per type with LH_T_EXPLAIN, one record per possible CPU; from init to exit. */
static struct lh_x_rec_cpu *lh_x_recs[LH_NR_HISTS];
static DEFINE_MUTEX(lh_x_lock);		/* enable/disable, the rings' users */
static bool lh_x_on;
/* Users of the rings: explain/enable and the outlier log (outlier.c). */
static int lh_x_ring_users;
/*
 * struct lh_x_replay_stats - one CPU's replays, for explain/status: how
 * many, and what the last and the longest cost
 * @syncp:      a reader's retry on 32-bit, where a u64 is two stores
 * @last_at_ns: when the last one started (ktime_get_mono_fast_ns())
 *
 * Written only by its CPU, interrupts off (lh_explain_file(), never in an
 * NMI), so no update is lost and the maximum never goes down, however many
 * CPUs replay at once; explain/status sums them (lh_x_replay_stats_sum()).
 */
struct lh_x_replay_stats {
	struct u64_stats_sync syncp;
	u64_stats_t replays;
	u64_stats_t last_ns;
	u64_stats_t last_at_ns;
	u64_stats_t max_ns;
};

static DEFINE_PER_CPU(struct lh_x_replay_stats, lh_x_replay_stats);
static const char *lh_x_reason;		/* NULL: explain is available */

/*
 * lh_x_replay_count - count a replay of this CPU that started at @t0_ns and
 * cost @cost_ns; interrupts are off
 */
static void notrace lh_x_replay_count(u64 t0_ns, u64 cost_ns)
{
	struct lh_x_replay_stats *st = this_cpu_ptr(&lh_x_replay_stats);

	u64_stats_update_begin(&st->syncp);
	u64_stats_inc(&st->replays);
	u64_stats_set(&st->last_ns, cost_ns);
	u64_stats_set(&st->last_at_ns, t0_ns);
	if (cost_ns > u64_stats_read(&st->max_ns))
		u64_stats_set(&st->max_ns, cost_ns);
	u64_stats_update_end(&st->syncp);
}

/*
 * lh_x_replay_stats_sum - every CPU's replays: their number, the cost of
 * the one that started last and of the longest
 */
static void lh_x_replay_stats_sum(u64 *replays, u64 *last_ns, u64 *max_ns)
{
	u64 last_at_ns = 0;
	int cpu;

	*replays = 0;
	*last_ns = 0;
	*max_ns = 0;
	for_each_possible_cpu(cpu) {
		struct lh_x_replay_stats *st = per_cpu_ptr(&lh_x_replay_stats, cpu);
		u64 nr, last, at, max;
		unsigned int seq;

		do {
			seq = u64_stats_fetch_begin(&st->syncp);
			nr = u64_stats_read(&st->replays);
			last = u64_stats_read(&st->last_ns);
			at = u64_stats_read(&st->last_at_ns);
			max = u64_stats_read(&st->max_ns);
		} while (u64_stats_fetch_retry(&st->syncp, seq));
		*replays += nr;
		*max_ns = max(*max_ns, max);
		if (nr && at >= last_at_ns) {
			last_at_ns = at;
			*last_ns = last;
		}
	}
}

/**
 * lh_explain_file() - explain a sample if it is its CPU's new maximum
 * @id:       the histogram (LH_T_EXPLAIN in its row)
 * @cpu:      the CPU it is filed under: this CPU
 * @lat_us:   its latency
 * @start_ns: lh_clock_ns() at its start
 * @end_ns:   the same clock at its end
 * @running:  the task running on this CPU at @end_ns
 *
 * Called after the sample was recorded: it is the maximum if it is at
 * least the histogram's maximum now, and beats the record.
 *
 * The windows, on the CPU the sample is filed under: wakeup and
 * wakeup/sharedprio from the sched_waking to the switch-in (the waking may
 * have run on another CPU: lh_clock_ns() is the same on all CPUs);
 * missed_timer_offsets from the timer's expiry, which no event marks, to
 * the instant the late expiry is filed; irqsoff, preemptoff and
 * preemptirqsoff the section, ending where it is filed (preemptirq.c); irq
 * from the hard interrupt's entry (maybe on another CPU) to its thread's
 * switch-in; softirq from the vector's first raise to its entry, both on
 * this CPU.
 *
 * The replay runs here, with interrupts off, in this CPU's scratch memory,
 * and its result is copied into the type's per-CPU record under that
 * record's lock, which the readers take too.
 *
 * Context: probe context on @cpu, preemption off; not NMI.
 */
noinline void notrace lh_explain_file(enum lh_hist_id id, int cpu, s64 lat_us,
				      u64 start_ns, u64 end_ns,
				      struct task_struct *running)
{
	struct lh_hist_cpu *h = lh_hist_cpu(id, cpu);
	struct lh_x_rec_cpu *rc;
	struct lh_x_ring *r;
	unsigned long flags;

	if (!lh_x_recs[id] || start_ns > end_ns)
		return;
	/* Pairs with smp_store_release() in lh_hist_cpu_reset_end(). */
	if (smp_load_acquire(&h->resetting) || lat_us < lh_hist_max_us(h))
		return;
	rc = &lh_x_recs[id][cpu];
	if (lat_us < READ_ONCE(rc->floor_us))
		return;		/* a section type's maximum came before explain */
	if (READ_ONCE(rc->rec.valid) && lat_us <= READ_ONCE(rc->rec.lat_us))
		return;

	raw_local_irq_save(flags);
	r = lh_x_this_ring();
	if (r) {
		u64 t0_ns = ktime_get_mono_fast_ns(), cost_ns;

		lh_x_replay(r, start_ns, end_ns, running);
		cost_ns = ktime_get_mono_fast_ns() - t0_ns;
		lh_x_replay_count(t0_ns, cost_ns);
		r->scratch.rec.lat_us = lat_us;
		arch_spin_lock(&rc->lock);
		if (!rc->rec.valid || lat_us > rc->rec.lat_us)
			rc->rec = r->scratch.rec;
		arch_spin_unlock(&rc->lock);
	}
	raw_local_irq_restore(flags);
}

/*
 * lh_x_rec_cpu - the record of type @id on @cpu, NULL if the type does not
 * explain
 */
struct lh_x_rec_cpu *lh_x_rec_cpu(enum lh_hist_id id, int cpu)
{
	return lh_x_recs[id] ? &lh_x_recs[id][cpu] : NULL;
}

/* lh_x_rec_get - copy one record out under its lock */
void lh_x_rec_get(struct lh_x_rec_cpu *rc, struct lh_x_rec *rec)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	arch_spin_lock(&rc->lock);
	*rec = rc->rec;
	arch_spin_unlock(&rc->lock);
	raw_local_irq_restore(flags);
}

/*
 * lh_explain_reset_quiet - a reset of the histograms in @ids, in its quiet
 * period (struct lh_hist_reset_hook): their records go too
 */
static void lh_explain_reset_quiet(unsigned long ids)
{
	unsigned long flags;
	int id, cpu;

	for_each_set_bit(id, &ids, LH_NR_HISTS) {
		if (!lh_x_recs[id])
			continue;
		for_each_possible_cpu(cpu) {
			struct lh_x_rec_cpu *rc = &lh_x_recs[id][cpu];

			raw_local_irq_save(flags);
			arch_spin_lock(&rc->lock);
			rc->rec.valid = false;
			arch_spin_unlock(&rc->lock);
			raw_local_irq_restore(flags);
			WRITE_ONCE(rc->floor_us, S64_MIN);
		}
	}
}

static struct lh_hist_reset_hook lh_explain_reset_hook = {
	.quiet	= lh_explain_reset_quiet,
	.node	= LIST_HEAD_INIT(lh_explain_reset_hook.node),
};

/*
 * lh_x_floors_set - the types without a max record: every CPU's floor to
 * @floor_us, or with @from_hist to its histogram's maximum now
 */
static void lh_x_floors_set(s64 floor_us, bool from_hist)
{
	int id, cpu;

	for (id = 0; id < LH_NR_HISTS; id++) {
		if (!lh_x_recs[id] || lh_hist_has(id, LH_T_MAX))
			continue;
		for_each_possible_cpu(cpu)
			WRITE_ONCE(lh_x_recs[id][cpu].floor_us, from_hist ?
				   lh_hist_largest_us(lh_hist_cpu(id, cpu)) :
				   floor_us);
	}
}

/* lh_x_ring_use - one more user of the rings: the first hooks them */
static int lh_x_ring_use(void)
{
	int ret;

	if (lh_x_ring_users) {
		lh_x_ring_users++;
		return 0;
	}
	ret = lh_x_ring_start();
	if (!ret)
		lh_x_ring_users = 1;
	return ret;
}

/* lh_x_ring_unuse - one user less: the last unhooks and frees the rings */
static void lh_x_ring_unuse(void)
{
	if (!--lh_x_ring_users)
		lh_x_ring_stop();
}

/**
 * lh_explain_ring_get() - keep the event rings hooked, for the outlier log
 *
 * Where this kernel cannot explain, nothing is hooked and
 * lh_x_this_ring() stays NULL: the outliers are filed unexplained.
 *
 * Context: process context; may sleep.
 * Return: 0, -ENOMEM, or the error of hooking.
 */
int lh_explain_ring_get(void)
{
	int ret = 0;

	mutex_lock(&lh_x_lock);
	if (!lh_x_reason)
		ret = lh_x_ring_use();
	mutex_unlock(&lh_x_lock);
	return ret;
}

/**
 * lh_explain_ring_put() - undo lh_explain_ring_get()
 *
 * Context: process context; may sleep.
 */
void lh_explain_ring_put(void)
{
	mutex_lock(&lh_x_lock);
	if (!lh_x_reason)
		lh_x_ring_unuse();
	mutex_unlock(&lh_x_lock);
}

/**
 * lh_explain_enable() - turn explain on or off
 * @on: the new state
 *
 * On: allocate the rings, hook the probes, then let the filing paths in.
 * A type that keeps no max record explains from then on only samples that
 * reach the maximum its histograms held by then (none meanwhile): "only a
 * sample that becomes its CPU's maximum is explained".
 * Off: the reverse; when it returns, nothing is hooked and no ring exists,
 * unless an outlier budget keeps them (lh_explain_ring_get()).
 *
 * Context: process context; may sleep. To turn it on, lh_control_lock
 * held (no reset meanwhile).
 * Return: 0, -ENODEV where this kernel cannot explain, -ENOMEM, or the
 * error of hooking.
 */
int lh_explain_enable(bool on)
{
	int ret = 0;

	mutex_lock(&lh_x_lock);
	if (on == lh_x_on)
		goto out;
	if (on) {
		if (lh_x_reason) {
			pr_notice("cannot enable explain: %s\n", lh_x_reason);
			ret = -ENODEV;
			goto out;
		}
		ret = lh_x_ring_use();
		if (ret)
			goto out;
		lh_x_floors_set(S64_MAX, false);
		static_branch_enable(&lh_explain_key);
		/* After: a sample filed meanwhile is in the maximum read. */
		lh_x_floors_set(0, true);
	} else {
		static_branch_disable(&lh_explain_key);
		lh_x_ring_unuse();
	}
	WRITE_ONCE(lh_x_on, on);
out:
	mutex_unlock(&lh_x_lock);
	return ret;
}

/**
 * lh_explain_enabled() - is explain on?
 *
 * Context: any.
 */
bool lh_explain_enabled(void)
{
	return READ_ONCE(lh_x_on);
}

/**
 * lh_explain_status_show() - print explain/status: the state, the ring's
 * size, how many windows were replayed and what the last and the longest
 * replay cost, and each tracepoint with "hooked", "off" or "missing"
 * @m: the seq_file
 *
 * Context: process context.
 */
void lh_explain_status_show(struct seq_file *m)
{
	u64 replays, last_ns, max_ns;

	lh_x_replay_stats_sum(&replays, &last_ns, &max_ns);
	mutex_lock(&lh_x_lock);
	seq_printf(m, "enabled %d\n", lh_x_on);
	seq_printf(m, "ring_events %d\n", LH_X_RING);
	seq_printf(m, "replays %llu\n", replays);
	seq_printf(m, "replay_last_ns %llu\n", last_ns);
	seq_printf(m, "replay_max_ns %llu\n", max_ns);
	if (lh_x_reason)
		seq_printf(m, "reason %s\n", lh_x_reason);
	lh_x_ring_status_show(m, lh_x_ring_users > 0);
	mutex_unlock(&lh_x_lock);
}

/**
 * lh_explain_init() - allocate the records of the types that explain
 *
 * Context: module init, after lh_tp_lookup().
 * Return: 0 or -ENOMEM.
 */
int lh_explain_init(void)
{
	int id, cpu;

	lh_x_reason = lh_x_ring_prepare();
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(&lh_x_replay_stats, cpu)->syncp);
	for (id = 0; id < LH_NR_HISTS; id++) {
		if (!lh_hist_has(id, LH_T_EXPLAIN))
			continue;
		/* No warning: the load fails with -ENOMEM, which says it all. */
		lh_x_recs[id] = kvcalloc(nr_cpu_ids, sizeof(*lh_x_recs[id]),
					 GFP_KERNEL | __GFP_NOWARN);
		if (!lh_x_recs[id]) {
			lh_explain_exit();
			return -ENOMEM;
		}
		for_each_possible_cpu(cpu) {
			lh_x_recs[id][cpu].lock =
				(arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
			lh_x_recs[id][cpu].floor_us = S64_MIN;
		}
	}
	lh_hist_reset_hook_add(&lh_explain_reset_hook);
	return 0;
}

/**
 * lh_explain_exit() - turn explain off, free the records
 *
 * Context: module exit or failed init, after the debugfs tree is gone.
 */
void lh_explain_exit(void)
{
	int id;

	lh_hist_reset_hook_del(&lh_explain_reset_hook);
	lh_explain_enable(false);
	for (id = 0; id < LH_NR_HISTS; id++) {
		kvfree(lh_x_recs[id]);
		lh_x_recs[id] = NULL;
	}
}
