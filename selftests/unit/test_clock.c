// SPDX-License-Identifier: GPL-2.0
/*
 * test_clock.c - host-side unit tests of the cycle-counter scaling
 * (include/latency_hist/clock_scale.h, compiled unchanged: on an x86-64
 * host its mulq/shrdq, elsewhere the generic mul_u64_u32_shr(); the
 * Makefile builds it again as for other 64-bit kernels and as for 32-bit
 * ones, LH_TEST_NO_X86 and LH_TEST_NO_INT128).
 *
 * For realistic rates (x86 TSCs in kHz, ARM architected counters in Hz)
 * and many windows (random ends over days of uptime, lengths from one
 * cycle to an hour, lengths aimed at microsecond boundaries, where a
 * rounding shows, and lengths whose own ns end in 999, where the ends' ns
 * may be one more), it checks against exact integer arithmetic:
 *  - the sample is its window's ns / 1000, always: explain's records hold
 *    those ns, and explain.sh checks window_ns / 1000 == the maximum. The
 *    probes' inline case (lh_cycles_window_us_quick()) gives it, or says
 *    it cannot exactly where its length's ns end in 999, and the slow path
 *    divides lh_cycles_window_ns(); the windows whose length's ns end in
 *    999 while their ends' ns are a whole us apart are counted, and must
 *    be seen where a count is not a whole number of ns;
 *  - the window's ns are within 1 ns + 1 ns per second of the exact
 *    cycles * 10^9 / rate, and the sample is the exact
 *    floor(cycles * 10^6 / rate) unless the exact ns are that close to a
 *    microsecond boundary;
 *  - the mult leaves a factor of two of headroom (a refined rate is taken
 *    with the same shift), the shift is at most 32, and 32-bit kernels'
 *    mul_u64_u32_shr() gives the same ns;
 *  - the same two marks in bits 62-63 of both ends (clock.h's cycle and
 *    generation bits) leave window_ns and the sample as they are;
 *  - lh_ns_to_us_unless_999() is ns / 1000 but for ns that end in 999, up
 *    to the 2^54 ns it takes.
 * Prints KTAP; exits non-zero on any failure.
 */
#include <stdio.h>
#include <stdlib.h>

#include <linux/types.h>

#if defined(__SIZEOF_INT128__) && !defined(LH_TEST_NO_INT128)
#define CONFIG_ARCH_SUPPORTS_INT128 1	/* arm64's ns to us */
#endif
#if defined(__x86_64__) && !defined(LH_TEST_NO_X86)
#define CONFIG_X86_64 1		/* the kernel's mulq/shrdq and mulq */
#endif
/* else the shim's mul_u64_u32_shr(), as 64-bit kernels with __int128 do it */
#ifndef __always_inline
#define __always_inline inline
#endif

#include <latency_hist/clock_scale.h>

#include "ktap.h"

#define NR_RANDOM	200000	/* windows of random length per rate */
#define NR_BOUNDARY	200000	/* windows aimed at a microsecond boundary */
#define NR_STRADDLE	100000	/* lengths of k us - 1 ns, two windows each */
#define HOUR_S		3600
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct rate {
	u32 freq;	/* counts per unit */
	u32 to;		/* ns per unit */
	const char *what;
};

static const struct rate rates[] = {
	{ 1000000, 1000000, "TSC 1 GHz" },
	{ 1799999, 1000000, "TSC 1.8 GHz" },
	{ 1995381, 1000000, "TSC 1995.381 MHz" },
	{ 2099999, 1000000, "TSC 2.1 GHz" },
	{ 2399996, 1000000, "TSC 2.4 GHz" },
	{ 2592000, 1000000, "TSC 2.592 GHz" },
	{ 2893202, 1000000, "TSC 2893.202 MHz" },
	{ 3192614, 1000000, "TSC 3192.614 MHz" },
	{ 3493442, 1000000, "TSC 3493.442 MHz" },
	{ 3799998, 1000000, "TSC 3.8 GHz" },
	{ 4491540, 1000000, "TSC 4491.540 MHz" },
	{ 4999999, 1000000, "TSC 5 GHz" },
	{ 19200000, 1000000000, "arch counter 19.2 MHz" },
	{ 24000000, 1000000000, "arch counter 24 MHz" },
	{ 25000000, 1000000000, "arch counter 25 MHz" },
	{ 54000000, 1000000000, "arch counter 54 MHz" },
	{ 62500000, 1000000000, "arch counter 62.5 MHz (qemu virt)" },
	{ 100000000, 1000000000, "arch counter 100 MHz" },
	{ 1000000000, 1000000000, "arch counter 1 GHz (ARMv8.6)" },
};

static u64 rng = 0x9e3779b97f4a7c15ULL;

/* check_rate - one KTAP result line about rate @r */
static void check_rate(const struct rate *r, int ok, const char *what)
{
	char line[160];

	snprintf(line, sizeof(line), "%s: %s", r->what, what);
	check(ok, line);
}

/* rand64 - xorshift64*: the same windows on every run */
static u64 rand64(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

/* kernel32_mul_u64_u32_shr - include/linux/math64.h's 32-bit version */
static u64 kernel32_mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	u32 ah = a >> 32, al = (u32)a;
	u64 ret;

	ret = ((u64)al * mul) >> shift;
	if (ah)
		ret += ((u64)ah * mul) << (32 - shift);
	return ret;
}

struct tally {
	u64 windows;
	u64 not_window_ns;	/* us != window_ns / 1000 */
	u64 ns_off;		/* |window_ns - exact| beyond the bound */
	u64 us_off;		/* us != exact, not near a boundary */
	u64 us_near;		/* us != exact, near a boundary (allowed) */
	u64 ns32_off;		/* the 32-bit product differs */
	u64 marked_off;		/* equal marks above bit 62 do not cancel */
	u64 straddles;		/* length's ns end in 999, window_ns 1 more */
	u64 slow;		/* the inline case could not tell */
	u64 quick_off;		/* ...where it could, or the other way */
	u64 worst_start, worst_cycles;
};

/*
 * one_window - scale [start, start + cycles] at @r's @mult/@shift and
 * check it against exact arithmetic into @t
 */
static void one_window(const struct rate *r, u32 mult, u32 shift, u64 start,
		       u64 cycles, struct tally *t)
{
	u64 end = start + cycles;
	u64 ns = lh_cycles_window_ns(start, end, mult, shift);
	u64 length_ns = lh_cycles_scale(cycles, mult, shift);
	u64 us, marked_us;
	int quick = lh_cycles_window_us_quick(start, end, mult, shift, &us);
	__uint128_t num = (__uint128_t)cycles * r->to;	/* exact ns = num / freq */
	u64 exact_us = (u64)(num / ((__uint128_t)r->freq * 1000));
	/* bound in ns: 1 + 1 per second, times freq to compare with num */
	__uint128_t bound = (__uint128_t)r->freq + num / 1000000000 + 1;
	__uint128_t ns_num = (__uint128_t)ns * r->freq;
	__uint128_t dist, rem;
	int bad = 0;

	t->windows++;
	if (length_ns % 1000 == 999 && ns == length_ns + 1)
		t->straddles++;
	if (quick != (length_ns % 1000 != 999)) {
		t->quick_off++;
		bad = 1;
	}
	if (!quick) {
		/* lh_clock_window_us_slow(): the ends' own ns / 1000 */
		t->slow++;
		us = ns / 1000;
	}
	if (us != ns / 1000) {
		t->not_window_ns++;
		bad = 1;
	}
	if ((ns_num > num ? ns_num - num : num - ns_num) > bound) {
		t->ns_off++;
		bad = 1;
	}
	if (us != exact_us) {
		/* distance of the exact ns from the nearest us boundary */
		rem = num % ((__uint128_t)r->freq * 1000);
		dist = rem < (__uint128_t)r->freq * 500 ? rem :
		       (__uint128_t)r->freq * 1000 - rem;
		if (dist <= bound) {
			t->us_near++;
		} else {
			t->us_off++;
			bad = 1;
		}
	}
	if (lh_cycles_window_ns(start | 2ULL << 62, end | 2ULL << 62, mult,
				shift) != ns ||
	    lh_cycles_window_ns(start | 3ULL << 62, end | 3ULL << 62, mult,
				shift) != ns ||
	    lh_cycles_window_us_quick(start | 2ULL << 62, end | 2ULL << 62,
				      mult, shift, &marked_us) != quick ||
	    (quick && marked_us != us) ||
	    lh_cycles_window_us_quick(start | 3ULL << 62, end | 3ULL << 62,
				      mult, shift, &marked_us) != quick ||
	    (quick && marked_us != us)) {
		t->marked_off++;
		bad = 1;
	}
	if (shift <= 32 &&
	    kernel32_mul_u64_u32_shr(end, mult, shift) !=
	    lh_cycles_scale(end, mult, shift))
		t->ns32_off++;
	if (bad && !t->worst_cycles) {
		t->worst_start = start;
		t->worst_cycles = cycles;
	}
}

/*
 * straddle_windows - two windows whose length's ns are k us - 1 (the
 * shortest and the longest such length), from a random start: with the
 * start's fraction of a ns, their ends' ns are k us apart or 1 less
 */
static void straddle_windows(const struct rate *r, u32 mult, u32 shift,
			     struct tally *t)
{
	u64 start = rand64() >> 12;
	u64 ns = (rand64() % 10000000 + 1) * 1000 - 1;
	/* the lengths whose ns are @ns, if any: from first to last */
	u64 first = (u64)((((__uint128_t)ns << shift) + mult - 1) / mult);
	u64 last = (u64)((((__uint128_t)(ns + 1) << shift) - 1) / mult);

	one_window(r, mult, shift, start, first, t);
	if (last > first)
		one_window(r, mult, shift, start, last, t);
}

/* test_rate - the windows of one rate */
static void test_rate(const struct rate *r)
{
	u32 shift = lh_clock_calc_shift(r->freq, r->to);
	u64 mult = lh_clock_calc_mult(r->freq, r->to, shift);
	u64 hour = (u64)r->freq * HOUR_S * (1000000000 / r->to);
	double per_us = (double)r->freq / r->to * 1000;
	struct tally t = { 0 };
	char what[80];
	int i;

	snprintf(what, sizeof(what),
		 "shift %u <= 32, mult %llu < 2^31 with 29 bits or more",
		 shift, (unsigned long long)mult);
	check_rate(r, shift <= LH_CLOCK_SHIFT_MAX &&
		   mult < LH_CLOCK_MULT_LOAD_MAX && mult >= 1ULL << 29, what);
	for (i = 0; i < NR_RANDOM; i++) {
		/* ends anywhere in 2^52 counts: weeks at 5 GHz */
		u64 start = rand64() >> 12;
		/* lengths log-uniform from 1 count to an hour */
		int bits = rand64() % 64;
		u64 cycles = (rand64() >> (64 - bits - 1)) % hour + 1;

		one_window(r, mult, shift, start, cycles, &t);
	}
	for (i = 0; i < NR_BOUNDARY; i++) {
		/* k us, for k up to 10 s, give or take a count or two */
		u64 start = rand64() >> 12;
		u64 k = rand64() % 10000000 + 1;
		u64 cycles = (u64)(k * per_us) + rand64() % 5;

		one_window(r, mult, shift, start, cycles - 2, &t);
	}
	for (i = 0; i < NR_STRADDLE; i++)
		straddle_windows(r, mult, shift, &t);
	if (t.not_window_ns || t.ns_off || t.us_off) {
		printf("# %s: of %llu windows, %llu us != window_ns / 1000,\n",
		       r->what, (unsigned long long)t.windows,
		       (unsigned long long)t.not_window_ns);
		printf("# %llu ns off by more than 1 + 1/s, %llu us not the exact floor\n",
		       (unsigned long long)t.ns_off,
		       (unsigned long long)t.us_off);
		printf("# first: start %llu, %llu counts\n",
		       (unsigned long long)t.worst_start,
		       (unsigned long long)t.worst_cycles);
	} else {
		printf("# %s: %llu windows, %llu within a rounding of a us boundary,\n",
		       r->what, (unsigned long long)t.windows,
		       (unsigned long long)t.us_near);
		printf("# %llu a ns longer than their length's k us - 1,\n",
		       (unsigned long long)t.straddles);
		printf("# %llu on the slow path\n", (unsigned long long)t.slow);
	}
	check_rate(r, !t.not_window_ns, "us == window_ns / 1000 always");
	check_rate(r, !t.quick_off,
		   "one scaling tells but where the length's ns end in 999");
	check_rate(r, !t.ns_off,
		   "window_ns within 1 ns + 1 ns/s of the exact ns");
	check_rate(r, !t.us_off, "us the exact floor but at a us boundary");
	check_rate(r, !t.ns32_off,
		   "32-bit mul_u64_u32_shr() gives the same ns");
	check_rate(r, !t.marked_off,
		   "equal marks in bits 62-63 cancel in window_ns and us");
	/* a count of whole ns (mult a multiple of 2^shift) has no fraction */
	check_rate(r, t.straddles || !(mult & ((1ULL << shift) - 1)),
		   "windows a ns longer than their length's k us - 1 seen");
}

/*
 * ns_to_us_one - one value through lh_ns_to_us_unless_999(): is it @ns /
 * 1000 unless @ns ends in 999, and false exactly then?
 */
static int ns_to_us_one(u64 ns)
{
	u64 us = ~0ULL;
	bool ok = lh_ns_to_us_unless_999(ns, &us);

	return ns % 1000 == 999 ? !ok : ok && us == ns / 1000;
}

/* test_ns_to_us - lh_ns_to_us_unless_999() at and between us boundaries */
static void test_ns_to_us(void)
{
	const u64 top = (1ULL << 54) - 1;	/* the largest it takes */
	u64 bad = 0, ns, k;
	int i;

	for (ns = 0; ns < 3000000; ns++)
		bad += !ns_to_us_one(ns);
	for (ns = top - 3000000; ns <= top; ns++)
		bad += !ns_to_us_one(ns);
	for (i = 0; i < 1000000; i++) {
		k = rand64() % (top / 1000) * 1000;
		bad += !ns_to_us_one(k) + !ns_to_us_one(k + 999) +
		       !ns_to_us_one(k + rand64() % 1000);
	}
	if (bad)
		printf("# %llu values not ns / 1000 or not told to end in 999\n",
		       (unsigned long long)bad);
	check(!bad, "ns to us: ns / 1000, false exactly where ns ends in 999, below 2^54");
}

int main(void)
{
	size_t i;

	ktap_begin();
	test_ns_to_us();
	for (i = 0; i < ARRAY_SIZE(rates); i++)
		test_rate(&rates[i]);
	return ktap_end();
}
