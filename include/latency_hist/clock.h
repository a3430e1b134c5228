/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clock.h - the clock every window of every type is read on
 *
 * lh_clock_stamp() stamps windows that may start on one CPU and end on
 * another (wakeup, switchtime, the filing of a late timer);
 * lh_clock_local_stamp() those that start and end on one CPU with
 * interrupts or preemption off (critical sections). lh_clock_window_us()
 * turns the two stamps of a window into the sample; lh_clock_ns() is now in ns,
 * for the explain rings.
 *
 * Both read the cycle counter where the kernel vouches for it: a TSC at a
 * constant rate that does not stop, synchronized across CPUs (not marked
 * unstable), or one the kernel was told is reliable. That is what
 * local_clock() reads there too, through its per-CPU scaling and a
 * seqcount, for a tenth of the instructions. A stamp is the raw count,
 * and its generation's mark, read in the same load that tells whether the
 * counter is read at all. A window's microseconds are the difference of
 * its two ends' ns divided by 1000, with a mult/shift computed at load and
 * again when the kernel refines the TSC's rate (module/clock.c); one
 * scaling of its length tells them in 999 windows of 1000 (clock_scale.h):
 * two multiplies per sample instead of one per reading and a division.
 * Elsewhere they read the kernel's clocks:
 * ktime_get_mono_fast_ns() (CLOCK_MONOTONIC, the same on every CPU) and
 * local_clock() (consistent on one CPU).
 *
 * The kernel marks a TSC unstable when its watchdog sees it drift (it
 * checks every half second); timekeeping's next update, within a tick,
 * tells module/clock.c, which falls back for good, so the probes never ask
 * themselves. A cycle-counter reading carries LH_CLOCK_CYCLES_BIT, so a
 * window whose two ends were read on different clocks (the fall back came
 * while it was open) is told apart and dropped (lh_clock_window_us()),
 * never filed. So is one open across a rescale or a resume from S3 or
 * hibernation, where the count may restart (local_clock() hides that behind
 * an offset the kernel rewrites at resume; a raw stamp has none): its ends
 * carry different generations (LH_CLOCK_SCALE_BIT). One bit tells two
 * generations apart; a window open across two of them in a row is not
 * told apart: between two suspends every task runs into the freezer,
 * which closes its windows, and explain's replay restarts where the time
 * of one generation steps back (explain_replay.c).
 * Only differences of two stamps mean
 * anything; lh_clock_mono_ns() gives CLOCK_MONOTONIC for a record's
 * timestamp.
 */
#ifndef LH_CLOCK_H
#define LH_CLOCK_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/math64.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/timekeeping.h>
#include <linux/types.h>

#include <latency_hist/clock_scale.h>
#include <latency_hist/compat.h>

#ifdef LH_HAVE_TSC_CLOCK
#include <asm/tsc.h>
#endif
#ifdef LH_HAVE_ARCH_TIMER_CLOCK
#include <clocksource/arm_arch_timer.h>
#endif

#define LH_CLOCK_CYCLES_BIT	BIT_ULL(63)	/* read on the cycle counter */
#define LH_CLOCK_SCALE_BIT	BIT_ULL(62)	/* ...in an odd scale generation */
#define LH_CLOCK_MARK		(LH_CLOCK_CYCLES_BIT | LH_CLOCK_SCALE_BIT)
#define LH_CLOCK_MARK_SHIFT	62		/* a stamp >> it: its mark's bits */

/*
 * struct lh_clock - the clock the probes read; written at load, by a fall
 * back, a rescale and a resume (module/clock.c), read by every probe
 * @mult:   per generation, by the mark's bits (lh_clock_mult_slot()): a
 *          generation's mult is written before its @mark is published, and
 *          read through a stamp's own mark, so a stamp is scaled at the
 *          rate of its generation
 * @shift:  cycles to ns: ns = cycles * mult >> @shift; set at load
 * @mark:   the top bits of a cycle stamp: LH_CLOCK_CYCLES_BIT, with
 *          LH_CLOCK_SCALE_BIT in odd generations (a rescale or a resume
 *          starts the next); 0 while the kernel's clocks are read (before
 *          load's choice, after a fall back). One read tells a stamp both.
 *          Its low half is 0: a 32-bit kernel's torn read is harmless.
 */
struct lh_clock {
	u32 mult[4];
	u32 shift;
	u64 mark;
};

extern struct lh_clock lh_clock;

#ifdef LH_HAVE_TSC_CLOCK
#define LH_CYCLE_CLOCK_NAME	"tsc"

/* lh_cycles - this CPU's cycle counter, as native_sched_clock() reads it */
static __always_inline u64 lh_cycles(void)
{
	return rdtsc();
}

#elif defined(LH_HAVE_ARCH_TIMER_CLOCK)
#define LH_CYCLE_CLOCK_NAME	"arch_counter"

/*
 * lh_cycles - the architected timer's counter, as the kernel's clocksource
 * and sched_clock read it: virtual or physical as the timer driver chose,
 * through the erratum workaround this CPU needs, if any
 */
static __always_inline u64 lh_cycles(void)
{
	return arch_timer_read_counter();
}

#else
/* lh_cycles - no cycle clock here: never read (lh_clock.mark stays 0) */
static __always_inline u64 lh_cycles(void)
{
	return 0;
}

#endif

/*
 * lh_clock_mark - the mark of a cycle stamp read now, 0 if stamps are read
 * on the kernel's clocks: a probe reads it once, for both
 */
static __always_inline u64 lh_clock_mark(void)
{
	return READ_ONCE(lh_clock.mark);
}

/*
 * lh_clock_marks_cycles - is @mark, as lh_clock_mark() read it, a cycle
 * stamp's? Tested as its LH_CLOCK_CYCLES_BIT, the sign, so that the
 * compiler knows the stamps read with it for cycle stamps, and drops that
 * test from lh_clock_cycles_us() where the stamp is the end
 */
static __always_inline bool lh_clock_marks_cycles(u64 mark)
{
	return likely((s64)mark < 0);
}

/* lh_clock_on_cycles - are stamps read on the cycle counter (until a fall back)? */
static __always_inline bool lh_clock_on_cycles(void)
{
	return lh_clock_marks_cycles(lh_clock_mark());
}

/*
 * lh_cycle_stamp - now on the cycle counter, with @mark, what
 * lh_clock_mark() read (a cycle stamp's): the count (below 2^62: decades
 * at 5 GHz) and its generation's mark
 */
static __always_inline u64 lh_cycle_stamp(u64 mark)
{
	return lh_cycles() | mark;
}

/*
 * lh_clock_stamp - now, for a window that may end on another CPU: raw
 * cycles marked LH_CLOCK_CYCLES_BIT, or CLOCK_MONOTONIC ns. Only
 * lh_clock_window_us(), lh_clock_delta_ns() and lh_clock_stamp_ns() read it.
 */
static __always_inline u64 lh_clock_stamp(void)
{
	u64 mark = lh_clock_mark();

	if (lh_clock_marks_cycles(mark))
		return lh_cycle_stamp(mark);
	return ktime_get_mono_fast_ns();
}

/* lh_clock_local_stamp - now, for a window that ends on this CPU */
static __always_inline u64 lh_clock_local_stamp(void)
{
	u64 mark = lh_clock_mark();

	if (lh_clock_marks_cycles(mark))
		return lh_cycle_stamp(mark);
	return local_clock();
}

/*
 * lh_clock_mult_slot - where the mult of the generation of mark (or cycle
 * stamp) @mark is kept: indexed by the mark's bits, 2 or 3, with no
 * masking
 */
static __always_inline u32 *lh_clock_mult_slot(u64 mark)
{
	return &lh_clock.mult[mark >> LH_CLOCK_MARK_SHIFT];
}

/*
 * lh_clock_set_cycles - stamp on the cycle counter from now on, in the first
 * generation, at @mult/@shift: at load, before anything is hooked
 */
static inline void lh_clock_set_cycles(u32 mult, u32 shift)
{
	lh_clock.shift = shift;
	*lh_clock_mult_slot(LH_CLOCK_CYCLES_BIT) = mult;
	WRITE_ONCE(lh_clock.mark, LH_CLOCK_CYCLES_BIT);
}

/*
 * lh_clock_mult - the mult of cycle stamp @stamp's generation: an address
 * dependency on the stamp's mark, which orders it after the mark's read
 */
static __always_inline u32 lh_clock_mult(u64 stamp)
{
	return READ_ONCE(*lh_clock_mult_slot(stamp));
}

/* lh_clock_cycles_ns - cycle stamp @stamp as ns, without its mark */
static __always_inline u64 lh_clock_cycles_ns(u64 stamp)
{
	return lh_cycles_scale(stamp & ~LH_CLOCK_MARK, lh_clock_mult(stamp),
			       lh_clock.shift);
}

/*
 * lh_clock_delta_ns - ns from stamp @start to stamp @end, one clock: on
 * the cycle counter, the difference of the two on the time line of
 * lh_clock_stamp_ns(), so that it is what explain's records hold
 */
static __always_inline s64 lh_clock_delta_ns(u64 start, u64 end)
{
	if (end & LH_CLOCK_CYCLES_BIT)
		return lh_cycles_window_ns(start, end, lh_clock_mult(end),
					   lh_clock.shift);
	return end - start;
}

/*
 * lh_clock_stamp_ns - a stamp as ns on the time line of lh_clock_ns(),
 * keeping its clock's mark
 */
static __always_inline u64 lh_clock_stamp_ns(u64 stamp)
{
	if (stamp & LH_CLOCK_CYCLES_BIT)
		return lh_clock_cycles_ns(stamp) | (stamp & LH_CLOCK_MARK);
	return stamp;
}

/*
 * lh_clock_ns - now in ns, for the explain rings, whose records are
 * compared with windows' ends: lh_clock_stamp_ns(lh_clock_stamp())
 */
static __always_inline u64 lh_clock_ns(void)
{
	return lh_clock_stamp_ns(lh_clock_stamp());
}

/*
 * lh_clock_differs - were stamps (or ns) @a and @b read on different
 * clocks, or on the cycle counter in different scale generations? (The
 * kernel's clocks reach bit 62 after 146 years.)
 */
static __always_inline bool lh_clock_differs(u64 a, u64 b)
{
	return (a ^ b) & LH_CLOCK_MARK;
}

/* lh_clock_window_us() of a window whose ends were read on two clocks */
#define LH_CLOCK_MIXED		S64_MIN

s64 lh_clock_window_us_slow(u64 start, u64 end);

/*
 * The windows of the inline case are less long: 2^31 counts are 0.43 s at
 * 5 GHz, more than any histogram's range, and less than the 2^54 ns
 * lh_cycles_window_us_quick() takes for any counter above 120 Hz. Stamps
 * of two clocks or generations, or out of order, are further apart (less
 * than 2^62 counts each, their marks differ by 2^62 or more, or the
 * difference wraps).
 */
#define LH_CLOCK_WINDOW_MAX	BIT_ULL(31)

/*
 * lh_clock_cycles_us - the case of 999 samples in 1000 where the cycle
 * counter is used: both stamps on it, in one generation, @end not before
 * @start and less than LH_CLOCK_WINDOW_MAX after it, and one scaling tells
 * (lh_cycles_window_us_quick()); then true, with the whole microseconds
 * from @start to @end in @us: lh_clock_delta_ns() / 1000. Calls nothing,
 * divides by nothing.
 */
static __always_inline bool lh_clock_cycles_us(u64 start, u64 end, s64 *us)
{
	u64 quick_us;

	if (unlikely((s64)end >= 0 || end - start >= LH_CLOCK_WINDOW_MAX))
		return false;
	if (unlikely(!lh_cycles_window_us_quick(start, end, lh_clock_mult(end),
						lh_clock.shift, &quick_us)))
		return false;
	*us = quick_us;
	return true;
}

/*
 * lh_clock_window_us - whole microseconds from stamp @start to stamp @end
 * in @us, truncated as div_s64() does; false if the two were read on
 * different clocks (counted in status, never filed). Only
 * lh_clock_cycles_us() is inline.
 */
static __always_inline bool lh_clock_window_us(u64 start, u64 end, s64 *us)
{
	if (lh_clock_cycles_us(start, end, us))
		return true;
	*us = lh_clock_window_us_slow(start, end);
	return *us != LH_CLOCK_MIXED;
}

enum lh_hist_id;

u64 lh_clock_mono_ns(u64 now);
int lh_clock_init(void);
void lh_clock_exit(void);
void lh_clock_status(struct seq_file *m, enum lh_hist_id id);

#endif /* LH_CLOCK_H */
