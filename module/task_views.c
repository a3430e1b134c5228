// SPDX-License-Identifier: GPL-2.0
/*
 * task_views.c - which thread, which container: the per-task and
 * per-cgroup views of the types whose victim is a task (wakeup,
 * wakeup/sharedprio, missed_timer_offsets, timerandwakeup, switchtime,
 * timerwakeupswitch), <type>/tasks and <type>/cgroups, in the shape of
 * irq/lines. This file owns their tables: the switch that makes them, the
 * filing of a sample (probe context), the reclaim of exited tasks' entries
 * and the reset; task_views_print.c prints them.
 *
 * A sample is filed into both views of its histogram by the filing site
 * (sample.h) once lh_hist_record() took it, and a reset empties the views
 * in the histograms' quiet period (struct lh_hist_reset_hook): the lines
 * plus "#other" of each view always count exactly the histogram's samples.
 * Switching a type's views on resets that type's histograms for the same
 * reason: both start together.
 *
 * Keys that are never reused: a task is its task_struct and its
 * start_time (a task_struct is reused only after its task was freed, and
 * the new task started later), so a new task that reuses a pid or a
 * task_struct gets its own line; a cgroup is its cgroup v2 id (its kernfs
 * node id, 64 bits, never reused), named only at read time. An exited
 * task's entry (sched_process_free) keeps its line until a new task finds
 * no other room; the new task then takes it and the old samples move to
 * "#other", still counted.
 *
 * Cost: nothing while no type's views are on (one patched-out branch at the
 * filing sites; wakeup's inline filing path is taken as before). While on,
 * every sample of every type takes the general filing path and two table
 * look-ups, each a hash and at most LH_TV_PROBE_RUN lockless compares, then
 * one entry lock: no allocation, no global lock, nothing that sleeps. The
 * filing sites are sched_switch, hrtimer expiry and sys_exit probes, never
 * NMIs; interrupts are off while an entry is locked. Memory:
 * sizeof(struct lh_tv_entry) per entry (1520 bytes on x86-64), task_view_tasks +
 * task_view_cgroups entries per type whose views are on.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>
#include <trace/events/sched.h>

#include <latency_hist/compat.h>
#include <latency_hist/control.h>
#include <latency_hist/hist_mem.h>
#include <latency_hist/line_stats.h>
#include <latency_hist/task_views.h>
#include <latency_hist/task_views_priv.h>
#include <latency_hist/tracepoints.h>

#define LH_TV_CGROUP_OWNER	1UL	/* @owner of a claimed cgroup entry */

DEFINE_STATIC_KEY_FALSE(lh_task_views_key);

struct lh_tv_views *lh_tv_views[LH_NR_HISTS];
/* Serialises switches, resets of the views and readers (priv.h) */
DEFINE_MUTEX(lh_tv_mutex);

/* Types whose views are on; under lh_tv_mutex. */
static unsigned long lh_tv_on;

/* lh_tv_size_set - task_view_tasks=, task_view_cgroups=: 1..LH_TV_ENTRIES_MAX */
static int lh_tv_size_set(const char *val, const struct kernel_param *kp)
{
	u64 n;

	/* strict decimal, as every other control and parameter */
	if (lh_parse_uint(val, &n) || n < 1 || n > LH_TV_ENTRIES_MAX)
		return -EINVAL;
	WRITE_ONCE(*(unsigned int *)kp->arg, n);
	return 0;
}

static const struct kernel_param_ops lh_tv_size_ops = {
	.set	= lh_tv_size_set,
	.get	= param_get_uint,
};

/* Sizes of the tables a later switch-on makes; on ones keep theirs. */
static unsigned int lh_tv_nr_tasks = LH_TV_TASKS_DEFAULT;
static unsigned int lh_tv_nr_cgroups = LH_TV_CGROUPS_DEFAULT;
module_param_cb(task_view_tasks, &lh_tv_size_ops, &lh_tv_nr_tasks, 0644);
MODULE_PARM_DESC(task_view_tasks,
		 "entries of a type's <type>/tasks table, from its next switch-on (1-65536, default 256)");
module_param_cb(task_view_cgroups, &lh_tv_size_ops, &lh_tv_nr_cgroups, 0644);
MODULE_PARM_DESC(task_view_cgroups,
		 "entries of a type's <type>/cgroups table, from its next switch-on (1-65536, default 64)");

/* lh_tv_entry_clear - forget an entry's key and samples; its lock held */
static void lh_tv_entry_clear(struct lh_tv_entry *e)
{
	WRITE_ONCE(e->owner, 0);
	e->key = 0;
	WRITE_ONCE(e->exited, false);
	e->pid = 0;
	memset(e->comm, 0, sizeof(e->comm));
	lh_line_stats_clear(&e->stats);
}

/*
 * lh_tv_claim - make @e, locked, the entry of (@owner, @key); an exited
 * task's samples it held move to @t's "#other"
 */
static void lh_tv_claim(struct lh_tv_table *t, struct lh_tv_entry *e,
			unsigned long owner, u64 key)
{
	if (e->stats.nr_samples)
		atomic64_add(e->stats.nr_samples, &t->other);
	lh_tv_entry_clear(e);
	e->key = key;
	WRITE_ONCE(e->owner, owner);
}

/*
 * lh_tv_find - the entry of (@owner, @key) in @t, locked (@flags for
 * lh_line_unlock()); with @claim a free entry of its run, or else an exited
 * task's, becomes its own. NULL: none.
 *
 * An entry is freed only by a reset or a switch-off, with no sample being
 * filed, so within a run a key's entry always comes before the first free
 * one: the search stops at a match or at a free entry.
 */
static struct lh_tv_entry *lh_tv_find(struct lh_tv_table *t,
				      unsigned long owner, u64 key, bool claim,
				      unsigned long *flags)
{
	unsigned int n = t->nr_entries, run = min_t(unsigned int, n,
						    LH_TV_PROBE_RUN);
	unsigned int first = hash_64(key ^ owner, 32) % n;
	struct lh_tv_entry *reclaim = NULL;
	unsigned int i;

	for (i = 0; i < run; i++) {
		struct lh_tv_entry *e = &t->entries[(first + i) % n];
		unsigned long seen = READ_ONCE(e->owner);

		if (seen && seen != owner) {
			if (!reclaim && READ_ONCE(e->exited))
				reclaim = e;
			continue;
		}
		*flags = lh_line_lock(&e->lock);
		if (e->owner == owner && e->key == key)
			return e;
		if (!e->owner) {
			if (claim) {
				lh_tv_claim(t, e, owner, key);
				return e;
			}
			lh_line_unlock(&e->lock, *flags);
			return NULL;
		}
		/* an exited task's task_struct, reused by @owner */
		if (!reclaim && e->exited)
			reclaim = e;
		lh_line_unlock(&e->lock, *flags);
	}
	if (!claim || !reclaim)
		return NULL;
	*flags = lh_line_lock(&reclaim->lock);
	if (reclaim->owner && reclaim->exited) {
		lh_tv_claim(t, reclaim, owner, key);
		return reclaim;
	}
	lh_line_unlock(&reclaim->lock, *flags);
	return NULL;
}

/*
 * lh_tv_file_one - count a sample of @lat_us in the entry of (@owner,
 * @key) of @t, or in its "#other"; @victim names a task entry
 */
static void lh_tv_file_one(struct lh_tv_table *t, unsigned long owner,
			   u64 key, s64 lat_us, int cpu,
			   struct task_struct *victim,
			   struct task_struct *culprit,
			   const struct lh_task_info *culprit_copy)
{
	struct lh_tv_entry *e;
	unsigned long flags;

	e = owner ? lh_tv_find(t, owner, key, true, &flags) : NULL;
	if (!e) {
		atomic64_inc(&t->other);
		return;
	}
	if (victim) {
		e->pid = victim->pid;
		/* comm is always NUL-padded; see lh_task_info_fill() */
		memcpy(e->comm, victim->comm, TASK_COMM_LEN);
		e->comm[TASK_COMM_LEN - 1] = '\0';
	}
	if (culprit_copy)
		lh_line_stats_file_copy(&e->stats, lat_us, cpu, culprit_copy);
	else
		lh_line_stats_file(&e->stats, lat_us, cpu, culprit);
	lh_line_unlock(&e->lock, flags);
}

/**
 * lh_task_views_file() - count a sample the histogram took in its type's
 * views, if they are on
 * @id:           the histogram that took it
 * @cpu:          the CPU it was filed under
 * @lat_us:       the latency
 * @victim:       the task that waited, alive
 * @culprit:      the task that ran meanwhile, alive (if no @culprit_copy)
 * @culprit_copy: a copy of the culprit taken earlier, or NULL
 *
 * Context: probe context, not NMI: any CPU, interrupts on or off, after
 * lh_hist_record() returned true in the same probe call.
 */
noinline void lh_task_views_file(enum lh_hist_id id, int cpu, s64 lat_us,
				 struct task_struct *victim,
				 struct task_struct *culprit,
				 const struct lh_task_info *culprit_copy)
{
	/* Pairs with smp_store_release() in lh_tv_switch(). */
	struct lh_tv_views *v = smp_load_acquire(&lh_tv_views[id]);
	u64 cgroup_id;

	if (!v)
		return;
	lh_tv_file_one(&v->tasks, (unsigned long)victim, victim->start_time,
		       lat_us, cpu, victim, culprit, culprit_copy);
	cgroup_id = lh_task_cgroup_id(victim);
	lh_tv_file_one(&v->cgroups, cgroup_id ? LH_TV_CGROUP_OWNER : 0,
		       cgroup_id, lat_us, cpu, NULL, culprit, culprit_copy);
}

/*
 * lh_tv_process_free - sched_process_free: @p will never run again; its
 * entries may go to new tasks
 */
static void notrace lh_tv_process_free(void *data, struct task_struct *p)
{
	unsigned long on = READ_ONCE(lh_tv_on);
	int id;

	for_each_set_bit(id, &on, LH_NR_HISTS) {
		/* Pairs with smp_store_release() in lh_tv_switch(). */
		struct lh_tv_views *v = smp_load_acquire(&lh_tv_views[id]);
		struct lh_tv_entry *e;
		unsigned long flags;

		if (!v)
			continue;
		e = lh_tv_find(&v->tasks, (unsigned long)p, p->start_time,
			       false, &flags);
		if (!e)
			continue;
		WRITE_ONCE(e->exited, true);
		lh_line_unlock(&e->lock, flags);
	}
}

static const struct lh_probe lh_tv_probes[] = {
	{ LH_TP_SCHED_PROCESS_FREE,	lh_tv_process_free },
};

/* lh_tv_table_clear - free every entry of @t and zero its "#other" */
static void lh_tv_table_clear(struct lh_tv_table *t)
{
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < t->nr_entries; i++) {
		struct lh_tv_entry *e = &t->entries[i];

		flags = lh_line_lock(&e->lock);
		lh_tv_entry_clear(e);
		lh_line_unlock(&e->lock, flags);
	}
	atomic64_set(&t->other, 0);
}

/*
 * lh_tv_reset_quiet - a reset of the histograms in @ids, in its quiet
 * period: their views empty at the same instant (identities too: an entry
 * is taken again by its next sample)
 */
static void lh_tv_reset_quiet(unsigned long ids)
{
	int id;

	mutex_lock(&lh_tv_mutex);
	for_each_set_bit(id, &ids, LH_NR_HISTS) {
		struct lh_tv_views *v = lh_tv_views[id];

		if (!v)
			continue;
		lh_tv_table_clear(&v->tasks);
		lh_tv_table_clear(&v->cgroups);
	}
	mutex_unlock(&lh_tv_mutex);
}

static struct lh_hist_reset_hook lh_tv_reset_hook = {
	.quiet	= lh_tv_reset_quiet,
	.node	= LIST_HEAD_INIT(lh_tv_reset_hook.node),
};

/* lh_tv_table_init - @nr free entries for @t; -ENOMEM */
static int lh_tv_table_init(struct lh_tv_table *t, unsigned int nr)
{
	unsigned int i;

	t->entries = vzalloc(array_size(nr, sizeof(*t->entries)));
	if (!t->entries)
		return -ENOMEM;
	t->nr_entries = nr;
	atomic64_set(&t->other, 0);
	for (i = 0; i < nr; i++) {
		t->entries[i].lock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
		lh_line_stats_clear(&t->entries[i].stats);
	}
	return 0;
}

/* lh_tv_views_free - free what lh_tv_views_alloc() made; vfree(NULL) is fine */
static void lh_tv_views_free(struct lh_tv_views *v)
{
	if (!v)
		return;
	vfree(v->tasks.entries);
	vfree(v->cgroups.entries);
	kfree(v);
}

/* lh_tv_views_alloc - empty views of the configured sizes, or NULL */
static struct lh_tv_views *lh_tv_views_alloc(void)
{
	struct lh_tv_views *v = kzalloc(sizeof(*v), GFP_KERNEL);

	if (!v)
		return NULL;
	if (lh_tv_table_init(&v->tasks, READ_ONCE(lh_tv_nr_tasks)) ||
	    lh_tv_table_init(&v->cgroups, READ_ONCE(lh_tv_nr_cgroups))) {
		lh_tv_views_free(v);
		return NULL;
	}
	return v;
}

/* lh_tv_on_locked - make and publish the views of @id; lh_tv_mutex held */
static int lh_tv_on_locked(enum lh_hist_id id)
{
	struct lh_tv_views *v = lh_tv_views_alloc();
	int ret;

	if (!v)
		return -ENOMEM;
	if (!lh_tv_on && lh_tp_found(LH_TP_SCHED_PROCESS_FREE)) {
		/* Without the tracepoint, exited tasks keep their entries. */
		ret = lh_tp_hook(lh_tv_probes, ARRAY_SIZE(lh_tv_probes));
		if (ret) {
			lh_tv_views_free(v);
			return ret;
		}
	}
	/* Pairs with smp_load_acquire() in lh_task_views_file(). */
	smp_store_release(&lh_tv_views[id], v);
	WRITE_ONCE(lh_tv_on, lh_tv_on | BIT(id));
	static_branch_enable(&lh_task_views_key);
	return 0;
}

/* lh_tv_off_locked - unpublish and free the views of @id; lh_tv_mutex held */
static void lh_tv_off_locked(enum lh_hist_id id)
{
	struct lh_tv_views *v = lh_tv_views[id];

	WRITE_ONCE(lh_tv_views[id], NULL);
	WRITE_ONCE(lh_tv_on, lh_tv_on & ~BIT(id));
	if (!lh_tv_on) {
		static_branch_disable(&lh_task_views_key);
		if (lh_tp_found(LH_TP_SCHED_PROCESS_FREE))
			lh_tp_unhook(lh_tv_probes, ARRAY_SIZE(lh_tv_probes));
	}
	/* No probe may still hold the table. */
	tracepoint_synchronize_unregister();
	lh_tv_views_free(v);
}

/**
 * lh_tv_switch() - switch the views of one type on or off
 * @id: a histogram with LH_T_VIEWS
 * @on: the new state; the same as the current one does nothing
 *
 * On: new tables of the sizes task_view_tasks and task_view_cgroups give,
 * then a reset of the histogram (through its reset control), so that the
 * views and the histogram count the same samples from then on. Off: the
 * tables are freed.
 *
 * Context: process context; may sleep. Takes lh_tv_mutex, and then, not
 * nested in it, control.c's lock.
 * Return: 0, -ENOMEM, or an error of hooking sched_process_free or of the
 * reset.
 */
int lh_tv_switch(enum lh_hist_id id, bool on)
{
	int ret = 0;

	mutex_lock(&lh_tv_mutex);
	if (on == !!lh_tv_views[id]) {
		mutex_unlock(&lh_tv_mutex);
		return 0;
	}
	if (on)
		ret = lh_tv_on_locked(id);
	else
		lh_tv_off_locked(id);
	mutex_unlock(&lh_tv_mutex);
	if (on && !ret)
		ret = lh_ctl_write(LH_CTL_RESET, id, "1", 0);
	return ret;
}

/**
 * lh_task_views_init() - let resets empty the views
 *
 * Context: module init, before lh_control_init().
 */
void lh_task_views_init(void)
{
	check_trace_callback_type_sched_process_free(lh_tv_process_free);
	lh_hist_reset_hook_add(&lh_tv_reset_hook);
}

/**
 * lh_task_views_exit() - switch every view off
 *
 * Context: module exit, after lh_debugfs_exit() and lh_control_exit(): no
 * reader, no reset, no type's probe.
 */
void lh_task_views_exit(void)
{
	int id;

	lh_hist_reset_hook_del(&lh_tv_reset_hook);
	mutex_lock(&lh_tv_mutex);
	for (id = 0; id < LH_NR_HISTS; id++) {
		if (lh_tv_views[id])
			lh_tv_off_locked(id);
	}
	mutex_unlock(&lh_tv_mutex);
}
