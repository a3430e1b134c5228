/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clock_scale.h - the arithmetic that turns cycle counts into ns and us,
 * apart from the counter reads of clock.h, so that the host unit tests
 * (selftests/unit/test_clock.c) run the very code the probes run.
 *
 * ns = cycles * mult >> shift. The product is taken in full (128 bits on
 * x86-64, 96 on 32-bit kernels), so, unlike a clocksource's, the mult need
 * not leave room for hours of cycles in 64 bits: it keeps 29 to 31
 * significant bits, an error of at most 1 ns per second of window plus
 * the 1 ns of truncation, where the 21 bits of a 3600 s clocksource scale
 * were off by up to 1 us in 2 s. It stays below 2^31 at load so that a
 * rate refined by the kernel later (down to half the first) is taken with
 * the same shift (clock.c), and the shift stays at most 32, which the
 * 32-bit kernels' mul_u64_u32_shr() needs.
 *
 * A window's us are not scaled from its cycles on their own: they are its
 * ns on the time line of its two ends, divided by 1000, and those ns are
 * what explain's records hold (lh_clock_stamp_ns()). So a record's
 * window_ns / 1000 is the sample it explains, whatever the rounding.
 */
#ifndef LH_CLOCK_SCALE_H
#define LH_CLOCK_SCALE_H

#include <linux/math64.h>
#include <linux/types.h>

#define LH_CLOCK_SHIFT_MAX	32
#define LH_CLOCK_MULT_LOAD_MAX	0x80000000ULL	/* 2^31 at load: 2x headroom */

#ifdef CONFIG_X86_64
/*
 * lh_cycles_scale - @cycles * @mult >> @shift (@shift < 64): one mulq and
 * one shrdq. The generic mul_u64_u32_shr()'s 128-bit product made the
 * compiler realign the stack and save a register more in every probe.
 */
static __always_inline u64 lh_cycles_scale(u64 cycles, u32 mult, u32 shift)
{
	u64 ns;

	asm ("mulq %2\n\tshrdq %%cl, %%rdx, %%rax"
	     : "=a" (ns)
	     : "0" (cycles), "rm" ((u64)mult), "c" (shift)
	     : "rdx", "cc");
	return ns;
}
#else
/* lh_cycles_scale - @cycles * @mult >> @shift (@shift <= 32) */
static __always_inline u64 lh_cycles_scale(u64 cycles, u32 mult, u32 shift)
{
	return mul_u64_u32_shr(cycles, mult, shift);
}
#endif

/*
 * lh_ns_to_us - whole microseconds in @ns: a division by a constant, which
 * compilers turn into a multiply (do_div()'s constant case on 32-bit)
 */
static __always_inline u64 lh_ns_to_us(u64 ns)
{
	return div_u64(ns, 1000);
}

/*
 * 2^64 / 1000, rounded up. For n = 1000 k + r below 2^54, the high half of
 * n * LH_US_RECIP_2_64 is k (Lemire, Kaser and Kurz, "Faster remainder by
 * direct computation", 2019: 64 >= 54 + log2(1000)), and its low half is
 * r * LH_US_RECIP_2_64 + 384 k: at least 2^64 - LH_US_RECIP_2_64 exactly
 * where r is 999 (1000 * LH_US_RECIP_2_64 is 2^64 + 384).
 */
#define LH_US_RECIP_2_64	18446744073709552ULL

#ifdef CONFIG_X86_64
/*
 * lh_ns_to_us_unless_999 - @ns / 1000 in @us, unless @ns ends in 999: then
 * false. One mulq, and an add that carries exactly then. @ns is below 2^54
 * (208 days).
 */
static __always_inline bool lh_ns_to_us_unless_999(u64 ns, u64 *us)
{
	/* from memory: no movabs, and no register to hold it */
	static const u64 recip = LH_US_RECIP_2_64;
	u64 low, high;
	bool ok;

	/* the add in the asm, where its carry is the answer */
	asm ("mulq %[recip]\n\taddq %[recip], %%rax"
	     : "=a" (low), "=&d" (high), "=@ccnc" (ok)
	     : "0" (ns), [recip] "m" (recip));
	*us = high;
	return ok;
}
#elif defined(CONFIG_ARCH_SUPPORTS_INT128) && defined(__SIZEOF_INT128__)
/* lh_ns_to_us_unless_999 - as above, in C (arm64: a mul and a umulh) */
static __always_inline bool lh_ns_to_us_unless_999(u64 ns, u64 *us)
{
	unsigned __int128 p = (unsigned __int128)ns * LH_US_RECIP_2_64;

	*us = p >> 64;
	return (u64)p < -LH_US_RECIP_2_64;
}
#else
/*
 * lh_ns_to_us_unless_999 - @ns / 1000 in @us, unless @ns ends in 999: then
 * false (32-bit kernels: a division by a constant and its remainder)
 */
static __always_inline bool lh_ns_to_us_unless_999(u64 ns, u64 *us)
{
	*us = lh_ns_to_us(ns);
	return ns - *us * 1000 != 999;
}
#endif

/*
 * lh_cycles_window_ns - ns from count @start to count @end on the time line
 * of the counts' own ns: what explain's records hold. Equal bits above the
 * 62nd (clock.h's marks) cancel: they add to both products a multiple of
 * 2^shift, and the difference is taken modulo 2^64.
 */
static __always_inline u64 lh_cycles_window_ns(u64 start, u64 end, u32 mult,
					       u32 shift)
{
	return lh_cycles_scale(end, mult, shift) -
	       lh_cycles_scale(start, mult, shift);
}

/*
 * lh_cycles_window_us_quick - whole microseconds from count @start to count
 * @end in @us, lh_cycles_window_ns() / 1000, by one scaling; false, @us
 * unset, in the one window in 1000 where that does not tell. @end is not
 * before @start, both carry the same marks, and they are less than 2^54 ns
 * apart (208 days).
 *
 * The difference's ns are the window's or one less: the floors of the two
 * ends' products are apart by the floor of the difference's, or by one
 * more where the start's fraction of a ns and the difference's add up to a
 * whole one. So they tell the window's microseconds, but where they end in
 * 999: there the ends' own ns decide (lh_cycles_window_ns()).
 */
static __always_inline bool lh_cycles_window_us_quick(u64 start, u64 end,
						      u32 mult, u32 shift,
						      u64 *us)
{
	return lh_ns_to_us_unless_999(lh_cycles_scale(end - start, mult, shift),
				      us);
}

/*
 * lh_clock_calc_mult - the mult, at @shift, of a counter of @freq counts
 * per unit that is @to ns: (@to << @shift) / @freq, rounded. Not in probes:
 * a division. Larger than U32_MAX if it does not fit.
 */
static inline u64 lh_clock_calc_mult(u32 freq, u32 to, u32 shift)
{
	return div_u64(((u64)to << shift) + freq / 2, freq);
}

/*
 * lh_clock_calc_shift - the largest shift up to LH_CLOCK_SHIFT_MAX at which
 * the mult of @freq counts per @to ns is below LH_CLOCK_MULT_LOAD_MAX
 */
static inline u32 lh_clock_calc_shift(u32 freq, u32 to)
{
	u32 shift = LH_CLOCK_SHIFT_MAX;

	while (shift && lh_clock_calc_mult(freq, to, shift) >=
			LH_CLOCK_MULT_LOAD_MAX)
		shift--;
	return shift;
}

#endif /* LH_CLOCK_SCALE_H */
