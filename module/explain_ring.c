// SPDX-License-Identifier: GPL-2.0
/*
 * explain_ring.c - the per-CPU event rings of explain and the probes that
 * fill them.
 *
 * While explain/enable is 1, every CPU appends compact timestamped events
 * to a ring of its own: hard interrupt entry and exit (device IRQs with
 * their handler's name and, on x86, the system vectors: local timer,
 * reschedule, call function, irq work, ...), softirq entry and exit,
 * hrtimer callbacks (entry and exit, with the callback's address), NMI
 * handlers with their duration, the idle task's idle states (entry, with
 * the state's name and exit latency copied from the cpuidle driver, and
 * exit), and context switches with the pid, priority and comm of both
 * tasks copied. Nothing reads a ring but the replay of a new maximum on
 * the same CPU (explain_replay.c).
 *
 * This is probe context: the probes run in hard and soft interrupts, in
 * NMIs and, on PREEMPT_RT and 7.x, preemptible. They never allocate, lock
 * or sleep; the rings are allocated before the probes are hooked and freed
 * after they are unhooked (lh_x_ring_start(), lh_x_ring_stop()).
 *
 * Cost: while off, nothing hooked. While on, one clock read and one slot
 * per event (two slots and two comm copies per context switch)
 * (Documentation/performance.rst).
 */
#include <linux/cpuidle.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/local.h>
#include <trace/events/irq.h>
#include <trace/events/nmi.h>
#include <trace/events/power.h>
#include <trace/events/sched.h>
#include <trace/events/timer.h>

#include <latency_hist/clock.h>
#include <latency_hist/compat.h>
#include <latency_hist/explain_priv.h>
#include <latency_hist/tracepoints.h>

#ifdef LH_HAVE_X86_IRQ_VECTORS
#include <asm/trace/irq_vectors.h>
#endif

static DEFINE_PER_CPU(struct lh_x_ring *, lh_x_rings);

/*
 * lh_x_reserve - reserve this CPU's next slot; *@seq seals it
 *
 * One local_inc_return() reserves it, safe against the interrupts and NMIs
 * of this CPU, which may append in between; the caller zeroes the slot's
 * sequence number first and seals it last, so that a replay skips a slot
 * it finds half written.
 */
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

/*
 * lh_x_event - append an interrupt or idle event to this CPU's ring;
 * preemption off around it, as on PREEMPT_RT and 7.x tracepoint probes may
 * run preemptible. @arg: an NMI's duration, an idle state's exit latency.
 */
static __always_inline void lh_x_event(u8 kind, s32 id, const void *name,
				       u64 arg)
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
			ev->delta_ns = arg;
		else if (kind == LH_XE_TIMER_ENTRY)
			ev->fn = name;
		else
			lh_x_copy_name(ev->name, name);
		if (kind == LH_XE_IDLE_ENTRY)
			ev->exit_us = arg;
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

/*
 * lh_x_probe_cpu_idle - the idle task enters idle state @state, or leaves
 * it (PWR_EVENT_EXIT)
 *
 * At the entry the state's name and exit latency are copied from this
 * CPU's cpuidle driver, as an IRQ's name at its entry: only here is the
 * table certainly there. Both callers (cpuidle_enter_state(), and the
 * kernel's own idle: default_idle_call() reports 1, cpu_idle_poll() 0) run
 * it with interrupts off and RCU watching, before ct_cpuidle_enter(): with
 * preemption off too, an RCU reader. A driver that goes away clears the
 * pointer cpuidle_get_driver() reads before its table is freed, and frees
 * it only after a grace period (cpuidle_unregister_device()'s, a module's
 * in free_module()). An index the driver has no state for is the kernel's
 * own idle. The default idle with a driver registered (cpuidle paused, its
 * device off) reports 1 too: the tracepoint does not tell it from the
 * driver's state 1. Idle injection threads (PF_IDLE, pid not 0) idle in
 * their own time, which is theirs: not recorded.
 */
static void notrace lh_x_probe_cpu_idle(void *data, unsigned int state,
					unsigned int cpu_id)
{
	const struct cpuidle_driver *drv;
	const char *name = NULL;
	u32 exit_us = LH_X_NO_DRIVER;

	if (current->pid)
		return;
	if (state == (unsigned int)PWR_EVENT_EXIT) {
		lh_x_event(LH_XE_IDLE_EXIT, -1, NULL, 0);
		return;
	}
	preempt_disable_notrace();
	drv = cpuidle_get_driver();
	if (drv && state < min_t(unsigned int, READ_ONCE(drv->state_count),
				 CPUIDLE_STATE_MAX)) {
		name = drv->states[state].name;
		exit_us = READ_ONCE(drv->states[state].exit_latency);
	}
	lh_x_event(LH_XE_IDLE_ENTRY, state, name, exit_us);
	preempt_enable_notrace();
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
 * so a wakeup filed at its switch-in replays a ring without that switch;
 * at softirq_entry the softirq type's probe has the higher priority
 * instead (softirq.c), for the same reason.
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
	{ LH_TP_CPU_IDLE, lh_x_probe_cpu_idle },
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

/*
 * lh_x_ring_prepare - type-check the probes; learn which this kernel has,
 * and why explain is unavailable (NULL: it is available)
 */
const char *lh_x_ring_prepare(void)
{
	const char *reason = NULL;
	int i;

	check_trace_callback_type_sched_switch(lh_x_probe_sched_switch);
	check_trace_callback_type_irq_handler_entry(lh_x_probe_irq_entry);
	check_trace_callback_type_irq_handler_exit(lh_x_probe_irq_exit);
	check_trace_callback_type_softirq_entry(lh_x_probe_softirq_entry);
	check_trace_callback_type_softirq_exit(lh_x_probe_softirq_exit);
	check_trace_callback_type_nmi_handler(lh_x_probe_nmi);
	check_trace_callback_type_hrtimer_expire_entry(lh_x_probe_timer_entry);
	check_trace_callback_type_hrtimer_expire_exit(lh_x_probe_timer_exit);
	check_trace_callback_type_cpu_idle(lh_x_probe_cpu_idle);
#ifdef LH_HAVE_X86_IRQ_VECTORS
	check_trace_callback_type_local_timer_entry(lh_x_probe_vec_entry);
	check_trace_callback_type_local_timer_exit(lh_x_probe_vec_exit);
#endif

	lh_x_nr_probes = 0;
	for (i = 0; i < ARRAY_SIZE(lh_x_probes_all); i++) {
		if (lh_tp_found(lh_x_probes_all[i].tp))
			lh_x_probes[lh_x_nr_probes++] = lh_x_probes_all[i];
		else if (i < LH_X_REQUIRED)
			reason = "irq, softirq or sched tracepoints not found";
	}
	return reason;
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
		/* No warning: the write of enable fails with -ENOMEM. */
		struct lh_x_ring *r = kvzalloc_node(sizeof(*r),
						    GFP_KERNEL | __GFP_NOWARN,
						    cpu_to_node(cpu));

		if (!r) {
			lh_x_rings_free();
			return -ENOMEM;
		}
		per_cpu(lh_x_rings, cpu) = r;
	}
	return 0;
}

/*
 * lh_x_ring_start - allocate the rings, then hook the probes that fill
 * them; all or nothing
 */
int lh_x_ring_start(void)
{
	int ret;

	ret = lh_x_rings_alloc();
	if (ret)
		return ret;
	ret = lh_tp_hook(lh_x_probes, lh_x_nr_probes);
	if (ret)
		goto out_free_rings;
	return 0;

out_free_rings:
	lh_x_rings_free();
	return ret;
}

/*
 * lh_x_ring_stop - unhook the probes, then free the rings: the unhook waits
 * for every probe, the filing ones of the other types included (their
 * static branch is off by then)
 */
void lh_x_ring_stop(void)
{
	lh_tp_unhook(lh_x_probes, lh_x_nr_probes);
	lh_x_rings_free();
}

/*
 * lh_x_this_ring - this CPU's ring, NULL while explain is off; preemption
 * or interrupts off
 */
notrace struct lh_x_ring *lh_x_this_ring(void)
{
	return this_cpu_read(lh_x_rings);
}

/*
 * lh_x_ring_status_show - explain/status's tracepoint lines: each one
 * "hooked", "off" (explain is @on or not) or "missing"
 */
void lh_x_ring_status_show(struct seq_file *m, bool on)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(lh_x_probes_all); i++) {
		const struct lh_probe *p = &lh_x_probes_all[i];

		seq_printf(m, "tracepoint %s %s\n", lh_tp_name(p->tp),
			   !lh_tp_found(p->tp) ? "missing" :
			   on ? "hooked" : "off");
	}
}
