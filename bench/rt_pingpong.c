// SPDX-License-Identifier: GPL-2.0
/*
 * rt_pingpong - the latency_hist pipe benchmark: two SCHED_FIFO processes
 * pinned to one CPU pass a byte back and forth over two pipes.
 *
 * Each round trip is two wakeups and two context switches, the events every
 * wakeup-latency tool hooks, and nothing else, so the cost a tool adds per
 * round trip is its cost per two wakeups. The tasks are real-time because
 * latency_hist follows only real-time tasks by default: with SCHED_OTHER
 * tasks its probes would take their cheap early exit and the benchmark would
 * flatter it.
 *
 *   rt_pingpong [-l loops] [-w warmup] [-c cpu] [-p prio]
 *
 * Prints "rt_pingpong: loops=N ns_per_roundtrip=X.X" (CLOCK_MONOTONIC; under
 * qemu -icount shift=0 that is guest instructions).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* die - print an error with errno and exit */
static void die(const char *what)
{
	fprintf(stderr, "rt_pingpong: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* pin_rt - bind the calling process to @cpu and make it SCHED_FIFO @prio */
static void pin_rt(int cpu, int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		die("sched_setscheduler");
}

/* xfer - write one byte to @out, then read one from @in */
static void xfer(int out, int in)
{
	char c = 0;

	if (out >= 0 && write(out, &c, 1) != 1)
		die("write");
	if (in >= 0 && read(in, &c, 1) != 1)
		die("read");
}

/* now_ns - CLOCK_MONOTONIC in ns */
static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long loops = 20000, warmup = 1000, i;
	int cpu = 0, prio = 50, opt, status;
	int ping[2], pong[2];
	long long t0, t1;
	pid_t child;

	while ((opt = getopt(argc, argv, "l:w:c:p:")) != -1) {
		switch (opt) {
		case 'l':
			loops = atol(optarg);
			break;
		case 'w':
			warmup = atol(optarg);
			break;
		case 'c':
			cpu = atoi(optarg);
			break;
		case 'p':
			prio = atoi(optarg);
			break;
		default:
			fprintf(stderr,
				"usage: rt_pingpong [-l loops] [-w warmup] [-c cpu] [-p prio]\n");
			return 2;
		}
	}
	if (loops <= 0 || warmup < 0)
		return 2;
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		die("mlockall");
	if (pipe(ping) || pipe(pong))
		die("pipe");
	pin_rt(cpu, prio);

	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		for (i = 0; i < warmup + loops; i++) {
			xfer(-1, ping[0]);
			xfer(pong[1], -1);
		}
		_exit(0);
	}

	for (i = 0; i < warmup; i++)
		xfer(ping[1], pong[0]);
	t0 = now_ns();
	for (i = 0; i < loops; i++)
		xfer(ping[1], pong[0]);
	t1 = now_ns();

	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("child");
	printf("rt_pingpong: loops=%ld ns_per_roundtrip=%.1f\n", loops,
	       (double)(t1 - t0) / loops);
	return 0;
}
