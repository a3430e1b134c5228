/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters.h - performance counters over latency windows (counters.c and
 * the counters_*.c files beside it).
 *
 * A latency number says how long; the counters say why. While counting is
 * on, every window that ends in a sample (a critical section, a wakeup's
 * switch-in side, a late timer) is bracketed by two reads of per-CPU pinned
 * perf events on the CPU it lives on, and the deltas are kept per type and
 * CPU: summed over all windows and for the window of the largest sample.
 *
 * The probes call the inline helpers below only behind lh_counting(), a
 * static branch: with counting off they cost a patched-out jump.
 */
#ifndef LH_COUNTERS_H
#define LH_COUNTERS_H

#include <linux/jump_label.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/types.h>

#include <latency_hist/types.h>

#define LH_PMU_MAX_EVENTS	8	/* events in one set */

/*
 * struct lh_pmu_mark - the counters of this CPU at one instant
 * @ns:  CLOCK_MONOTONIC (ktime_get_mono_fast_ns()) at the read
 * @gen: the counting generation (an enable with a new event set) it belongs to
 * @ok:  bit i set: @val[i] was read from an active event i
 */
struct lh_pmu_mark {
	u64 ns;
	u64 val[LH_PMU_MAX_EVENTS];
	u32 gen;
	u32 ok;
};

DECLARE_STATIC_KEY_FALSE(lh_counting_key);

/**
 * lh_counting() - are counters being read over latency windows?
 *
 * Context: any.
 */
static __always_inline bool lh_counting(void)
{
	return static_branch_unlikely(&lh_counting_key);
}

void lh_pmu_read(struct lh_pmu_mark *mark);
void lh_pmu_file(enum lh_hist_id id, s64 lat_us,
		 const struct lh_pmu_mark *start);
void lh_pmu_file_since_switch(enum lh_hist_id id, s64 lat_us);
void lh_pmu_wakeup_start(struct task_struct *p);
void lh_pmu_wakeup_file(enum lh_hist_id id, s64 lat_us,
			struct task_struct *next);

/* counters_events.c: life, and the controls (control.c serializes them) */
int lh_counters_init(void);
void lh_counters_exit(void);
int lh_counters_enable(bool on);
bool lh_counters_enabled(void);
int lh_counters_events_write(const char *buf);
void lh_counters_reset(enum lh_hist_id id);
/* counters_names.c */
int lh_counters_events_check(const char *buf, bool resolve_pmu);
/* counters_print.c */
int lh_counters_events_print(char *buf, size_t size, char sep);
void lh_counters_status_show(struct seq_file *m);
int lh_counters_show(struct seq_file *m, enum lh_hist_id id);

#endif /* LH_COUNTERS_H */
