// SPDX-License-Identifier: GPL-2.0
/*
 * rt_sleeper - periodic real-time sleepers for the latency_hist wakeup tests
 *
 * Each thread sleeps with clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)
 * until the next instant of a grid start + k * interval, and measures how late
 * it woke. All threads share one grid, so threads of equal priority are due at
 * the same instants (the sharedprio case). At exit every thread prints what
 * its own clock saw, so a test can compare it with the histograms.
 *
 * Exactly LOOPS wakeups: between the moment a thread's TID is printed (-s)
 * and its first timed sleep, the thread never blocks. It waits for the start
 * by spinning with sched_yield() as SCHED_OTHER, switches itself to
 * SCHED_FIFO, and only then sleeps. A test can therefore put the TID in the
 * latency_hist pid filter, send SIGUSR1 (-w), and expect one wakeup per loop
 * and no other. Signals are blocked in every sleeper, so none can cut a
 * sleep short or add a wakeup. A loop whose deadline passed before the thread
 * went to sleep skips to the next future instant of the grid and counts an
 * overrun; the loop still sleeps, so the count of sleeps stays LOOPS. A sleep
 * whose deadline passes between that check and clock_nanosleep() (a guest
 * stall there) may return without blocking: no wakeup, no switch. The thread
 * counts those sleeps ("noblock": its voluntary context switches did not
 * grow), so a test knows exactly how many wakeups can be missing.
 *
 * Migration while waiting (-m): a controller thread changes the affinity of
 * every sleeper half an interval before its deadline, while it sleeps, so the
 * timer fires on the old CPU and the wakeup completes on the new one. The
 * sleeper counts the wakeups on which its CPU changed ("migrated"). A sleeper
 * that wakes later than half an interval may miss its move, so under
 * emulation use an interval of 10 ms or more with -m and check "migrated".
 *
 * Handshake for a test script:
 *
 *   rt_sleeper -w -c 1 -p 80 -i 1000 -l 100 > out &
 *   until grep -q '^ready' out; do sleep 0.1; done
 *   tid=$(awk '/^tid/ { print $2; exit }' out)
 *   ...set the latency_hist pid filter to $tid...
 *   kill -USR1 $!; wait $!	# then expect exactly 100 wakeups of $tid
 *
 * WARNING: with -w the sleepers spin on their CPU until SIGUSR1 arrives.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_SEC		1000000000LL
#define NSEC_PER_USEC		1000LL
#define MAX_THREADS		64
#define MAX_PRIOS		16
#define MAX_INTERVAL_US		60000000LL	/* 60 s */
#define START_DELAY_NS		(50 * 1000 * 1000LL)	/* 50 ms: first deadline after the start */
#define SLEEPER_STACK_SIZE	(256 * 1024)	/* locked by mlockall, keep it small */
#define CONTROLLER_PRIO		99

struct options {
	int cpu;			/* -c, -1 = not pinned */
	int prios[MAX_PRIOS];		/* -p, 0 = SCHED_OTHER */
	int nr_prios;
	long long interval_ns;		/* -i */
	unsigned long loops;		/* -l, 0 = until SIGINT/SIGTERM */
	int threads_per_prio;		/* -n */
	int migrate_cpu;		/* -m CPU2, -1 = no migration */
	unsigned long migrate_loop;	/* -m CPU2:N, 0 = every loop */
	bool print_tids;		/* -s */
	bool wait_start;		/* -w */
	bool quiet;			/* -q */
};

struct sleeper {
	pthread_t thread;
	int prio;
	atomic_int tid;
	/* Loop number (1-based) the thread sleeps for, 0 while awake. */
	atomic_ulong sleeping_loop;
	unsigned long moved_loop;	/* controller only */
	/* Results, read by main after the join. */
	unsigned long loops_done;
	unsigned long overruns;
	unsigned long noblock;		/* sleeps that did not block */
	unsigned long migrated;
	long long min_ns;
	long long max_ns;
	long long sum_ns;
	int err;			/* errno of a failed setup step */
};

static struct options opt = {
	.cpu = -1,
	.prios = { 80 },
	.nr_prios = 1,
	.interval_ns = 1000 * NSEC_PER_USEC,
	.loops = 1000,
	.threads_per_prio = 1,
	.migrate_cpu = -1,
};

static struct sleeper sleepers[MAX_THREADS];
static int nr_sleepers;
static atomic_int nr_ready;
static atomic_int nr_running;
static atomic_bool go;
static atomic_bool stop;
static long long start_ns;	/* grid origin, written before @go is set */

/* usage - print the command line and exit with @status */
static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"Usage: rt_sleeper [-c CPU] [-p PRIO[,PRIO...]] [-n NTHREADS] [-i INTERVAL_US]\n"
		"                  [-l LOOPS] [-m CPU2[:LOOP]] [-s] [-w] [-q]\n"
		"  -c CPU        pin the sleepers to CPU (default: not pinned)\n"
		"  -p PRIO,...   SCHED_FIFO priority of the sleepers, 1..99, 0 = SCHED_OTHER;\n"
		"                a list starts NTHREADS threads per priority (default 80)\n"
		"  -n NTHREADS   threads per priority, all due at the same instants (default 1)\n"
		"  -i US         period in microseconds (default 1000)\n"
		"  -l LOOPS      timed sleeps per thread, 0 = until SIGINT/SIGTERM (default 1000)\n"
		"  -m CPU2       needs -c: move every sleeper while it sleeps, so that wakeup\n"
		"                1 completes on CPU2, wakeup 2 on CPU, and so on alternately\n"
		"  -m CPU2:LOOP  move once, while waiting for wakeup LOOP (1-based), to CPU2\n"
		"  -s            print \"tid <tid> prio <prio> cpu <cpu>\" per thread, then \"ready\"\n"
		"  -w            like -s, then wait for SIGUSR1 before the first sleep\n"
		"  -q            do not print the per-thread summary at exit\n"
		"summary, one line per thread:\n"
		"  thread <i> tid <tid> prio <p> cpu <c> loops <n> overruns <n> migrated <n>\n"
		"  min_us <n> avg_us <n> max_us <n> noblock <n>\n");
	exit(status);
}

/* parse_long - parse a whole decimal number in [min, max] or die */
static long long parse_long(const char *arg, const char *what, long long min,
			    long long max, char **end)
{
	long long val;
	char *p;

	errno = 0;
	val = strtoll(arg, &p, 10);
	if (errno || p == arg || (!end && *p) || val < min || val > max) {
		fprintf(stderr, "rt_sleeper: %s: want a number in %lld..%lld, got \"%s\"\n",
			what, min, max, arg);
		exit(2);
	}
	if (end)
		*end = p;
	return val;
}

/* parse_prios - parse "-p 80" or "-p 80,90" */
static void parse_prios(const char *arg)
{
	const char *p = arg;
	char *end;

	opt.nr_prios = 0;
	for (;;) {
		if (opt.nr_prios == MAX_PRIOS) {
			fprintf(stderr, "rt_sleeper: -p: at most %d priorities\n", MAX_PRIOS);
			exit(2);
		}
		opt.prios[opt.nr_prios++] = parse_long(p, "-p", 0, 99, &end);
		if (*end == '\0')
			return;
		if (*end != ',')
			parse_long(p, "-p", 0, 99, NULL);	/* reports and exits */
		p = end + 1;
	}
}

/* parse_migrate - parse "-m CPU2" or "-m CPU2:LOOP" */
static void parse_migrate(const char *arg)
{
	char *end;

	opt.migrate_cpu = parse_long(arg, "-m", 0, CPU_SETSIZE - 1, &end);
	if (*end == '\0')
		return;
	if (*end != ':')
		parse_long(arg, "-m", 0, CPU_SETSIZE - 1, NULL);
	opt.migrate_loop = parse_long(end + 1, "-m LOOP", 1, LONG_MAX, NULL);
}

/* parse_options - fill @opt from the command line */
static void parse_options(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, "c:p:n:i:l:m:swqh")) != -1) {
		switch (c) {
		case 'c':
			opt.cpu = parse_long(optarg, "-c", 0, CPU_SETSIZE - 1, NULL);
			break;
		case 'p':
			parse_prios(optarg);
			break;
		case 'n':
			opt.threads_per_prio = parse_long(optarg, "-n", 1, MAX_THREADS, NULL);
			break;
		case 'i':
			opt.interval_ns = parse_long(optarg, "-i", 1, MAX_INTERVAL_US, NULL) *
					  NSEC_PER_USEC;
			break;
		case 'l':
			opt.loops = parse_long(optarg, "-l", 0, LONG_MAX, NULL);
			break;
		case 'm':
			parse_migrate(optarg);
			break;
		case 's':
			opt.print_tids = true;
			break;
		case 'w':
			opt.print_tids = true;
			opt.wait_start = true;
			break;
		case 'q':
			opt.quiet = true;
			break;
		case 'h':
			usage(0);
			break;
		default:
			usage(2);
		}
	}
	if (optind != argc)
		usage(2);
	if (opt.nr_prios * opt.threads_per_prio > MAX_THREADS) {
		fprintf(stderr, "rt_sleeper: at most %d threads in all\n", MAX_THREADS);
		exit(2);
	}
	if (opt.migrate_cpu >= 0 && opt.cpu < 0) {
		fprintf(stderr, "rt_sleeper: -m needs -c (the CPU to migrate from)\n");
		exit(2);
	}
	if (opt.migrate_cpu >= 0 && opt.migrate_cpu == opt.cpu) {
		fprintf(stderr, "rt_sleeper: -m CPU2 must differ from -c CPU\n");
		exit(2);
	}
}

/* now_ns - read CLOCK_MONOTONIC in nanoseconds */
static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* ns_to_timespec - convert nanoseconds to a struct timespec */
static struct timespec ns_to_timespec(long long ns)
{
	struct timespec ts = {
		.tv_sec = ns / NSEC_PER_SEC,
		.tv_nsec = ns % NSEC_PER_SEC,
	};

	return ts;
}

/* sleep_until - sleep on CLOCK_MONOTONIC until @deadline_ns, despite EINTR */
static void sleep_until(long long deadline_ns)
{
	struct timespec ts = ns_to_timespec(deadline_ns);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* voluntary_switches - the calling thread's voluntary context switches */
static long voluntary_switches(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_nvcsw;
}

/* set_fifo - make the calling thread SCHED_FIFO @prio, or SCHED_OTHER for 0 */
static int set_fifo(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return pthread_setschedparam(pthread_self(), prio ? SCHED_FIFO : SCHED_OTHER, &sp);
}

/* set_affinity - pin thread @tid to @cpu */
static int set_affinity(pid_t tid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(tid, sizeof(set), &set) ? errno : 0;
}

/* record_latency - add one wakeup latency to the thread's statistics */
static void record_latency(struct sleeper *s, long long lat_ns)
{
	if (!s->loops_done || lat_ns < s->min_ns)
		s->min_ns = lat_ns;
	if (!s->loops_done || lat_ns > s->max_ns)
		s->max_ns = lat_ns;
	s->sum_ns += lat_ns;
	s->loops_done++;
}

/* sleeper_thread - wait for the start without blocking, then sleep LOOPS times */
static void *sleeper_thread(void *arg)
{
	struct sleeper *s = arg;
	unsigned long loop;
	long long k = 0;

	atomic_store(&s->tid, gettid());
	atomic_fetch_add(&nr_ready, 1);
	/* No blocking from here on: any wakeup now would be a stray sample. */
	while (!atomic_load(&go))
		sched_yield();
	if (atomic_load(&stop))
		goto out;
	s->err = set_fifo(s->prio);
	if (s->err)
		goto out;

	for (loop = 1; !opt.loops || loop <= opt.loops; loop++) {
		long long deadline_ns = start_ns + k * opt.interval_ns;
		long long woke_ns, late_ns = now_ns() - deadline_ns;
		int cpu_before;
		long nvcsw;

		/* Missed instants are skipped, not slept for: count them. */
		if (late_ns >= 0) {
			long long missed = late_ns / opt.interval_ns + 1;

			s->overruns += missed;
			k += missed;
			deadline_ns += missed * opt.interval_ns;
		}
		cpu_before = sched_getcpu();
		nvcsw = voluntary_switches();
		atomic_store(&s->sleeping_loop, loop);
		sleep_until(deadline_ns);
		woke_ns = now_ns();
		atomic_store(&s->sleeping_loop, 0);
		if (voluntary_switches() == nvcsw)
			s->noblock++;
		if (sched_getcpu() != cpu_before)
			s->migrated++;
		record_latency(s, woke_ns - deadline_ns);
		k++;
		if (atomic_load(&stop))
			break;
	}
out:
	atomic_fetch_sub(&nr_running, 1);
	return NULL;
}

/* migrate_target - CPU a sleeper must wake on for loop @loop, or -1 */
static int migrate_target(unsigned long loop)
{
	if (opt.migrate_loop)
		return loop == opt.migrate_loop ? opt.migrate_cpu : -1;
	return loop % 2 ? opt.migrate_cpu : opt.cpu;
}

/* move_sleepers - move every sleeper that sleeps now; true if none was awake */
static bool move_sleepers(void)
{
	bool all_asleep = true;
	int i;

	for (i = 0; i < nr_sleepers; i++) {
		struct sleeper *s = &sleepers[i];
		unsigned long loop = atomic_load(&s->sleeping_loop);
		int cpu;

		if (!loop) {
			all_asleep = false;
			continue;
		}
		if (loop == s->moved_loop)
			continue;
		cpu = migrate_target(loop);
		if (cpu >= 0 && set_affinity(atomic_load(&s->tid), cpu) == 0)
			s->moved_loop = loop;
	}
	return all_asleep;
}

/* controller_thread - move sleepers between CPUs while they sleep (-m) */
static void *controller_thread(void *arg)
{
	long long k, slot_ns, deadline_ns, step_ns = opt.interval_ns / 8;

	(void)arg;
	/*
	 * Half an interval before each deadline every on-time sleeper is
	 * asleep; one that woke late gets a few more chances, up to an eighth
	 * of an interval before the deadline.
	 */
	for (k = 0; atomic_load(&nr_running) && !atomic_load(&stop); k++) {
		deadline_ns = start_ns + k * opt.interval_ns;
		slot_ns = deadline_ns - opt.interval_ns / 2;
		sleep_until(slot_ns);
		while (!move_sleepers() && step_ns) {
			slot_ns += step_ns;
			if (slot_ns >= deadline_ns - step_ns)
				break;
			sleep_until(slot_ns);
		}
	}
	return NULL;
}

/* on_stop_signal - SIGINT/SIGTERM: let the sleepers finish their current loop */
static void on_stop_signal(int sig)
{
	(void)sig;
	atomic_store(&stop, true);
}

/* check_rt_allowed - fail early if SCHED_FIFO @prio cannot be set */
static void check_rt_allowed(int prio)
{
	int err;

	if (!prio)
		return;
	err = set_fifo(prio);
	if (err) {
		fprintf(stderr, "rt_sleeper: SCHED_FIFO %d: %s\n", prio, strerror(err));
		exit(1);
	}
	set_fifo(0);
}

/* start_thread - create one thread with a small stack, pinned to @cpu if >= 0 */
static int start_thread(pthread_t *thread, void *(*fn)(void *), void *arg, int cpu)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int err;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, SLEEPER_STACK_SIZE);
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	}
	err = pthread_create(thread, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return err;
}

/* wait_for_start - with -w, block until SIGUSR1; false if told to stop instead */
static bool wait_for_start(void)
{
	sigset_t set;
	int sig = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigwait(&set, &sig))
		return false;
	return sig == SIGUSR1;
}

/* print_summary - one line per sleeper with what its own clock saw */
static void print_summary(void)
{
	int i;

	for (i = 0; i < nr_sleepers; i++) {
		const struct sleeper *s = &sleepers[i];
		long long avg_ns = s->loops_done ? s->sum_ns / (long long)s->loops_done : 0;

		printf("thread %d tid %d prio %d cpu %d loops %lu overruns %lu migrated %lu",
		       i, atomic_load(&s->tid), s->prio, opt.cpu, s->loops_done,
		       s->overruns, s->migrated);
		printf(" min_us %lld avg_us %lld max_us %lld noblock %lu\n",
		       s->min_ns / NSEC_PER_USEC, avg_ns / NSEC_PER_USEC,
		       s->max_ns / NSEC_PER_USEC, s->noblock);
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };
	pthread_t controller;
	sigset_t blocked;
	int i, j, err, max_prio = 0, status = 0;

	/*
	 * Block the signals first: threads inherit the mask, so no signal can
	 * interrupt or wake a sleeper, and an early SIGUSR1 stays pending.
	 */
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGUSR1);
	sigaddset(&blocked, SIGINT);
	sigaddset(&blocked, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &blocked, NULL);

	parse_options(argc, argv);
	for (i = 0; i < opt.nr_prios; i++)
		if (opt.prios[i] > max_prio)
			max_prio = opt.prios[i];
	check_rt_allowed(max_prio);
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		perror("rt_sleeper: mlockall (continuing)");

	for (i = 0; i < opt.nr_prios && !atomic_load(&stop); i++) {
		for (j = 0; j < opt.threads_per_prio && !atomic_load(&stop); j++) {
			struct sleeper *s = &sleepers[nr_sleepers];

			s->prio = opt.prios[i];
			atomic_fetch_add(&nr_running, 1);
			err = start_thread(&s->thread, sleeper_thread, s, opt.cpu);
			if (err) {
				atomic_fetch_sub(&nr_running, 1);
				fprintf(stderr, "rt_sleeper: thread %d: %s\n",
					nr_sleepers, strerror(err));
				atomic_store(&stop, true);
				status = 1;
				break;
			}
			nr_sleepers++;
		}
	}
	while (atomic_load(&nr_ready) < nr_sleepers)
		usleep(1000);

	if (opt.print_tids && !atomic_load(&stop)) {
		for (i = 0; i < nr_sleepers; i++)
			printf("tid %d prio %d cpu %d\n", atomic_load(&sleepers[i].tid),
			       sleepers[i].prio, opt.cpu);
		printf("ready\n");
		fflush(stdout);
	}
	if (opt.wait_start && !atomic_load(&stop) && !wait_for_start())
		atomic_store(&stop, true);

	start_ns = now_ns() + START_DELAY_NS + opt.interval_ns;
	atomic_store(&go, true);

	if (opt.migrate_cpu >= 0 && !atomic_load(&stop)) {
		err = start_thread(&controller, controller_thread, NULL, -1);
		if (err) {
			fprintf(stderr, "rt_sleeper: controller: %s\n", strerror(err));
			atomic_store(&stop, true);
			opt.migrate_cpu = -1;
		} else {
			struct sched_param sp = { .sched_priority = CONTROLLER_PRIO };

			if (max_prio)
				pthread_setschedparam(controller, SCHED_FIFO, &sp);
		}
	}

	/* Only main takes SIGINT/SIGTERM from now on; they end the loops early. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGINT);
	sigaddset(&blocked, SIGTERM);
	pthread_sigmask(SIG_UNBLOCK, &blocked, NULL);

	for (i = 0; i < nr_sleepers; i++) {
		pthread_join(sleepers[i].thread, NULL);
		if (sleepers[i].err) {
			fprintf(stderr, "rt_sleeper: thread %d: SCHED_FIFO %d: %s\n",
				i, sleepers[i].prio, strerror(sleepers[i].err));
			status = 1;
		}
	}
	if (opt.migrate_cpu >= 0)
		pthread_join(controller, NULL);
	if (!opt.quiet)
		print_summary();
	return status;
}
