/* SPDX-License-Identifier: GPL-2.0 */
/*
 * task_views_priv.h - the tables behind <type>/tasks and <type>/cgroups,
 * shared by the filing side (task_views.c: probe context, reset, switch)
 * and the printing side (task_views_print.c: read context).
 *
 * One table of tasks and one of cgroups per type whose views are on,
 * allocated when they are switched on (never in a probe) and freed when
 * they are switched off, after the probes in flight are done. An entry is
 * found by open addressing from the hash of its key, within a probe run of
 * LH_TV_PROBE_RUN entries (the whole table if smaller); a sample that
 * finds neither its entry nor a free or reclaimable one there is counted
 * in the table's @other.
 */
#ifndef LH_TASK_VIEWS_PRIV_H
#define LH_TASK_VIEWS_PRIV_H

#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include <latency_hist/line_stats.h>
#include <latency_hist/types.h>

#define LH_TV_PROBE_RUN		16	/* entries a key may be from its hash */
#define LH_TV_TASKS_DEFAULT	256	/* entries of a type's task table */
#define LH_TV_CGROUPS_DEFAULT	64	/* entries of a type's cgroup table */
#define LH_TV_ENTRIES_MAX	65536	/* per table; 95 MiB at most */

/*
 * struct lh_tv_entry - one task or one cgroup of a view
 * @owner:   a task: its task_struct, an identity never dereferenced; a
 *           cgroup: 1. 0 while the entry is free. Read locklessly to skip
 *           other keys' entries; written, and a match confirmed, only
 *           under @lock
 * @key:     a task: its start_time (ns), which with @owner no later task
 *           has (a task_struct is reused only after its task was freed,
 *           and a pid never names two tasks at once); a cgroup: its id
 * @lock:    guards everything here (lh_line_lock(): interrupts off)
 * @exited:  the task was freed (sched_process_free): its line stays until
 *           a new task needs the entry, which then moves its samples to
 *           the table's "#other"
 * @pid:     the task's thread id, its name at its last sample (@comm)
 * @stats:   its samples since the last reset
 */
struct lh_tv_entry {
	unsigned long owner;
	u64 key;
	arch_spinlock_t lock;
	bool exited;
	pid_t pid;
	char comm[TASK_COMM_LEN];
	struct lh_line_stats stats;
};

/*
 * struct lh_tv_table - the entries of one view of one type
 * @other: samples that found no entry, and those of exited tasks whose
 *         entries were taken by new ones, since the last reset
 */
struct lh_tv_table {
	struct lh_tv_entry *entries;
	unsigned int nr_entries;
	atomic64_t other;
};

/* struct lh_tv_views - the two views of one type */
struct lh_tv_views {
	struct lh_tv_table tasks;
	struct lh_tv_table cgroups;
};

/*
 * The views of each type, NULL while off: published with release after
 * they are emptied, read with acquire by the probes; replaced and freed
 * only under lh_tv_mutex, which readers hold while they copy.
 */
extern struct lh_tv_views *lh_tv_views[LH_NR_HISTS];
extern struct mutex lh_tv_mutex;

int lh_tv_switch(enum lh_hist_id id, bool on);

#endif /* LH_TASK_VIEWS_PRIV_H */
