// SPDX-License-Identifier: GPL-2.0
/*
 * timer_fd - one periodic real-time thread woken by a chosen kind of timer,
 * for the latency_hist missed_timer_offsets tests
 *
 * missed_timer_offsets counts only sleeper hrtimers (nanosleep,
 * clock_nanosleep, schedule_hrtimeout). This program makes one pinned
 * SCHED_FIFO thread wake LOOPS times from
 *
 *   -m timerfd    a periodic timerfd, read() blocking          (not a sleeper)
 *   -m posix      a periodic POSIX timer, signal to the thread
 *                 (SIGEV_THREAD_ID), sigwaitinfo() blocking      (not a sleeper)
 *   -m nanosleep  clock_nanosleep(TIMER_ABSTIME) on a grid      (a sleeper: the
 *                 positive control of the same program)
 *   -m past       clock_nanosleep(TIMER_ABSTIME) to an instant PAST_US in the
 *                 past (-a), then GAP_US (-g) of busy waiting: a sleeper armed
 *                 with an expiry already in the past, whose true lateness is
 *                 tiny while its expiry is PAST_US stale
 *
 * Handshake as rt_sleeper's -w: it prints "tid <tid> prio <prio> cpu <cpu>"
 * and "ready", and the thread spins with sched_yield() as SCHED_OTHER (no
 * blocking, so no wakeup) until SIGUSR1 arrives; then it becomes SCHED_FIFO
 * PRIO and starts. Every signal is blocked in the thread except by the
 * blocking call that waits for it (posix mode), so nothing else wakes it.
 * At exit it prints "done loops <n> expirations <n>" (timer expirations seen;
 * more than loops means the thread fell behind).
 *
 * Usage: timer_fd -w -m MODE [-c CPU] [-p PRIO] [-i INTERVAL_US] [-l LOOPS]
 *                 [-a PAST_US] [-g GAP_US]
 */

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_SEC	1000000000LL
#define NSEC_PER_USEC	1000LL
#define START_DELAY_NS	(50 * 1000 * 1000LL)

#ifndef sigev_notify_thread_id		/* glibc < 2.35 lacks the name */
#define sigev_notify_thread_id	_sigev_un._tid
#endif

enum mode { M_TIMERFD, M_POSIX, M_NANOSLEEP, M_PAST };

static enum mode mode = M_NANOSLEEP;
static int cpu = -1;
static int prio = 80;
static long long interval_ns = 10000 * NSEC_PER_USEC;
static long loops = 100;
static long long past_ns = 50000 * NSEC_PER_USEC;
static long long gap_ns = 10000 * NSEC_PER_USEC;

static atomic_int tid;
static atomic_int ready;
static atomic_bool go;
static long loops_done;
static unsigned long long expirations;
static int thread_err;

/* die - print a message with errno and exit */
static void die(const char *what)
{
	fprintf(stderr, "timer_fd: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* now_ns - CLOCK_MONOTONIC in nanoseconds */
static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* to_ts - nanoseconds to a timespec (non-negative only) */
static struct timespec to_ts(long long ns)
{
	struct timespec ts = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };

	return ts;
}

/* run_timerfd - LOOPS blocking reads of a periodic timerfd */
static int run_timerfd(long long start_ns)
{
	struct itimerspec its = {
		.it_value = to_ts(start_ns),
		.it_interval = to_ts(interval_ns),
	};
	uint64_t n;
	int fd;

	fd = timerfd_create(CLOCK_MONOTONIC, 0);
	if (fd < 0 || timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL))
		return errno;
	for (loops_done = 0; loops_done < loops; loops_done++) {
		if (read(fd, &n, sizeof(n)) != sizeof(n))
			return errno;
		expirations += n;
	}
	close(fd);
	return 0;
}

/* run_posix - LOOPS sigwaitinfo() for a periodic POSIX timer's signal */
static int run_posix(long long start_ns)
{
	struct itimerspec its = {
		.it_value = to_ts(start_ns),
		.it_interval = to_ts(interval_ns),
	};
	struct sigevent sev;
	siginfo_t info;
	sigset_t set;
	timer_t timer;

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SIGRTMIN;
	sev.sigev_notify_thread_id = gettid();
	if (timer_create(CLOCK_MONOTONIC, &sev, &timer) ||
	    timer_settime(timer, TIMER_ABSTIME, &its, NULL))
		return errno;
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	for (loops_done = 0; loops_done < loops; loops_done++) {
		if (sigwaitinfo(&set, &info) < 0) {
			if (errno == EINTR) {
				loops_done--;
				continue;
			}
			return errno;
		}
		expirations += 1 + info.si_overrun;
	}
	timer_delete(timer);
	return 0;
}

/* run_nanosleep - LOOPS absolute sleeps on the grid start + k * interval */
static int run_nanosleep(long long start_ns)
{
	long long deadline = start_ns;
	struct timespec ts;
	int err;

	for (loops_done = 0; loops_done < loops; loops_done++) {
		while (deadline <= now_ns())
			deadline += interval_ns;	/* never sleep into the past */
		ts = to_ts(deadline);
		do
			err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		while (err == EINTR);
		if (err)
			return err;
		expirations++;
		deadline += interval_ns;
	}
	return 0;
}

/* run_past - LOOPS absolute sleeps to an instant PAST_US ago, GAP_US apart */
static int run_past(void)
{
	struct timespec ts;
	long long t;
	int err;

	for (loops_done = 0; loops_done < loops; loops_done++) {
		ts = to_ts(now_ns() - past_ns);
		do
			err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		while (err == EINTR);
		if (err)
			return err;
		expirations++;
		/* busy, not asleep: the only sleeps are the stale ones */
		for (t = now_ns() + gap_ns; now_ns() < t;)
			;
	}
	return 0;
}

/* worker - spin until go, become SCHED_FIFO, run the chosen timer loop */
static void *worker(void *arg)
{
	struct sched_param sp = { .sched_priority = prio };
	long long start_ns;

	(void)arg;
	atomic_store(&tid, gettid());
	atomic_store(&ready, 1);
	while (!atomic_load(&go))
		sched_yield();
	if (pthread_setschedparam(pthread_self(), prio ? SCHED_FIFO : SCHED_OTHER, &sp)) {
		thread_err = EPERM;
		return NULL;
	}
	start_ns = now_ns() + START_DELAY_NS;
	switch (mode) {
	case M_TIMERFD:
		thread_err = run_timerfd(start_ns);
		break;
	case M_POSIX:
		thread_err = run_posix(start_ns);
		break;
	case M_NANOSLEEP:
		thread_err = run_nanosleep(start_ns);
		break;
	case M_PAST:
		thread_err = run_past();
		break;
	}
	return NULL;
}

/* num - parse a non-negative decimal or exit */
static long long num(const char *s)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < 0) {
		fprintf(stderr, "timer_fd: bad number \"%s\"\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	pthread_attr_t attr;
	pthread_t thread;
	cpu_set_t cpus;
	sigset_t set;
	int c, sig, wait_start = 0;

	while ((c = getopt(argc, argv, "wm:c:p:i:l:a:g:")) != -1) {
		switch (c) {
		case 'w': wait_start = 1; break;
		case 'm':
			if (!strcmp(optarg, "timerfd"))
				mode = M_TIMERFD;
			else if (!strcmp(optarg, "posix"))
				mode = M_POSIX;
			else if (!strcmp(optarg, "nanosleep"))
				mode = M_NANOSLEEP;
			else if (!strcmp(optarg, "past"))
				mode = M_PAST;
			else {
				fprintf(stderr, "timer_fd: -m timerfd|posix|nanosleep|past\n");
				return 2;
			}
			break;
		case 'c': cpu = num(optarg); break;
		case 'p': prio = num(optarg); break;
		case 'i': interval_ns = num(optarg) * NSEC_PER_USEC; break;
		case 'l': loops = num(optarg); break;
		case 'a': past_ns = num(optarg) * NSEC_PER_USEC; break;
		case 'g': gap_ns = num(optarg) * NSEC_PER_USEC; break;
		default:
			fprintf(stderr, "usage: timer_fd -w -m MODE [-c CPU] [-p PRIO] [-i US] [-l LOOPS] [-a US] [-g US]\n");
			return 2;
		}
	}
	if (prio < 0 || prio > 99 || interval_ns <= 0) {
		fprintf(stderr, "timer_fd: -p 0..99, -i > 0\n");
		return 2;
	}

	/* Every thread inherits this mask: no signal wakes the worker. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGRTMIN);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		perror("timer_fd: mlockall (continuing)");

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	if (cpu >= 0) {
		CPU_ZERO(&cpus);
		CPU_SET(cpu, &cpus);
		pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus);
	}
	errno = pthread_create(&thread, &attr, worker, NULL);
	if (errno)
		die("pthread_create");
	while (!atomic_load(&ready))
		usleep(1000);
	printf("tid %d prio %d cpu %d\nready\n", atomic_load(&tid), prio, cpu);
	fflush(stdout);
	if (wait_start) {
		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigwait(&set, &sig);
	}
	atomic_store(&go, 1);
	pthread_join(thread, NULL);
	if (thread_err) {
		errno = thread_err;
		die("worker");
	}
	printf("done loops %ld expirations %llu\n", loops_done, expirations);
	return 0;
}
