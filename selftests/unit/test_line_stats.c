// SPDX-License-Identifier: GPL-2.0
/*
 * test_line_stats.c - host-side unit tests of the per-line statistics and
 * their printer (module/line_stats.c), the format of irq/lines and
 * softirq/lines.
 *
 * Checks the percentiles of a line: on few samples, and on more samples
 * than a 64-bit rank formed as nr_samples * q holds (softirq/lines sums
 * every CPU's count of a vector, so a long run on many CPUs gets there).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <latency_hist/line_stats.h>

#include "ktap.h"

/* line_of - the printed line of @st, key 3, name "x"; the caller frees it */
static char *line_of(const struct lh_line_stats *st)
{
	struct seq_file m = { 0 };

	lh_line_stats_print(&m, 3, "x", st);
	return m.buf;
}

/*
 * two_heaps - @nr samples of @low_us and @nr of @high_us, as a line's
 * statistics after that many files (only the fields the printer reads)
 */
static void two_heaps(struct lh_line_stats *st, u64 nr, s64 low_us,
		      s64 high_us)
{
	lh_line_stats_clear(st);
	st->nr_samples = 2 * nr;
	st->sum_us = nr * low_us + nr * high_us;
	st->min_us = low_us;
	st->max_us = high_us;
	st->buckets[low_us] = nr;
	st->buckets[high_us] = nr;
}

/* test_line_percentiles_few - half at 1 us, half at 10 us: p99 is 10 */
static void test_line_percentiles_few(void)
{
	static struct lh_line_stats st;
	char *text;

	two_heaps(&st, 50, 1, 10);
	text = line_of(&st);
	check(!strcmp(text, "3 x 100 1 5.50 10 10 10 0 0 \n"),
	      "line percentiles: 50 samples at 1 us and 50 at 10 us print p99 and p99.9 10");
	free(text);
}

/*
 * test_line_percentiles_huge - 10^15 samples at 1 us and 10^15 at 10 us:
 * nr_samples * 9900 wraps at 2^64, and a rank formed so falls among the
 * 1 us samples
 */
static void test_line_percentiles_huge(void)
{
	static struct lh_line_stats st;
	char *text;

	two_heaps(&st, 1000000000000000ULL, 1, 10);
	text = line_of(&st);
	check(!strcmp(text, "3 x 2000000000000000 1 5.50 10 10 10 0 0 \n"),
	      "line percentiles: 2e15 samples, half at 10 us, print p99 and p99.9 10 (no wrapped rank)");
	if (strcmp(text, "3 x 2000000000000000 1 5.50 10 10 10 0 0 \n"))
		printf("# printed: %s", text);
	free(text);
}

void test_line_stats_run(void)
{
	test_line_percentiles_few();
	test_line_percentiles_huge();
}
