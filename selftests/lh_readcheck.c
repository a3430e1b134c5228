// SPDX-License-Identifier: GPL-2.0
/*
 * lh_readcheck - read latency_hist files over and over and check that each
 * read is consistent in itself
 *
 * For the tests that read while everything else changes (stress_races.sh,
 * hotplug.sh). Each read is one open() and reads to the end; what it must
 * hold depends on the file's name (Documentation/latency_hist.rst):
 *
 *	CPUx		7 header lines and 10240 rows; sum(rows) + below + above
 *			== total; min <= average <= max, all "<undef>" if empty
 *	summary		per line: min <= mean <= max, the percentiles ascend;
 *			"all" holds the sum of the CPU lines' samples
 *	max_latency-CPUx "(none)" or one whole record "pid prio lat (off) comm
 *			<- pid prio comm s.us"; missed_timer_offsets: off == lat,
 *			wakeup: off == 0
 *	status		"NAME available=0|1 enabled=0|1 bytes=N ..." lines, as
 *			many in every read
 *	anything else	reads without error
 *
 * Usage: lh_readcheck [-n PASSES | -t SECONDS] [-s STOPFILE] FILE...
 *	Passes over all files until PASSES are done (default 1), SECONDS have
 *	passed, or STOPFILE exists. Prints "# FILE: what" for the first 20
 *	inconsistent reads and "lh_readcheck: N reads, M inconsistent"; exits
 *	1 if any read was inconsistent or failed, 2 on usage errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LH_NR_BUCKETS		10240
#define LH_READ_MAX		(1 << 20)	/* bytes: a CPUx file is ~250 KB */
#define LH_MAX_REPORTS		20

static char buf[LH_READ_MAX + 1];
static unsigned long nr_reads, nr_bad;

/* bad - count one inconsistent read and report the first ones */
static int bad(const char *file, const char *fmt, ...)
{
	va_list ap;

	if (++nr_bad <= LH_MAX_REPORTS) {
		printf("# %s: ", file);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
	}
	return -1;
}

/* read_file - one open, read to the end into buf; length or -1 */
static long read_file(const char *file)
{
	long len = 0;
	ssize_t r;
	int fd = open(file, O_RDONLY);

	if (fd < 0)
		return bad(file, "open: %s", strerror(errno));
	while (len < LH_READ_MAX && (r = read(fd, buf + len, LH_READ_MAX - len)) > 0)
		len += r;
	if (r < 0) {
		close(fd);
		return bad(file, "read: %s", strerror(errno));
	}
	close(fd);
	buf[len] = '\0';
	return len;
}

/* header_value - the value after @prefix on its header line, or "<undef>" */
static const char *header_value(const char *line, const char *prefix,
				long long *val, int *undef)
{
	if (strncmp(line, prefix, strlen(prefix)))
		return NULL;
	line += strlen(prefix);
	*undef = !strncmp(line, "<undef>", 7);
	*val = *undef ? 0 : strtoll(line, NULL, 10);
	return line;
}

/* check_cpu - the CPUx rules */
static void check_cpu(const char *file)
{
	static const char *const prefix[] = {
		"#Minimum latency: ", "#Average latency: ", "#Maximum latency: ",
		"#Total samples: ", "#There are ", "#There are ",
	};
	long long v[6], sum = 0, row;
	unsigned long long count;
	int undef[6], i, rows = 0;
	char *line = buf, *next;

	for (i = 0; i < 6; i++) {
		if (!line || !header_value(line, prefix[i], &v[i], &undef[i])) {
			bad(file, "header line %d malformed", i + 1);
			return;
		}
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	if (!line || strncmp(line, "#usecs", 6)) {
		bad(file, "no #usecs line");
		return;
	}
	/* strtoll, not sscanf: sscanf measures the whole rest of the buffer */
	for (line = strchr(line, '\n'); line && line[1]; line = next) {
		line++;
		row = strtoll(line, &next, 10);
		if (next == line || *next != '\t' || row != rows) {
			bad(file, "row %d malformed", rows);
			return;
		}
		line = next + 1;
		count = strtoull(line, &next, 10);
		if (next == line || *next != '\n') {
			bad(file, "row %d malformed", rows);
			return;
		}
		sum += count;
		rows++;
	}
	if (rows != LH_NR_BUCKETS)
		bad(file, "%d rows", rows);
	else if (sum + v[4] + v[5] != v[3])
		bad(file, "rows %lld + below %lld + above %lld != total %lld",
		    sum, v[4], v[5], v[3]);
	else if (!v[3] && !(undef[0] && undef[1] && undef[2]))
		bad(file, "empty, but min/avg/max are not <undef>");
	else if (v[3] && (undef[0] || undef[1] || undef[2] ||
			  v[0] > v[1] || v[1] > v[2]))
		bad(file, "min %lld avg %lld max %lld", v[0], v[1], v[2]);
}

/* check_summary - the summary rules */
static void check_summary(const char *file)
{
	unsigned long long samples, cpu_sum = 0, all = 0;
	char *line = strchr(buf, '\n'), *next;
	int have_all = 0;

	for (; line && line[1]; line = next) {
		char name[16], f[8][16];
		double prev = -1e18, v;
		int i, n;

		line++;
		next = strchr(line, '\n');
		n = sscanf(line, "%15s %llu %15s %15s %15s %15s %15s %15s %15s %15s",
			   name, &samples, f[0], f[1], f[2], f[3], f[4], f[5],
			   f[6], f[7]);
		if (n != 10) {
			bad(file, "malformed line '%.60s'", line);
			return;
		}
		if (!strcmp(name, "all")) {
			all = samples;
			have_all = 1;
		} else {
			cpu_sum += samples;
		}
		if (!samples)
			continue;
		/* min p50 p90 p99 p99.9 p99.99 max ascend; mean in min..max */
		for (i = 0; i < 8; i++) {
			if (i == 1 || (f[i][0] != '-' && (f[i][0] < '0' || f[i][0] > '9')))
				continue;	/* the mean, "<0", ">=10240" */
			v = strtod(f[i], NULL);
			if (v < prev) {
				bad(file, "%s: field %d below the one before", name, i + 3);
				return;
			}
			prev = v;
		}
		v = strtod(f[1], NULL);
		if (f[0][0] != '<' && f[7][0] != '>' &&
		    (v < strtod(f[0], NULL) || v > strtod(f[7], NULL))) {
			bad(file, "%s: mean %s outside %s..%s", name, f[1], f[0], f[7]);
			return;
		}
	}
	if (!have_all || all != cpu_sum)
		bad(file, "all %llu != sum of the CPU lines %llu", all, cpu_sum);
}

/* check_maxrec - the max_latency-CPUx rules */
static void check_maxrec(const char *file)
{
	long long vpid, vprio, lat, off, cpid, cprio;
	char *arrow = strstr(buf, " <- "), *tail;
	unsigned long sec, usec;
	int n;

	if (!strcmp(buf, "(none)\n"))
		return;
	n = sscanf(buf, "%lld %lld %lld (%lld)", &vpid, &vprio, &lat, &off);
	tail = strrchr(buf, ' ');
	if (n != 4 || !arrow || !tail ||
	    sscanf(arrow + 4, "%lld %lld", &cpid, &cprio) != 2 ||
	    sscanf(tail + 1, "%lu.%6lu", &sec, &usec) != 2 ||
	    strlen(tail + 1) != strcspn(tail + 1, ".") + 8 ||
	    buf[strlen(buf) - 1] != '\n') {
		bad(file, "torn or malformed record '%.100s'", buf);
		return;
	}
	if (strstr(file, "/missed_timer_offsets/") && off != lat)
		bad(file, "latency %lld != timer offset %lld", lat, off);
	if (strstr(file, "/wakeup/") && off)
		bad(file, "a wakeup record with timer offset %lld", off);
}

/* Lines of the first status read; every later read must have as many. */
static int status_lines = -1;

/* check_status - the status rules: one line per type, the same every read */
static void check_status(const char *file)
{
	char *line, *next;
	int lines = 0;

	for (line = buf; *line; line = next + 1) {
		char name[64];
		int a, e;
		unsigned long long bytes;

		next = strchr(line, '\n');
		if (!next ||
		    sscanf(line, "%63s available=%d enabled=%d bytes=%llu",
			   name, &a, &e, &bytes) != 4 || a < 0 || a > 1 ||
		    e < 0 || e > 1) {
			bad(file, "line %d malformed", lines + 1);
			return;
		}
		lines++;
	}
	if (status_lines < 0)
		status_lines = lines;
	if (lines != status_lines || !lines)
		bad(file, "%d lines, %d at the first read", lines, status_lines);
}

/* check_file - one read of @file, checked by its kind */
static void check_file(const char *file)
{
	const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;

	nr_reads++;
	if (read_file(file) < 0)
		return;
	if (!strncmp(base, "CPU", 3))
		check_cpu(file);
	else if (!strcmp(base, "summary"))
		check_summary(file);
	else if (!strncmp(base, "max_latency-CPU", 15))
		check_maxrec(file);
	else if (!strcmp(base, "status") && !strstr(file, "/counters/"))
		check_status(file);
}

/* now_s - monotonic seconds */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long passes = 1, pass;
	double seconds = 0, start = now_s();
	const char *stop = NULL;
	int opt, i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "n:t:s:")) != -1) {
		switch (opt) {
		case 'n':
			passes = strtol(optarg, NULL, 10);
			break;
		case 't':
			seconds = strtod(optarg, NULL);
			passes = 0;
			break;
		case 's':
			stop = optarg;
			passes = 0;
			break;
		default:
			goto usage;
		}
	}
	if (optind >= argc || passes < 0 || seconds < 0)
		goto usage;

	for (pass = 0; !passes || pass < passes; pass++) {
		if (stop && !access(stop, F_OK))
			break;
		if (seconds && now_s() - start >= seconds)
			break;
		for (i = optind; i < argc; i++)
			check_file(argv[i]);
	}
	printf("lh_readcheck: %lu reads, %lu inconsistent\n", nr_reads, nr_bad);
	return nr_bad ? 1 : 0;
usage:
	fprintf(stderr, "usage: lh_readcheck [-n PASSES | -t SECONDS] [-s STOPFILE] FILE...\n");
	return 2;
}
