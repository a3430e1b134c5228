/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - the per-CPU latency histogram engine of latency_hist.
 *
 * One histogram type (wakeup, irqsoff, ...) owns one struct lh_hist_cpu per
 * possible CPU: 10240 buckets of 1 us each, plus the samples that fall outside
 * 0..10239 us and the record of the largest sample (victim and culprit).
 *
 * Concurrency rules, which every later change must keep:
 *  - A bucket is one atomic64_t, so recording an in-range sample is a single
 *    atomic increment: safe from any context (preemptible, hard irq, nested)
 *    and against a reset running on another CPU. Nothing else is written.
 *  - Total, minimum, maximum and mean are not stored; a reader derives them
 *    from its own copy of the buckets, so they always agree with the rows it
 *    prints (sum of rows + below + above == total, min <= mean <= max).
 *  - Out-of-range samples and the max record are rare; they live under a
 *    per-CPU arch spinlock (never a global one), which readers take only to
 *    copy them. It is an arch_spinlock_t taken with raw interrupt
 *    disabling, not a raw_spinlock_t: the critical-section probes call the
 *    engine with interrupts off behind lockdep's back (preemptirq.c), where
 *    a traced irqsave/irqrestore pair would leave lockdep and the preemptirq
 *    tracepoints believing interrupts stayed off. It is held for a few
 *    stores and never nests.
 *  - A reset stops recording into the histogram, waits for the probes in
 *    flight, empties it and lets recording go on (lh_hist_cpu_reset_begin()
 *    and _end()): every sample is wholly before it or wholly after it, and
 *    the max record never names a sample the rows do not hold. Samples of
 *    the few milliseconds a reset takes are not recorded.
 *  - Readers never pause recording.
 *
 * This file and hist.c/hist_print.c build in user space too (selftests/unit),
 * so they use only the small set of kernel headers that the unit-test shim
 * provides.
 */
#ifndef LH_HIST_H
#define LH_HIST_H

#include <asm/barrier.h>
#include <linux/atomic.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/types.h>

#define LH_NR_BUCKETS		10240	/* 1 us per bucket: 0..10239 us */
#define LH_HIST_BUCKETS_BYTES	(LH_NR_BUCKETS * sizeof(atomic64_t))	/* 80 KiB */
#define LH_NSEC_PER_USEC	1000L

/* struct lh_oor - samples on one side outside 0..LH_NR_BUCKETS-1 us */
struct lh_oor {
	u64 nr_samples;
	s64 sum_us;
	s64 min_us;
	s64 max_us;
};

/* struct lh_task_info - what a max record keeps of a task: copies, no pointer */
struct lh_task_info {
	pid_t pid;
	int prio;		/* kernel prio; printed as 99 - prio */
	char comm[TASK_COMM_LEN];
};

/**
 * lh_task_info_fill() - copy what a max record keeps of a task
 * @info: the copy
 * @t:    the task, alive
 *
 * Context: any.
 */
static __always_inline void lh_task_info_fill(struct lh_task_info *info,
					      struct task_struct *t)
{
	info->pid = t->pid;
	info->prio = t->prio;
	/* comm is always NUL-padded; a racing rename cannot unterminate it */
	memcpy(info->comm, t->comm, TASK_COMM_LEN);
	info->comm[TASK_COMM_LEN - 1] = '\0';
}

/* struct lh_max_record - the sample with the largest latency on one CPU */
struct lh_max_record {
	bool valid;
	s64 latency_us;
	s64 timeroffset_us;	/* timer part of the latency, 0 for wakeup */
	u64 timestamp_ns;	/* CLOCK_MONOTONIC at the end of the window */
	struct lh_task_info victim;	/* the task that waited */
	struct lh_task_info culprit;	/* the task that ran meanwhile */
};

/*
 * struct lh_hist_cpu - one CPU's histogram of one latency type
 * @buckets: LH_NR_BUCKETS counters in an allocation of their own, exactly
 *           LH_HIST_BUCKETS_BYTES, so the allocator adds nothing to them
 */
struct lh_hist_cpu {
	atomic64_t *buckets;
	bool resetting;		/* no recording: a reset is emptying the histogram */
	/*
	 * @max_us mirrors @max.latency_us for a lockless "is it a new max?"
	 * test: an atomic64_t, because on 32-bit a plain s64 is two loads,
	 * and a read between the two stores of a change (-2 to 7) can see a
	 * value above both (4294967294) and miss a new max. On 64-bit its
	 * read and set are plain accesses.
	 */
	atomic64_t max_us;
	arch_spinlock_t lock;	/* guards the rest, and writes of @max_us */
	struct lh_oor below;
	struct lh_oor above;
	struct lh_max_record max;
	/*
	 * Samples filed here with no lh_sample event while one was wanted:
	 * a critical section that closed inside the module's own emission
	 * (preemptirq.c). Emptied by a reset with the rows; status sums it.
	 */
	atomic_long_t untraced;
};

/* struct lh_hist_snapshot - a reader's private copy of one lh_hist_cpu */
struct lh_hist_snapshot {
	u64 counts[LH_NR_BUCKETS];
	struct lh_oor below;
	struct lh_oor above;
};

/*
 * struct lh_hist_sum - the exact sum of a snapshot's samples, in us:
 * @hi * 2^64 + @lo - @neg. In-range samples alone can reach 10239 * 2^64,
 * beyond any 64-bit integer, so the sum is kept in 128 bits (two u64, not
 * u128, which 32-bit kernels lack); @neg is minus the samples below 0.
 * Exact as long as struct lh_oor's own s64 sums are, which is the engine's
 * bound: 2^63 us (292 000 years) of out-of-range latency per CPU.
 */
struct lh_hist_sum {
	u64 lo;
	u64 hi;
	u64 neg;
};

/*
 * struct lh_hist_stats - what the header lines of a CPUx file show
 * @mean_us:  truncated toward zero, as the RT patch did
 * @mean_cus: the mean in hundredths of a microsecond, rounded to nearest
 *            (ties away from zero)
 * Both means are exact for any count that fits in 64 bits: the sum of the
 * samples is never formed (it would overflow at about 2^63 / 10240
 * samples), each bucket's share is divided by the total separately.
 */
struct lh_hist_stats {
	u64 nr_samples;
	s64 min_us;
	s64 max_us;
	s64 mean_us;
	s64 mean_cus;
};

/* The percentiles of a summary line, in ten-thousandths (q = 0.5 ... 0.9999). */
#define LH_SUMMARY_QUANTILES	{ 5000, 9000, 9900, 9990, 9999 }
#define LH_NR_PCTS		5
#define LH_PCT_BELOW		(-1L)		/* the rank is a sample < 0 us */
#define LH_PCT_ABOVE		((long)LH_NR_BUCKETS)	/* ... a sample >= 10240 us */

/*
 * struct lh_hist_summary - what one line of a summary file shows
 * @pct_us: the bucket of each percentile, or LH_PCT_BELOW / LH_PCT_ABOVE
 * The rest as in struct lh_hist_stats; all meaningful only if nr_samples > 0.
 */
struct lh_hist_summary {
	struct lh_hist_stats stats;
	long pct_us[LH_NR_PCTS];
	u64 nr_below;
	u64 nr_above;
};

void lh_hist_cpu_init(struct lh_hist_cpu *h);
void lh_hist_cpu_reset_begin(struct lh_hist_cpu *h);
void lh_hist_cpu_reset_end(struct lh_hist_cpu *h);
void lh_hist_record_oor(struct lh_hist_cpu *h, s64 lat_us);
void lh_hist_record_max(struct lh_hist_cpu *h, const struct lh_max_record *rec);
s64 lh_hist_largest_us(struct lh_hist_cpu *h);
void lh_hist_snapshot(struct lh_hist_cpu *h, struct lh_hist_snapshot *snap);
void lh_hist_get_max(struct lh_hist_cpu *h, struct lh_max_record *rec);
void lh_hist_stats(const struct lh_hist_snapshot *snap,
		   struct lh_hist_stats *stats);
void lh_hist_sum(const struct lh_hist_snapshot *snap, struct lh_hist_sum *sum);
void lh_hist_snapshot_clear(struct lh_hist_snapshot *snap);
void lh_hist_merge(struct lh_hist_snapshot *acc,
		   const struct lh_hist_snapshot *snap);
void lh_hist_summarize(const struct lh_hist_snapshot *snap,
		       struct lh_hist_summary *sum);

/**
 * lh_rank() - the rank of a quantile among some samples
 * @nr: the number of samples
 * @q:  the quantile, in ten-thousandths
 *
 * ceil(@nr * @q / 10000), without forming @nr * @q, which wraps above
 * 1.8e15 samples. For every percentile this module prints (CPUx summaries,
 * the lines of irq/lines and softirq/lines).
 *
 * Context: any.
 * Return: the rank, 1-based (0 for no samples).
 */
static inline u64 lh_rank(u64 nr, u32 q)
{
	u32 rem;
	u64 whole = div_u64_rem(nr, 10000, &rem);

	/* whole * q <= nr * q / 10000 < nr; rem * q < 10^8 */
	return whole * q + (rem * q + 9999) / 10000;
}

/**
 * lh_hist_record() - count one latency sample
 * @h:      the histogram of the CPU the sample belongs to
 * @lat_us: the latency in microseconds; negative values count as "lower than 0"
 *
 * Inline: it runs in every probe that records (the benchmark of issue 8
 * counts each instruction of the wakeup path).
 *
 * Context: any, including hard interrupt and preemptible probe context.
 * Takes the per-CPU lock only for a sample outside 0..10239 us.
 * Return: false if a reset is emptying @h: the sample is not recorded, and
 * must not become a max record either.
 */
static inline bool lh_hist_record(struct lh_hist_cpu *h, s64 lat_us)
{
	/* Pairs with smp_store_release() in lh_hist_cpu_reset_end(). */
	if (unlikely(smp_load_acquire(&h->resetting)))
		return false;
	if (likely(lat_us >= 0 && lat_us < LH_NR_BUCKETS)) {
		atomic64_inc(&h->buckets[lat_us]);
		return true;
	}
	lh_hist_record_oor(h, lat_us);
	return true;
}

/**
 * lh_hist_count() - lh_hist_record() of a latency the caller has checked
 * is in 0..10239 us: calls nothing
 * @h:      the histogram of the CPU the sample belongs to
 * @lat_us: the latency in microseconds, < LH_NR_BUCKETS
 *
 * Context: any.
 * Return: false if a reset is emptying @h (not counted).
 */
static __always_inline bool lh_hist_count(struct lh_hist_cpu *h, u64 lat_us)
{
	/* Pairs with smp_store_release() in lh_hist_cpu_reset_end(). */
	if (unlikely(smp_load_acquire(&h->resetting)))
		return false;
	atomic64_inc(&h->buckets[lat_us]);
	return true;
}

/**
 * lh_hist_max_us() - the latency of the CPU's max record, read without its
 * lock and never torn
 * @h: the CPU histogram
 *
 * Context: any.
 * Return: the latency in microseconds, S64_MIN while there is no record.
 */
static __always_inline s64 lh_hist_max_us(struct lh_hist_cpu *h)
{
	return atomic64_read(&h->max_us);
}

/**
 * lh_hist_beats_max() - would this latency replace the CPU's max record?
 * @h:      the CPU histogram
 * @lat_us: a latency in microseconds
 *
 * A lockless first test so that probes copy task details only for a new
 * maximum; lh_hist_record_max() tests again under the lock.
 *
 * Context: any.
 * Return: true if @lat_us is strictly greater than the recorded maximum.
 */
static inline bool lh_hist_beats_max(struct lh_hist_cpu *h, s64 lat_us)
{
	return lat_us > lh_hist_max_us(h);
}

void lh_hist_print_header(struct seq_file *m,
			  const struct lh_hist_stats *stats,
			  const struct lh_hist_snapshot *snap);
void lh_hist_print_row(struct seq_file *m, long usecs, u64 count);
void lh_safe_comm(char *dst, const char *src);
void lh_hist_print_max(struct seq_file *m, const struct lh_max_record *rec);
void lh_hist_print_rows_header(struct seq_file *m);
void lh_hist_print_rows(struct seq_file *m, int cpu,
			const struct lh_hist_snapshot *snap);
void lh_hist_print_summary_header(struct seq_file *m);
void lh_hist_print_summary(struct seq_file *m, const char *cpu,
			   const struct lh_hist_summary *sum);

#endif /* LH_HIST_H */
