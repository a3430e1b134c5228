// SPDX-License-Identifier: GPL-2.0
/*
 * outlier.c - every time a latency went over its budget, and why.
 *
 * explain (explain.c) keeps the breakdown of one window per CPU and type:
 * the worst. An RT rig that runs for weeks asks a different question: each
 * time a latency reached our budget, what caused it? While a type has a
 * budget (<type>/outlier_us, parameter outlier_<type>), every sample the
 * histogram takes at or above it is an outlier: filed on its CPU, where
 * the histogram took it, into that CPU's log of the type, with a sequence
 * number, its time, its latency, victim and culprit, and explain's
 * breakdown of its own window replayed from the CPU's event ring
 * (explain_replay.c). <type>/outliers-CPUx prints the log
 * (outlier_print.c).
 *
 * The invariant, per type and CPU since the last reset after the budget
 * was set: filed == the histogram's samples at or above the budget, and
 * kept + dropped == filed. Filing runs only where the histogram took the
 * sample (lh_sample_record() returned true, after its reset check), and
 * the logs are emptied in the quiet period of the histograms' reset (a
 * reset hook, struct lh_hist_reset_hook).
 *
 * Nothing is lost silently: a full log drops its oldest record and counts
 * it in dropped; a record whose window could not be replayed (no ring on
 * this kernel, the ring does not reach back to the window's start, or
 * more than LH_O_REPLAYS replays on this CPU in LH_O_RATE_NS) is kept with
 * cause unexplained and counted.
 *
 * Cost: a probe compares each sample the histogram took with the type's
 * budget (lh_outlier(), S64_MAX while off): one load and one compare.
 * While any budget is set, explain's rings are hooked (their cost is in
 * Documentation/performance.rst); each outlier costs at most one replay
 * of LH_X_RING events, LH_O_REPLAYS per LH_O_RATE_NS per CPU. A log is
 * LH_O_RECS records of sizeof(struct lh_o_rec) bytes per CPU, allocated
 * when the type's budget is set, freed when it is cleared.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>

#include <latency_hist/clock.h>
#include <latency_hist/explain.h>
#include <latency_hist/explain_priv.h>
#include <latency_hist/hist_mem.h>
#include <latency_hist/outlier.h>
#include <latency_hist/outlier_priv.h>
#include <latency_hist/sample.h>

#define LH_O_REPLAYS	20			/* replays per CPU per window */
#define LH_O_RATE_NS	(100 * NSEC_PER_MSEC)	/* the window: 100 ms */

s64 lh_outlier_min_us[LH_NR_HISTS] = { [0 ... LH_NR_HISTS - 1] = S64_MAX };

/*
 * Per type, one log per possible CPU while its budget is set: published
 * with release after the logs are initialised, read with acquire by the
 * filing path (tools/litmus/outlier-log.litmus).
 */
static struct lh_o_log **lh_o_logs[LH_NR_HISTS];
static DEFINE_MUTEX(lh_o_lock);		/* budgets, logs, the ring's use */
static bool lh_o_ring_used;

/*
 * struct lh_o_cpu - what a CPU's filing keeps across types
 * @last_seq:  the last sequence number given per type: they run from 1,
 *             never reused while the module is loaded (a reset or a
 *             cleared budget does not touch them). Written under the
 *             type's log lock.
 * @window_ns: the start of the rate limit's window (interrupts off)
 * @replays:   the replays in it
 */
struct lh_o_cpu {
	u64 last_seq[LH_NR_HISTS];
	u64 window_ns;
	u32 replays;
};

static DEFINE_PER_CPU(struct lh_o_cpu, lh_o_cpus);

/*
 * lh_o_log_of - the log of type @id on @cpu, or NULL while it has no
 * budget
 */
static struct lh_o_log *lh_o_log_of(enum lh_hist_id id, int cpu)
{
	/* Pairs with smp_store_release() in lh_o_logs_alloc(). */
	struct lh_o_log **logs = smp_load_acquire(&lh_o_logs[id]);

	return logs ? logs[cpu] : NULL;
}

/*
 * lh_o_may_replay - may this CPU replay one more window now? At most
 * LH_O_REPLAYS per LH_O_RATE_NS; interrupts off
 */
static bool lh_o_may_replay(void)
{
	struct lh_o_cpu *oc = this_cpu_ptr(&lh_o_cpus);
	u64 now_ns = ktime_get_mono_fast_ns();

	if (now_ns - oc->window_ns >= LH_O_RATE_NS) {
		oc->window_ns = now_ns;
		oc->replays = 0;
	}
	if (oc->replays >= LH_O_REPLAYS)
		return false;
	oc->replays++;
	return true;
}

/* lh_o_detail_cat - the category of a top-level detail line, or -1 */
static int lh_o_detail_cat(u8 kind)
{
	switch (kind) {
	case LH_XD_IRQ:
	case LH_XD_VECTOR:
		return LH_XC_HARDIRQ;
	case LH_XD_SOFTIRQ:
		return LH_XC_SOFTIRQ;
	case LH_XD_THREAD:
	case LH_XD_THREAD_REST:
		return LH_XC_THREAD;
	case LH_XD_IDLE:
	case LH_XD_UNCOVERED:
		return LH_XC_OTHER;
	}
	return -1;		/* timers and idle states: parts of a line */
}

/*
 * lh_o_keep - copy @x's breakdown into @o: the categories, the cause (the
 * largest category, the first of equals, and its largest top-level detail
 * line) and the LH_O_DETAILS longest top-level detail lines, the cause's
 * among them, in @x's order
 */
static void lh_o_keep(struct lh_o_rec *o, const struct lh_x_rec *x)
{
	bool keep[LH_X_DETAILS] = { };
	int i, n, cause_d = -1;

	o->cause = 0;
	for (i = 0; i < LH_XC_NR; i++) {
		o->cat_ns[i] = x->cat_ns[i];
		if (x->cat_ns[i] > x->cat_ns[o->cause])
			o->cause = i;
	}
	o->window_ns = x->window_ns;
	for (i = 0; i < x->nr_details; i++) {
		if (lh_o_detail_cat(x->d[i].kind) == o->cause &&
		    (cause_d < 0 || x->d[i].ns > x->d[cause_d].ns))
			cause_d = i;
	}
	n = 0;
	if (cause_d >= 0) {
		keep[cause_d] = true;
		n++;
	}
	for (; n < LH_O_DETAILS; n++) {
		int best = -1;

		for (i = 0; i < x->nr_details; i++) {
			if (keep[i] || lh_o_detail_cat(x->d[i].kind) < 0)
				continue;
			if (best < 0 || x->d[i].ns > x->d[best].ns)
				best = i;
		}
		if (best < 0)
			break;
		keep[best] = true;
	}
	o->nr_details = 0;
	o->cause_detail = -1;
	o->more = 0;
	for (i = 0; i < x->nr_details; i++) {
		struct lh_o_detail *d;

		if (!keep[i]) {
			o->more += lh_o_detail_cat(x->d[i].kind) >= 0;
			continue;
		}
		if (i == cause_d)
			o->cause_detail = o->nr_details;
		d = &o->d[o->nr_details++];
		d->kind = x->d[i].kind;
		d->id = x->d[i].id;
		d->prio = x->d[i].prio;
		d->count = x->d[i].count;
		d->ns = x->d[i].ns;
		memcpy(d->name, x->d[i].name, LH_X_NAME);
	}
}

/* lh_o_none - a record without breakdown: its window is all "other" */
static void lh_o_none(struct lh_o_rec *o, u64 window_ns)
{
	memset(o->cat_ns, 0, sizeof(o->cat_ns));
	o->cat_ns[LH_XC_OTHER] = window_ns;
	o->window_ns = window_ns;
	o->nr_details = 0;
	o->more = 0;
	o->cause_detail = -1;
}

/*
 * lh_o_slot - the slot of a new record in @log, its lock held: the oldest
 * goes (and is counted in dropped) when the log is full
 */
static struct lh_o_rec *lh_o_slot(struct lh_o_log *log)
{
	u32 slot;

	if (log->nr == LH_O_RECS) {
		log->head = (log->head + 1) % LH_O_RECS;
		log->first_seq++;
		log->nr--;
		log->dropped++;
	}
	slot = (log->head + log->nr) % LH_O_RECS;
	log->nr++;
	log->filed++;
	return &log->rec[slot];
}

/**
 * lh_outlier_file_info() - file an outlier whose victim is a copy
 * @id:       the histogram (LH_T_OUTLIER in its row)
 * @cpu:      the CPU it is filed under: this CPU
 * @lat_us:   its latency, at or above the budget
 * @start_ns: lh_clock_ns() at its window's start
 * @end:      the window's end (lh_clock_stamp())
 * @victim:   what waited: a task's copy, or what stands for it (softirq's
 *            vector, as in its max record)
 * @culprit:  the task that ran meanwhile, running on this CPU at @end
 *
 * Called where the histogram took the sample, and only then. The replay
 * runs with interrupts off in this CPU's ring's scratch memory (as
 * lh_explain_file()'s), then the record is copied in under the log's lock,
 * which the readers take too.
 *
 * Context: probe context on @cpu, preemption off; not NMI.
 */
noinline void notrace lh_outlier_file_info(enum lh_hist_id id, int cpu,
					   s64 lat_us, u64 start_ns, u64 end,
					   const struct lh_task_info *victim,
					   struct task_struct *culprit)
{
	struct lh_o_log *log = lh_o_log_of(id, cpu);
	u64 end_ns = lh_clock_stamp_ns(end);
	struct lh_x_ring *r;
	struct lh_o_rec *o;
	unsigned long flags;
	bool replayed;

	if (!log)
		return;		/* the budget was set a moment ago */
	raw_local_irq_save(flags);
	r = lh_x_this_ring();
	replayed = r && start_ns <= end_ns && lh_o_may_replay();
	if (replayed)
		lh_x_replay(r, start_ns, end_ns, culprit);

	arch_spin_lock(&log->lock);
	o = lh_o_slot(log);
	o->seq = ++per_cpu_ptr(&lh_o_cpus, cpu)->last_seq[id];
	o->time_ns = lh_clock_mono_ns(end);
	o->lat_us = lat_us;
	o->victim = *victim;
	lh_task_info_fill(&o->culprit, culprit);
	if (replayed)
		lh_o_keep(o, &r->scratch.rec);
	else
		lh_o_none(o, start_ns <= end_ns ? end_ns - start_ns : 0);
	/* A window the ring does not wholly cover is not explained. */
	if (!replayed || r->scratch.uncovered_ns) {
		o->cause = LH_O_UNEXPLAINED;
		log->unexplained++;
	}
	arch_spin_unlock(&log->lock);
	raw_local_irq_restore(flags);
}

/**
 * lh_outlier_file() - file an outlier
 * @id:       the histogram (LH_T_OUTLIER in its row)
 * @cpu:      the CPU it is filed under: this CPU
 * @lat_us:   its latency, at or above the budget
 * @start_ns: lh_clock_ns() at its window's start
 * @end:      the window's end (lh_clock_stamp())
 * @victim:   the task that waited, alive
 * @culprit:  the task that ran meanwhile, running on this CPU at @end
 *
 * lh_outlier_file_info() with a copy of @victim.
 *
 * Context: probe context on @cpu, preemption off; not NMI.
 */
noinline void notrace lh_outlier_file(enum lh_hist_id id, int cpu, s64 lat_us,
				      u64 start_ns, u64 end,
				      struct task_struct *victim,
				      struct task_struct *culprit)
{
	struct lh_task_info info;

	lh_task_info_fill(&info, victim);
	lh_outlier_file_info(id, cpu, lat_us, start_ns, end, &info, culprit);
}

/**
 * lh_o_log_get() - copy a log's counters and the range of its sequence
 * numbers out under its lock
 * @log:  the log
 * @head: the copy (its records are not copied)
 *
 * Context: process context.
 */
void lh_o_log_get(struct lh_o_log *log, struct lh_o_head *head)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	arch_spin_lock(&log->lock);
	head->filed = log->filed;
	head->dropped = log->dropped;
	head->unexplained = log->unexplained;
	head->kept = log->nr;
	head->first_seq = log->first_seq;
	arch_spin_unlock(&log->lock);
	raw_local_irq_restore(flags);
}

/**
 * lh_o_rec_get() - copy the record of a sequence number out under its log's
 * lock
 * @log: the log
 * @seq: the sequence number
 * @rec: the copy
 *
 * Context: process context.
 * Return: 0, or -ENOENT if the log does not hold it (any more).
 */
int lh_o_rec_get(struct lh_o_log *log, u64 seq, struct lh_o_rec *rec)
{
	unsigned long flags;
	int ret = -ENOENT;

	raw_local_irq_save(flags);
	arch_spin_lock(&log->lock);
	if (seq >= log->first_seq && seq - log->first_seq < log->nr) {
		*rec = log->rec[(log->head + (seq - log->first_seq)) %
				LH_O_RECS];
		ret = 0;
	}
	arch_spin_unlock(&log->lock);
	raw_local_irq_restore(flags);
	return ret;
}

/**
 * lh_o_log() - the log of a type on a CPU, for a reader
 * @id:  the histogram
 * @cpu: the CPU
 *
 * Context: process context, lh_o_lock_readers() held.
 * Return: the log, or NULL while the type has no budget.
 */
struct lh_o_log *lh_o_log(enum lh_hist_id id, int cpu)
{
	return lh_o_logs[id] ? lh_o_logs[id][cpu] : NULL;
}

/**
 * lh_o_lock_readers() - keep the logs from being freed while reading
 *
 * Context: process context; may sleep.
 */
void lh_o_lock_readers(void)
{
	mutex_lock(&lh_o_lock);
}

/**
 * lh_o_unlock_readers() - undo lh_o_lock_readers()
 *
 * Context: process context.
 */
void lh_o_unlock_readers(void)
{
	mutex_unlock(&lh_o_lock);
}

/* lh_o_log_reset - empty @log, its lock held: its numbers go on */
static void lh_o_log_reset(struct lh_o_log *log, int cpu, enum lh_hist_id id)
{
	log->filed = 0;
	log->dropped = 0;
	log->unexplained = 0;
	log->nr = 0;
	log->head = 0;
	log->first_seq = per_cpu_ptr(&lh_o_cpus, cpu)->last_seq[id] + 1;
}

/*
 * lh_outlier_clear - empty the logs of the histograms in @ids (BIT(id)
 * each): their reset hook, called inside a reset of those histograms, when
 * no sample of them can be filed (struct lh_hist_reset_hook)
 */
static void lh_outlier_clear(unsigned long ids)
{
	unsigned long flags;
	int id, cpu;

	mutex_lock(&lh_o_lock);
	for_each_set_bit(id, &ids, LH_NR_HISTS) {
		if (!lh_o_logs[id])
			continue;
		for_each_possible_cpu(cpu) {
			struct lh_o_log *log = lh_o_logs[id][cpu];

			raw_local_irq_save(flags);
			arch_spin_lock(&log->lock);
			lh_o_log_reset(log, cpu, id);
			arch_spin_unlock(&log->lock);
			raw_local_irq_restore(flags);
		}
	}
	mutex_unlock(&lh_o_lock);
}

/* lh_o_logs_free - free the logs of @logs (NULL entries included) */
static void lh_o_logs_free(struct lh_o_log **logs)
{
	int cpu;

	for_each_possible_cpu(cpu)
		kvfree(logs[cpu]);
	kfree(logs);
}

/*
 * lh_o_logs_alloc - allocate, initialise and publish the logs of type @id,
 * one per possible CPU on its node; all or nothing
 */
static int lh_o_logs_alloc(enum lh_hist_id id)
{
	struct lh_o_log **logs;
	int cpu;

	logs = kcalloc(nr_cpu_ids, sizeof(*logs), GFP_KERNEL);
	if (!logs)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		/* No warning: the write of the budget fails with -ENOMEM. */
		logs[cpu] = kvzalloc_node(sizeof(*logs[cpu]),
					  GFP_KERNEL | __GFP_NOWARN,
					  cpu_to_node(cpu));
		if (!logs[cpu]) {
			lh_o_logs_free(logs);
			return -ENOMEM;
		}
		logs[cpu]->lock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
		lh_o_log_reset(logs[cpu], cpu, id);
	}
	/* Pairs with smp_load_acquire() in lh_o_log_of(). */
	smp_store_release(&lh_o_logs[id], logs);
	return 0;
}

/* lh_o_any_budget - does any type have a budget? */
static bool lh_o_any_budget(void)
{
	int id;

	for (id = 0; id < LH_NR_HISTS; id++) {
		if (lh_o_logs[id])
			return true;
	}
	return false;
}

/**
 * lh_outlier_budget_set() - set or clear the budget of a type
 * @id:        the histogram
 * @budget_us: microseconds; 0 clears it
 *
 * The first budget hooks explain's rings, the first of a type allocates
 * its logs; a cleared budget stops the filing, waits for the probes in
 * flight and frees the type's logs, and the last unhooks the rings. A
 * changed budget keeps the log: its invariant holds again from the next
 * reset of the type.
 *
 * Context: process context; may sleep; the parameter lock held.
 * Return: 0, -EINVAL for a type without outlier log, -ENOMEM, or the
 * error of hooking the rings.
 */
int lh_outlier_budget_set(enum lh_hist_id id, u64 budget_us)
{
	struct lh_o_log **logs;
	int ret = 0;

	if (!lh_hist_has(id, LH_T_OUTLIER))
		return budget_us ? -EINVAL : 0;
	mutex_lock(&lh_o_lock);
	if (budget_us) {
		if (!lh_o_ring_used) {
			ret = lh_explain_ring_get();
			if (ret)
				goto out;
			lh_o_ring_used = true;
		}
		if (!lh_o_logs[id]) {
			ret = lh_o_logs_alloc(id);
			if (ret)
				goto out_ring_put;
		}
		WRITE_ONCE(lh_outlier_min_us[id], budget_us);
		goto out;
	}
	logs = lh_o_logs[id];
	if (!logs)
		goto out;
	WRITE_ONCE(lh_outlier_min_us[id], S64_MAX);
	WRITE_ONCE(lh_o_logs[id], NULL);
	/* The probes in flight may still file into them. */
	tracepoint_synchronize_unregister();
	lh_o_logs_free(logs);
out_ring_put:
	if (lh_o_ring_used && !lh_o_any_budget()) {
		lh_explain_ring_put();
		lh_o_ring_used = false;
	}
out:
	mutex_unlock(&lh_o_lock);
	return ret;
}

/**
 * lh_outlier_budget_us() - the budget of a type
 * @id: the histogram
 *
 * Context: any.
 * Return: microseconds, 0 when off.
 */
u64 lh_outlier_budget_us(enum lh_hist_id id)
{
	s64 min_us = READ_ONCE(lh_outlier_min_us[id]);

	return min_us == S64_MAX ? 0 : min_us;
}

static struct lh_hist_reset_hook lh_outlier_reset_hook = {
	.quiet	= lh_outlier_clear,
	.node	= LIST_HEAD_INIT(lh_outlier_reset_hook.node),
};

/**
 * lh_outlier_init() - have every reset of histograms empty their logs too
 *
 * Context: module init, before the controls exist.
 */
void lh_outlier_init(void)
{
	lh_hist_reset_hook_add(&lh_outlier_reset_hook);
}

/**
 * lh_outlier_exit() - clear every budget: nothing hooked, nothing held
 *
 * Context: module exit or failed init, after the debugfs tree and the
 * controls are gone.
 */
void lh_outlier_exit(void)
{
	int id;

	lh_hist_reset_hook_del(&lh_outlier_reset_hook);
	for (id = 0; id < LH_NR_HISTS; id++)
		lh_outlier_budget_set(id, 0);
}
