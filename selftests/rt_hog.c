// SPDX-License-Identifier: GPL-2.0
/*
 * rt_hog - real-time tasks that keep a CPU from a less important wakee,
 * for the latency_hist tests of waits that are not latencies
 *
 * A wakee that cannot preempt the task running on its CPU waits by design:
 * latency_hist must file no sample of that wait. Two ways to make such a
 * wait, each for a known time:
 *
 *   rt_hog spin [-w] -c CPU -p PRIO -d MS
 *	one SCHED_FIFO PRIO thread on CPU spins for MS ms (CLOCK_MONOTONIC),
 *	then exits
 *
 *   rt_hog stopspin [-w] [-s] -c CPU -p PRIO -d MS
 *	one SCHED_FIFO PRIO thread on CPU, with a seccomp filter that denies
 *	getppid() with EPERM, spins until the process has been stopped and
 *	continued (SIGSTOP/SIGCONT from outside: the main thread takes the
 *	SIGCONT with sigwait() and tells the spinner), then spins MS ms more and
 *	calls getppid(): a system call whose raw_syscalls:sys_enter the filter
 *	skips while its sys_exit still fires. Between the SIGCONT and getppid()
 *	the spinner makes no system call (the vDSO reads the clock).
 *	With -s it stops itself instead of spinning until stopped: a raw
 *	tgkill(SIGSTOP) of its own thread, which stops the process on that
 *	call's way back to user space, after its sys_exit; the SIGCONT then
 *	returns it there without another. (On PREEMPT_RT a spinner that
 *	waits to be stopped starves rcuc/CPU, and the stopper's own fork and
 *	exec then wait behind it.) "stopping spinner" replaces "spinning".
 *
 *   rt_hog pi [-w] -c CPU -p PRIO -C CPU2 -P PRIO2 -d MS
 *	an "owner" thread, SCHED_FIFO PRIO on CPU, takes a priority-
 *	inheritance mutex and spins for MS ms holding it; a "waiter" thread,
 *	SCHED_FIFO PRIO2 on CPU2, blocks on the mutex as soon as the owner
 *	holds it, which boosts the owner to PRIO2 for the rest of its spin
 *	(rt_mutex_setprio(): no context switch marks the boost or the
 *	deboost at the unlock)
 *
 * With -w, each thread takes its CPU and priority, prints its tid, and then
 * waits (asleep) for SIGUSR1 before it locks or spins; "ready" is printed
 * once every thread waits. So a test can start the hog, change what it
 * records, and only then let the wait behind it begin.
 *
 * Output: "tid <tid> <role>" per thread as it starts, "ready" (with -w),
 * "spinning <role>" when the spin begins, then "done <role> spun_ms <n>"
 * per thread ("done spinner spun_ms <n> getppid_errno <errno>" for
 * stopspin). Exit status 0, or 1 on an error
 * (printed on stderr), 2 on bad usage.
 *
 * WARNING: it spins at a real-time priority; RT throttling (95 % by
 * default) is all that keeps the CPU from being held for the whole time.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_MSEC	1000000LL
#define MAX_SPIN_MS	5000	/* longer spins would meet RT throttling */

/* struct hog - one thread: where and how it runs */
struct hog {
	const char *role;
	int cpu;
	int prio;
	long long spin_ms;	/* 0: the waiter, which blocks instead */
};

static pthread_mutex_t pi_mutex;
static atomic_bool owner_holds;
static atomic_bool failed;
static atomic_int nr_became;	/* threads that took their CPU and priority */
static atomic_bool started;	/* -w: SIGUSR1 came, or there was no -w */
static atomic_bool continued;	/* stopspin: the SIGCONT came */
static bool self_stop;		/* stopspin -s */

/* print_usage - print the command line and exit with @status */
static void print_usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: rt_hog spin [-w] -c CPU -p PRIO -d MS\n"
		"       rt_hog stopspin [-w] [-s] -c CPU -p PRIO -d MS\n"
		"       rt_hog pi [-w] -c CPU -p PRIO -C CPU2 -P PRIO2 -d MS\n");
	exit(status);
}

/* now_ns - CLOCK_MONOTONIC in nanoseconds */
static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* fail - report an error of a thread and remember it */
static void fail(const struct hog *h, const char *what, int err)
{
	fprintf(stderr, "rt_hog: %s: %s: %s\n", h->role, what, strerror(err));
	atomic_store(&failed, true);
}

/* become - pin the calling thread and make it SCHED_FIFO @h->prio */
static bool become(const struct hog *h)
{
	struct sched_param sp = { .sched_priority = h->prio };
	cpu_set_t set;
	int err;

	CPU_ZERO(&set);
	CPU_SET(h->cpu, &set);
	err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (err) {
		fail(h, "affinity", err);
		return false;
	}
	err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	if (err) {
		fail(h, "SCHED_FIFO", err);
		return false;
	}
	printf("tid %ld %s\n", (long)syscall(SYS_gettid), h->role);
	fflush(stdout);
	atomic_fetch_add(&nr_became, 1);
	return true;
}

/* wait_start - sleep until the main thread says go (at once without -w) */
static bool wait_start(void)
{
	const struct timespec tick = { 0, NSEC_PER_MSEC };

	while (!atomic_load(&started) && !atomic_load(&failed))
		nanosleep(&tick, NULL);
	return !atomic_load(&failed);
}

/* spin - burn the CPU for @ms milliseconds without a system call */
static void spin(long long ms)
{
	long long end = now_ns() + ms * NSEC_PER_MSEC;

	while (now_ns() < end)
		;
}

/* deny_getppid - from now on getppid() of this thread fails with EPERM, unseen by sys_enter */
static bool deny_getppid(const struct hog *h)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(code) / sizeof(code[0]),
		.filter = code,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		fail(h, "seccomp", errno);
		return false;
	}
	return true;
}

/*
 * stopspin_thread - spin until continued (or stop itself: -s), spin
 * @h->spin_ms more, then a denied getppid()
 */
static void *stopspin_thread(void *arg)
{
	struct hog *h = arg;
	long ret;
	int err;

	if (!become(h) || !deny_getppid(h) || !wait_start())
		return NULL;
	if (self_stop) {
		printf("stopping %s\n", h->role);
		fflush(stdout);
		/* Not raise(): glibc's makes more system calls after it. */
		if (syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), SIGSTOP)) {
			fail(h, "tgkill", errno);
			return NULL;
		}
	} else {
		printf("spinning %s\n", h->role);
		fflush(stdout);
		while (!atomic_load(&continued))
			;
	}
	spin(h->spin_ms);
	ret = syscall(SYS_getppid);
	err = ret < 0 ? errno : 0;
	printf("done %s spun_ms %lld getppid_errno %d\n", h->role, h->spin_ms, err);
	fflush(stdout);
	return NULL;
}

/* hog_thread - the spinner or the owner: spin, holding the mutex if there is one */
static void *hog_thread(void *arg)
{
	struct hog *h = arg;
	bool pi = !strcmp(h->role, "owner");
	int err;

	if (!become(h) || !wait_start())
		return NULL;
	if (pi) {
		err = pthread_mutex_lock(&pi_mutex);
		if (err) {
			fail(h, "lock", err);
			return NULL;
		}
		atomic_store(&owner_holds, true);
	}
	printf("spinning %s\n", h->role);
	fflush(stdout);
	spin(h->spin_ms);
	if (pi)
		pthread_mutex_unlock(&pi_mutex);
	printf("done %s spun_ms %lld\n", h->role, h->spin_ms);
	fflush(stdout);
	return NULL;
}

/* waiter_thread - block on the mutex once the owner holds it, boosting the owner */
static void *waiter_thread(void *arg)
{
	const struct timespec tick = { 0, NSEC_PER_MSEC };
	struct hog *h = arg;
	int err;

	if (!become(h) || !wait_start())
		return NULL;
	while (!atomic_load(&owner_holds) && !atomic_load(&failed))
		nanosleep(&tick, NULL);
	if (atomic_load(&failed))
		return NULL;
	err = pthread_mutex_lock(&pi_mutex);
	if (err) {
		fail(h, "lock", err);
		return NULL;
	}
	pthread_mutex_unlock(&pi_mutex);
	printf("done %s spun_ms 0\n", h->role);
	fflush(stdout);
	return NULL;
}

/* parse_number - a decimal option value in [lo, hi], or exit with the usage */
static long long parse_number(const char *s, long long lo, long long hi)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "rt_hog: want a number in %lld..%lld, got \"%s\"\n",
			lo, hi, s);
		print_usage(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	const struct timespec tick = { 0, NSEC_PER_MSEC };
	struct hog first = { .cpu = -1 }, second = { .cpu = -1 };
	pthread_t t1, t2;
	pthread_mutexattr_t attr;
	bool pi, stopspin, wait_go = false;
	int opt, err, sig, nr_threads;
	sigset_t go;

	if (argc < 2)
		print_usage(2);
	if (!strcmp(argv[1], "-h"))
		print_usage(0);
	pi = !strcmp(argv[1], "pi");
	stopspin = !strcmp(argv[1], "stopspin");
	if (!pi && !stopspin && strcmp(argv[1], "spin"))
		print_usage(2);
	optind = 2;
	while ((opt = getopt(argc, argv, "wsc:p:C:P:d:")) != -1) {
		switch (opt) {
		case 'w':
			wait_go = true;
			break;
		case 's':
			if (!stopspin)
				print_usage(2);
			self_stop = true;
			break;
		case 'c':
			first.cpu = parse_number(optarg, 0, CPU_SETSIZE - 1);
			break;
		case 'p':
			first.prio = parse_number(optarg, 1, 99);
			break;
		case 'C':
			second.cpu = parse_number(optarg, 0, CPU_SETSIZE - 1);
			break;
		case 'P':
			second.prio = parse_number(optarg, 1, 99);
			break;
		case 'd':
			first.spin_ms = parse_number(optarg, 1, MAX_SPIN_MS);
			break;
		default:
			print_usage(2);
		}
	}
	if (optind != argc || first.cpu < 0 || !first.prio || !first.spin_ms ||
	    (pi && (second.cpu < 0 || !second.prio)))
		print_usage(2);

	first.role = pi ? "owner" : "spinner";
	second.role = "waiter";
	nr_threads = pi ? 2 : 1;
	/* Blocked in every thread: only the main thread takes SIGUSR1. */
	sigemptyset(&go);
	sigaddset(&go, SIGUSR1);
	if (stopspin)
		sigaddset(&go, SIGCONT);
	pthread_sigmask(SIG_BLOCK, &go, NULL);
	sigdelset(&go, SIGCONT);
	atomic_store(&started, !wait_go);
	if (pi) {
		pthread_mutexattr_init(&attr);
		pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_INHERIT);
		pthread_mutex_init(&pi_mutex, &attr);
		pthread_mutexattr_destroy(&attr);
	}
	err = pthread_create(&t1, NULL, stopspin ? stopspin_thread : hog_thread,
			     &first);
	if (err) {
		fprintf(stderr, "rt_hog: pthread_create: %s\n", strerror(err));
		return 1;
	}
	if (pi) {
		err = pthread_create(&t2, NULL, waiter_thread, &second);
		if (err) {
			fprintf(stderr, "rt_hog: pthread_create: %s\n", strerror(err));
			atomic_store(&failed, true);
			pi = false;
		}
	}
	if (wait_go) {
		while (atomic_load(&nr_became) < nr_threads && !atomic_load(&failed))
			nanosleep(&tick, NULL);
		if (!atomic_load(&failed)) {
			printf("ready\n");
			fflush(stdout);
			sigwait(&go, &sig);
		}
		atomic_store(&started, true);
	}
	if (stopspin && !atomic_load(&failed)) {
		sigemptyset(&go);
		sigaddset(&go, SIGCONT);
		sigwait(&go, &sig);
		atomic_store(&continued, true);
	}
	if (pi)
		pthread_join(t2, NULL);
	pthread_join(t1, NULL);
	return atomic_load(&failed) ? 1 : 0;
}
