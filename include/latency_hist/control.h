/* SPDX-License-Identifier: GPL-2.0 */
/*
 * control.h - latency types, their enable switches, pid filters and resets.
 *
 * control.c owns every piece of state a user can change: which switches are
 * on, the pid filters, and the histogram memory (allocated on a switch's
 * first enable, kept until unload so data stays readable after a disable).
 * debugfs.c and params.c only carry user text to the lh_*_write() functions
 * here, so both control paths validate and behave identically.
 */
#ifndef LH_CONTROL_H
#define LH_CONTROL_H

#include <asm/barrier.h>
#include <linux/compiler.h>
#include <linux/types.h>

#include <latency_hist/hist.h>
#include <latency_hist/tracepoints.h>

#define LH_WRITE_MAX	64	/* bytes; a longer control write is invalid */

/* The histograms, in the order of the status file and the RT patch's enum. */
enum lh_hist_id {
	LH_HIST_IRQSOFF,
	LH_HIST_PREEMPTOFF,
	LH_HIST_PREEMPTIRQSOFF,
	LH_HIST_WAKEUP,
	LH_HIST_WAKEUP_SHAREDPRIO,
	LH_HIST_MISSED_TIMER_OFFSETS,
	LH_HIST_TIMERANDWAKEUP,
	LH_NR_HISTS
};

/* The files in enable/; one switch may drive several histograms. */
enum lh_switch_id {
	LH_SW_PREEMPTIRQSOFF,
	LH_SW_WAKEUP,
	LH_SW_MISSED_TIMER_OFFSETS,
	LH_SW_TIMERANDWAKEUP,
	LH_NR_SWITCHES
};

/* struct lh_hist_type - static description of one histogram */
struct lh_hist_type {
	const char *name;		/* directory below latency_hist/ */
	enum lh_switch_id sw;		/* the switch that feeds it */
	bool has_max_record;		/* max_latency-CPUx files */
};

/*
 * struct lh_switch_ops - what a latency type's probe file provides; control.c
 * hooks and unhooks the probes.
 * @probes:    the probe set, hooked in array order, unhooked in reverse
 * @nr_probes: its length
 * @missing:   the status reason when a tracepoint of the set is absent
 * @prepare:   at load time: type-check the probes, learn what they need;
 *             returns another reason this kernel cannot measure the type,
 *             or NULL
 * @clear:     forget all per-CPU tracking; no probe of the set is running
 */
struct lh_switch_ops {
	const struct lh_probe *probes;
	int nr_probes;
	const char *missing;
	const char *(*prepare)(void);
	void (*clear)(void);
};

/* struct lh_switch - static description of one enable switch */
struct lh_switch {
	const char *name;		/* file name in enable/ */
	bool has_pid;			/* <name>/pid filter file */
	const struct lh_switch_ops *ops; /* NULL: a flag read by other probes */
};

extern const struct lh_hist_type lh_hist_types[LH_NR_HISTS];
extern const struct lh_switch lh_switches[LH_NR_SWITCHES];
extern const struct lh_switch_ops lh_wakeup_ops;
extern const struct lh_switch_ops lh_timer_ops;
extern const struct lh_switch_ops lh_preemptirq_ops;

/* Written under the control mutex, read locklessly by probes and readers. */
extern bool lh_switch_on[LH_NR_SWITCHES];
extern pid_t lh_pid_filter[LH_NR_SWITCHES];
extern struct lh_hist_cpu **lh_hist_cpus[LH_NR_HISTS];
/* Per histogram: samples at or above stop tracing; S64_MAX while off. */
extern s64 lh_stop_us[LH_NR_HISTS];

/**
 * lh_switch_enabled() - is a switch on right now?
 * @sw: the switch
 *
 * A probe that sees a switch on may use its histograms at once: the flag is
 * read with acquire, and set with release after the histograms are
 * published (lh_switch_on_locked()), so on a weakly ordered CPU the
 * histogram pointer cannot be read as it was before the flag went on.
 *
 * Context: any.
 */
static inline bool lh_switch_enabled(enum lh_switch_id sw)
{
	/* Pairs with smp_store_release() in lh_switch_on_locked(). */
	return smp_load_acquire(&lh_switch_on[sw]);
}

/**
 * lh_pid() - the pid filter of a switch
 * @sw: LH_SW_WAKEUP or LH_SW_MISSED_TIMER_OFFSETS
 *
 * Context: any.
 * Return: the global thread id to follow, or 0 for no filter.
 */
static inline pid_t lh_pid(enum lh_switch_id sw)
{
	return READ_ONCE(lh_pid_filter[sw]);
}

/**
 * lh_hist_cpu() - one CPU's histogram of one type
 * @id:  the histogram
 * @cpu: a possible CPU
 *
 * Context: any. Probes may call it only while their switch is hooked, which
 * implies the memory exists; readers get NULL before the first enable.
 * Return: the CPU histogram or NULL.
 */
static inline struct lh_hist_cpu *lh_hist_cpu(enum lh_hist_id id, int cpu)
{
	/* Pairs with smp_store_release() in lh_hist_alloc(). */
	struct lh_hist_cpu **cpus = smp_load_acquire(&lh_hist_cpus[id]);

	return cpus ? cpus[cpu] : NULL;
}

int lh_control_init(void);
int lh_control_start(void);
void lh_control_exit(void);

int lh_enable_write(enum lh_switch_id sw, const char *buf);
int lh_pid_write(enum lh_switch_id sw, const char *buf);
int lh_reset_write(enum lh_hist_id id, const char *buf);
int lh_threshold_write(enum lh_hist_id id, const char *buf);
u64 lh_threshold_us(enum lh_hist_id id);
int lh_reset_by_name(const char *buf);
void lh_status_show(struct seq_file *m);

#endif /* LH_CONTROL_H */
