/* SPDX-License-Identifier: GPL-2.0 */
/*
 * types.h - the latency types of latency_hist, as data.
 *
 * The rows of type_list.h are the whole vocabulary: LH_SWITCH rows, the
 * files in enable/, and LH_HIST rows, the histograms they feed. Every other
 * place that needs to know the types derives from them, by defining
 * LH_SWITCH() and/or LH_HIST() and including type_list.h: the enums here,
 * the tables (types.c) from which the debugfs tree (debugfs.c), the
 * status file, the dependency rule and the unload order (control.c) and
 * the counters' windows (counters.c) follow, the module parameters
 * (params.c) and the trace events' type names (lh_trace.h). scripts/lh
 * and the selftests read the status file instead of repeating the lists.
 *
 * Adding a type is a row there plus its probes. Append rows: a histogram's
 * position is its number in the lh_sample trace event and its line in
 * status, and a switch may only need switches listed before it (checked at
 * load time), so enabling in list order and disabling in reverse order
 * always respects the dependencies. A new property of every type (a clock,
 * explain files) is a new column, filled in each row.
 */
#ifndef LH_TYPES_H
#define LH_TYPES_H

#include <linux/bits.h>
#include <linux/string.h>
#include <linux/types.h>

struct lh_switch_ops;

#define LH_WINDOW_SECTION	"the section"
#define LH_WINDOW_WAKEUP	\
	"from the later of the waking on this CPU and its last context switch, to the switch-in"
#define LH_WINDOW_TIMER		\
	"from this CPU's last context switch to the late expiry"

#define LH_T_MAX	BIT(0)	/* max_latency-CPUx files */
#define LH_T_EXPLAIN	BIT(1)	/* explain-CPUx files (explain.c) */
#define LH_T_LINES	BIT(2)	/* a lines file (ops->lines_show) */
#define LH_T_OUTLIER	BIT(3)	/* outlier_us, outliers-CPUx (outlier.c) */
#define LH_T_VIEWS	BIT(4)	/* views, tasks, cgroups (task_views.c) */
#define LH_TYPE_NAME_MAX	24	/* bytes of a histogram name, NUL included */

/* The files in enable/; one switch may drive several histograms. */
enum lh_switch_id {
#define LH_SWITCH(ID, ...)	LH_SW_##ID,
#include <latency_hist/type_list.h>
	LH_NR_SWITCHES
};

/* The histograms, in the order of the status file and the RT patch's enum. */
enum lh_hist_id {
#define LH_HIST(ID, ...)	LH_HIST_##ID,
#include <latency_hist/type_list.h>
	LH_NR_HISTS,
	LH_HIST_ROOT = LH_NR_HISTS	/* a parent: the latency_hist/ directory */
};

#define LH_NEED(ID)	BIT(LH_SW_##ID)

/* What a switch's windows are timed on (the clock column; clock.h). */
enum lh_clock_kind {
	LH_CLK_LOCAL,		/* both ends on one CPU */
	LH_CLK_CROSS,		/* the ends may be read on two CPUs */
	LH_CLK_TIMER,		/* the timer base's clock: expiry to now */
	LH_CLK_TIMER_CROSS,	/* a timer part plus a cross-CPU part */
};

/* struct lh_hist_type - one LH_HIST row */
struct lh_hist_type {
	const char *name;		/* its directory: kbasename(name) */
	const char *param;		/* threshold_<param> */
	enum lh_hist_id parent;
	enum lh_switch_id sw;
	unsigned long flags;
	const char *window;
};

/* struct lh_switch - one LH_SWITCH row */
struct lh_switch {
	const char *name;
	bool has_pid;
	unsigned long needs;		/* BIT(sw) of each switch it needs */
	const struct lh_switch_ops *ops;
	enum lh_clock_kind clock;
};

extern const struct lh_hist_type lh_hist_types[LH_NR_HISTS];
extern const struct lh_switch lh_switches[LH_NR_SWITCHES];

/**
 * lh_hist_has() - does a histogram have a flag of its LH_HIST row?
 * @id:   the histogram
 * @flag: LH_T_MAX, LH_T_EXPLAIN, LH_T_LINES or LH_T_OUTLIER
 *
 * Context: any.
 */
static inline bool lh_hist_has(enum lh_hist_id id, unsigned long flag)
{
	return lh_hist_types[id].flags & flag;
}

/**
 * lh_hist_holds_pid() - does a histogram's directory hold its switch's pid
 * filter? It lives in the directory named as the switch.
 * @id: the histogram
 *
 * Context: any.
 */
static inline bool lh_hist_holds_pid(enum lh_hist_id id)
{
	const struct lh_switch *sw = &lh_switches[lh_hist_types[id].sw];

	return sw->has_pid && !strcmp(sw->name, lh_hist_types[id].name);
}

#endif /* LH_TYPES_H */
