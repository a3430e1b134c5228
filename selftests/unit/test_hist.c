// SPDX-License-Identifier: GPL-2.0
/*
 * test_hist.c - host-side unit tests of the latency_hist histogram engine.
 *
 * Compiles module/hist.c and module/hist_print.c unchanged against the
 * user-space shim in shim/ and checks bucket math, bounds, min/max/mean, the
 * byte-exact text formats, the max record rules, and that concurrent
 * recording loses nothing.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <latency_hist/hist.h>

#include "ktap.h"

/* new_hist - a zeroed, initialised CPU histogram */
static struct lh_hist_cpu *new_hist(void)
{
	struct lh_hist_cpu *h = calloc(1, sizeof(*h));

	if (!h)
		abort();
	h->buckets = calloc(LH_NR_BUCKETS, sizeof(*h->buckets));
	if (!h->buckets)
		abort();
	lh_hist_cpu_init(h);
	return h;
}

/* reset_hist - a reset with no probe in flight: begin, then end */
static void reset_hist(struct lh_hist_cpu *h)
{
	lh_hist_cpu_reset_begin(h);
	lh_hist_cpu_reset_end(h);
}

/* free_hist - release what new_hist() allocated */
static void free_hist(struct lh_hist_cpu *h)
{
	free(h->buckets);
	free(h);
}

/* render - the whole CPUx file as the kernel prints it */
static char *render(struct lh_hist_cpu *h, size_t *len)
{
	static struct lh_hist_snapshot snap;
	struct lh_hist_stats stats;
	struct seq_file m = { 0 };
	long i;

	lh_hist_snapshot(h, &snap);
	lh_hist_stats(&snap, &stats);
	lh_hist_print_header(&m, &stats, &snap);
	for (i = 0; i < LH_NR_BUCKETS; i++)
		lh_hist_print_row(&m, i, snap.counts[i]);
	*len = m.len;
	return m.buf;
}

/* stats_of - derived values of a histogram */
static struct lh_hist_stats stats_of(struct lh_hist_cpu *h)
{
	static struct lh_hist_snapshot snap;
	struct lh_hist_stats stats;

	lh_hist_snapshot(h, &snap);
	lh_hist_stats(&snap, &stats);
	return stats;
}

/* header_of - only the seven header lines */
static char *header_of(struct lh_hist_cpu *h)
{
	static struct lh_hist_snapshot snap;
	struct lh_hist_stats stats;
	struct seq_file m = { 0 };

	lh_hist_snapshot(h, &snap);
	lh_hist_stats(&snap, &stats);
	lh_hist_print_header(&m, &stats, &snap);
	return m.buf;
}

static const char empty_header[] =
	"#Minimum latency: <undef> microseconds\n"
	"#Average latency: <undef> microseconds\n"
	"#Maximum latency: <undef> microseconds\n"
	"#Total samples: 0\n"
	"#There are 0 samples lower than 0 microseconds.\n"
	"#There are 0 samples greater or equal than 10240 microseconds.\n"
	"#usecs\t         samples\n";

/* test_empty_file - an empty histogram prints exactly the RT patch's text */
static void test_empty_file(void)
{
	struct lh_hist_cpu *h = new_hist();
	size_t len, hdr = strlen(empty_header);
	char *text = render(h, &len);
	int rows_ok = 1;
	long i;
	char row[64];
	const char *p = text + hdr;

	check(!strncmp(text, empty_header, hdr), "empty header is byte-exact");
	for (i = 0; i < LH_NR_BUCKETS && rows_ok; i++) {
		snprintf(row, sizeof(row), "%6ld\t%16d\n", i, 0);
		rows_ok = !strncmp(p, row, strlen(row));
		p += strlen(row);
	}
	check(rows_ok && (size_t)(p - text) == len,
	      "empty file has 10240 zero rows 0..10239 and nothing else");
	check(!strncmp(text + hdr, "     0\t               0\n", 24),
	      "row format is %6ld<TAB>%16llu");
	free(text);
	free_hist(h);
}

/* test_buckets - each sample lands in its microsecond, bounds go outside */
static void test_buckets(void)
{
	static struct lh_hist_snapshot snap;
	struct lh_hist_cpu *h = new_hist();

	lh_hist_record(h, 0);
	lh_hist_record(h, 1);
	lh_hist_record(h, 1);
	lh_hist_record(h, LH_NR_BUCKETS - 1);
	lh_hist_record(h, LH_NR_BUCKETS);
	lh_hist_record(h, -1);
	lh_hist_snapshot(h, &snap);
	check(snap.counts[0] == 1 && snap.counts[1] == 2 &&
	      snap.counts[LH_NR_BUCKETS - 1] == 1, "in-range samples counted in their bucket");
	check(snap.above.nr_samples == 1 && snap.below.nr_samples == 1,
	      "10240 counts as 'greater or equal', -1 as 'lower than 0'");
	check(strstr(header_of(h), "#There are 1 samples lower than 0 microseconds.\n") &&
	      strstr(header_of(h), "#There are 1 samples greater or equal than 10240 microseconds.\n"),
	      "bound counters appear in the header");
	free_hist(h);
}

/* test_stats - min, max and truncating mean over in- and out-of-range samples */
static void test_stats(void)
{
	struct lh_hist_cpu *h = new_hist();
	struct lh_hist_stats s;

	lh_hist_record(h, 3);
	lh_hist_record(h, 5);
	lh_hist_record(h, 10);
	s = stats_of(h);
	check(s.nr_samples == 3 && s.min_us == 3 && s.max_us == 10 && s.mean_us == 6,
	      "min 3, max 10, mean 6 of {3,5,10}");

	reset_hist(h);
	lh_hist_record(h, 1);
	lh_hist_record(h, 2);
	check(stats_of(h).mean_us == 1, "mean of {1,2} truncates to 1");

	reset_hist(h);
	lh_hist_record(h, -3);
	lh_hist_record(h, 0);
	s = stats_of(h);
	check(s.mean_us == -1 && s.min_us == -3 && s.max_us == 0,
	      "mean of {-3,0} truncates toward zero to -1; min counts below-range samples");

	reset_hist(h);
	lh_hist_record(h, 5);
	lh_hist_record(h, 20000);
	s = stats_of(h);
	check(s.max_us == 20000 && s.min_us == 5 && s.mean_us == 10002 && s.nr_samples == 2,
	      "out-of-range samples count in total, max and mean");
	check(strstr(header_of(h), "#Maximum latency: 20000 microseconds\n") &&
	      strstr(header_of(h), "#Average latency: 10002 microseconds\n") &&
	      strstr(header_of(h), "#Total samples: 2\n"), "header shows them");

	reset_hist(h);
	lh_hist_record(h, 30000);
	lh_hist_record(h, 12000);
	s = stats_of(h);
	check(s.min_us == 12000 && s.max_us == 30000, "only above-range samples: min and max from them");

	reset_hist(h);
	lh_hist_record(h, -7);
	s = stats_of(h);
	check(s.min_us == -7 && s.max_us == -7 && s.mean_us == -7, "only a below-range sample");
	free_hist(h);
}

/* test_reset - a reset forgets buckets, bounds and the max record */
static void test_reset(void)
{
	struct lh_hist_cpu *h = new_hist();
	struct lh_max_record rec = { .valid = true, .latency_us = 9 };
	size_t len;
	char *text;

	lh_hist_record(h, 9);
	lh_hist_record(h, -2);
	lh_hist_record(h, 99999);
	lh_hist_record_max(h, &rec);
	reset_hist(h);
	text = render(h, &len);
	check(!strncmp(text, empty_header, strlen(empty_header)), "reset gives the empty header");
	lh_hist_get_max(h, &rec);
	check(!rec.valid && lh_hist_beats_max(h, -1000000), "reset clears the max record");
	free(text);
	free_hist(h);
}

/* print_max - a max record as text */
static char *print_max(const struct lh_max_record *rec)
{
	struct seq_file m = { 0 };

	lh_hist_print_max(&m, rec);
	return m.buf;
}

/* test_max_record - strictly greater replaces; format and timestamp rounding */
static void test_max_record(void)
{
	struct lh_hist_cpu *h = new_hist();
	struct lh_max_record rec = {
		.valid = true, .latency_us = 486, .timeroffset_us = 0,
		.timestamp_ns = 4693747123ULL,
		.victim = { .pid = 19, .prio = 98, .comm = "rcu_preempt" },
		.culprit = { .pid = 0, .prio = 120, .comm = "swapper/0" },
	};
	struct lh_max_record got;

	lh_hist_get_max(h, &got);
	check(!strcmp(print_max(&got), "(none)\n"), "(none) before any sample");

	check(lh_hist_beats_max(h, 0), "any latency beats an empty record");
	lh_hist_record_max(h, &rec);
	lh_hist_get_max(h, &got);
	check(!strcmp(print_max(&got),
		      "19 1 486 (0) rcu_preempt <- 0 -21 swapper/0 4.693747\n"),
	      "record line: pid, 99-prio, latency, (timeroffset), comm <- culprit, s.us");

	rec.victim.pid = 77;
	check(!lh_hist_beats_max(h, 486), "an equal latency does not beat the record");
	lh_hist_record_max(h, &rec);
	lh_hist_get_max(h, &got);
	check(got.victim.pid == 19, "an equal latency keeps the older record");

	rec.latency_us = 487;
	rec.timestamp_ns = 999999500ULL;
	strcpy(rec.victim.comm, "bad\ncomm\x7f");
	lh_hist_record_max(h, &rec);
	lh_hist_get_max(h, &got);
	check(!strcmp(print_max(&got),
		      "77 1 487 (0) bad?comm? <- 0 -21 swapper/0 1.000000\n"),
	      "a greater latency replaces it; timestamp rounds to the microsecond; control chars masked");

	/* UTF-8 "caf\u00e9/\u00fc": bytes >= 0x80 pass whatever the signedness of char */
	strcpy(rec.victim.comm, "caf\xc3\xa9/\xc3\xbc");
	rec.latency_us = 488;
	lh_hist_record_max(h, &rec);
	lh_hist_get_max(h, &got);
	check(!strcmp(print_max(&got),
		      "77 1 488 (0) caf\xc3\xa9/\xc3\xbc <- 0 -21 swapper/0 1.000000\n"),
	      "comm bytes from 0x80 up print as they are, as on every architecture");
	free_hist(h);
}

/*
 * test_reset_race - between the two halves of a reset (the kernel waits for
 * the probes in flight there) a sample is not recorded at all: neither in
 * the rows nor as a max record, so no record names a sample the rows lost
 */
static void test_reset_race(void)
{
	struct lh_hist_cpu *h = new_hist();
	struct lh_max_record rec = { .valid = true, .latency_us = 500 };
	struct lh_max_record got;

	lh_hist_record(h, 7);
	lh_hist_cpu_reset_begin(h);
	check(!lh_hist_record(h, 500) && !lh_hist_record(h, 20000),
	      "no sample is recorded while a reset is under way");
	lh_hist_cpu_reset_end(h);
	lh_hist_get_max(h, &got);
	check(!got.valid && stats_of(h).nr_samples == 0,
	      "the reset empties what came before it; nothing of the samples during it remains");
	check(lh_hist_record(h, 500), "after the reset samples are recorded again");
	lh_hist_record_max(h, &rec);
	lh_hist_get_max(h, &got);
	check(got.valid && got.latency_us == 500 && stats_of(h).max_us == 500,
	      "and their max record matches the rows");
	free_hist(h);
}

#define NR_THREADS	4
#define NR_PER_THREAD	1000000

/* recorder - record NR_PER_THREAD samples spread over the buckets */
static void *recorder(void *arg)
{
	struct lh_hist_cpu *h = arg;
	long i;

	for (i = 0; i < NR_PER_THREAD; i++)
		lh_hist_record(h, i % (LH_NR_BUCKETS + 100) - 50);
	return NULL;
}

/* test_concurrency - concurrent recorders lose nothing; readers stay consistent */
static void test_concurrency(void)
{
	struct lh_hist_cpu *h = new_hist();
	pthread_t th[NR_THREADS];
	struct lh_hist_stats s;
	int i, consistent = 1, reads = 0;

	for (i = 0; i < NR_THREADS; i++)
		pthread_create(&th[i], NULL, recorder, h);
	while (reads < 200) {
		s = stats_of(h);
		if (s.nr_samples && !(s.min_us <= s.mean_us && s.mean_us <= s.max_us))
			consistent = 0;
		reads++;
	}
	for (i = 0; i < NR_THREADS; i++)
		pthread_join(th[i], NULL);
	s = stats_of(h);
	check(s.nr_samples == (u64)NR_THREADS * NR_PER_THREAD,
	      "4 threads x 1e6 concurrent samples: none lost");
	check(consistent, "readers during recording always see min <= mean <= max");
	check(s.min_us == -50 && s.max_us == LH_NR_BUCKETS + 49, "extremes kept under concurrency");
	free_hist(h);
}

/* summary_of - the summary line of a snapshot, as the kernel prints it */
static char *summary_of(const struct lh_hist_snapshot *snap, const char *cpu)
{
	struct lh_hist_summary sum;
	struct seq_file m = { 0 };

	lh_hist_summarize(snap, &sum);
	lh_hist_print_summary(&m, cpu, &sum);
	return m.buf;
}

/* test_summary - percentiles, mean, empty line, out-of-range ranks, merge */
static void test_summary(void)
{
	static struct lh_hist_snapshot snap, all;
	struct lh_hist_cpu *h = new_hist(), *h2 = new_hist();
	char *line;
	int i;

	lh_hist_snapshot(h, &snap);
	line = summary_of(&snap, "0");
	check(!strcmp(line, "0 0 - - - - - - - - 0 0\n"), "summary: an empty histogram prints dashes");
	free(line);

	/* 1..100 us once each: p50 = 50, p90 = 90, p99 = p99.9 = p99.99 = 100 */
	for (i = 1; i <= 100; i++)
		lh_hist_record(h, i);
	lh_hist_snapshot(h, &snap);
	line = summary_of(&snap, "3");
	check(!strcmp(line, "3 100 1 50.50 50 90 99 100 100 100 0 0\n"),
	      "summary: 1..100 us gives the ceil(q*N) ranks");
	free(line);

	/* 10000 samples: 9990 at 5 us, 9 at 700 us, 1 at 9000 us */
	reset_hist(h);
	for (i = 0; i < 9990; i++)
		lh_hist_record(h, 5);
	for (i = 0; i < 9; i++)
		lh_hist_record(h, 700);
	lh_hist_record(h, 9000);
	lh_hist_snapshot(h, &snap);
	line = summary_of(&snap, "1");
	check(!strcmp(line, "1 10000 5 6.53 5 5 5 5 700 9000 0 0\n"),
	      "summary: p99.99 is the 9999th sample, not the maximum");
	free(line);

	/* out of range: 1 below, 2 in range, 1 above; means round half away */
	reset_hist(h);
	lh_hist_record(h, -3);
	lh_hist_record(h, 2);
	lh_hist_record(h, 2);
	lh_hist_record(h, LH_NR_BUCKETS + 5);
	lh_hist_snapshot(h, &snap);
	line = summary_of(&snap, "0");
	check(!strcmp(line, "0 4 -3 2561.50 2 >=10240 >=10240 >=10240 >=10240 10245 1 1\n"),
	      "summary: ranks past the buckets print >=10240");
	free(line);
	reset_hist(h);
	lh_hist_record(h, -3);
	lh_hist_record(h, -1);
	lh_hist_record(h, 4);
	lh_hist_snapshot(h, &snap);
	line = summary_of(&snap, "0");
	check(!strcmp(line, "0 3 -3 0.00 <0 4 4 4 4 4 2 0\n"),
	      "summary: ranks among negative samples print <0");
	free(line);

	/* merge: "all" of two CPUs is the summary of the union */
	reset_hist(h);
	for (i = 1; i <= 50; i++)
		lh_hist_record(h, i);
	for (i = 51; i <= 100; i++)
		lh_hist_record(h2, i);
	lh_hist_record(h2, -7);
	lh_hist_snapshot_clear(&all);
	lh_hist_snapshot(h, &snap);
	lh_hist_merge(&all, &snap);
	lh_hist_snapshot(h2, &snap);
	lh_hist_merge(&all, &snap);
	line = summary_of(&all, "all");
	check(!strcmp(line, "all 101 -7 49.93 50 90 99 100 100 100 1 0\n"),
	      "summary: the all line merges CPUs, out-of-range samples included");
	free(line);
	free_hist(h);
	free_hist(h2);
}

/*
 * huge_summary - the summary line of @n samples: all but n / 1000 at 5 us,
 * the rest at 9000 us (0.1 %: p99.99 lies among them)
 */
static char *huge_summary(u64 n)
{
	static struct lh_hist_snapshot snap;

	lh_hist_snapshot_clear(&snap);
	snap.counts[5] = n - n / 1000;
	snap.counts[9000] = n / 1000;
	return summary_of(&snap, "all");
}

/*
 * test_huge_counts - weeks of irqsoff on a large machine: the rank
 * N * q wrapped above 1.8e15 samples and put p99.99 at 5 us
 */
static void test_huge_counts(void)
{
	char *line;

	/* mean = (5 * 1998e12 + 9000 * 2e12) / 2e15 = 13.995 */
	line = huge_summary(2000000000000000ULL);
	check(!strcmp(line, "all 2000000000000000 5 14.00 5 5 5 5 9000 9000 0 0\n"),
	      "summary: 2e15 samples, p99.99 is 9000 and the mean is exact");
	free(line);

	/* 2^63: n / 1000 = 9223372036854775; mean 5 + 8995 * 9223372036854775 / 2^63 */
	line = huge_summary(1ULL << 63);
	check(!strcmp(line, "all 9223372036854775808 5 13.99 5 5 5 5 9000 9000 0 0\n"),
	      "summary: 2^63 samples, percentiles and mean do not wrap");
	free(line);
}

/*
 * test_wide_counts - counts past 32 bits, as weeks of recording reach, are
 * kept and printed whole (a soak cannot get there under emulation)
 */
static void test_wide_counts(void)
{
	struct lh_hist_cpu *h = new_hist();
	struct lh_hist_stats s;
	char *text;
	size_t len;

	atomic64_set(&h->buckets[5], (1LL << 32) + 7);
	atomic64_set(&h->buckets[6], 1LL << 40);
	s = stats_of(h);
	check(s.nr_samples == (1ULL << 32) + 7 + (1ULL << 40) && s.min_us == 5 &&
	      s.max_us == 6 && s.mean_us == 5,
	      "counts past 2^32 sum, and the mean of 2^40 samples truncates right");
	text = render(h, &len);
	check(strstr(text, "#Total samples: 1103806595079\n") &&
	      strstr(text, "\n     5\t      4294967303\n") &&
	      strstr(text, "\n     6\t   1099511627776\n"),
	      "64-bit counts print whole in the header and the rows");
	free(text);
	free_hist(h);
}

/* rows_of - one CPU of a rows file */
static char *rows_of(const struct lh_hist_snapshot *snap, int cpu)
{
	struct seq_file m = { 0 };

	lh_hist_print_rows(&m, cpu, snap);
	return m.buf;
}

/*
 * test_rows - a rows file's CPU: the CPUx header values, the exact sum of
 * the samples in and out of range, and only the non-zero rows
 */
static void test_rows(void)
{
	static struct lh_hist_snapshot snap;
	struct lh_hist_cpu *h = new_hist();
	char *text;
	int i;

	lh_hist_snapshot(h, &snap);
	text = rows_of(&snap, 0);
	check(!strcmp(text, "CPU0 0 0 0 - - - 0\n"), "rows: an empty CPU is one line, sum 0");
	free(text);

	for (i = 0; i < 1000000; i++)
		lh_hist_record(h, 5);
	lh_hist_record(h, 12000);
	lh_hist_snapshot(h, &snap);
	text = rows_of(&snap, 3);
	check(!strcmp(text, "CPU3 1000001 0 1 5 5 12000 5012000\n5 1000000\n"),
	      "rows: the sum counts a sample above the range exactly");
	free(text);

	lh_hist_record(h, -7);
	lh_hist_snapshot(h, &snap);
	text = rows_of(&snap, 3);
	check(!strcmp(text, "CPU3 1000002 1 1 -7 5 12000 5011993\n5 1000000\n"),
	      "rows: a sample below 0 lowers the sum by its value");
	free(text);
	free_hist(h);

	lh_hist_snapshot_clear(&snap);
	snap.below.nr_samples = 1;
	snap.below.sum_us = -9;
	snap.below.min_us = -9;
	snap.below.max_us = -9;
	text = rows_of(&snap, 1);
	check(!strcmp(text, "CPU1 1 1 0 -9 -9 -9 -9\n"), "rows: a negative sum");
	free(text);

	/* (2^64 - 1) * (10239 + 10238) - 3: past 64 bits, exact */
	snap.below.sum_us = -3;
	snap.below.min_us = -3;
	snap.below.max_us = -3;
	snap.counts[10239] = ~0ULL;
	snap.counts[10238] = ~0ULL;
	text = rows_of(&snap, 1);
	check(!!strstr(text, " 377733978397350488420352\n10238 18446744073709551615\n"),
	      "rows: a sum past 2^64 prints exactly");
	free(text);
}

/* test_hist_run - every test of the histogram engine */
void test_hist_run(void)
{
	test_empty_file();
	test_buckets();
	test_stats();
	test_reset();
	test_max_record();
	test_reset_race();
	test_concurrency();
	test_summary();
	test_wide_counts();
	test_huge_counts();
	test_rows();
}
