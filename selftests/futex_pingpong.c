// SPDX-License-Identifier: GPL-2.0
/*
 * futex_pingpong - two SCHED_OTHER threads on two CPUs wake each other
 * through futexes, for the latency_hist wakeup test of fair wakees
 * (wakeup_sched_other.sh)
 *
 * "ping" runs on CPU 0, "pong" on CPU 1 (-c). Each round ping hands the
 * turn to pong and wakes it; pong hands it back and wakes ping. Pong's
 * wakings therefore come while pong goes to sleep, is asleep, or is
 * still switching out of its sleep: the last is the waking that EEVDF's
 * delayed dequeue (6.12, se.sched_delayed) left on_rq.
 *
 * Exactly one waking of pong per voluntary switch of pong in its loop:
 * pong blocks only in futex_wait() (or, on PREEMPT_RT, on the futex hash
 * bucket's sleeping lock), and only a waking ends such a block and
 * switches it in again. Pong counts its voluntary context switches over
 * its rounds (getrusage(RUSAGE_THREAD) before the first and after the
 * last) and prints them: the number of its wakings that were followed by
 * a switch-in, which the wakeup histograms must hold under a pid filter on
 * pong. Wakings that found pong still running (no switch) are not in it.
 *
 * Handshake as rt_sleeper's (sleeper_lib.sh): "tid <pong's tid> ..." and
 * "ready" are printed, then both threads spin with sched_yield(), never
 * blocking, until SIGUSR1; at the end "pong rounds R nvcsw N nivcsw M".
 *
 * WARNING: until SIGUSR1 both threads spin on their CPUs.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static atomic_int ping_turn;	/* 1: ping may go on */
static atomic_int pong_turn;	/* 1: pong may go on */
static atomic_int go;		/* SIGUSR1 came */
static atomic_int nr_ready;
static atomic_int done;		/* the rounds are over */
static long rounds = 1000;
static long busy_us;		/* pong's work per round */
static int hog;			/* a SCHED_OTHER spinner shares pong's CPU */
static int cpu_ping, cpu_pong = 1;
static pid_t pong_tid;

/* futex - the raw system call on a private word */
static long futex(atomic_int *word, int op, int val)
{
	return syscall(SYS_futex, word, op | FUTEX_PRIVATE_FLAG, val, NULL,
		       NULL, 0);
}

/* take_turn - wait (blocking) until *turn is 1, then clear it */
static void take_turn(atomic_int *turn)
{
	while (!atomic_load(turn))
		if (futex(turn, FUTEX_WAIT, 0) < 0 && errno != EAGAIN &&
		    errno != EINTR) {
			perror("futex_pingpong: FUTEX_WAIT");
			exit(1);
		}
	atomic_store(turn, 0);
}

/* give_turn - set *turn to 1 and wake its waiter */
static void give_turn(atomic_int *turn)
{
	atomic_store(turn, 1);
	if (futex(turn, FUTEX_WAKE, 1) < 0) {
		perror("futex_pingpong: FUTEX_WAKE");
		exit(1);
	}
}

/* pin - run the calling thread on @cpu only */
static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "futex_pingpong: CPU %d: %s\n", cpu,
			strerror(errno));
		exit(1);
	}
}

/* now_us - CLOCK_MONOTONIC in microseconds */
static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* spin_us - run for @us microseconds without blocking */
static void spin_us(long us)
{
	long long end = now_us() + us;

	while (us && now_us() < end)
		;
}

/* wait_go - spin without blocking until SIGUSR1 */
static void wait_go(void)
{
	atomic_fetch_add(&nr_ready, 1);
	while (!atomic_load(&go))
		sched_yield();
}

static void *ping(void *arg)
{
	long i;

	(void)arg;
	pin(cpu_ping);
	wait_go();
	for (i = 0; i < rounds; i++) {
		give_turn(&pong_turn);
		take_turn(&ping_turn);
	}
	return NULL;
}

/*
 * spinner - a fair task beside pong: with one, pong's blocking can find it
 * ineligible (it ran more than its share), which EEVDF's delayed dequeue
 * keeps on_rq
 */
static void *spinner(void *arg)
{
	(void)arg;
	pin(cpu_pong);
	while (!atomic_load(&done))
		;
	return NULL;
}

static void *pong(void *arg)
{
	struct rusage before, after;
	long i;

	(void)arg;
	pin(cpu_pong);
	pong_tid = (pid_t)syscall(SYS_gettid);
	wait_go();
	getrusage(RUSAGE_THREAD, &before);
	for (i = 0; i < rounds; i++) {
		take_turn(&pong_turn);
		spin_us(busy_us);
		give_turn(&ping_turn);
	}
	getrusage(RUSAGE_THREAD, &after);
	printf("pong rounds %ld nvcsw %ld nivcsw %ld\n", rounds,
	       after.ru_nvcsw - before.ru_nvcsw,
	       after.ru_nivcsw - before.ru_nivcsw);
	return NULL;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: futex_pingpong [-w] [-H] [-l ROUNDS] [-b BUSY_US] [-c PING_CPU,PONG_CPU]\n"
		"  -w  print \"tid <pong tid>\" and \"ready\", wait for SIGUSR1\n"
		"  -H  a SCHED_OTHER spinner shares pong's CPU\n"
		"  -b  pong runs BUSY_US microseconds per round\n");
	exit(2);
}

int main(int argc, char **argv)
{
	pthread_t t_ping, t_pong, t_spin;
	int wait_signal = 0, opt, sig;
	sigset_t usr1;
	char *end;

	while ((opt = getopt(argc, argv, "wHl:b:c:")) != -1) {
		switch (opt) {
		case 'w':
			wait_signal = 1;
			break;
		case 'H':
			hog = 1;
			break;
		case 'b':
			errno = 0;
			busy_us = strtol(optarg, &end, 10);
			if (errno || *end || busy_us < 0 || busy_us > 1000000)
				usage();
			break;
		case 'l':
			errno = 0;
			rounds = strtol(optarg, &end, 10);
			if (errno || *end || rounds < 1 || rounds > INT_MAX)
				usage();
			break;
		case 'c':
			if (sscanf(optarg, "%d,%d", &cpu_ping, &cpu_pong) != 2 ||
			    cpu_ping < 0 || cpu_pong < 0 || cpu_ping == cpu_pong)
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* Blocked in every thread: no signal interrupts a futex wait. */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	if (!wait_signal)
		atomic_store(&go, 1);
	if (pthread_create(&t_pong, NULL, pong, NULL) ||
	    pthread_create(&t_ping, NULL, ping, NULL) ||
	    (hog && pthread_create(&t_spin, NULL, spinner, NULL))) {
		perror("futex_pingpong: pthread_create");
		return 1;
	}
	while (atomic_load(&nr_ready) < 2)
		usleep(1000);
	if (wait_signal) {
		printf("tid %d cpu %d\nready\n", (int)pong_tid, cpu_pong);
		sigwait(&usr1, &sig);
		atomic_store(&go, 1);
	}
	pthread_join(t_ping, NULL);
	pthread_join(t_pong, NULL);
	atomic_store(&done, 1);
	if (hog)
		pthread_join(t_spin, NULL);
	return 0;
}
