/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outlier_priv.h - what outlier.c (the budgets, the logs, the filing:
 * probe context) and outlier_print.c (the outliers-CPUx files: read
 * context) share.
 */
#ifndef LH_OUTLIER_PRIV_H
#define LH_OUTLIER_PRIV_H

#include <linux/spinlock.h>
#include <linux/types.h>

#include <latency_hist/explain_priv.h>
#include <latency_hist/hist.h>

#define LH_O_RECS	1024	/* records per CPU and type */
#define LH_O_DETAILS	8	/* detail lines a record keeps: the longest */
#define LH_O_UNEXPLAINED	LH_XC_NR	/* the cause of a record without one */

/* struct lh_o_detail - one top-level detail line of a record (lh_x_detail) */
struct lh_o_detail {
	u64 ns;
	s32 id;
	s32 prio;
	u32 count;
	u8 kind;
	char name[LH_X_NAME];
};

/*
 * struct lh_o_rec - one outlier
 * @seq:          its number, per CPU and type
 * @time_ns:      CLOCK_MONOTONIC at the end of its window
 * @lat_us:       its latency
 * @window_ns:    its window, which @cat_ns add up to
 * @cat_ns:       the categories of explain (enum lh_x_cat)
 * @cause:        the largest category, or LH_O_UNEXPLAINED
 * @cause_detail: the index in @d of the largest detail line of the largest
 *                category, -1: none (nmi, or no breakdown)
 * @nr_details:   the detail lines kept in @d
 * @more:         the top-level detail lines of the breakdown not kept
 */
struct lh_o_rec {
	u64 seq;
	u64 time_ns;
	s64 lat_us;
	u64 window_ns;
	u64 cat_ns[LH_XC_NR];
	struct lh_task_info victim;
	struct lh_task_info culprit;
	u8 cause;
	s8 cause_detail;
	u8 nr_details;
	u8 more;
	struct lh_o_detail d[LH_O_DETAILS];
};

/*
 * struct lh_o_log - one CPU's log of one type: a ring of the latest
 * LH_O_RECS records; all under @lock (taken with interrupts off, by the
 * filing on its CPU and by readers)
 * @filed:       outliers filed since the last reset
 * @dropped:     of them, the oldest records a full log dropped
 * @unexplained: of them, the ones without cause
 * @first_seq:   the number of the oldest record held
 * @head:        its slot
 * @nr:          the records held (kept)
 */
struct lh_o_log {
	arch_spinlock_t lock;
	u64 filed;
	u64 dropped;
	u64 unexplained;
	u64 first_seq;
	u32 head;
	u32 nr;
	struct lh_o_rec rec[LH_O_RECS];
};

/* struct lh_o_head - a reader's copy of a log's counters */
struct lh_o_head {
	u64 filed;
	u64 dropped;
	u64 unexplained;
	u64 kept;
	u64 first_seq;
};

struct lh_o_log *lh_o_log(enum lh_hist_id id, int cpu);
void lh_o_log_get(struct lh_o_log *log, struct lh_o_head *head);
int lh_o_rec_get(struct lh_o_log *log, u64 seq, struct lh_o_rec *rec);
void lh_o_lock_readers(void);
void lh_o_unlock_readers(void);

#endif /* LH_OUTLIER_PRIV_H */
