// SPDX-License-Identifier: GPL-2.0
/*
 * hist_print.c - the text formats of the CPUx, max_latency-CPUx, rows and
 * summary files.
 *
 * The formats are byte-compatible with the final PREEMPT_RT latency_hist
 * (4.x-rt): seven header lines with "<undef>" for an empty histogram, then one
 * "%6ld\t%16llu" row per microsecond 0..10239, zeros included, so that the
 * seed document's `grep -v " 0$"` and existing OSADL scripts keep working.
 *
 * Compiled in user space by the unit tests as well.
 */
#include <linux/math64.h>
#include <linux/time64.h>

#include <latency_hist/hist.h>

/* lh_print_value - print one header value, or <undef> for an empty histogram */
static void lh_print_value(struct seq_file *m, const char *what,
			   const struct lh_hist_stats *stats, s64 value)
{
	if (stats->nr_samples)
		seq_printf(m, "#%s latency: %lld microseconds\n", what, value);
	else
		seq_printf(m, "#%s latency: <undef> microseconds\n", what);
}

/**
 * lh_hist_print_header() - print the seven header lines of a CPUx file
 * @m:     the seq_file
 * @stats: values derived from @snap
 * @snap:  the reader's copy (for the out-of-range counts)
 *
 * Context: process context.
 */
void lh_hist_print_header(struct seq_file *m,
			  const struct lh_hist_stats *stats,
			  const struct lh_hist_snapshot *snap)
{
	lh_print_value(m, "Minimum", stats, stats->min_us);
	lh_print_value(m, "Average", stats, stats->mean_us);
	lh_print_value(m, "Maximum", stats, stats->max_us);
	seq_printf(m, "#Total samples: %llu\n", stats->nr_samples);
	seq_printf(m, "#There are %llu samples lower than %ld microseconds.\n",
		   snap->below.nr_samples, 0L);
	seq_printf(m, "#There are %llu samples greater or equal than %ld microseconds.\n",
		   snap->above.nr_samples, (long)LH_NR_BUCKETS);
	seq_printf(m, "#usecs\t%16s\n", "samples");
}

/**
 * lh_hist_print_row() - print one bucket row of a CPUx file
 * @m:     the seq_file
 * @usecs: the bucket, in microseconds
 * @count: samples in it
 *
 * Context: process context.
 */
void lh_hist_print_row(struct seq_file *m, long usecs, u64 count)
{
	seq_printf(m, "%6ld\t%16llu\n", usecs, count);
}

/* lh_user_prio - the RT patch's priority convention: 99 - kernel prio */
static int lh_user_prio(int prio)
{
	return 99 - prio;
}

/**
 * lh_safe_comm() - copy a comm with control characters replaced by '?'
 * @dst: TASK_COMM_LEN bytes
 * @src: the comm, NUL-terminated within TASK_COMM_LEN
 *
 * Bytes are compared as unsigned, so the rule is the same where char is
 * signed (x86) and where it is not (arm64): only the ASCII control bytes
 * are replaced; bytes from 0x80 up pass as they are, so a UTF-8 thread name
 * prints as the kernel's own /proc/<pid>/comm shows it.
 *
 * Context: any.
 */
void lh_safe_comm(char *dst, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	int i;

	for (i = 0; i < TASK_COMM_LEN - 1 && s[i]; i++)
		dst[i] = (s[i] < 0x20 || s[i] == 0x7f) ? '?' : src[i];
	dst[i] = '\0';
}

/**
 * lh_hist_print_max() - print a max_latency-CPUx file
 * @m:   the seq_file
 * @rec: a copy of the record
 *
 * "(none)" before the first sample, else
 * "<pid> <prio> <latency> (<timeroffset>) <comm> <- <pid> <prio> <comm> <s.us>".
 *
 * Context: process context.
 */
void lh_hist_print_max(struct seq_file *m, const struct lh_max_record *rec)
{
	char victim[TASK_COMM_LEN], culprit[TASK_COMM_LEN];
	u64 usecs, secs;
	u32 rem_us;

	if (!rec->valid) {
		seq_puts(m, "(none)\n");
		return;
	}

	usecs = div_u64(rec->timestamp_ns + LH_NSEC_PER_USEC / 2,
			LH_NSEC_PER_USEC);
	secs = div_u64_rem(usecs, USEC_PER_SEC, &rem_us);
	lh_safe_comm(victim, rec->victim.comm);
	lh_safe_comm(culprit, rec->culprit.comm);
	seq_printf(m, "%d %d %lld (%lld) %s <- %d %d %s %llu.%06u\n",
		   rec->victim.pid, lh_user_prio(rec->victim.prio),
		   rec->latency_us, rec->timeroffset_us, victim,
		   rec->culprit.pid, lh_user_prio(rec->culprit.prio),
		   culprit, secs, rem_us);
}

/*
 * lh_print_u128 - print @hi * 2^64 + @lo in decimal: nine digits at a time,
 * dividing 32 bits at a time so that every step fits in a u64
 */
static void lh_print_u128(struct seq_file *m, u64 hi, u64 lo)
{
	u32 limb[4] = { hi >> 32, (u32)hi, lo >> 32, (u32)lo };
	u32 part[5];	/* 2^128 < 10^45: five parts of nine digits */
	int n = 0, i;
	u32 rem;

	while (hi && n < 5) {
		rem = 0;
		for (i = 0; i < 4; i++)
			limb[i] = div_u64_rem(((u64)rem << 32) | limb[i],
					      1000000000, &rem);
		part[n++] = rem;
		hi = ((u64)limb[0] << 32) | limb[1];
		lo = ((u64)limb[2] << 32) | limb[3];
	}
	seq_printf(m, "%llu", lo);
	while (n--)
		seq_printf(m, "%09u", part[n]);
}

/* lh_print_sum - print the exact sum of a snapshot, signed, in us */
static void lh_print_sum(struct seq_file *m, const struct lh_hist_sum *sum)
{
	if (!sum->hi && sum->lo < sum->neg) {
		seq_printf(m, " -%llu", sum->neg - sum->lo);
		return;
	}
	seq_putc(m, ' ');
	lh_print_u128(m, sum->hi - (sum->lo < sum->neg), sum->lo - sum->neg);
}

/**
 * lh_hist_print_rows_header() - print the first two lines of a rows file
 * @m: the seq_file
 *
 * The first line names the format and its version; a reader that finds
 * another version must not guess.
 *
 * Context: process context.
 */
void lh_hist_print_rows_header(struct seq_file *m)
{
	seq_puts(m, "#latency_hist rows 1\n");
	seq_puts(m, "#CPU total below above min mean max sum\n");
}

/**
 * lh_hist_print_rows() - print one CPU of a rows file
 * @m:    the seq_file
 * @cpu:  the CPU
 * @snap: its snapshot
 *
 * "CPU<n> <total> <below> <above> <min> <mean> <max> <sum>": the values of
 * the CPUx header (min, mean, max "-" without samples) and the exact sum of
 * the samples in us; then "<usecs> <count>" for each non-zero row, in
 * ascending order.
 *
 * Context: process context.
 */
void lh_hist_print_rows(struct seq_file *m, int cpu,
			const struct lh_hist_snapshot *snap)
{
	struct lh_hist_stats stats;
	struct lh_hist_sum sum;
	int i;

	lh_hist_stats(snap, &stats);
	lh_hist_sum(snap, &sum);
	seq_printf(m, "CPU%d %llu %llu %llu", cpu, stats.nr_samples,
		   snap->below.nr_samples, snap->above.nr_samples);
	if (stats.nr_samples)
		seq_printf(m, " %lld %lld %lld", stats.min_us, stats.mean_us,
			   stats.max_us);
	else
		seq_puts(m, " - - -");
	lh_print_sum(m, &sum);
	seq_putc(m, '\n');
	for (i = 0; i < LH_NR_BUCKETS; i++)
		if (snap->counts[i])
			seq_printf(m, "%d %llu\n", i, snap->counts[i]);
}

/**
 * lh_hist_print_summary_header() - print the first line of a summary file
 * @m: the seq_file
 *
 * Context: process context.
 */
void lh_hist_print_summary_header(struct seq_file *m)
{
	seq_puts(m, "#CPU samples min mean p50 p90 p99 p99.9 p99.99 max below above\n");
}

/* lh_print_pct - print one percentile field: a bucket, "<0" or ">=10240" */
static void lh_print_pct(struct seq_file *m, long pct_us)
{
	if (pct_us == LH_PCT_BELOW)
		seq_puts(m, " <0");
	else if (pct_us == LH_PCT_ABOVE)
		seq_printf(m, " >=%ld", (long)LH_NR_BUCKETS);
	else
		seq_printf(m, " %ld", pct_us);
}

/**
 * lh_hist_print_summary() - print one line of a summary file
 * @m:   the seq_file
 * @cpu: the first field: a CPU number or "all"
 * @sum: the summary of that CPU's (or every CPU's) snapshot
 *
 * "<cpu> <samples> <min> <mean> <p50> <p90> <p99> <p99.9> <p99.99> <max>
 * <below> <above>", the mean with two decimals; without samples min..max
 * are "-".
 *
 * Context: process context.
 */
void lh_hist_print_summary(struct seq_file *m, const char *cpu,
			   const struct lh_hist_summary *sum)
{
	s64 mean_cus = sum->stats.mean_cus;
	s64 mean_abs = mean_cus < 0 ? -mean_cus : mean_cus;
	u32 mean_frac;
	u64 mean_int;
	int q;

	seq_printf(m, "%s %llu", cpu, sum->stats.nr_samples);
	if (!sum->stats.nr_samples) {
		seq_puts(m, " - - - - - - - -");
	} else {
		mean_int = div_u64_rem(mean_abs, 100, &mean_frac);
		seq_printf(m, " %lld %s%llu.%02u", sum->stats.min_us,
			   mean_cus < 0 ? "-" : "", mean_int, mean_frac);
		for (q = 0; q < LH_NR_PCTS; q++)
			lh_print_pct(m, sum->pct_us[q]);
		seq_printf(m, " %lld", sum->stats.max_us);
	}
	seq_printf(m, " %llu %llu\n", sum->nr_below, sum->nr_above);
}
