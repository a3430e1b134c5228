// SPDX-License-Identifier: GPL-2.0
/*
 * switchtime.c - the path from the switch-in to user space: switchtime and
 * timerwakeupswitch, the histograms OSADL's latency add-on patch added to
 * the RT patch's, so that the histograms cover everything from the wakeup
 * trigger of an RT task to its continuation in user space.
 *
 * switchtime: for a wakeup filed in wakeup/ (the same wakeups: exclusive
 * priority, wakeup/pid), the time from its switch-in (the end of the wakeup
 * sample) to the same task's next raw_syscalls:sys_exit on that CPU, the
 * end of the system call it slept in. No tracepoint marks the return to
 * user space itself; sys_exit is the last one on that path, before the exit
 * work (signals, rescheduling) that the task does in its own context.
 *
 * timerwakeupswitch: the sample's timerandwakeup value (the missed offset
 * of the timer that woke it, 0 when none, plus its wakeup latency) plus its
 * switchtime, filed with the switchtime sample; max_latency-CPUx shows the
 * timer part in parentheses. So every timerwakeupswitch sample is its
 * timerandwakeup sample plus its switchtime sample, exactly.
 *
 * What is not filed, and why:
 *  - a wakee that is switched out again before its sys_exit (preempted, or
 *    blocked once more): the time would include another task's; detected
 *    by the task's context-switch counts (nvcsw + nivcsw), noted at the
 *    switch-in, having changed;
 *  - a wakee that returns to user space without a sys_exit: a kernel thread
 *    never does; a task woken in an exception (a page fault), or stopped
 *    and continued by a signal, returns through the exception or signal
 *    exit. Its next raw_syscalls:sys_enter, or the next tracked switch-in
 *    on that CPU, forgets it; its next switch-out makes its next sys_exit
 *    file nothing (the context-switch counts below);
 *  - a sys_exit whose system call is not the one the wakee was in at its
 *    switch-in: a system call that seccomp (RET_ERRNO, RET_TRAP) denies
 *    fires sys_exit but no sys_enter, so without this check the wakee
 *    above, which went to user space and came back without a sys_enter,
 *    would file its time in user space. The switch-in notes
 *    syscall_get_nr() of the wakee's user registers (-1 when it entered
 *    the kernel by an interrupt or exception), the sys_exit files only the
 *    same number. A ptrace stop in between (PTRACE_SYSCALL, SYSEMU,
 *    seccomp RET_TRACE and USER_NOTIF) is a switch-out and files nothing
 *    anyway. The hole left: a wakee that entered the kernel by an
 *    interrupt and then makes the invalid system call -1 denied by seccomp
 *    without a sys_enter would file its time in user space;
 *  - a wakeup filed under wakeup/sharedprio.
 * So per wakeup of an RT task sleeping in a system call, one sample each.
 *
 * Cost: the raw_syscalls tracepoints are hooked only while switchtime is
 * enabled. Registering a probe on them sets the syscall-tracepoint work flag
 * on every task, so every system call of every task takes the slow entry
 * and exit path (the status line says syscall_slow_path=1); the probes'
 * common path is one compare of this CPU's slot with current. The benchmark
 * measures both (Documentation/performance.rst).
 *
 * The slot is per CPU, written only by that CPU's sched_switch probe with
 * interrupts off and cleared by that CPU's syscall probes with preemption
 * off; nothing is shared, no lock is taken.
 *
 * Clock: lh_clock_stamp() (clock.h), the wakeup histograms' clock, so that
 * the sums are of one clock; a window whose ends were read on two is dropped.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <trace/events/syscalls.h>
#include <asm/syscall.h>

#include <latency_hist/clock.h>
#include <latency_hist/control.h>
#include <latency_hist/sample.h>
#include <latency_hist/switchtime.h>
#include <latency_hist/tracepoints.h>

/*
 * struct lh_switchtime_cpu - the wakee switched in last on one CPU
 * @task:        identity only, never dereferenced; NULL when none
 * @pid:         its thread id, against a reused task_struct
 * @nr_switches: its nvcsw + nivcsw at the switch-in
 * @syscall_nr:  the system call it is in at the switch-in, -1 if none
 * @switch_at:   lh_clock_stamp() of the switch-in
 * @taw_us:      its timerandwakeup value (timer offset + wakeup latency)
 * @offset_us:   the timer part of @taw_us
 * @culprit:     the task switched out for it
 */
struct lh_switchtime_cpu {
	struct task_struct *task;
	pid_t pid;
	unsigned long nr_switches;
	long syscall_nr;
	u64 switch_at;
	s64 taw_us;
	s64 offset_us;
	struct lh_task_info culprit;
};

static DEFINE_PER_CPU(struct lh_switchtime_cpu, lh_switchtime_cpus);

/**
 * lh_switchtime_start() - a wakeup filed in wakeup/ ends: note its switch-in
 * @next:      the wakee, being switched in on this CPU
 * @prev:      the task switched out for it
 * @now:       lh_clock_stamp() of the switch-in (the wakeup sample's end)
 * @wakeup_us: the wakeup sample
 * @offset_us: the missed offset of the timer that woke it (0: none, or
 *             timerandwakeup off)
 *
 * Context: sched_switch probe, interrupts off, switchtime enabled.
 */
void notrace lh_switchtime_start(struct task_struct *next,
				 struct task_struct *prev, u64 now,
				 s64 wakeup_us, s64 offset_us)
{
	struct lh_switchtime_cpu *st = this_cpu_ptr(&lh_switchtime_cpus);

	st->pid = next->pid;
	st->nr_switches = lh_task_nr_switches(next);
	st->syscall_nr = syscall_get_nr(next, task_pt_regs(next));
	st->switch_at = now;
	st->taw_us = offset_us + wakeup_us;
	st->offset_us = offset_us;
	lh_task_info_fill(&st->culprit, prev);
	/* The syscall probes of this CPU test this first. */
	WRITE_ONCE(st->task, next);
}

/*
 * lh_switchtime_end - current, switched in by a tracked wakeup on this
 * CPU, ends system call @syscall_nr: file it unless it was switched out
 * meanwhile or this is not the system call it was woken in
 */
static noinline void notrace lh_switchtime_end(long syscall_nr)
{
	u64 now = lh_clock_stamp();
	struct lh_switchtime_cpu *st;
	struct task_struct *task;
	s64 lat_us;
	int cpu;

	preempt_disable_notrace();
	st = this_cpu_ptr(&lh_switchtime_cpus);
	task = READ_ONCE(st->task);
	if (task != current)
		goto out;	/* the slot changed since the compare */
	WRITE_ONCE(st->task, NULL);
	if (st->pid != current->pid ||
	    st->nr_switches != lh_task_nr_switches(current))
		goto out;	/* switched out before its return */
	if (st->syscall_nr != syscall_nr)
		goto out;	/* a sys_exit with no sys_enter (seccomp) */
	if (!lh_clock_window_us(st->switch_at, now, &lat_us))
		goto out;

	cpu = smp_processor_id();
	lh_sample_record_copy(LH_HIST_SWITCHTIME, cpu, lat_us, 0, current,
			      &st->culprit, now);
	if (lh_switch_enabled(LH_SW_TIMERWAKEUPSWITCH))
		lh_sample_record_copy(LH_HIST_TIMERWAKEUPSWITCH, cpu,
				      st->taw_us + lat_us, st->offset_us,
				      current, &st->culprit, now);
out:
	preempt_enable_notrace();
}

/* lh_switchtime_forget - current entered the kernel again: forget its slot */
static noinline void notrace lh_switchtime_forget(void)
{
	struct lh_switchtime_cpu *st;

	preempt_disable_notrace();
	st = this_cpu_ptr(&lh_switchtime_cpus);
	if (READ_ONCE(st->task) == current)
		WRITE_ONCE(st->task, NULL);
	preempt_enable_notrace();
}

/*
 * lh_probe_sys_exit - every system call's end, in its task, preemptible:
 * one compare with this CPU's slot; a task that migrated meanwhile is not
 * in the slot it reads
 */
static void notrace lh_probe_sys_exit(void *data, struct pt_regs *regs,
				      long ret)
{
	if (unlikely(raw_cpu_read(lh_switchtime_cpus.task) == current))
		lh_switchtime_end(syscall_get_nr(current, regs));
}

/*
 * lh_probe_sys_enter - every system call's start: a wakee still in the slot
 * went to user space without a sys_exit (an exception or signal exit)
 */
static void notrace lh_probe_sys_enter(void *data, struct pt_regs *regs,
				       long id)
{
	if (unlikely(raw_cpu_read(lh_switchtime_cpus.task) == current))
		lh_switchtime_forget();
}

/* Hooked in this order: the start of a system call first. */
static const struct lh_probe lh_switchtime_probes[] = {
	{ LH_TP_SYS_ENTER,	lh_probe_sys_enter },
	{ LH_TP_SYS_EXIT,	lh_probe_sys_exit },
};

/* lh_switchtime_clear - empty every CPU's slot; no probe may be running */
static void lh_switchtime_clear(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&lh_switchtime_cpus, cpu), 0,
		       sizeof(struct lh_switchtime_cpu));
}

/* lh_switchtime_prepare - type-check the probes where the kernel declares them */
static const char *lh_switchtime_prepare(void)
{
#ifdef CONFIG_HAVE_SYSCALL_TRACEPOINTS
	check_trace_callback_type_sys_enter(lh_probe_sys_enter);
	check_trace_callback_type_sys_exit(lh_probe_sys_exit);
#endif
	return NULL;
}

const struct lh_switch_ops lh_switchtime_ops = {
	.probes		= lh_switchtime_probes,
	.nr_probes	= ARRAY_SIZE(lh_switchtime_probes),
	.missing	= "raw_syscalls tracepoints not found",
	.prepare	= lh_switchtime_prepare,
	.clear		= lh_switchtime_clear,
};
