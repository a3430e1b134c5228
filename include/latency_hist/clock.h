/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clock.h - the clock every window of every type is read on
 *
 * lh_clock_ns() stamps windows that may start on one CPU and end on
 * another (wakeup, switchtime, the explain rings, the filing of a late
 * timer); lh_clock_local_ns() those that start and end on one CPU with
 * interrupts or preemption off (critical sections).
 *
 * Both read the cycle counter and scale it with a mult/shift computed at
 * load (module/clock.c) where the kernel vouches for it: a TSC at a
 * constant rate that does not stop, synchronized across CPUs (not marked
 * unstable), or one the kernel was told is reliable. That is what
 * local_clock() reads there too, through its per-CPU scaling and a
 * seqcount, for a tenth of the instructions. Elsewhere they read the
 * kernel's clocks: ktime_get_mono_fast_ns() (CLOCK_MONOTONIC, the same on
 * every CPU) and local_clock() (consistent on one CPU).
 *
 * The kernel marks a TSC unstable when its watchdog sees it drift; the
 * end of each window asks (lh_clock_window_ok()), drops the window and
 * falls back for good. A cycle-counter reading carries LH_CLOCK_CYCLES_BIT,
 * so a window whose two ends were read on different clocks (the fall back
 * came while it was open) is told apart and dropped, never filed. Only
 * differences of two readings mean anything; lh_clock_mono_ns() gives
 * CLOCK_MONOTONIC for a record's timestamp.
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

#include <latency_hist/compat.h>

#ifdef LH_HAVE_TSC_CLOCK
#include <asm/tsc.h>
#endif

#define LH_CLOCK_CYCLES_BIT	BIT_ULL(63)

/*
 * struct lh_clock - the clock the probes read; written at load and once
 * more by a fall back, read by every probe (one cache line)
 * @cycles: read the cycle counter (else the kernel's clocks)
 * @mult:   cycles to ns: ns = cycles * @mult >> @shift
 * @shift:  see @mult
 */
struct lh_clock {
	bool cycles;
	u32 mult;
	u32 shift;
};

extern struct lh_clock lh_clock;

#ifdef LH_HAVE_TSC_CLOCK
/* lh_cycles - this CPU's cycle counter, as native_sched_clock() reads it */
static __always_inline u64 lh_cycles(void)
{
	return rdtsc();
}

/* lh_cycles_unstable - has the kernel stopped trusting the counter? */
static __always_inline bool lh_cycles_unstable(void)
{
	return check_tsc_unstable();
}
#else
/* lh_cycles - no cycle clock here: never read (lh_clock.cycles stays false) */
static __always_inline u64 lh_cycles(void)
{
	return 0;
}

/* lh_cycles_unstable - no cycle clock here */
static __always_inline bool lh_cycles_unstable(void)
{
	return true;
}
#endif

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
/* lh_cycles_scale - @cycles * @mult >> @shift */
static __always_inline u64 lh_cycles_scale(u64 cycles, u32 mult, u32 shift)
{
	return mul_u64_u32_shr(cycles, mult, shift);
}
#endif

/* lh_clock_cycles_ns - the cycle counter in ns, marked as such */
static __always_inline u64 lh_clock_cycles_ns(void)
{
	return lh_cycles_scale(lh_cycles(), lh_clock.mult, lh_clock.shift) |
	       LH_CLOCK_CYCLES_BIT;
}

/* lh_clock_ns - now, for a window that may end on another CPU */
static __always_inline u64 lh_clock_ns(void)
{
	if (likely(READ_ONCE(lh_clock.cycles)))
		return lh_clock_cycles_ns();
	return ktime_get_mono_fast_ns();
}

/* lh_clock_local_ns - now, for a window that ends on this CPU */
static __always_inline u64 lh_clock_local_ns(void)
{
	if (likely(READ_ONCE(lh_clock.cycles)))
		return lh_clock_cycles_ns();
	return local_clock();
}

/* lh_clock_differs - were @a_ns and @b_ns read on different clocks? */
static __always_inline bool lh_clock_differs(u64 a_ns, u64 b_ns)
{
	return (a_ns ^ b_ns) & LH_CLOCK_CYCLES_BIT;
}

void lh_clock_drop(void);

/*
 * lh_clock_window_ok - may a window from @start_ns to @end_ns be filed?
 * Not if its ends were read on different clocks, nor if it was read on a
 * cycle counter the kernel has marked unstable since (that falls back).
 */
static __always_inline bool lh_clock_window_ok(u64 start_ns, u64 end_ns)
{
	if (unlikely(lh_clock_differs(start_ns, end_ns)) ||
	    unlikely((end_ns & LH_CLOCK_CYCLES_BIT) && lh_cycles_unstable())) {
		lh_clock_drop();
		return false;
	}
	return true;
}

enum lh_hist_id;

u64 lh_clock_mono_ns(u64 now_ns);
int lh_clock_init(void);
void lh_clock_status(struct seq_file *m, enum lh_hist_id id);

#endif /* LH_CLOCK_H */
