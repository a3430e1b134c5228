/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters_priv.h - what the four files of the performance counters share:
 * counters.c (the probe side: reading the events over each window),
 * counters_events.c (the event set's lifecycle, CPU hotplug, the
 * controls), counters_names.c (event names to perf types and configs) and
 * counters_print.c (the files that show them).
 */
#ifndef LH_COUNTERS_PRIV_H
#define LH_COUNTERS_PRIV_H

#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/types.h>

#include <latency_hist/counters.h>
#include <latency_hist/tracepoints.h>

#define LH_PMU_NAME_MAX		32	/* bytes of an event name, NUL included */
#define LH_PMU_SYSFS		"/sys/bus/event_source/devices/"
#define LH_PMU_DEFAULT		"cycles ref-cycles instructions cache-misses"
#define LH_PMU_DEFAULT_SMI	"msr/smi/"

/* struct lh_pmu_event - one entry of the event set */
struct lh_pmu_event {
	char name[LH_PMU_NAME_MAX];
	u32 type;
	u64 config;
};

/* struct lh_pmu_set - an event set, as configured */
struct lh_pmu_set {
	int nr;
	struct lh_pmu_event ev[LH_PMU_MAX_EVENTS];
};

/*
 * struct lh_pmu_cpu - one CPU's events and marks
 * @ev:     the events the probes may read, NULL if none; published and
 *          withdrawn by lh_pmu_sync(), withdrawn by the offline callback
 * @own:    the events this CPU holds, under lh_pmu_lock; only
 *          lh_pmu_sync() creates and releases them
 * @err:    0 if @ev[i] was created, else why not (-ENODEV: not tried)
 * @sw:     the counters at this CPU's last context switch
 * @wake:   the counters at the last sched_waking run on this CPU for a task
 *          of this CPU, and that task (identity only, never dereferenced)
 */
struct lh_pmu_cpu {
	struct perf_event *ev[LH_PMU_MAX_EVENTS];
	struct perf_event *own[LH_PMU_MAX_EVENTS];
	int err[LH_PMU_MAX_EVENTS];
	struct lh_pmu_mark sw;
	struct lh_pmu_mark wake;
	struct task_struct *wake_task;
	pid_t wake_pid;
};

/*
 * struct lh_pmu_stats - one type's counter statistics on one CPU
 * @windows:  samples whose window was counted
 * @nr:       of those, the windows in which event i could be read
 * @max_*:    the window of the largest sample (@max_ok: events read in it)
 */
struct lh_pmu_stats {
	u64 windows;
	s64 lat_sum_us;
	u64 win_sum_ns;
	u64 nr[LH_PMU_MAX_EVENTS];
	u64 sum[LH_PMU_MAX_EVENTS];
	bool max_valid;
	s64 max_lat_us;
	u64 max_win_ns;
	u64 max_val[LH_PMU_MAX_EVENTS];
	u32 max_ok;
};

/* struct lh_pmu_stats_cpu - every type's statistics on one CPU */
struct lh_pmu_stats_cpu {
	struct lh_pmu_stats hist[LH_NR_HISTS];
};

extern struct mutex lh_pmu_lock;
/* Written under lh_pmu_lock while counting is off; read by the probes. */
extern struct lh_pmu_set lh_pmu_set;
extern u32 lh_pmu_gen;		/* bumped by every start; 0 is never valid */
extern bool lh_pmu_on;
extern struct lh_pmu_cpu __percpu *lh_pmu_cpus;
extern struct lh_pmu_stats_cpu __percpu *lh_pmu_stats;

/* counters.c */
extern const struct lh_probe lh_pmu_probes[];
extern const int lh_pmu_nr_probes;
void lh_pmu_probes_prepare(void);

/* counters_names.c */
int lh_pmu_resolve(const char *name, struct lh_pmu_event *e);
int lh_pmu_parse_set(const char *buf, struct lh_pmu_set *set,
		     bool resolve_pmu);

#endif /* LH_COUNTERS_PRIV_H */
