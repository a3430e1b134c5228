// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - record, reset and copy the per-CPU latency histograms.
 *
 * The data layout and its concurrency rules are described in
 * include/latency_hist/hist.h. In short: an in-range sample is one atomic
 * increment of its 1 us bucket; everything a reader shows is derived from a
 * copy of the buckets; rare data (samples outside 0..10239 us and the max
 * record) sits under a per-CPU arch spinlock.
 *
 * This file is also compiled in user space by the unit tests, so it may only
 * include what include/latency_hist/hist.h includes.
 */
#include <linux/irqflags.h>
#include <linux/math64.h>
#include <linux/string.h>

#include <latency_hist/hist.h>

/*
 * lh_hist_lock - take @h's lock, interrupts off without tracing them (see
 * hist.h: the critical-section probes run this behind lockdep's back)
 */
static unsigned long lh_hist_lock(struct lh_hist_cpu *h)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	arch_spin_lock(&h->lock);
	return flags;
}

/* lh_hist_unlock - release what lh_hist_lock() took */
static void lh_hist_unlock(struct lh_hist_cpu *h, unsigned long flags)
{
	arch_spin_unlock(&h->lock);
	raw_local_irq_restore(flags);
}

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
	atomic64_set(&h->max_us, S64_MIN);
}

/**
 * lh_hist_cpu_init() - make a freshly allocated CPU histogram empty
 * @h: the CPU histogram, zero-filled by the allocator
 *
 * Context: process context, before the histogram is published to probes.
 */
void lh_hist_cpu_init(struct lh_hist_cpu *h)
{
	h->lock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
	lh_oor_clear(&h->below);
	lh_oor_clear(&h->above);
	lh_max_clear(h);
}

/**
 * lh_hist_cpu_reset_begin() - stop recording into one CPU histogram, to
 * empty it
 * @h: the CPU histogram
 *
 * A probe that starts after this records nothing into @h (neither its rows
 * nor its max record) until lh_hist_cpu_reset_end(). The caller must wait
 * for the probes already running (tracepoint_synchronize_unregister())
 * before it calls lh_hist_cpu_reset_end(): then a reset is exact, every
 * sample is either wholly before it (gone, max record included) or wholly
 * after it, and the max record never names a sample the rows do not hold.
 *
 * Context: process context.
 */
void lh_hist_cpu_reset_begin(struct lh_hist_cpu *h)
{
	WRITE_ONCE(h->resetting, true);
}

/**
 * lh_hist_cpu_reset_end() - empty one CPU histogram and record again
 * @h: the CPU histogram, after lh_hist_cpu_reset_begin() and a wait for the
 *     probes that were running then
 *
 * Interrupts stay enabled except for the few stores under the lock, so a
 * reset adds no latency of its own.
 *
 * Context: process context.
 */
void lh_hist_cpu_reset_end(struct lh_hist_cpu *h)
{
	unsigned long flags;
	int i;

	for (i = 0; i < LH_NR_BUCKETS; i++)
		atomic64_set(&h->buckets[i], 0);

	flags = lh_hist_lock(h);
	lh_oor_clear(&h->below);
	lh_oor_clear(&h->above);
	lh_max_clear(h);
	lh_hist_unlock(h, flags);
	atomic_long_set(&h->untraced, 0);
	/* Pairs with smp_load_acquire() in lh_hist_record(). */
	smp_store_release(&h->resetting, false);
}

/**
 * lh_hist_record_oor() - count one sample outside 0..10239 us
 * @h:      the histogram of the CPU the sample belongs to
 * @lat_us: the latency in microseconds, < 0 or >= LH_NR_BUCKETS
 *
 * The rare half of lh_hist_record(), out of line so that the common half
 * inlined into the probes stays a range check and one atomic increment.
 *
 * Context: any; takes the per-CPU lock.
 */
void lh_hist_record_oor(struct lh_hist_cpu *h, s64 lat_us)
{
	unsigned long flags;

	flags = lh_hist_lock(h);
	lh_oor_add(lat_us < 0 ? &h->below : &h->above, lat_us);
	lh_hist_unlock(h, flags);
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

	flags = lh_hist_lock(h);
	if (rec->latency_us > lh_hist_max_us(h)) {
		h->max = *rec;
		atomic64_set(&h->max_us, rec->latency_us);
	}
	lh_hist_unlock(h, flags);
}

/**
 * lh_hist_largest_us() - the largest sample a CPU histogram holds now
 * @h: the CPU histogram, or NULL for a type that never recorded
 *
 * For the types that keep no max record (the critical sections), read from
 * the buckets and the out-of-range sides; a sample counted meanwhile may
 * or may not be seen.
 *
 * Context: process context.
 * Return: the maximum in us, S64_MIN if the histogram is empty.
 */
s64 lh_hist_largest_us(struct lh_hist_cpu *h)
{
	struct lh_oor below, above;
	unsigned long flags;
	int i;

	if (!h)
		return S64_MIN;
	flags = lh_hist_lock(h);
	below = h->below;
	above = h->above;
	lh_hist_unlock(h, flags);
	if (above.nr_samples)
		return above.max_us;
	for (i = LH_NR_BUCKETS - 1; i >= 0; i--) {
		if (atomic64_read(&h->buckets[i]))
			return i;
	}
	return below.nr_samples ? below.max_us : S64_MIN;
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

	flags = lh_hist_lock(h);
	snap->below = h->below;
	snap->above = h->above;
	lh_hist_unlock(h, flags);
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

	flags = lh_hist_lock(h);
	*rec = h->max;
	lh_hist_unlock(h, flags);
}

/*
 * struct lh_quot - a non-negative sum divided by a fixed count n, kept
 * exactly as @whole + @rem / n with @rem < n
 */
struct lh_quot {
	u64 whole;
	u64 rem;
};

/* lh_quot_add - add @a * @b / @n to @q, exactly; the whole part must fit in 64 bits */
static void lh_quot_add(struct lh_quot *q, u64 a, u64 b, u64 n)
{
	u64 whole = mul_u64_u64_div_u64(a, b, n);
	/* the true remainder is below n, so 64-bit wrapping leaves it exact */
	u64 rem = a * b - whole * n;

	q->whole += whole;
	if (rem >= n - q->rem) {
		q->rem = rem - (n - q->rem);
		q->whole++;
	} else {
		q->rem += rem;
	}
}

/*
 * lh_hist_means - the mean of @nr samples whose non-negative part is @q
 * (already divided by @nr) and whose negative part sums to @neg_us (<= 0):
 * truncated toward zero in us, and rounded to nearest (ties away from
 * zero) in hundredths of a us
 */
static void lh_hist_means(struct lh_quot q, s64 neg_us, u64 nr,
			  struct lh_hist_stats *stats)
{
	u64 neg_rem, frac_rem, frac;
	s64 whole;

	/* Subtract the negative part: whole + rem / nr, 0 <= rem < nr (floor). */
	whole = (s64)q.whole - (s64)div64_u64_rem(-(u64)neg_us, nr, &neg_rem);
	if (neg_rem > q.rem) {
		whole--;
		q.rem += nr - neg_rem;
	} else {
		q.rem -= neg_rem;
	}

	stats->mean_us = whole < 0 && q.rem ? whole + 1 : whole;

	/* hundredths: whole * 100 + frac + frac_rem / nr */
	frac = mul_u64_u64_div_u64(q.rem, 100, nr);
	frac_rem = q.rem * 100 - frac * nr;
	if (whole >= 0) {
		stats->mean_cus = whole * 100 + frac +
				  (frac_rem >= nr - frac_rem ? 1 : 0);
	} else {
		/* -mean * 100 = (-(whole * 100 + frac) - 1) + (nr - frac_rem) / nr */
		s64 abs_cus = -(whole * 100 + (s64)frac);

		if (frac_rem)
			abs_cus += (nr - frac_rem >= frac_rem ? 0 : -1);
		stats->mean_cus = -abs_cus;
	}
}

/**
 * lh_hist_stats() - derive total, min, max and means from a snapshot
 * @snap:  a reader's copy
 * @stats: the result; min/max/means are meaningful only if nr_samples > 0
 *
 * In-range samples are whole microseconds equal to their bucket index, so
 * their mean is exact; out-of-range samples carry their own sums, so the
 * mean covers every sample, as in the RT patch.
 *
 * Context: any.
 */
void lh_hist_stats(const struct lh_hist_snapshot *snap,
		   struct lh_hist_stats *stats)
{
	u64 nr = snap->below.nr_samples + snap->above.nr_samples;
	struct lh_quot q = { 0, 0 };
	s64 first = -1, last = -1;
	int i;

	for (i = 0; i < LH_NR_BUCKETS; i++) {
		if (!snap->counts[i])
			continue;
		if (first < 0)
			first = i;
		last = i;
		nr += snap->counts[i];
	}

	stats->nr_samples = nr;
	if (!nr) {
		stats->min_us = 0;
		stats->max_us = 0;
		stats->mean_us = 0;
		stats->mean_cus = 0;
		return;
	}

	for (i = first; i >= 0 && i <= last; i++) {
		if (snap->counts[i])
			lh_quot_add(&q, snap->counts[i], i, nr);
	}
	if (snap->above.nr_samples)
		lh_quot_add(&q, snap->above.sum_us, 1, nr);
	lh_hist_means(q, snap->below.nr_samples ? snap->below.sum_us : 0, nr,
		      stats);

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
}

/* lh_sum_add - add @us to the non-negative part of @sum, carrying into @hi */
static void lh_sum_add(struct lh_hist_sum *sum, u64 us)
{
	sum->lo += us;
	if (sum->lo < us)
		sum->hi++;
}

/**
 * lh_hist_sum() - the exact sum of the samples of a snapshot
 * @snap: the reader's copy
 * @sum:  where to put it (struct lh_hist_sum says how it is kept)
 *
 * A bucket's share, usecs * count, is formed in two halves of the count:
 * each product is below 2^14 * 2^32, so none overflows.
 *
 * Context: any.
 */
void lh_hist_sum(const struct lh_hist_snapshot *snap, struct lh_hist_sum *sum)
{
	u64 high;
	int i;

	sum->lo = 0;
	sum->hi = 0;
	for (i = 1; i < LH_NR_BUCKETS; i++) {
		if (!snap->counts[i])
			continue;
		lh_sum_add(sum, (u64)i * (u32)snap->counts[i]);
		high = (u64)i * (snap->counts[i] >> 32);
		sum->hi += high >> 32;
		lh_sum_add(sum, high << 32);
	}
	lh_sum_add(sum, snap->above.sum_us);
	sum->neg = -(u64)snap->below.sum_us;
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
	for (q = 0; q < LH_NR_PCTS; q++)
		sum->pct_us[q] = LH_PCT_ABOVE;
	if (!sum->stats.nr_samples)
		return;

	/* Ranks grow with q, so one pass over the buckets serves all of them. */
	for (q = 0, i = 0; q < LH_NR_PCTS; q++) {
		rank = lh_rank(sum->stats.nr_samples, quantiles[q]);
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
