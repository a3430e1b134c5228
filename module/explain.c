// SPDX-License-Identifier: GPL-2.0
/*
 * explain.c - where the time of each CPU's worst window went.
 *
 * A maximum says how long; this says why. While explain/enable is 1, every
 * CPU appends compact timestamped events to a ring of its own: hard
 * interrupt entry and exit (device IRQs with their handler's name and, on
 * x86, the system vectors: local timer, reschedule, call function, irq
 * work, ...), softirq entry and exit, hrtimer callbacks (entry and exit,
 * with the callback's address), NMI handlers with their duration, and
 * context switches with the pid, priority and comm of both tasks copied.
 * Only when a sample of a type with LH_T_EXPLAIN in its row becomes its
 * CPU's maximum (rare, out of line) is the window of that sample replayed
 * from the ring of the CPU it is filed under and broken down into:
 *
 *   hardirq  per IRQ number or vector: count and time, with the name
 *   softirq  per vector
 *            and, nested under each IRQ, vector or softirq, the hrtimer
 *            callbacks that ran in it (a part of its time, named with
 *            %ps when the file is read: the ring holds only the address)
 *   nmi      NMI handlers
 *   thread   each task that ran: pid, priority, comm, time (the top
 *            LH_X_TOP_TASKS, the rest summed)
 *   other    the idle task, and the part of the window the ring does not
 *            cover ("uncovered": the window began before the oldest event
 *            the ring still holds, or before explain was turned on)
 *
 * The parts add up to the window by construction: each instant of
 * [start, end] is given to exactly one of them, the innermost context
 * running then (an NMI's time is taken out of what it interrupted). An
 * interrupt still running when the sample is filed (a late timer is filed
 * from inside the timer interrupt) counts up to the filing instant.
 *
 * Windows (on the CPU the sample is filed under): wakeup and
 * wakeup/sharedprio from the sched_waking to the switch-in (the waking may
 * have run on another CPU: the clock, lh_clock_ns(), is the same on all
 * CPUs; events read on another clock than the window, before a fall back
 * of clock.h, are skipped); missed_timer_offsets from the timer's expiry,
 * which no event marks, to the instant the late expiry is filed; irqsoff,
 * preemptoff and preemptirqsoff the section, ending where it is filed
 * (preemptirq.c).
 *
 * Rules of the probes: no allocation, no lock, notrace, preemption off
 * around the append (on PREEMPT_RT and 7.x tracepoint probes may run
 * preemptible). A slot is reserved with one local_inc_return(), safe
 * against interrupts and NMIs on the same CPU; the slot's sequence number
 * is written last, so a replay that interrupted an append in progress
 * skips the slot it finds half written. The replay runs on the CPU itself
 * with interrupts off, from per-CPU scratch memory, and copies the result
 * into the type's per-CPU record under that record's lock.
 *
 * Cost: while off, one patched-out static branch in the filing paths and
 * nothing hooked. While on, one clock read and one slot per event
 * (two slots and two comm copies per context switch), and a replay of at
 * most LH_X_RING events per new maximum (Documentation/performance.rst).
 *
 * On PREEMPT_RT, device interrupt handlers are threads (their time is the
 * thread's) and softirqs run in task context: a softirq preempted by a
 * switch ends there for the replay, and the rest of it counts as the time
 * of the task that runs it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <asm/local.h>
#include <trace/events/irq.h>
#include <trace/events/nmi.h>
#include <trace/events/sched.h>
#include <trace/events/timer.h>

#include <latency_hist/clock.h>
#include <latency_hist/compat.h>
#include <latency_hist/explain.h>
#include <latency_hist/hist_mem.h>
#include <latency_hist/tracepoints.h>

#ifdef LH_HAVE_X86_IRQ_VECTORS
#include <asm/trace/irq_vectors.h>
#endif

#define LH_X_RING	2048	/* events per CPU ring, a power of two */
#define LH_X_DEPTH	8	/* nested interrupt contexts the replay follows */
#define LH_X_IRQS	8	/* distinct IRQs and vectors a record names */
#define LH_X_TASKS	16	/* distinct tasks the replay tells apart */
#define LH_X_TOP_TASKS	6	/* tasks a record names; the rest are summed */
#define LH_X_NAME	16	/* bytes of a copied name, NUL included */
#define LH_X_NR_SOFTIRQS	10
#define LH_X_TIMERS	8	/* distinct timer callbacks a record names */

DEFINE_STATIC_KEY_FALSE(lh_explain_key);

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
};

/*
 * struct lh_x_ev - one ring event
 * @seq:  1 + the number of the append that wrote it, stored last
 * @id:   IRQ number, vector, softirq vector, pid, or an hrtimer's address
 *        (its low 32 bits: enough to pair an entry with its exit)
 * @prio: a switched task's kernel prio
 * @name: a device IRQ's handler name (read, safely, only at a replay) or a
 *        vector's name (ours)
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
	union {
		const char *name;
		const void *fn;
		u64 delta_ns;
		char comm[TASK_COMM_LEN];
	};
};

/* The categories, in the order of the file. */
enum lh_x_cat {
	LH_XC_HARDIRQ,
	LH_XC_SOFTIRQ,
	LH_XC_NMI,
	LH_XC_THREAD,
	LH_XC_OTHER,
	LH_XC_NR
};

static const char *const lh_x_cat_names[LH_XC_NR] = {
	"hardirq", "softirq", "nmi", "thread", "other",
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
};

/* Names of the softirq vectors, stable since 4.x (softirq_to_name is not exported). */
static const char *const lh_x_softirq_names[LH_X_NR_SOFTIRQS] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};

/* struct lh_x_detail - one detail line of a record */
struct lh_x_detail {
	u8 kind;
	s32 id;			/* IRQ, vector, softirq, pid; tasks for thread-rest */
	s32 prio;		/* kernel prio of a thread */
	u32 count;
	u64 ns;
	const void *fn;		/* a timer's callback */
	char name[LH_X_NAME];
};

/*
 * The most detail lines lh_x_build() writes: one per IRQ or vector it names
 * and one for the rest of them ("(others)"), one per softirq vector, per
 * named task and per named timer callback, and "thread-rest", "idle" and
 * "uncovered". lh_x_build() checks its own count against this.
 */
#define LH_X_DETAILS	((LH_X_IRQS + 1) + LH_X_NR_SOFTIRQS + \
			 LH_X_TOP_TASKS + LH_X_TIMERS + 3)

/*
 * struct lh_x_rec - the breakdown of one CPU's worst window of one type
 * @lat_us:    the sample's latency
 * @end_ns:    CLOCK_MONOTONIC at the end of the window
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

/* Per type with LH_T_EXPLAIN, one record per possible CPU; from init to exit. */
static struct lh_x_rec_cpu *lh_x_recs[LH_NR_HISTS];

/* struct lh_x_irq_acc - a replay's account of one IRQ or vector */
struct lh_x_irq_acc {
	u8 kind;		/* LH_XD_IRQ or LH_XD_VECTOR */
	s32 id;
	const char *name;
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
	const char *name;
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
	u64 uncovered_ns;
	u64 nmi_ns;
	u32 nmi_count;
	struct lh_x_frame stack[LH_X_DEPTH];
	int depth;
	struct lh_x_rec rec;
};

/* struct lh_x_ring - one CPU's events and replay memory */
struct lh_x_ring {
	local_t head;		/* appends so far */
	struct lh_x_scratch scratch;
	struct lh_x_ev ev[LH_X_RING];
};

static DEFINE_PER_CPU(struct lh_x_ring *, lh_x_rings);
static DEFINE_MUTEX(lh_x_lock);		/* enable/disable */
static bool lh_x_on;
/* The cost of the last and the longest replay, for explain/status. */
static u64 lh_x_replay_last_ns, lh_x_replay_max_ns;
static unsigned long lh_x_replays;

/* lh_x_reserve - reserve this CPU's next slot; *@seq seals it */
static __always_inline struct lh_x_ev *lh_x_reserve(struct lh_x_ring *r, u32 *seq)
{
	unsigned long n = local_inc_return(&r->head);

	*seq = (u32)n;
	return &r->ev[(n - 1) & (LH_X_RING - 1)];
}

/* lh_x_seal - publish a filled slot */
static __always_inline void lh_x_seal(struct lh_x_ev *ev, u32 seq)
{
	barrier();
	WRITE_ONCE(ev->seq, seq);
}

/* lh_x_event - append an interrupt event to this CPU's ring */
static __always_inline void lh_x_event(u8 kind, s32 id, const void *name,
				       u64 delta_ns)
{
	struct lh_x_ring *r;
	struct lh_x_ev *ev;
	u32 seq;

	preempt_disable_notrace();
	r = this_cpu_read(lh_x_rings);
	if (likely(r)) {
		ev = lh_x_reserve(r, &seq);
		WRITE_ONCE(ev->seq, 0);
		barrier();
		ev->ns = lh_clock_ns();
		ev->kind = kind;
		ev->id = id;
		if (kind == LH_XE_NMI)
			ev->delta_ns = delta_ns;
		else if (kind == LH_XE_TIMER_ENTRY)
			ev->fn = name;
		else
			ev->name = name;
		lh_x_seal(ev, seq);
	}
	preempt_enable_notrace();
}

/* lh_x_probe_irq_entry - a device IRQ handler starts */
static void notrace lh_x_probe_irq_entry(void *data, int irq,
					 struct irqaction *action)
{
	lh_x_event(LH_XE_IRQ_ENTRY, irq, action->name, 0);
}

/* lh_x_probe_irq_exit - a device IRQ handler returns */
static void notrace lh_x_probe_irq_exit(void *data, int irq,
					struct irqaction *action, int ret)
{
	lh_x_event(LH_XE_IRQ_EXIT, irq, NULL, 0);
}

/* lh_x_probe_softirq_entry - a softirq vector starts */
static void notrace lh_x_probe_softirq_entry(void *data, unsigned int vec_nr)
{
	lh_x_event(LH_XE_SOFTIRQ_ENTRY, vec_nr, NULL, 0);
}

/* lh_x_probe_softirq_exit - a softirq vector returns */
static void notrace lh_x_probe_softirq_exit(void *data, unsigned int vec_nr)
{
	lh_x_event(LH_XE_SOFTIRQ_EXIT, vec_nr, NULL, 0);
}

/* lh_x_probe_nmi - an NMI handler ran for @delta_ns, ending now */
static void notrace lh_x_probe_nmi(void *data, void *handler, s64 delta_ns,
				   int handled)
{
	lh_x_event(LH_XE_NMI, 0, NULL, delta_ns > 0 ? delta_ns : 0);
}

/* lh_x_probe_timer_entry - an hrtimer callback starts */
static void notrace lh_x_probe_timer_entry(void *data, struct hrtimer *timer,
					   LH_EXPIRE_ENTRY_NOW_ARG)
{
	lh_x_event(LH_XE_TIMER_ENTRY, (s32)(unsigned long)timer,
		   (const void *)ACCESS_PRIVATE(timer, function), 0);
}

/* lh_x_probe_timer_exit - an hrtimer callback returned */
static void notrace lh_x_probe_timer_exit(void *data, struct hrtimer *timer)
{
	lh_x_event(LH_XE_TIMER_EXIT, (s32)(unsigned long)timer, NULL, 0);
}

#ifdef LH_HAVE_X86_IRQ_VECTORS
/* lh_x_probe_vec_entry - a system vector starts; @data is its name */
static void notrace lh_x_probe_vec_entry(void *data, int vector)
{
	lh_x_event(LH_XE_VEC_ENTRY, vector, data, 0);
}

/* lh_x_probe_vec_exit - a system vector returns */
static void notrace lh_x_probe_vec_exit(void *data, int vector)
{
	lh_x_event(LH_XE_VEC_EXIT, vector, NULL, 0);
}
#endif

/* lh_x_task_event - fill a slot with a switched task */
static __always_inline void lh_x_task_event(struct lh_x_ring *r, u8 kind,
					    struct task_struct *t, u64 ns)
{
	struct lh_x_ev *ev;
	u32 seq;

	ev = lh_x_reserve(r, &seq);
	WRITE_ONCE(ev->seq, 0);
	barrier();
	ev->ns = ns;
	ev->kind = kind;
	ev->id = t->pid;
	ev->prio = t->prio;
	memcpy(ev->comm, t->comm, TASK_COMM_LEN);
	ev->comm[TASK_COMM_LEN - 1] = '\0';
	lh_x_seal(ev, seq);
}

/* lh_x_probe_sched_switch - the CPU goes from @prev to @next */
static void notrace lh_x_probe_sched_switch(void *data, LH_SCHED_SWITCH_ARGS)
{
	struct lh_x_ring *r;
	u64 ns;

	preempt_disable_notrace();
	r = this_cpu_read(lh_x_rings);
	if (likely(r)) {
		ns = lh_clock_ns();
		lh_x_task_event(r, LH_XE_SWITCH_OUT, prev, ns);
		lh_x_task_event(r, LH_XE_SWITCH_IN, next, ns);
	}
	preempt_enable_notrace();
}

/*
 * The probes. sched_switch runs after the wakeup type's (lower priority),
 * so a wakeup filed at its switch-in replays a ring without that switch.
 * The vectors are optional: a kernel or architecture without them still
 * explains, and explain/status lists what is hooked.
 */
static const struct lh_probe lh_x_probes_all[] = {
	{ LH_TP_SCHED_SWITCH, lh_x_probe_sched_switch, 1 },
	{ LH_TP_IRQ_HANDLER_ENTRY, lh_x_probe_irq_entry },
	{ LH_TP_IRQ_HANDLER_EXIT, lh_x_probe_irq_exit },
	{ LH_TP_SOFTIRQ_ENTRY, lh_x_probe_softirq_entry },
	{ LH_TP_SOFTIRQ_EXIT, lh_x_probe_softirq_exit },
	{ LH_TP_NMI_HANDLER, lh_x_probe_nmi },
	{ LH_TP_HRTIMER_EXPIRE_ENTRY, lh_x_probe_timer_entry },
	{ LH_TP_HRTIMER_EXPIRE_EXIT, lh_x_probe_timer_exit },
#ifdef LH_HAVE_X86_IRQ_VECTORS
	{ LH_TP_LOCAL_TIMER_ENTRY, lh_x_probe_vec_entry, 0, "local_timer" },
	{ LH_TP_LOCAL_TIMER_EXIT, lh_x_probe_vec_exit },
	{ LH_TP_RESCHEDULE_ENTRY, lh_x_probe_vec_entry, 0, "reschedule" },
	{ LH_TP_RESCHEDULE_EXIT, lh_x_probe_vec_exit },
	{ LH_TP_CALL_FUNCTION_ENTRY, lh_x_probe_vec_entry, 0, "call_function" },
	{ LH_TP_CALL_FUNCTION_EXIT, lh_x_probe_vec_exit },
	{ LH_TP_CALL_FUNCTION_SINGLE_ENTRY, lh_x_probe_vec_entry, 0, "call_function_single" },
	{ LH_TP_CALL_FUNCTION_SINGLE_EXIT, lh_x_probe_vec_exit },
	{ LH_TP_IRQ_WORK_ENTRY, lh_x_probe_vec_entry, 0, "irq_work" },
	{ LH_TP_IRQ_WORK_EXIT, lh_x_probe_vec_exit },
	{ LH_TP_X86_PLATFORM_IPI_ENTRY, lh_x_probe_vec_entry, 0, "x86_platform_ipi" },
	{ LH_TP_X86_PLATFORM_IPI_EXIT, lh_x_probe_vec_exit },
	{ LH_TP_ERROR_APIC_ENTRY, lh_x_probe_vec_entry, 0, "error_apic" },
	{ LH_TP_ERROR_APIC_EXIT, lh_x_probe_vec_exit },
	{ LH_TP_SPURIOUS_APIC_ENTRY, lh_x_probe_vec_entry, 0, "spurious_apic" },
	{ LH_TP_SPURIOUS_APIC_EXIT, lh_x_probe_vec_exit },
	{ LH_TP_THERMAL_APIC_ENTRY, lh_x_probe_vec_entry, 0, "thermal_apic" },
	{ LH_TP_THERMAL_APIC_EXIT, lh_x_probe_vec_exit },
	{ LH_TP_THRESHOLD_APIC_ENTRY, lh_x_probe_vec_entry, 0, "threshold_apic" },
	{ LH_TP_THRESHOLD_APIC_EXIT, lh_x_probe_vec_exit },
	{ LH_TP_DEFERRED_ERROR_APIC_ENTRY, lh_x_probe_vec_entry, 0, "deferred_error_apic" },
	{ LH_TP_DEFERRED_ERROR_APIC_EXIT, lh_x_probe_vec_exit },
#endif
};

/* The required probes: the first five; the rest are hooked where found. */
#define LH_X_REQUIRED	5

/* The probes this kernel has, in lh_x_probes_all[] order; set at prepare. */
static struct lh_probe lh_x_probes[ARRAY_SIZE(lh_x_probes_all)];
static int lh_x_nr_probes;
static const char *lh_x_reason;		/* NULL: explain is available */

/* lh_x_task_acc_of - the account of a task seen in event @ev, or NULL: rest */
static struct lh_x_task_acc *lh_x_task_acc_of(struct lh_x_scratch *s,
					      const struct lh_x_ev *ev)
{
	struct lh_x_task_acc *t;
	int i;

	for (i = 0; i < s->nr_tasks; i++) {
		t = &s->tasks[i];
		if (t->pid == ev->id && !strncmp(t->comm, ev->comm,
						 TASK_COMM_LEN))
			return t;
	}
	if (s->nr_tasks == LH_X_TASKS)
		return NULL;
	t = &s->tasks[s->nr_tasks++];
	t->pid = ev->id;
	t->prio = ev->prio;
	t->ns = 0;
	memcpy(t->comm, ev->comm, TASK_COMM_LEN);
	return t;
}

/* lh_x_task_acc_running - the account of a live task (the one at the end) */
static struct lh_x_task_acc *lh_x_task_acc_running(struct lh_x_scratch *s,
						   struct task_struct *t)
{
	struct lh_x_ev ev;

	ev.id = t->pid;
	ev.prio = t->prio;
	memcpy(ev.comm, t->comm, TASK_COMM_LEN);
	ev.comm[TASK_COMM_LEN - 1] = '\0';
	return lh_x_task_acc_of(s, &ev);
}

/* lh_x_irq_acc_of - the account of an IRQ or vector; the last one is the rest */
static struct lh_x_irq_acc *lh_x_irq_acc_of(struct lh_x_scratch *s, u8 kind,
					    s32 id, const char *name)
{
	struct lh_x_irq_acc *a;
	int i;

	for (i = 0; i < s->nr_irqs; i++) {
		a = &s->irqs[i];
		if (a->kind == kind && a->id == id)
			return a;
	}
	if (s->nr_irqs == LH_X_IRQS)
		return &s->irqs[LH_X_IRQS];
	a = &s->irqs[s->nr_irqs++];
	a->kind = kind;
	a->id = id;
	a->name = name;
	a->count = 0;
	a->ns = 0;
	return a;
}

/*
 * struct lh_x_replay - the state of a replay between events
 * @task:     the switch-in event of the task running when no interrupt is
 *            (NULL: not known yet)
 * @task_acc: its account, looked up at its first time in the window
 * @unknown_ns: time given to the task before the first switch showed who
 *             it was
 * @timer_acc: the timer callback account the last lh_x_give() also fed
 *             (NULL: none), so that an NMI's time leaves it too
 */
struct lh_x_replay {
	struct lh_x_scratch *s;
	u64 start_ns;
	u64 end_ns;
	const struct lh_x_ev *task;
	u64 *task_acc;
	u64 unknown_ns;
	u64 *timer_acc;
};

/* lh_x_task_of - account of the task a switch event names; idle or rest */
static u64 *lh_x_task_of(struct lh_x_replay *rp, const struct lh_x_ev *ev)
{
	struct lh_x_task_acc *t;

	if (!ev->id)
		return &rp->s->idle_ns;	/* pid 0: the idle task */
	t = lh_x_task_acc_of(rp->s, ev);
	return t ? &t->ns : &rp->s->rest_task_ns;
}

/* lh_x_frame_acc - the account of an interrupt context, looked up now */
static u64 *lh_x_frame_acc(struct lh_x_scratch *s, struct lh_x_frame *f)
{
	struct lh_x_irq_acc *a;

	if (f->kind == LH_XE_SOFTIRQ_ENTRY) {
		f->count = &s->softirq_count[f->id];
		return &s->softirq_ns[f->id];
	}
	a = lh_x_irq_acc_of(s, f->kind == LH_XE_IRQ_ENTRY ? LH_XD_IRQ :
			    LH_XD_VECTOR, f->id, f->name);
	f->count = &a->count;
	return &a->ns;
}

/*
 * lh_x_timer_acc_of - the account of timer callback @fn in the interrupt
 * context of frame @p (whose account is looked up already), or NULL when
 * LH_X_TIMERS callbacks are named already
 */
static struct lh_x_timer_acc *lh_x_timer_acc_of(struct lh_x_scratch *s,
						const struct lh_x_frame *p,
						const void *fn)
{
	struct lh_x_timer_acc *a;
	u8 softirq = p->kind == LH_XE_SOFTIRQ_ENTRY;
	u8 parent = softirq ? p->id :
		    container_of(p->acc, struct lh_x_irq_acc, ns) - s->irqs;
	int i;

	for (i = 0; i < s->nr_timers; i++) {
		a = &s->timers[i];
		if (a->fn == fn && a->softirq == softirq && a->parent == parent)
			return a;
	}
	if (s->nr_timers == LH_X_TIMERS)
		return NULL;
	a = &s->timers[s->nr_timers++];
	a->fn = fn;
	a->softirq = softirq;
	a->parent = parent;
	a->count = 0;
	a->ns = 0;
	return a;
}

/* lh_x_frame_open - look up (and count, once) the account of frame @f */
static void lh_x_frame_open(struct lh_x_scratch *s, struct lh_x_frame *f)
{
	if (!f->acc) {
		f->acc = lh_x_frame_acc(s, f);
		(*f->count)++;
	}
}

/*
 * lh_x_give_irq - give @given ns to the innermost interrupt context; a
 * timer callback on top gets them as a detail of the interrupt context it
 * runs in, which gets them as its own. Returns that context's account.
 */
static u64 *lh_x_give_irq(struct lh_x_replay *rp, u64 given)
{
	struct lh_x_scratch *s = rp->s;
	struct lh_x_frame *f = &s->stack[s->depth - 1], *p = f;
	struct lh_x_timer_acc *t;

	while (p > s->stack && p->kind == LH_XE_TIMER_ENTRY)
		p--;
	if (p->kind == LH_XE_TIMER_ENTRY)
		return NULL;	/* a callback outside any interrupt: the task's */
	lh_x_frame_open(s, p);
	*p->acc += given;
	if (f->kind == LH_XE_TIMER_ENTRY && !f->acc) {
		t = lh_x_timer_acc_of(s, p, f->fn);
		if (t) {
			f->acc = &t->ns;
			f->count = &t->count;
			(*f->count)++;
		}
	}
	if (f->kind == LH_XE_TIMER_ENTRY && f->acc) {
		*f->acc += given;
		rp->timer_acc = f->acc;
	}
	return p->acc;
}

/*
 * lh_x_give - give [from, to] clipped to the window to the innermost
 * context; returns its account (NULL if nothing was given), *@given the ns
 */
static u64 *lh_x_give(struct lh_x_replay *rp, u64 from, u64 to, u64 *given)
{
	struct lh_x_scratch *s = rp->s;
	u64 *acc;

	from = max(from, rp->start_ns);
	to = min(to, rp->end_ns);
	*given = to > from ? to - from : 0;
	rp->timer_acc = NULL;
	if (!*given)
		return NULL;
	acc = s->depth ? lh_x_give_irq(rp, *given) : NULL;
	if (acc)
		return acc;
	if (rp->task) {
		if (!rp->task_acc)
			rp->task_acc = lh_x_task_of(rp, rp->task);
		acc = rp->task_acc;
	} else {
		acc = &rp->unknown_ns;
	}
	*acc += *given;
	return acc;
}

/* lh_x_push - an interrupt context (or a timer callback) opens */
static void lh_x_push(struct lh_x_scratch *s, const struct lh_x_ev *ev)
{
	struct lh_x_frame *f;

	if (s->depth == LH_X_DEPTH)
		return;
	f = &s->stack[s->depth++];
	f->kind = ev->kind;
	f->id = ev->id;
	f->name = ev->kind == LH_XE_TIMER_ENTRY ? NULL : ev->name;
	f->fn = ev->kind == LH_XE_TIMER_ENTRY ? ev->fn : NULL;
	f->acc = NULL;
	f->count = NULL;
}

/*
 * lh_x_pop - an interrupt context closes: drop it if it is the innermost;
 * timer callbacks still open above it (their exit lost) go with it
 */
static void lh_x_pop(struct lh_x_scratch *s, u8 kind, s32 id)
{
	struct lh_x_frame *f;

	while (kind != LH_XE_TIMER_ENTRY && s->depth &&
	       s->stack[s->depth - 1].kind == LH_XE_TIMER_ENTRY)
		s->depth--;
	if (!s->depth)
		return;
	f = &s->stack[s->depth - 1];
	if (f->kind == kind && f->id == id)
		s->depth--;
}

/* lh_x_apply - change the replay state by one event */
static void lh_x_apply(struct lh_x_replay *rp, const struct lh_x_ev *ev)
{
	struct lh_x_scratch *s = rp->s;

	switch (ev->kind) {
	case LH_XE_IRQ_ENTRY:
	case LH_XE_VEC_ENTRY:
	case LH_XE_TIMER_ENTRY:
		lh_x_push(s, ev);
		break;
	case LH_XE_TIMER_EXIT:
		lh_x_pop(s, LH_XE_TIMER_ENTRY, ev->id);
		break;
	case LH_XE_IRQ_EXIT:
		lh_x_pop(s, LH_XE_IRQ_ENTRY, ev->id);
		break;
	case LH_XE_VEC_EXIT:
		lh_x_pop(s, LH_XE_VEC_ENTRY, ev->id);
		break;
	case LH_XE_SOFTIRQ_ENTRY:
		if (ev->id >= 0 && ev->id < LH_X_NR_SOFTIRQS)
			lh_x_push(s, ev);
		break;
	case LH_XE_SOFTIRQ_EXIT:
		lh_x_pop(s, LH_XE_SOFTIRQ_ENTRY, ev->id);
		break;
	case LH_XE_SWITCH_OUT:
		/* Switches happen in task context: no interrupt is open. */
		s->depth = 0;
		if (!rp->task && rp->unknown_ns) {
			/* the task that ran before the first switch */
			*lh_x_task_of(rp, ev) += rp->unknown_ns;
			rp->unknown_ns = 0;
		}
		break;
	case LH_XE_SWITCH_IN:
		s->depth = 0;
		rp->task = ev;
		rp->task_acc = NULL;
		break;
	}
}

/* lh_x_cmp_task - sort tasks by time, most first */
static int lh_x_cmp_task(const void *a, const void *b)
{
	const struct lh_x_task_acc *ta = a, *tb = b;

	return ta->ns < tb->ns ? 1 : ta->ns > tb->ns ? -1 : 0;
}

/* lh_x_copy_name - copy a name the kernel may have freed since, safely */
static void lh_x_copy_name(char *dst, const char *src)
{
	int i;

	for (i = 0; src && i < LH_X_NAME - 1; i++) {
		if (copy_from_kernel_nofault(&dst[i], &src[i], 1) || !dst[i])
			break;
	}
	dst[i] = '\0';
	if (!i)
		strscpy(dst, "-", LH_X_NAME);
}

/* lh_x_detail - append a detail line to a record being built */
static struct lh_x_detail *lh_x_detail(struct lh_x_rec *rec, u8 kind, s32 id,
				       u32 count, u64 ns)
{
	struct lh_x_detail *d;

	if (rec->nr_details == LH_X_DETAILS)
		return NULL;
	d = &rec->d[rec->nr_details++];
	d->kind = kind;
	d->id = id;
	d->prio = 0;
	d->count = count;
	d->ns = ns;
	d->fn = NULL;
	d->name[0] = '\0';
	return d;
}

/*
 * lh_x_build_timers - append the timer callbacks that ran in the IRQ or
 * vector account (@softirq 0) or softirq vector (1) @parent
 */
static void lh_x_build_timers(struct lh_x_scratch *s, struct lh_x_rec *rec,
			      u8 softirq, int parent)
{
	struct lh_x_detail *d;
	int i;

	for (i = 0; i < s->nr_timers; i++) {
		const struct lh_x_timer_acc *t = &s->timers[i];

		if (t->softirq != softirq || t->parent != parent ||
		    (!t->ns && !t->count))
			continue;
		d = lh_x_detail(rec, LH_XD_TIMER, 0, t->count, t->ns);
		if (d)
			d->fn = t->fn;
	}
}

/* lh_x_build - turn a replay's accounts into a record */
static void lh_x_build(struct lh_x_scratch *s, struct lh_x_rec *rec)
{
	struct lh_x_detail *d;
	u64 overflow_ns;
	int i;

	/*
	 * Room for every line below: the IRQ loop's LH_X_IRQS + 1 (with the
	 * rest), the softirq vectors, the named tasks, "thread-rest", "idle",
	 * "uncovered", and the timers (each named once, under its parent).
	 */
	BUILD_BUG_ON(LH_X_DETAILS < (LH_X_IRQS + 1) + LH_X_NR_SOFTIRQS +
		     LH_X_TOP_TASKS + 1 + 1 + 1 + LH_X_TIMERS);

	for (i = 0; i <= LH_X_IRQS; i++) {
		struct lh_x_irq_acc *a = &s->irqs[i];

		if (i == s->nr_irqs && i < LH_X_IRQS)
			i = LH_X_IRQS;	/* the rest */
		if (!a->ns && !a->count)
			continue;
		rec->cat_ns[LH_XC_HARDIRQ] += a->ns;
		rec->cat_count[LH_XC_HARDIRQ] += a->count;
		d = lh_x_detail(rec, i == LH_X_IRQS ? LH_XD_IRQ : a->kind,
				i == LH_X_IRQS ? -1 : a->id, a->count, a->ns);
		if (d && i < LH_X_IRQS && a->kind == LH_XD_VECTOR)
			strscpy(d->name, a->name, LH_X_NAME);
		else if (d && i < LH_X_IRQS)
			lh_x_copy_name(d->name, a->name);
		else if (d)
			strscpy(d->name, "(others)", LH_X_NAME);
		lh_x_build_timers(s, rec, 0, i);
	}
	for (i = 0; i < LH_X_NR_SOFTIRQS; i++) {
		if (!s->softirq_ns[i] && !s->softirq_count[i])
			continue;
		rec->cat_ns[LH_XC_SOFTIRQ] += s->softirq_ns[i];
		rec->cat_count[LH_XC_SOFTIRQ] += s->softirq_count[i];
		d = lh_x_detail(rec, LH_XD_SOFTIRQ, i, s->softirq_count[i],
				s->softirq_ns[i]);
		if (d)
			strscpy(d->name, lh_x_softirq_names[i], LH_X_NAME);
		lh_x_build_timers(s, rec, 1, i);
	}
	rec->cat_ns[LH_XC_NMI] = s->nmi_ns;
	rec->cat_count[LH_XC_NMI] = s->nmi_count;

	overflow_ns = s->rest_task_ns;	/* tasks beyond the table */
	sort(s->tasks, s->nr_tasks, sizeof(s->tasks[0]), lh_x_cmp_task, NULL);
	for (i = 0; i < s->nr_tasks; i++) {
		struct lh_x_task_acc *t = &s->tasks[i];

		if (!t->ns)
			continue;
		rec->cat_ns[LH_XC_THREAD] += t->ns;
		rec->cat_count[LH_XC_THREAD]++;
		if (i >= LH_X_TOP_TASKS) {
			s->rest_task_ns += t->ns;
			s->nr_rest_tasks++;
			continue;
		}
		d = lh_x_detail(rec, LH_XD_THREAD, t->pid, 1, t->ns);
		if (d) {
			d->prio = t->prio;
			strscpy(d->name, t->comm, LH_X_NAME);
		}
	}
	if (overflow_ns) {
		/* the tasks beyond the table, counted as one */
		rec->cat_ns[LH_XC_THREAD] += overflow_ns;
		rec->cat_count[LH_XC_THREAD]++;
		s->nr_rest_tasks++;
	}
	if (s->nr_rest_tasks)
		lh_x_detail(rec, LH_XD_THREAD_REST, s->nr_rest_tasks, 0,
			    s->rest_task_ns);

	rec->cat_ns[LH_XC_OTHER] = s->idle_ns + s->uncovered_ns;
	if (s->idle_ns) {
		rec->cat_count[LH_XC_OTHER]++;
		lh_x_detail(rec, LH_XD_IDLE, 0, 0, s->idle_ns);
	}
	if (s->uncovered_ns) {
		rec->cat_count[LH_XC_OTHER]++;
		lh_x_detail(rec, LH_XD_UNCOVERED, 0, 0, s->uncovered_ns);
	}
}

/*
 * lh_x_replay - break [start_ns, end_ns] down from this CPU's ring into
 * @s->rec; @running is the task on the CPU at @end_ns
 */
static void lh_x_replay(struct lh_x_ring *r, u64 start_ns, u64 end_ns,
			struct task_struct *running)
{
	struct lh_x_scratch *s = &r->scratch;
	struct lh_x_replay rp = { .s = s, .start_ns = start_ns,
				  .end_ns = end_ns };
	unsigned long head = local_read(&r->head), n;
	u64 t_prev = end_ns, given, covered_from = end_ns;
	bool first = true;
	u64 *acc;

	memset(s, 0, sizeof(*s));
	n = head > LH_X_RING ? head - LH_X_RING : 0;
	for (; n < head; n++) {
		const struct lh_x_ev *ev = &r->ev[n & (LH_X_RING - 1)];

		if (READ_ONCE(ev->seq) != (u32)(n + 1))
			continue;	/* half written, or overwritten */
		if (lh_clock_differs(ev->ns, end_ns))
			continue;	/* read before a fall back of the clock */
		if (ev->ns > end_ns)
			break;
		if (first) {
			first = false;
			covered_from = ev->ns;
			t_prev = ev->ns;
		}
		if (ev->ns > t_prev) {
			acc = lh_x_give(&rp, t_prev, ev->ns, &given);
			t_prev = ev->ns;
		} else {
			acc = NULL;	/* the clock read after a nested event */
			given = 0;
		}
		if (ev->kind == LH_XE_NMI) {
			/* the NMI ended at ev->ns: its time is the end of @given */
			u64 nmi_ns = acc ? min(ev->delta_ns, given) : 0;

			if (nmi_ns) {
				*acc -= nmi_ns;
				if (rp.timer_acc)
					*rp.timer_acc -= nmi_ns;
				s->nmi_ns += nmi_ns;
			}
			if (ev->ns >= start_ns)
				s->nmi_count++;
			continue;
		}
		lh_x_apply(&rp, ev);
	}
	if (covered_from > start_ns) {
		/* what the ring does not reach back to: state unknown */
		s->uncovered_ns = min(covered_from, end_ns) - start_ns;
	}
	lh_x_give(&rp, t_prev, end_ns, &given);
	if (rp.unknown_ns) {
		/* no switch since: the task running at the end ran throughout */
		struct lh_x_task_acc *t = is_idle_task(running) ? NULL :
					  lh_x_task_acc_running(s, running);

		acc = is_idle_task(running) ? &s->idle_ns :
		      t ? &t->ns : &s->rest_task_ns;
		*acc += rp.unknown_ns;
	}
	s->rec.valid = true;
	s->rec.end_ns = end_ns;
	s->rec.window_ns = end_ns - start_ns;
	lh_x_build(s, &s->rec);
}

/**
 * lh_explain_file() - explain a sample if it is its CPU's new maximum
 * @id:       the histogram (LH_T_EXPLAIN in its row)
 * @cpu:      the CPU it is filed under: this CPU
 * @lat_us:   its latency
 * @start_ns: lh_clock_ns() at its start
 * @end_ns:   the same clock at its end
 * @running:  the task running on this CPU at @end_ns
 *
 * Called after the sample was recorded: it is the maximum if it is at
 * least the histogram's maximum now, and beats the record.
 *
 * Context: probe context on @cpu, preemption off; not NMI.
 */
noinline void notrace lh_explain_file(enum lh_hist_id id, int cpu, s64 lat_us,
				      u64 start_ns, u64 end_ns,
				      struct task_struct *running)
{
	struct lh_hist_cpu *h = lh_hist_cpu(id, cpu);
	struct lh_x_rec_cpu *rc;
	struct lh_x_ring *r;
	unsigned long flags;

	if (!lh_x_recs[id] || start_ns > end_ns)
		return;
	/* Pairs with smp_store_release() in lh_hist_cpu_reset_end(). */
	if (smp_load_acquire(&h->resetting) || lat_us < lh_hist_max_us(h))
		return;
	rc = &lh_x_recs[id][cpu];
	if (lat_us < READ_ONCE(rc->floor_us))
		return;		/* a section type's maximum came before explain */
	if (READ_ONCE(rc->rec.valid) && lat_us <= READ_ONCE(rc->rec.lat_us))
		return;

	raw_local_irq_save(flags);
	r = this_cpu_read(lh_x_rings);
	if (r) {
		u64 t0_ns = ktime_get_mono_fast_ns(), cost_ns;

		lh_x_replay(r, start_ns, end_ns, running);
		cost_ns = ktime_get_mono_fast_ns() - t0_ns;
		WRITE_ONCE(lh_x_replay_last_ns, cost_ns);
		if (cost_ns > READ_ONCE(lh_x_replay_max_ns))
			WRITE_ONCE(lh_x_replay_max_ns, cost_ns);
		WRITE_ONCE(lh_x_replays, READ_ONCE(lh_x_replays) + 1);
		r->scratch.rec.lat_us = lat_us;
		arch_spin_lock(&rc->lock);
		if (!rc->rec.valid || lat_us > rc->rec.lat_us)
			rc->rec = r->scratch.rec;
		arch_spin_unlock(&rc->lock);
	}
	raw_local_irq_restore(flags);
}

/* lh_x_rec_get - copy one record out under its lock */
static void lh_x_rec_get(struct lh_x_rec_cpu *rc, struct lh_x_rec *rec)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	arch_spin_lock(&rc->lock);
	*rec = rc->rec;
	arch_spin_unlock(&rc->lock);
	raw_local_irq_restore(flags);
}

/* lh_x_print_name - print a name with blanks and control bytes as '_' */
static void lh_x_print_name(struct seq_file *m, const char *name)
{
	char buf[LH_X_NAME];
	int i;

	strscpy(buf, name, sizeof(buf));
	for (i = 0; buf[i]; i++) {
		if ((unsigned char)buf[i] <= ' ' || buf[i] == 0x7f)
			buf[i] = '_';
	}
	seq_printf(m, " %s", buf[0] ? buf : "-");
}

/**
 * lh_explain_show() - print one explain-CPUx file
 * @m:   the seq_file
 * @id:  the histogram
 * @cpu: the CPU
 *
 * Context: process context.
 */
void lh_explain_show(struct seq_file *m, enum lh_hist_id id, int cpu)
{
	static const char *const kinds[] = {
		[LH_XD_IRQ] = "irq", [LH_XD_VECTOR] = "vector",
		[LH_XD_SOFTIRQ] = "softirq",
	};
	struct lh_x_rec *rec;
	int i;

	if (!lh_x_recs[id]) {
		seq_puts(m, "(none)\n");
		return;
	}
	rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return;
	lh_x_rec_get(&lh_x_recs[id][cpu], rec);
	if (!rec->valid) {
		seq_puts(m, "(none)\n");
		kfree(rec);
		return;
	}
	for (i = 0; i < LH_XC_NR; i++)
		seq_printf(m, "%s %llu %u\n", lh_x_cat_names[i], rec->cat_ns[i],
			   rec->cat_count[i]);
	seq_printf(m, "window %llu\n", rec->window_ns);
	for (i = 0; i < rec->nr_details; i++) {
		const struct lh_x_detail *d = &rec->d[i];

		switch (d->kind) {
		case LH_XD_IRQ:
		case LH_XD_VECTOR:
		case LH_XD_SOFTIRQ:
			seq_printf(m, "  %s %d", kinds[d->kind], d->id);
			lh_x_print_name(m, d->name);
			seq_printf(m, " %u %llu\n", d->count, d->ns);
			break;
		case LH_XD_THREAD:
			seq_printf(m, "  thread %d %d", d->id, 99 - d->prio);
			lh_x_print_name(m, d->name);
			seq_printf(m, " %llu\n", d->ns);
			break;
		case LH_XD_THREAD_REST:
			seq_printf(m, "  thread-rest %d %llu\n", d->id, d->ns);
			break;
		case LH_XD_IDLE:
			seq_printf(m, "  idle %llu\n", d->ns);
			break;
		case LH_XD_UNCOVERED:
			seq_printf(m, "  uncovered %llu\n", d->ns);
			break;
		case LH_XD_TIMER:
			/* the address only: %ps looks the symbol up */
			seq_printf(m, "    timer %ps %u %llu\n", d->fn,
				   d->count, d->ns);
			break;
		}
	}
	kfree(rec);
}

/**
 * lh_explain_clear() - empty the records of some types
 * @ids: BIT(id) of each histogram
 *
 * Context: process context, inside a reset of those histograms (no sample
 * of them can be filed meanwhile: lh_hists_reset()).
 */
void lh_explain_clear(unsigned long ids)
{
	unsigned long flags;
	int id, cpu;

	for_each_set_bit(id, &ids, LH_NR_HISTS) {
		if (!lh_x_recs[id])
			continue;
		for_each_possible_cpu(cpu) {
			struct lh_x_rec_cpu *rc = &lh_x_recs[id][cpu];

			raw_local_irq_save(flags);
			arch_spin_lock(&rc->lock);
			rc->rec.valid = false;
			arch_spin_unlock(&rc->lock);
			raw_local_irq_restore(flags);
			WRITE_ONCE(rc->floor_us, S64_MIN);
		}
	}
}

/*
 * lh_x_floors_set - the types without a max record: every CPU's floor to
 * @floor_us, or with @from_hist to its histogram's maximum now
 */
static void lh_x_floors_set(s64 floor_us, bool from_hist)
{
	int id, cpu;

	for (id = 0; id < LH_NR_HISTS; id++) {
		if (!lh_x_recs[id] || lh_hist_has(id, LH_T_MAX))
			continue;
		for_each_possible_cpu(cpu)
			WRITE_ONCE(lh_x_recs[id][cpu].floor_us, from_hist ?
				   lh_hist_largest_us(lh_hist_cpu(id, cpu)) :
				   floor_us);
	}
}

/* lh_x_rings_free - free every CPU's ring; nothing may use them */
static void lh_x_rings_free(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		kvfree(per_cpu(lh_x_rings, cpu));
		per_cpu(lh_x_rings, cpu) = NULL;
	}
}

/* lh_x_rings_alloc - a ring for every possible CPU, on its node */
static int lh_x_rings_alloc(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct lh_x_ring *r = kvzalloc_node(sizeof(*r), GFP_KERNEL,
						    cpu_to_node(cpu));

		if (!r) {
			lh_x_rings_free();
			return -ENOMEM;
		}
		per_cpu(lh_x_rings, cpu) = r;
	}
	return 0;
}

/**
 * lh_explain_enable() - turn explain on or off
 * @on: the new state
 *
 * On: allocate the rings, hook the probes, then let the filing paths in.
 * A type that keeps no max record explains from then on only samples that
 * reach the maximum its histograms held by then (none meanwhile): "only a
 * sample that becomes its CPU's maximum is explained".
 * Off: the reverse; when it returns, nothing is hooked and no ring exists.
 *
 * Context: process context; may sleep. To turn it on, lh_control_lock
 * held (no reset meanwhile).
 * Return: 0, -ENODEV where this kernel cannot explain, -ENOMEM, or the
 * error of hooking.
 */
int lh_explain_enable(bool on)
{
	int ret = 0;

	mutex_lock(&lh_x_lock);
	if (on == lh_x_on)
		goto out;
	if (on) {
		if (lh_x_reason) {
			pr_notice("cannot enable explain: %s\n", lh_x_reason);
			ret = -ENODEV;
			goto out;
		}
		ret = lh_x_rings_alloc();
		if (ret)
			goto out;
		ret = lh_tp_hook(lh_x_probes, lh_x_nr_probes);
		if (ret) {
			lh_x_rings_free();
			goto out;
		}
		lh_x_floors_set(S64_MAX, false);
		static_branch_enable(&lh_explain_key);
		/* After: a sample filed meanwhile is in the maximum read. */
		lh_x_floors_set(0, true);
	} else {
		static_branch_disable(&lh_explain_key);
		/* waits for every probe, filing ones included */
		lh_tp_unhook(lh_x_probes, lh_x_nr_probes);
		lh_x_rings_free();
	}
	WRITE_ONCE(lh_x_on, on);
out:
	mutex_unlock(&lh_x_lock);
	return ret;
}

/**
 * lh_explain_enabled() - is explain on?
 *
 * Context: any.
 */
bool lh_explain_enabled(void)
{
	return READ_ONCE(lh_x_on);
}

/**
 * lh_explain_status_show() - print explain/status: the state, the ring's
 * size, how many windows were replayed and what the last and the longest
 * replay cost, and each tracepoint with "hooked", "off" or "missing"
 * @m: the seq_file
 *
 * Context: process context.
 */
void lh_explain_status_show(struct seq_file *m)
{
	int i;

	mutex_lock(&lh_x_lock);
	seq_printf(m, "enabled %d\n", lh_x_on);
	seq_printf(m, "ring_events %d\n", LH_X_RING);
	seq_printf(m, "replays %lu\n", READ_ONCE(lh_x_replays));
	seq_printf(m, "replay_last_ns %llu\n", READ_ONCE(lh_x_replay_last_ns));
	seq_printf(m, "replay_max_ns %llu\n", READ_ONCE(lh_x_replay_max_ns));
	if (lh_x_reason)
		seq_printf(m, "reason %s\n", lh_x_reason);
	for (i = 0; i < ARRAY_SIZE(lh_x_probes_all); i++) {
		const struct lh_probe *p = &lh_x_probes_all[i];

		seq_printf(m, "tracepoint %s %s\n", lh_tp_name(p->tp),
			   !lh_tp_found(p->tp) ? "missing" :
			   lh_x_on ? "hooked" : "off");
	}
	mutex_unlock(&lh_x_lock);
}

/*
 * lh_explain_prepare - type-check the probes; learn which this kernel has,
 * and why explain is unavailable (NULL: it is available)
 */
static const char *lh_explain_prepare(void)
{
	int i;

	check_trace_callback_type_sched_switch(lh_x_probe_sched_switch);
	check_trace_callback_type_irq_handler_entry(lh_x_probe_irq_entry);
	check_trace_callback_type_irq_handler_exit(lh_x_probe_irq_exit);
	check_trace_callback_type_softirq_entry(lh_x_probe_softirq_entry);
	check_trace_callback_type_softirq_exit(lh_x_probe_softirq_exit);
	check_trace_callback_type_nmi_handler(lh_x_probe_nmi);
	check_trace_callback_type_hrtimer_expire_entry(lh_x_probe_timer_entry);
	check_trace_callback_type_hrtimer_expire_exit(lh_x_probe_timer_exit);
#ifdef LH_HAVE_X86_IRQ_VECTORS
	check_trace_callback_type_local_timer_entry(lh_x_probe_vec_entry);
	check_trace_callback_type_local_timer_exit(lh_x_probe_vec_exit);
#endif

	lh_x_nr_probes = 0;
	for (i = 0; i < ARRAY_SIZE(lh_x_probes_all); i++) {
		if (lh_tp_found(lh_x_probes_all[i].tp))
			lh_x_probes[lh_x_nr_probes++] = lh_x_probes_all[i];
		else if (i < LH_X_REQUIRED)
			lh_x_reason = "irq, softirq or sched tracepoints not found";
	}
	return lh_x_reason;
}

/**
 * lh_explain_init() - allocate the records of the types that explain
 *
 * Context: module init, after lh_tp_lookup().
 * Return: 0 or -ENOMEM.
 */
int lh_explain_init(void)
{
	int id, cpu;

	lh_explain_prepare();
	for (id = 0; id < LH_NR_HISTS; id++) {
		if (!lh_hist_has(id, LH_T_EXPLAIN))
			continue;
		lh_x_recs[id] = kvcalloc(nr_cpu_ids, sizeof(*lh_x_recs[id]),
					 GFP_KERNEL);
		if (!lh_x_recs[id]) {
			lh_explain_exit();
			return -ENOMEM;
		}
		for_each_possible_cpu(cpu) {
			lh_x_recs[id][cpu].lock =
				(arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
			lh_x_recs[id][cpu].floor_us = S64_MIN;
		}
	}
	return 0;
}

/**
 * lh_explain_exit() - turn explain off, free the records
 *
 * Context: module exit or failed init, after the debugfs tree is gone.
 */
void lh_explain_exit(void)
{
	int id;

	lh_explain_enable(false);
	for (id = 0; id < LH_NR_HISTS; id++) {
		kvfree(lh_x_recs[id]);
		lh_x_recs[id] = NULL;
	}
}
