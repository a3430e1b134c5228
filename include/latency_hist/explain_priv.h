/* SPDX-License-Identifier: GPL-2.0 */
/*
 * explain_priv.h - what the four files of explain share, one per execution
 * context: explain_ring.c (the per-CPU event rings and the probes that
 * fill them: probe context, NMI included), explain_replay.c (a window
 * replayed from a ring into a record: filing context, pure computation,
 * also built into the host unit tests), explain_print.c (the records as
 * text: read context) and explain.c (enable, the filing entry, the
 * records and their locks).
 */
#ifndef LH_EXPLAIN_PRIV_H
#define LH_EXPLAIN_PRIV_H

#include <linux/kallsyms.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <asm/local.h>

#define LH_X_RING	2048	/* events per CPU ring, a power of two */
#define LH_X_DEPTH	8	/* nested interrupt contexts the replay follows */
#define LH_X_IRQS	8	/* distinct IRQs and vectors a record names */
#define LH_X_TASKS	16	/* distinct tasks the replay tells apart */
#define LH_X_TOP_TASKS	6	/* tasks a record names; the rest are summed */
#define LH_X_NAME	16	/* bytes of a copied name, NUL included */
#define LH_X_NR_SOFTIRQS	10
#define LH_X_TIMERS	8	/* distinct timer callbacks a record names */
#define LH_X_SYM	128	/* bytes of a callback's name, NUL included */
#define LH_X_IDLES	8	/* distinct (idle state, waker) pairs a record names */
#define LH_X_NO_DRIVER	U32_MAX	/* exit_us of an idle state no cpuidle driver has */

enum lh_hist_id;
struct seq_file;

/* The kinds of ring events. */
enum lh_x_ev_kind {
	LH_XE_IRQ_ENTRY = 1,
	LH_XE_IRQ_EXIT,
	LH_XE_VEC_ENTRY,
	LH_XE_VEC_EXIT,
	LH_XE_SOFTIRQ_ENTRY,
	LH_XE_SOFTIRQ_EXIT,
	LH_XE_NMI,
	LH_XE_SWITCH_OUT,
	LH_XE_SWITCH_IN,
	LH_XE_TIMER_ENTRY,
	LH_XE_TIMER_EXIT,
	LH_XE_IDLE_ENTRY,
	LH_XE_IDLE_EXIT,
};

/*
 * struct lh_x_ev - one ring event
 * @seq:  1 + the number of the append that wrote it, stored last
 * @id:   IRQ number, vector, softirq vector, pid, an hrtimer's address
 *        (its low 32 bits: enough to pair an entry with its exit), or the
 *        idle state index cpu_idle gave
 * @prio: a switched task's kernel prio
 * @exit_us: an idle state's exit latency, from the cpuidle driver's state
 *        table at the entry; LH_X_NO_DRIVER where no driver has the state
 * @name: a device IRQ's handler name or a vector's name, copied at its
 *        entry (lh_x_copy_name()); an idle state's name in its driver's
 *        table, "" without one
 * @fn:   an hrtimer's callback
 * @delta_ns: an NMI handler's duration, ending at @ns
 * @comm: a switched task's comm
 */
struct lh_x_ev {
	u64 ns;
	u32 seq;
	u8 kind;
	s16 prio;
	s32 id;
	u32 exit_us;		/* in the padding before the union */
	union {
		char name[LH_X_NAME];
		const void *fn;
		u64 delta_ns;
		char comm[TASK_COMM_LEN];
	};
};

/*
 * lh_x_copy_name - copy IRQ or vector name @src (NULL: none) into a ring
 * slot's @dst, cut to LH_X_NAME - 1 bytes
 *
 * At the entry probe, because only there is a device IRQ's name certainly
 * mapped: its handler is running, and free_irq() waits for it. A replay,
 * which runs for the section report with raw interrupts off while the
 * kernel's traced state says "on", would read the name of a driver unloaded
 * since: a page fault there fires an irq_disable without its enable, and a
 * bogus irqs-off section follows (issue 33). Copying costs at most
 * LH_X_NAME bytes per interrupt while explain is on; the report reads only
 * the ring. Byte by byte, never past the NUL: the name may end a page.
 */
static __always_inline void lh_x_copy_name(char *dst, const char *src)
{
	int i = 0;

	if (src) {
		for (; i < LH_X_NAME - 1 && src[i]; i++)
			dst[i] = src[i];
	}
	dst[i] = '\0';
}

/* The categories, in the order of the file. */
enum lh_x_cat {
	LH_XC_HARDIRQ,
	LH_XC_SOFTIRQ,
	LH_XC_NMI,
	LH_XC_THREAD,
	LH_XC_OTHER,
	LH_XC_NR
};

/* The kinds of detail lines. */
enum lh_x_detail_kind {
	LH_XD_IRQ,		/* "  irq <n> <name> <count> <ns>" */
	LH_XD_VECTOR,		/* "  vector <n> <name> <count> <ns>" */
	LH_XD_SOFTIRQ,		/* "  softirq <n> <name> <count> <ns>" */
	LH_XD_THREAD,		/* "  thread <pid> <prio> <comm> <ns>" */
	LH_XD_THREAD_REST,	/* "  thread-rest <tasks> <ns>" */
	LH_XD_IDLE,		/* "  idle <ns>" */
	LH_XD_UNCOVERED,	/* "  uncovered <ns>" */
	LH_XD_TIMER,		/* "    timer <function> <count> <ns>" */
	LH_XD_IDLE_STATE,	/* "    idle-state <index> <name> <exit_us> "
				 * "<woken-by kind> <n> <name> <count> <ns>"
				 */
};

/* struct lh_x_detail - one detail line of a record */
struct lh_x_detail {
	u8 kind;
	s32 id;			/* IRQ, vector, softirq, pid; tasks for
				 * thread-rest; a timer's index in timer_sym,
				 * an idle state's in idle
				 */
	s32 prio;		/* kernel prio of a thread */
	u32 count;
	u64 ns;
	char name[LH_X_NAME];
};

/*
 * struct lh_x_idle_acc - the idle periods of one idle state that one event
 * ended, in one window
 * @state:     cpu_idle's state index; -1: the pairs beyond LH_X_IDLES
 * @exit_us:   the driver's exit latency of the state, or LH_X_NO_DRIVER
 * @name:      the driver's name of the state, "" without a driver
 * @wake_kind: what came first after the idle entry: LH_XE_IRQ_ENTRY,
 *             LH_XE_VEC_ENTRY or LH_XE_NMI; 0 if nothing came before the
 *             CPU switched, idled again or the window ended
 * @wake_id:   its IRQ number or vector
 * @wake_name: its name, as its entry copied it
 * @count:     the idle periods, of those that overlap the window
 * @ns:        their time in the window, in the idle task (not their
 *             interrupts)
 */
struct lh_x_idle_acc {
	s32 state;
	u32 exit_us;
	char name[LH_X_NAME];
	u8 wake_kind;
	s32 wake_id;
	char wake_name[LH_X_NAME];
	u32 count;
	u64 ns;
};

/*
 * The most detail lines lh_x_build() writes: one per IRQ or vector it names
 * and one for the rest of them ("(others)"), one per softirq vector, per
 * named task and per named timer callback, and "thread-rest", "idle",
 * "uncovered", and the idle states under "idle" with their rest. lh_x_build()
 * checks its own count against this.
 */
#define LH_X_DETAILS	((LH_X_IRQS + 1) + LH_X_NR_SOFTIRQS + \
			 LH_X_TOP_TASKS + LH_X_TIMERS + 3 + (LH_X_IDLES + 1))

/*
 * struct lh_x_rec - the breakdown of one CPU's worst window of one type
 * @lat_us:    the sample's latency
 * @end_ns:    CLOCK_MONOTONIC at the end of the window
 * @timer_sym: the timer callbacks' names, as %ps prints them, made at the
 *             replay: an address kept until the file is read may belong
 *             to an unloaded module by then, or to another one
 * @idle:      the idle states' accounts, kept here from the replay on (the
 *             last: the rest), by value like every name of a record
 */
struct lh_x_rec {
	bool valid;
	s64 lat_us;
	u64 end_ns;
	u64 window_ns;
	u64 cat_ns[LH_XC_NR];
	u32 cat_count[LH_XC_NR];
	int nr_details;
	struct lh_x_detail d[LH_X_DETAILS];
	char timer_sym[LH_X_TIMERS][LH_X_SYM];
	struct lh_x_idle_acc idle[LH_X_IDLES + 1];
};

/*
 * struct lh_x_rec_cpu - a record and its lock (taken with interrupts off)
 * @floor_us: for a type that keeps no max record (the critical sections),
 *            the CPU's maximum when explain came on, which a sample must
 *            reach to be explained: S64_MAX while it is being read,
 *            S64_MIN after a reset. Written under lh_control_lock.
 */
struct lh_x_rec_cpu {
	arch_spinlock_t lock;
	s64 floor_us;
	struct lh_x_rec rec;
};

/* struct lh_x_irq_acc - a replay's account of one IRQ or vector */
struct lh_x_irq_acc {
	u8 kind;		/* LH_XD_IRQ or LH_XD_VECTOR */
	s32 id;
	char name[LH_X_NAME];
	u32 count;
	u64 ns;
};

/*
 * struct lh_x_timer_acc - a replay's account of one hrtimer callback in one
 * interrupt context
 * @softirq: 1: it ran in softirq vector @parent; 0: in IRQ or vector
 *           account @parent (an index into lh_x_scratch.irqs)
 */
struct lh_x_timer_acc {
	const void *fn;
	u8 softirq;
	u8 parent;
	u32 count;
	u64 ns;
};

/* struct lh_x_task_acc - a replay's account of one task */
struct lh_x_task_acc {
	pid_t pid;
	int prio;
	u64 ns;
	char comm[TASK_COMM_LEN];
};

/*
 * struct lh_x_frame - an interrupt context (or a timer callback inside one)
 * open at a point of the replay
 * @name:    a device IRQ's handler name or a vector's name
 * @fn:      a timer callback's address
 * @acc:     where its time goes; looked up at its first time in the
 *           window, so that what ran only before it takes no account
 * @count:   where it is counted, once
 */
struct lh_x_frame {
	u8 kind;
	s32 id;
	char name[LH_X_NAME];
	const void *fn;
	u64 *acc;
	u32 *count;
};

/* struct lh_x_scratch - a replay's working memory, one per CPU */
struct lh_x_scratch {
	struct lh_x_irq_acc irqs[LH_X_IRQS + 1];	/* the last: the rest */
	int nr_irqs;
	u64 softirq_ns[LH_X_NR_SOFTIRQS];
	u32 softirq_count[LH_X_NR_SOFTIRQS];
	struct lh_x_timer_acc timers[LH_X_TIMERS];
	int nr_timers;
	struct lh_x_task_acc tasks[LH_X_TASKS];
	int nr_tasks;
	u64 rest_task_ns;
	int nr_rest_tasks;
	u64 idle_ns;
	int nr_idles;		/* accounts in rec.idle, the rest's not counted */
	u64 uncovered_ns;
	u64 nmi_ns;
	u32 nmi_count;
	struct lh_x_frame stack[LH_X_DEPTH];
	int depth;
	struct lh_x_rec rec;
	char sym[KSYM_SYMBOL_LEN];	/* sprint_symbol_no_offset()'s */
};

/*
 * struct lh_x_ring - one CPU's events and replay memory
 * @head: appends so far; only the CPU itself (and its interrupts and
 *        NMIs) appends, so a local_t is enough
 */
struct lh_x_ring {
	local_t head;
	struct lh_x_scratch scratch;
	struct lh_x_ev ev[LH_X_RING];
};

/* explain_ring.c: the rings and their probes */
const char *lh_x_ring_prepare(void);
int lh_x_ring_start(void);
void lh_x_ring_stop(void);
struct lh_x_ring *lh_x_this_ring(void);
void lh_x_ring_status_show(struct seq_file *m, bool on);

/* explain_replay.c: a window of a ring into @r->scratch.rec */
void lh_x_replay(struct lh_x_ring *r, u64 start_ns, u64 end_ns,
		 struct task_struct *running);

/* explain.c: the records */
struct lh_x_rec_cpu *lh_x_rec_cpu(enum lh_hist_id id, int cpu);
void lh_x_rec_get(struct lh_x_rec_cpu *rc, struct lh_x_rec *rec);

#endif /* LH_EXPLAIN_PRIV_H */
