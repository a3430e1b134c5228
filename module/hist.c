// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - record, reset and copy the per-CPU latency histograms.
 *
 * The data layout and its concurrency rules are described in
 * include/latency_hist/hist.h. In short: an in-range sample is one atomic
 * increment of its 1 us bucket; everything a reader shows is derived from a
 * copy of the buckets; rare data (samples outside 0..10239 us and the max
 * record) sits under a per-CPU raw spinlock.
 *
 * This file is also compiled in user space by the unit tests, so it may only
 * include what include/latency_hist/hist.h includes.
 */
#include <linux/math64.h>
#include <linux/string.h>

#include <latency_hist/hist.h>

/* lh_oor_clear - forget all out-of-range samples on one side */
static void lh_oor_clear(struct lh_oor *oor)
{
	oor->nr_samples = 0;
	oor->sum_us = 0;
	oor->min_us = S64_MAX;
	oor->max_us = S64_MIN;
}

/* lh_oor_add - account one out-of-range sample; caller holds the CPU lock */
static void lh_oor_add(struct lh_oor *oor, s64 lat_us)
{
	oor->nr_samples++;
	oor->sum_us += lat_us;
	if (lat_us < oor->min_us)
		oor->min_us = lat_us;
	if (lat_us > oor->max_us)
		oor->max_us = lat_us;
}

/* lh_max_clear - forget the max record; caller holds the CPU lock */
static void lh_max_clear(struct lh_hist_cpu *h)
{
	memset(&h->max, 0, sizeof(h->max));
	WRITE_ONCE(h->max_us, S64_MIN);
}

/**
 * lh_hist_cpu_init() - make a freshly allocated CPU histogram empty
 * @h: the CPU histogram, zero-filled by the allocator
 *
 * Context: process context, before the histogram is published to probes.
 */
void lh_hist_cpu_init(struct lh_hist_cpu *h)
{
	raw_spin_lock_init(&h->lock);
	lh_oor_clear(&h->below);
	lh_oor_clear(&h->above);
	lh_max_clear(h);
}

/**
 * lh_hist_cpu_reset() - empty one CPU histogram while probes may record into it
 * @h: the CPU histogram
 *
 * Buckets are cleared one atomic store at a time: a sample recorded
 * concurrently either lands before its bucket is cleared (and is forgotten
 * with the others) or after (and is kept). Interrupts stay enabled except for
 * the few stores under the lock, so a reset adds no latency of its own.
 *
 * Context: process context.
 */
void lh_hist_cpu_reset(struct lh_hist_cpu *h)
{
	unsigned long flags;
	int i;

	for (i = 0; i < LH_NR_BUCKETS; i++)
		atomic64_set(&h->buckets[i], 0);

	raw_spin_lock_irqsave(&h->lock, flags);
	lh_oor_clear(&h->below);
	lh_oor_clear(&h->above);
	lh_max_clear(h);
	raw_spin_unlock_irqrestore(&h->lock, flags);
}

/**
 * lh_hist_record_oor() - count one sample outside 0..10239 us
 * @h:      the histogram of the CPU the sample belongs to
 * @lat_us: the latency in microseconds, < 0 or >= LH_NR_BUCKETS
 *
 * The rare half of lh_hist_record(), out of line so that the common half
 * inlined into the probes stays a range check and one atomic increment.
 *
 * Context: any; takes the per-CPU raw lock.
 */
void lh_hist_record_oor(struct lh_hist_cpu *h, s64 lat_us)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&h->lock, flags);
	lh_oor_add(lat_us < 0 ? &h->below : &h->above, lat_us);
	raw_spin_unlock_irqrestore(&h->lock, flags);
}

/**
 * lh_hist_record_max() - replace the max record if @rec is strictly larger
 * @h:   the CPU histogram
 * @rec: a complete record (valid set) of the sample just recorded
 *
 * Equal latencies keep the older record, as in the RT patch.
 *
 * Context: any.
 */
void lh_hist_record_max(struct lh_hist_cpu *h, const struct lh_max_record *rec)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&h->lock, flags);
	if (rec->latency_us > h->max_us) {
		h->max = *rec;
		WRITE_ONCE(h->max_us, rec->latency_us);
	}
	raw_spin_unlock_irqrestore(&h->lock, flags);
}

/**
 * lh_hist_snapshot() - copy one CPU histogram for a reader
 * @h:    the CPU histogram, or NULL for a type that never recorded
 * @snap: where to put the copy
 *
 * Recording goes on meanwhile; the copy is a set of samples each of which is
 * either wholly in it or wholly absent, which is all the derived values need.
 *
 * Context: process context.
 */
void lh_hist_snapshot(struct lh_hist_cpu *h, struct lh_hist_snapshot *snap)
{
	unsigned long flags;
	int i;

	if (!h) {
		lh_hist_snapshot_clear(snap);
		return;
	}

	for (i = 0; i < LH_NR_BUCKETS; i++)
		snap->counts[i] = atomic64_read(&h->buckets[i]);

	raw_spin_lock_irqsave(&h->lock, flags);
	snap->below = h->below;
	snap->above = h->above;
	raw_spin_unlock_irqrestore(&h->lock, flags);
}

/**
 * lh_hist_get_max() - copy one CPU's max record without tearing it
 * @h:   the CPU histogram, or NULL for a type that never recorded
 * @rec: where to put the copy; @rec->valid is false when there is none
 *
 * Context: process context.
 */
void lh_hist_get_max(struct lh_hist_cpu *h, struct lh_max_record *rec)
{
	unsigned long flags;

	if (!h) {
		memset(rec, 0, sizeof(*rec));
		return;
	}

	raw_spin_lock_irqsave(&h->lock, flags);
	*rec = h->max;
	raw_spin_unlock_irqrestore(&h->lock, flags);
}

/**
 * lh_hist_stats() - derive total, min, max and mean from a snapshot
 * @snap:  a reader's copy
 * @stats: the result; min/max/mean are meaningful only if nr_samples > 0
 *
 * In-range samples are whole microseconds equal to their bucket index, so
 * their sum is exact; out-of-range samples carry their own sums, so the mean
 * covers every sample, as in the RT patch.
 *
 * Context: any.
 */
void lh_hist_stats(const struct lh_hist_snapshot *snap,
		   struct lh_hist_stats *stats)
{
	u64 nr = snap->below.nr_samples + snap->above.nr_samples;
	s64 sum_us = snap->below.sum_us + snap->above.sum_us;
	s64 first = -1, last = -1;
	int i;

	for (i = 0; i < LH_NR_BUCKETS; i++) {
		if (!snap->counts[i])
			continue;
		if (first < 0)
			first = i;
		last = i;
		nr += snap->counts[i];
		sum_us += (s64)snap->counts[i] * i;
	}

	stats->nr_samples = nr;
	stats->sum_us = sum_us;
	if (!nr) {
		stats->min_us = 0;
		stats->max_us = 0;
		stats->mean_us = 0;
		return;
	}

	if (snap->below.nr_samples)
		stats->min_us = snap->below.min_us;
	else if (first >= 0)
		stats->min_us = first;
	else
		stats->min_us = snap->above.min_us;

	if (snap->above.nr_samples)
		stats->max_us = snap->above.max_us;
	else if (last >= 0)
		stats->max_us = last;
	else
		stats->max_us = snap->below.max_us;

	stats->mean_us = div64_s64(sum_us, (s64)nr);
}

/**
 * lh_hist_snapshot_clear() - make a snapshot that holds no sample
 * @snap: the copy to empty
 *
 * Context: any.
 */
void lh_hist_snapshot_clear(struct lh_hist_snapshot *snap)
{
	memset(snap->counts, 0, sizeof(snap->counts));
	lh_oor_clear(&snap->below);
	lh_oor_clear(&snap->above);
}

/* lh_oor_merge - add the out-of-range samples of @from to @to */
static void lh_oor_merge(struct lh_oor *to, const struct lh_oor *from)
{
	if (!from->nr_samples)
		return;
	to->nr_samples += from->nr_samples;
	to->sum_us += from->sum_us;
	if (from->min_us < to->min_us)
		to->min_us = from->min_us;
	if (from->max_us > to->max_us)
		to->max_us = from->max_us;
}

/**
 * lh_hist_merge() - add one snapshot's samples to another (CPUs merged)
 * @acc:  the sum so far; start from lh_hist_snapshot_clear()
 * @snap: one CPU's copy
 *
 * Context: any.
 */
void lh_hist_merge(struct lh_hist_snapshot *acc,
		   const struct lh_hist_snapshot *snap)
{
	int i;

	for (i = 0; i < LH_NR_BUCKETS; i++)
		acc->counts[i] += snap->counts[i];
	lh_oor_merge(&acc->below, &snap->below);
	lh_oor_merge(&acc->above, &snap->above);
}

/* lh_div_round - @num / @den (den > 0) rounded to nearest, ties away from zero */
static s64 lh_div_round(s64 num, s64 den)
{
	if (num < 0)
		return -div64_s64(-num + den / 2, den);
	return div64_s64(num + den / 2, den);
}

/**
 * lh_hist_summarize() - derive a summary line from a snapshot
 * @snap: a reader's copy (one CPU, or several merged)
 * @sum:  the result
 *
 * The percentile q of N samples is the smallest bucket whose cumulative
 * count reaches the rank ceil(q * N), counting samples below 0 us first and
 * those at or above 10240 us last; a rank among those is reported as
 * LH_PCT_BELOW or LH_PCT_ABOVE. At 1 us resolution this is exact: every
 * in-range sample lies in [bucket, bucket + 1) us.
 *
 * Context: any.
 */
void lh_hist_summarize(const struct lh_hist_snapshot *snap,
		       struct lh_hist_summary *sum)
{
	static const u32 quantiles[LH_NR_PCTS] = LH_SUMMARY_QUANTILES;
	u64 rank, cum = snap->below.nr_samples;
	int i, q;

	lh_hist_stats(snap, &sum->stats);
	sum->nr_below = snap->below.nr_samples;
	sum->nr_above = snap->above.nr_samples;
	sum->mean_cus = 0;
	for (q = 0; q < LH_NR_PCTS; q++)
		sum->pct_us[q] = LH_PCT_ABOVE;
	if (!sum->stats.nr_samples)
		return;

	sum->mean_cus = lh_div_round(sum->stats.sum_us * 100,
				     (s64)sum->stats.nr_samples);

	/* Ranks grow with q, so one pass over the buckets serves all of them. */
	for (q = 0, i = 0; q < LH_NR_PCTS; q++) {
		rank = div_u64(sum->stats.nr_samples * quantiles[q] + 9999, 10000);
		if (rank <= snap->below.nr_samples) {
			sum->pct_us[q] = LH_PCT_BELOW;
			continue;
		}
		/* @cum counts the samples below bucket @i */
		while (i < LH_NR_BUCKETS && cum + snap->counts[i] < rank)
			cum += snap->counts[i++];
		if (i == LH_NR_BUCKETS)
			break;	/* this rank and the later ones are >= 10240 us */
		sum->pct_us[q] = i;
	}
}
