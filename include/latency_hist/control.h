/* SPDX-License-Identifier: GPL-2.0 */
/*
 * control.h - what a user can change: the enable switches, pid filters,
 * thresholds, resets and counter controls, through one table of controls
 * that both user interfaces (debugfs.c, params.c) serve.
 *
 * Each control is { name, show, store } plus its grammar (control.c). A
 * write from either interface goes through lh_ctl_write(), which checks the
 * text, then, before module init has finished (parameters given to
 * insmod), only remembers it and replays it at lh_control_start(), and
 * after exit refuses it: the before-init / after-exit gate is there and
 * nowhere else. So both paths validate and act identically by construction.
 */
#ifndef LH_CONTROL_H
#define LH_CONTROL_H

#include <asm/barrier.h>
#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/types.h>

#include <latency_hist/tracepoints.h>
#include <latency_hist/types.h>

struct seq_file;

#define LH_WRITE_MAX	64	/* bytes; a longer control write is invalid */

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
 * @reset:     empty the type's statistics beyond its histograms when one
 *             of its histograms is reset (NULL: it has none); called in
 *             the reset's quiet period (struct lh_hist_reset_hook), so the
 *             probes that run meanwhile file nothing there as long as they
 *             file there only what a histogram took
 * @lines_show: print its <type>/lines (a histogram with LH_T_LINES)
 */
struct lh_switch_ops {
	const struct lh_probe *probes;
	int nr_probes;
	const char *missing;
	const char *(*prepare)(void);
	void (*clear)(void);
	void (*reset)(void);
	int (*lines_show)(struct seq_file *m);
};

extern const struct lh_switch_ops lh_wakeup_ops;
extern const struct lh_switch_ops lh_timer_ops;
extern const struct lh_switch_ops lh_preemptirq_ops;
extern const struct lh_switch_ops lh_switchtime_ops;
extern const struct lh_switch_ops lh_irq_ops;
extern const struct lh_switch_ops lh_softirq_ops;

/* The controls, in the order load-time parameters are applied. */
enum lh_ctl_id {
	LH_CTL_PID,		/* <switch>/pid, <switch>_pid */
	LH_CTL_THRESHOLD,	/* <type>/threshold, threshold_<type> */
	LH_CTL_OUTLIER,		/* <type>/outlier_us, outlier_<type> */
	LH_CTL_COUNTER_EVENTS,	/* counters/events, counter_events */
	LH_CTL_ENABLE,		/* enable/<switch>, enable_<switch> */
	LH_CTL_COUNTERS,	/* counters/enable, counters */
	LH_CTL_EXPLAIN,		/* explain/enable, explain */
	LH_CTL_RESET,		/* <type>/reset */
	LH_CTL_RESET_NAME,	/* reset=<type>|all */
	LH_NR_CTLS
};

#define LH_CTL_PARAM	BIT(0)	/* from a module parameter (sysfs holds its lock) */

int lh_ctl_write(enum lh_ctl_id ctl, int id, const char *text,
		 unsigned int flags);
int lh_ctl_read(enum lh_ctl_id ctl, int id, char *buf, size_t size,
		unsigned int flags);
size_t lh_ctl_write_max(enum lh_ctl_id ctl);
bool lh_ctl_readable(enum lh_ctl_id ctl);
int lh_parse_uint(const char *buf, u64 *val);

/* Written by control.c with its lock held, read locklessly by probes. */
extern bool lh_switch_on[LH_NR_SWITCHES];
extern pid_t lh_pid_filter[LH_NR_SWITCHES];
/* Per histogram: samples at or above stop tracing; S64_MAX while off. */
extern s64 lh_stop_us[LH_NR_HISTS];
DECLARE_STATIC_KEY_FALSE(lh_thresholds_on);

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
 * @sw: a switch that has one (LH_PID in LH_SWITCH_LIST)
 *
 * Context: any.
 * Return: the global thread id to follow, or 0 for no filter.
 */
static inline pid_t lh_pid(enum lh_switch_id sw)
{
	return READ_ONCE(lh_pid_filter[sw]);
}

int lh_types_check(void);
int lh_control_init(void);
int lh_control_start(void);
void lh_control_exit(void);

u64 lh_threshold_us(enum lh_hist_id id);
void lh_status_show(struct seq_file *m);

#endif /* LH_CONTROL_H */
