// SPDX-License-Identifier: GPL-2.0
/*
 * tsc-khz.c - print the rate of this machine's TSC in kHz, measured against CLOCK_MONOTONIC_RAW.
 *
 * A TCG guest's TSC is the host's (qemu reads the host TSC for the guest's rdtsc), so this
 * is the rate a guest's kernel should find. Its own calibration against the emulated PIT goes
 * wrong when the host is loaded ("PIT calibration deviates from HPET", a TSC rate five times
 * too low): scripts/vm-run.sh passes this value as tsc_early_khz= instead. Median of 5 rounds
 * of 40 ms; exits 1 if the rounds disagree by more than 0.1 % (no constant TSC) or the machine
 * is not x86.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>

#define ROUNDS 5

/* now_ns - CLOCK_MONOTONIC_RAW in nanoseconds */
static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* round_khz - TSC ticks per millisecond over about 40 ms of CLOCK_MONOTONIC_RAW */
static double round_khz(void)
{
	struct timespec pause = { 0, 40 * 1000 * 1000 };
	int64_t t0, t1;
	uint64_t c0, c1;

	t0 = now_ns();
	c0 = __rdtsc();
	nanosleep(&pause, NULL);
	c1 = __rdtsc();
	t1 = now_ns();
	return (double)(c1 - c0) * 1e6 / (double)(t1 - t0);
}

/* cmp_double - qsort order of doubles */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	double khz[ROUNDS];
	int i;

	for (i = 0; i < ROUNDS; i++)
		khz[i] = round_khz();
	qsort(khz, ROUNDS, sizeof(khz[0]), cmp_double);
	/* the middle three rounds must agree: a descheduling stretches one round, not three */
	if (khz[ROUNDS - 2] - khz[1] > khz[ROUNDS / 2] / 1000) {
		fprintf(stderr, "tsc-khz: rounds disagree (%.0f .. %.0f kHz)\n",
			khz[1], khz[ROUNDS - 2]);
		return 1;
	}
	printf("%.0f\n", khz[ROUNDS / 2]);
	return 0;
}
#else
int main(void)
{
	fprintf(stderr, "tsc-khz: not an x86 machine\n");
	return 1;
}
#endif
