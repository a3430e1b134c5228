// SPDX-License-Identifier: GPL-2.0
/*
 * counters.c - hardware and software counters over each latency window,
 * through the in-kernel perf_event API.
 *
 * A long window with few instructions retired and few cycles means the CPU
 * was stalled, halted or in SMM; one full of instructions means something
 * else ran; many cache misses point at memory. While counting is on
 * (counters/enable), each CPU holds one pinned counting event per entry of
 * the event set (counters/events), created when counting starts or the CPU
 * comes online and released when counting stops or the CPU goes down. The
 * hotplug callbacks only withdraw events from the probes and hand the rest
 * to a work item: they run with cpu_hotplug_lock held, and creating or
 * releasing a software event (context-switches, ...) takes it again, a
 * recursion lockdep reports. Probes read the events
 * on their own CPU with interrupts off: perf_event_read_local() is not
 * exported, so, as lttng-modules does, the event's PMU read callback
 * updates the count of an event that is active on this CPU, and anything
 * else (an event that failed, or sits in error state because the hard-lockup
 * watchdog holds the counter it needs) is never read.
 *
 * Windows, per latency type (all on the CPU the sample is filed under):
 *  - irqsoff, preemptoff, preemptirqsoff: exactly the section.
 *  - wakeup, wakeup/sharedprio: from the later of the wakee's sched_waking,
 *    if it ran on the wakee's CPU, and that CPU's last context switch, to
 *    the switch-in. A wakeup from another CPU cannot start the window there
 *    (the target CPU's counters can only be read on it), so its window
 *    starts at the target's last context switch before the switch-in: it
 *    covers what the target CPU ran until the wakee got it, and may begin
 *    before the waking.
 *  - missed_timer_offsets: from the CPU's last context switch to the late
 *    expiry: no event marks the instant the timer was due, so the window
 *    covers the lateness and whatever ran before it on that CPU, or only
 *    the part of the lateness since a switch made after the timer was due.
 * Each window's own length (window_ns) is kept with its counts, so rates
 * (IPC, GHz) are over what was counted. It is CLOCK_MONOTONIC
 * (ktime_get_mono_fast_ns()), not local_clock(): where sched_clock is
 * unstable (a TSC the clocksource watchdog rejected), local_clock() on a
 * CPU with interrupts off advances at most a tick past that CPU's last
 * tick, and an 8 ms window read 3.6 ms while the TSC counted 9 ms.
 *
 * Cost: with counting off, a patched-out static branch in the probes; with
 * it on, one read per event per window edge plus one at each context switch.
 *
 * Statistics live in per-CPU memory written only by the CPU itself with
 * interrupts off; readers copy them without a lock (a reader racing a
 * sample may see its sum without its window, never a torn 64-bit value).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <trace/events/sched.h>

#include <latency_hist/counters.h>
#include <latency_hist/tracepoints.h>

#define LH_PMU_NAME_MAX		32	/* bytes of an event name, NUL included */
#define LH_PMU_SYSFS		"/sys/bus/event_source/devices/"
#define LH_PMU_DEFAULT		"cycles ref-cycles instructions cache-misses"
#define LH_PMU_DEFAULT_SMI	"msr/smi/"

/* struct lh_pmu_event - one entry of the event set */
struct lh_pmu_event {
	char name[LH_PMU_NAME_MAX];
	u32 type;
	u64 config;
};

/* struct lh_pmu_set - an event set, as configured */
struct lh_pmu_set {
	int nr;
	struct lh_pmu_event ev[LH_PMU_MAX_EVENTS];
};

/*
 * struct lh_pmu_cpu - one CPU's events and marks
 * @ev:     the events the probes may read, NULL if none; published and
 *          withdrawn by lh_pmu_sync(), withdrawn by the offline callback
 * @own:    the events this CPU holds, under lh_pmu_lock; only
 *          lh_pmu_sync() creates and releases them
 * @err:    0 if @ev[i] was created, else why not (-ENODEV: not tried)
 * @sw:     the counters at this CPU's last context switch
 * @wake:   the counters at the last sched_waking run on this CPU for a task
 *          of this CPU, and that task (identity only, never dereferenced)
 */
struct lh_pmu_cpu {
	struct perf_event *ev[LH_PMU_MAX_EVENTS];
	struct perf_event *own[LH_PMU_MAX_EVENTS];
	int err[LH_PMU_MAX_EVENTS];
	struct lh_pmu_mark sw;
	struct lh_pmu_mark wake;
	struct task_struct *wake_task;
	pid_t wake_pid;
};

/*
 * struct lh_pmu_stats - one type's counter statistics on one CPU
 * @windows:  samples whose window was counted
 * @nr:       of those, the windows in which event i could be read
 * @max_*:    the window of the largest sample (@max_ok: events read in it)
 */
struct lh_pmu_stats {
	u64 windows;
	s64 lat_sum_us;
	u64 win_sum_ns;
	u64 nr[LH_PMU_MAX_EVENTS];
	u64 sum[LH_PMU_MAX_EVENTS];
	bool max_valid;
	s64 max_lat_us;
	u64 max_win_ns;
	u64 max_val[LH_PMU_MAX_EVENTS];
	u32 max_ok;
};

/* struct lh_pmu_stats_cpu - every type's statistics on one CPU */
struct lh_pmu_stats_cpu {
	struct lh_pmu_stats hist[LH_NR_HISTS];
};

#define LH_PMU_WINDOW_SECTION	"the section"
#define LH_PMU_WINDOW_WAKEUP	\
	"from the later of the waking on this CPU and its last context switch, to the switch-in"
#define LH_PMU_WINDOW_TIMER	\
	"from this CPU's last context switch to the late expiry"

/* What each type's window covers, for the header of its counters file. */
static const char *const lh_pmu_window[LH_NR_HISTS] = {
	[LH_HIST_IRQSOFF]		= LH_PMU_WINDOW_SECTION,
	[LH_HIST_PREEMPTOFF]		= LH_PMU_WINDOW_SECTION,
	[LH_HIST_PREEMPTIRQSOFF]	= LH_PMU_WINDOW_SECTION,
	[LH_HIST_WAKEUP]		= LH_PMU_WINDOW_WAKEUP,
	[LH_HIST_WAKEUP_SHAREDPRIO]	= LH_PMU_WINDOW_WAKEUP,
	[LH_HIST_MISSED_TIMER_OFFSETS]	= LH_PMU_WINDOW_TIMER,
};

/* Event names perf itself knows without a PMU directory. */
static const struct lh_pmu_event lh_pmu_generic[] = {
	{ "cycles",		PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions",	PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references",	PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses",	PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches",		PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses",	PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles",		PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "ref-cycles",		PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "page-faults",	PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches",	PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations",	PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
};

DEFINE_STATIC_KEY_FALSE(lh_counting_key);

static DEFINE_MUTEX(lh_pmu_lock);

/* All below: written under lh_pmu_lock while counting is off. */
static struct lh_pmu_set lh_pmu_set;
static u32 lh_pmu_gen;		/* bumped by every start; 0 is never valid */
static bool lh_pmu_on;
static enum cpuhp_state lh_pmu_hp_state;
/*
 * Module parameters are set before init: until lh_counters_start() a
 * request is only validated and remembered, as in control.c.
 */
static bool lh_pmu_ready;
static bool lh_pmu_pending;	/* counters=1 given before start */
static bool lh_pmu_set_given;	/* counter_events= given before init */

static struct lh_pmu_cpu __percpu *lh_pmu_cpus;
static struct lh_pmu_stats_cpu __percpu *lh_pmu_stats;

/*
 * CPUs whose events must be (re)created or released: set by the hotplug
 * callbacks, which cannot do it themselves (creating or releasing a
 * software event takes cpu_hotplug_lock, which they hold), and handled by
 * lh_pmu_hp_work.
 */
static struct cpumask lh_pmu_hp_dirty;
static struct cpumask lh_pmu_hp_todo;	/* the work's copy, under lh_pmu_lock */
static void lh_pmu_hp_fn(struct work_struct *work);
static DECLARE_WORK(lh_pmu_hp_work, lh_pmu_hp_fn);

/**
 * lh_pmu_read() - read this CPU's active events
 * @mark: filled with the values, the time and the generation
 *
 * Context: probe context, on the CPU whose counters are wanted; preemption
 * or interrupts off. Takes no lock; interrupts go off for the reads.
 */
void notrace lh_pmu_read(struct lh_pmu_mark *mark)
{
	struct lh_pmu_cpu *pc;
	unsigned long flags;
	int i, cpu, nr;

	raw_local_irq_save(flags);
	cpu = smp_processor_id();
	pc = this_cpu_ptr(lh_pmu_cpus);
	nr = READ_ONCE(lh_pmu_set.nr);
	mark->ok = 0;
	for (i = 0; i < nr; i++) {
		struct perf_event *ev = READ_ONCE(pc->ev[i]);

		if (!ev || READ_ONCE(ev->oncpu) != cpu ||
		    READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE)
			continue;
		ev->pmu->read(ev);
		mark->val[i] = local64_read(&ev->count);
		mark->ok |= BIT(i);
	}
	mark->ns = ktime_get_mono_fast_ns();
	mark->gen = READ_ONCE(lh_pmu_gen);
	raw_local_irq_restore(flags);
}

/* lh_pmu_account - add one window to this CPU's statistics of @id; irqs off */
static void notrace lh_pmu_account(enum lh_hist_id id, s64 lat_us,
				   const struct lh_pmu_mark *start,
				   const struct lh_pmu_mark *end)
{
	struct lh_pmu_stats *st = &this_cpu_ptr(lh_pmu_stats)->hist[id];
	bool is_max = !st->max_valid || lat_us > st->max_lat_us;
	u32 ok = start->ok & end->ok;
	u64 win_ns = end->ns - start->ns;
	int i;

	st->windows++;
	st->lat_sum_us += lat_us;
	st->win_sum_ns += win_ns;
	for (i = 0; i < LH_PMU_MAX_EVENTS; i++) {
		if (!(ok & BIT(i)))
			continue;
		st->nr[i]++;
		st->sum[i] += end->val[i] - start->val[i];
		if (is_max)
			st->max_val[i] = end->val[i] - start->val[i];
	}
	if (is_max) {
		st->max_lat_us = lat_us;
		st->max_win_ns = win_ns;
		st->max_ok = ok;
		st->max_valid = true;
	}
}

/**
 * lh_pmu_file() - end a window that began at @start and count it for @id
 * @id:     the histogram the sample went into
 * @lat_us: the sample
 * @start:  the counters when the window began, on this CPU
 *
 * A window begun in another counting generation (or never) is not counted.
 *
 * Context: probe context on the window's CPU; preemption or interrupts off.
 */
void notrace lh_pmu_file(enum lh_hist_id id, s64 lat_us,
			 const struct lh_pmu_mark *start)
{
	struct lh_pmu_mark end;
	unsigned long flags;

	raw_local_irq_save(flags);
	lh_pmu_read(&end);
	if (start->gen == end.gen)
		lh_pmu_account(id, lat_us, start, &end);
	raw_local_irq_restore(flags);
}

/**
 * lh_pmu_file_since_switch() - count a window that began at this CPU's last
 * context switch (a late timer)
 * @id:     the histogram the sample went into
 * @lat_us: the sample
 *
 * Context: probe context; preemption or interrupts off.
 */
void notrace lh_pmu_file_since_switch(enum lh_hist_id id, s64 lat_us)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	lh_pmu_file(id, lat_us, &this_cpu_ptr(lh_pmu_cpus)->sw);
	raw_local_irq_restore(flags);
}

/**
 * lh_pmu_wakeup_start() - sched_waking of @p: if it runs on @p's CPU, the
 * wakeup's window can start here
 * @p: the wakee
 *
 * Context: sched_waking probe.
 */
void notrace lh_pmu_wakeup_start(struct task_struct *p)
{
	struct lh_pmu_cpu *pc;
	unsigned long flags;

	raw_local_irq_save(flags);
	if (task_cpu(p) == smp_processor_id()) {
		pc = this_cpu_ptr(lh_pmu_cpus);
		lh_pmu_read(&pc->wake);
		pc->wake_pid = p->pid;
		WRITE_ONCE(pc->wake_task, p);
	}
	raw_local_irq_restore(flags);
}

/**
 * lh_pmu_wakeup_file() - count the window of a wakeup that ends now
 * @id:     LH_HIST_WAKEUP or LH_HIST_WAKEUP_SHAREDPRIO
 * @lat_us: the sample
 * @next:   the wakee, being switched in on this CPU
 *
 * Context: sched_switch probe (interrupts off), before lh_pmu_switch().
 */
void notrace lh_pmu_wakeup_file(enum lh_hist_id id, s64 lat_us,
				struct task_struct *next)
{
	struct lh_pmu_cpu *pc = this_cpu_ptr(lh_pmu_cpus);
	const struct lh_pmu_mark *start = &pc->sw;
	u32 gen = READ_ONCE(lh_pmu_gen);

	/*
	 * The waking mark of this generation, if it is later than the last
	 * switch or the switch mark is of an older one; a mark of an older
	 * generation never starts a window (lh_pmu_file() would drop it).
	 */
	if (pc->wake_task == next && pc->wake_pid == next->pid &&
	    pc->wake.gen == gen &&
	    (pc->sw.gen != gen || pc->wake.ns > pc->sw.ns))
		start = &pc->wake;
	lh_pmu_file(id, lat_us, start);
}

/*
 * lh_pmu_switch - sched_switch, after the latency probes: a new edge for the
 * windows that start at a context switch; hooked at a lower priority than
 * the wakeup probe, which reads the previous edge
 */
static void notrace lh_pmu_switch(void *data, bool preempt,
				  struct task_struct *prev,
				  struct task_struct *next,
				  unsigned int prev_state)
{
	struct lh_pmu_cpu *pc = this_cpu_ptr(lh_pmu_cpus);

	lh_pmu_read(&pc->sw);
	if (pc->wake_task == next)
		WRITE_ONCE(pc->wake_task, NULL);
}

static const struct lh_probe lh_pmu_probes[] = {
	{ LH_TP_SCHED_SWITCH, lh_pmu_switch, TRACEPOINT_DEFAULT_PRIO - 1 },
};

/* lh_pmu_create - create @cpu's events, publish them to the probes */
static void lh_pmu_create(unsigned int cpu)
{
	struct lh_pmu_cpu *pc = per_cpu_ptr(lh_pmu_cpus, cpu);
	int i;

	for (i = 0; i < lh_pmu_set.nr; i++) {
		struct perf_event_attr attr = {
			.type	= lh_pmu_set.ev[i].type,
			.size	= sizeof(attr),
			.config	= lh_pmu_set.ev[i].config,
			.pinned	= 1,
		};
		struct perf_event *ev;

		ev = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL,
						      NULL);
		if (IS_ERR(ev)) {
			pc->err[i] = PTR_ERR(ev);
			continue;
		}
		pc->err[i] = 0;
		pc->own[i] = ev;
		/* Pairs with the address dependency of READ_ONCE() in lh_pmu_read(). */
		smp_store_release(&pc->ev[i], ev);
	}
}

/*
 * lh_pmu_sync - bring the events of the CPUs in @mask in line with the
 * state: release what they hold, then, while counting, create events on the
 * ones that are online. Caller holds lh_pmu_lock and not cpu_hotplug_lock
 * (creating and releasing a software event take it). A CPU that goes
 * offline or online meanwhile is marked again by the hotplug callbacks.
 */
static void lh_pmu_sync(const struct cpumask *mask)
{
	unsigned int cpu;
	int i;

	for_each_cpu(cpu, mask)
		for (i = 0; i < LH_PMU_MAX_EVENTS; i++)
			WRITE_ONCE(per_cpu_ptr(lh_pmu_cpus, cpu)->ev[i], NULL);
	/* Probes read the events with interrupts off: an RCU read side. */
	synchronize_rcu();
	for_each_cpu(cpu, mask) {
		struct lh_pmu_cpu *pc = per_cpu_ptr(lh_pmu_cpus, cpu);

		for (i = 0; i < LH_PMU_MAX_EVENTS; i++) {
			if (pc->own[i])
				perf_event_release_kernel(pc->own[i]);
			pc->own[i] = NULL;
			pc->err[i] = -ENODEV;
		}
		/* No probe runs with counting off: a waking mark dies with it. */
		if (!lh_pmu_on)
			WRITE_ONCE(pc->wake_task, NULL);
		if (lh_pmu_on && cpu_online(cpu))
			lh_pmu_create(cpu);
	}
}

/* lh_pmu_hp_fn - work: sync the CPUs the hotplug callbacks marked */
static void lh_pmu_hp_fn(struct work_struct *work)
{
	unsigned int cpu;

	mutex_lock(&lh_pmu_lock);
	cpumask_clear(&lh_pmu_hp_todo);
	for_each_cpu(cpu, &lh_pmu_hp_dirty)
		if (cpumask_test_and_clear_cpu(cpu, &lh_pmu_hp_dirty))
			cpumask_set_cpu(cpu, &lh_pmu_hp_todo);
	lh_pmu_sync(&lh_pmu_hp_todo);
	mutex_unlock(&lh_pmu_lock);
}

/* lh_pmu_cpu_online - hotplug: have @cpu's events created */
static int lh_pmu_cpu_online(unsigned int cpu)
{
	cpumask_set_cpu(cpu, &lh_pmu_hp_dirty);
	queue_work(system_wq, &lh_pmu_hp_work);
	return 0;
}

/* lh_pmu_cpu_offline - hotplug: withdraw @cpu's events, have them released */
static int lh_pmu_cpu_offline(unsigned int cpu)
{
	struct lh_pmu_cpu *pc = per_cpu_ptr(lh_pmu_cpus, cpu);
	int i;

	for (i = 0; i < LH_PMU_MAX_EVENTS; i++)
		WRITE_ONCE(pc->ev[i], NULL);
	cpumask_set_cpu(cpu, &lh_pmu_hp_dirty);
	queue_work(system_wq, &lh_pmu_hp_work);
	return 0;
}

/* lh_pmu_start - start counting with the current set; caller holds lh_pmu_lock */
static int lh_pmu_start(void)
{
	int ret;

	ret = lh_tp_hook(lh_pmu_probes, ARRAY_SIZE(lh_pmu_probes));
	if (ret)
		return ret;
	/* Marks of an earlier generation must not pair with this one's. */
	WRITE_ONCE(lh_pmu_gen, lh_pmu_gen + 1 ? lh_pmu_gen + 1 : 1);
	/* No calls: the callbacks run with cpu_hotplug_lock held. */
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					"latency_hist/counters:online",
					lh_pmu_cpu_online, lh_pmu_cpu_offline);
	if (ret < 0) {
		lh_tp_unhook(lh_pmu_probes, ARRAY_SIZE(lh_pmu_probes));
		return ret;
	}
	lh_pmu_hp_state = ret;
	lh_pmu_on = true;
	lh_pmu_sync(cpu_possible_mask);
	static_branch_enable(&lh_counting_key);
	return 0;
}

/*
 * lh_pmu_stop - stop counting, release every event; caller holds
 * lh_pmu_lock. A hotplug work queued before may still run: it finds
 * counting off and nothing to release.
 */
static void lh_pmu_stop(void)
{
	if (!lh_pmu_on)
		return;
	static_branch_disable(&lh_counting_key);
	/* Let probes that saw the branch on finish before events go away. */
	tracepoint_synchronize_unregister();
	cpuhp_remove_state_nocalls(lh_pmu_hp_state);
	lh_tp_unhook(lh_pmu_probes, ARRAY_SIZE(lh_pmu_probes));
	lh_pmu_on = false;
	lh_pmu_sync(cpu_possible_mask);
}

/* lh_pmu_stats_clear - empty one type's statistics on every CPU */
static void lh_pmu_stats_clear(enum lh_hist_id id)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(&per_cpu_ptr(lh_pmu_stats, cpu)->hist[id], 0,
		       sizeof(struct lh_pmu_stats));
}

/* lh_pmu_read_sysfs - read a short sysfs file of the perf event source tree */
static int lh_pmu_read_sysfs(const char *path, char *buf, size_t size)
{
	struct file *f;
	loff_t pos = 0;
	ssize_t len;

	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	len = kernel_read(f, buf, size - 1, &pos);
	filp_close(f, NULL);
	if (len < 0)
		return len;
	buf[len] = '\0';
	return 0;
}

/* lh_pmu_name_ok - a PMU or event name: letters, digits, '_', '-', '.' */
static bool lh_pmu_name_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || s[0] == '.')
		return false;
	for (i = 0; i < len; i++) {
		if (!isalnum(s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '.')
			return false;
	}
	return true;
}

/*
 * lh_pmu_resolve_dynamic - "pmu/event/": type from the PMU's sysfs type file,
 * config from its events/<event> file, which must be "event=N" or "config=N"
 */
static int lh_pmu_resolve_dynamic(const char *name, struct lh_pmu_event *e)
{
	const char *slash = strchr(name, '/');
	const char *ev = slash + 1;
	size_t pmu_len = slash - name, ev_len = strcspn(ev, "/");
	char *path, *buf, *val;
	int ret = -EINVAL;

	if (!lh_pmu_name_ok(name, pmu_len) || !lh_pmu_name_ok(ev, ev_len) ||
	    (ev[ev_len] && strcmp(ev + ev_len, "/")))
		return -EINVAL;

	path = kmalloc(PATH_MAX, GFP_KERNEL);
	buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!path || !buf) {
		ret = -ENOMEM;
		goto out;
	}
	snprintf(path, PATH_MAX, LH_PMU_SYSFS "%.*s/type", (int)pmu_len, name);
	if (lh_pmu_read_sysfs(path, buf, PAGE_SIZE) ||
	    kstrtou32(strim(buf), 0, &e->type))
		goto out;
	snprintf(path, PATH_MAX, LH_PMU_SYSFS "%.*s/events/%.*s",
		 (int)pmu_len, name, (int)ev_len, ev);
	if (lh_pmu_read_sysfs(path, buf, PAGE_SIZE))
		goto out;
	val = strim(buf);
	if (strstarts(val, "event="))
		val += strlen("event=");
	else if (strstarts(val, "config="))
		val += strlen("config=");
	else
		goto out;
	if (kstrtou64(val, 0, &e->config))	/* no other terms: one value */
		goto out;
	ret = 0;
out:
	kfree(buf);
	kfree(path);
	return ret;
}

/*
 * lh_pmu_resolve - one event name: generic ("cycles"), dynamic PMU
 * ("msr/smi/") or raw "type:config"; -EINVAL if it names nothing
 */
static int lh_pmu_resolve(const char *name, struct lh_pmu_event *e)
{
	const char *colon = strchr(name, ':');
	char num[LH_PMU_NAME_MAX];
	int i;

	if (strscpy(e->name, name, sizeof(e->name)) < 0)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(lh_pmu_generic); i++) {
		if (!strcmp(name, lh_pmu_generic[i].name)) {
			e->type = lh_pmu_generic[i].type;
			e->config = lh_pmu_generic[i].config;
			return 0;
		}
	}
	if (strchr(name, '/'))
		return lh_pmu_resolve_dynamic(name, e);
	if (!colon || colon == name)
		return -EINVAL;
	strscpy(num, name, min_t(size_t, colon - name + 1, sizeof(num)));
	if (kstrtou32(num, 0, &e->type) || kstrtou64(colon + 1, 0, &e->config))
		return -EINVAL;
	return 0;
}

/*
 * lh_pmu_parse_set - parse a list of event names separated by blanks or
 * commas into @set; -EINVAL for an unknown or repeated name, or too many
 */
static int lh_pmu_parse_set(const char *buf, struct lh_pmu_set *set)
{
	char name[LH_PMU_NAME_MAX];
	const char *p = buf;
	int i, ret;

	set->nr = 0;
	for (;;) {
		size_t len;

		p += strspn(p, " \t\n,");
		if (!*p)
			break;
		len = strcspn(p, " \t\n,");
		if (len >= sizeof(name) || set->nr == LH_PMU_MAX_EVENTS)
			return -EINVAL;
		memcpy(name, p, len);
		name[len] = '\0';
		p += len;
		ret = lh_pmu_resolve(name, &set->ev[set->nr]);
		if (ret) {
			pr_info_ratelimited("counters: cannot resolve event '%*pE'\n",
					    (int)len, name);
			return ret;
		}
		for (i = 0; i < set->nr; i++) {
			if (!strcmp(set->ev[i].name, name))
				return -EINVAL;
		}
		set->nr++;
	}
	return set->nr ? 0 : -EINVAL;
}

/**
 * lh_counters_events_write() - handle a write to counters/events
 * @buf: NUL-terminated list of event names (blank or comma separated)
 *
 * The whole list is checked first; a bad name changes nothing. While
 * counting, the old events are released and the new ones created; if
 * counting cannot start again with the new set (memory, hotplug), the old
 * set is put back and counts again, and the error is returned: a failed
 * write changes nothing. After a change the counter statistics start again
 * from zero.
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL, -ENOMEM or an error from hooking or CPU hotplug.
 */
int lh_counters_events_write(const char *buf)
{
	struct lh_pmu_set *set;
	bool was_on;
	int id, ret;

	set = kzalloc(sizeof(*set), GFP_KERNEL);
	if (!set)
		return -ENOMEM;
	ret = lh_pmu_parse_set(buf, set);
	if (ret)
		goto out;

	mutex_lock(&lh_pmu_lock);
	if (!lh_pmu_ready) {
		lh_pmu_set = *set;
		lh_pmu_set_given = true;
		goto out_unlock;
	}
	was_on = lh_pmu_on;
	lh_pmu_stop();
	swap(lh_pmu_set, *set);		/* @set holds the old set now */
	if (was_on) {
		ret = lh_pmu_start();
		if (ret) {
			lh_pmu_set = *set;
			if (lh_pmu_start())
				pr_warn("counters: could not count again with the previous events\n");
			goto out_unlock;
		}
	}
	for (id = 0; id < LH_NR_HISTS; id++)
		lh_pmu_stats_clear(id);
out_unlock:
	mutex_unlock(&lh_pmu_lock);
out:
	kfree(set);
	return ret;
}

/**
 * lh_counters_enable_write() - handle a write to counters/enable
 * @buf: NUL-terminated "0" or "1" (an optional newline after it)
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL, or an error from hooking or CPU hotplug.
 */
int lh_counters_enable_write(const char *buf)
{
	bool on = buf[0] == '1';
	int ret = 0;

	if ((buf[0] != '0' && buf[0] != '1') || (buf[1] && strcmp(buf + 1, "\n")))
		return -EINVAL;

	mutex_lock(&lh_pmu_lock);
	if (!lh_pmu_ready)
		lh_pmu_pending = on;
	else if (on && !lh_pmu_on)
		ret = lh_pmu_start();
	else if (!on)
		lh_pmu_stop();
	mutex_unlock(&lh_pmu_lock);
	return ret;
}

/**
 * lh_counters_enabled() - is counting on?
 *
 * Context: any.
 */
bool lh_counters_enabled(void)
{
	return READ_ONCE(lh_pmu_on) || READ_ONCE(lh_pmu_pending);
}

/**
 * lh_counters_started() - has module init finished starting the counters?
 *
 * Context: any.
 */
bool lh_counters_started(void)
{
	return READ_ONCE(lh_pmu_ready);
}

/**
 * lh_counters_events_print() - the event set as one line, for a parameter
 * @buf: a PAGE_SIZE buffer
 *
 * Context: process context.
 * Return: the length written.
 */
int lh_counters_events_print(char *buf)
{
	int i, len = 0;

	mutex_lock(&lh_pmu_lock);
	for (i = 0; i < lh_pmu_set.nr; i++)
		len += sysfs_emit_at(buf, len, "%s%s", i ? " " : "",
				     lh_pmu_set.ev[i].name);
	len += sysfs_emit_at(buf, len, "\n");
	mutex_unlock(&lh_pmu_lock);
	return len;
}

/**
 * lh_counters_events_show() - print the event set, one name per line
 * @m: the seq_file
 *
 * Context: process context.
 */
void lh_counters_events_show(struct seq_file *m)
{
	int i;

	mutex_lock(&lh_pmu_lock);
	for (i = 0; i < lh_pmu_set.nr; i++)
		seq_printf(m, "%s\n", lh_pmu_set.ev[i].name);
	mutex_unlock(&lh_pmu_lock);
}

/* lh_pmu_state - what an event of @cpu is doing, for the status file */
static void lh_pmu_state(struct seq_file *m, int cpu, int i)
{
	struct lh_pmu_cpu *pc = per_cpu_ptr(lh_pmu_cpus, cpu);
	struct perf_event *ev = pc->own[i];

	if (!lh_pmu_on)
		seq_puts(m, "off");
	else if (!cpu_online(cpu))
		seq_puts(m, "offline");
	else if (!ev && pc->err[i] == -ENOENT)
		seq_printf(m, "unsupported(%d)", pc->err[i]);
	else if (!ev)
		seq_printf(m, "failed(%d)", pc->err[i]);
	else if (READ_ONCE(ev->state) == PERF_EVENT_STATE_ACTIVE)
		seq_puts(m, "active");
	else if (READ_ONCE(ev->state) == PERF_EVENT_STATE_ERROR)
		seq_puts(m, "error(counter taken)");
	else
		seq_puts(m, "inactive");
}

/**
 * lh_counters_status_show() - print counters/status: the switch, then per
 * event its type and config and per CPU whether it counts, or why not
 * @m: the seq_file
 *
 * Context: process context; holds CPU hotplug off while it looks at events.
 */
void lh_counters_status_show(struct seq_file *m)
{
	int i, cpu;

	mutex_lock(&lh_pmu_lock);
	cpus_read_lock();
	seq_printf(m, "enabled=%d events=%d\n", lh_pmu_on, lh_pmu_set.nr);
	for (i = 0; i < lh_pmu_set.nr; i++) {
		seq_printf(m, "%s type=%u config=0x%llx", lh_pmu_set.ev[i].name,
			   lh_pmu_set.ev[i].type, lh_pmu_set.ev[i].config);
		for_each_possible_cpu(cpu) {
			seq_printf(m, " CPU%d=", cpu);
			lh_pmu_state(m, cpu, i);
		}
		seq_putc(m, '\n');
	}
	cpus_read_unlock();
	mutex_unlock(&lh_pmu_lock);
}

/*
 * lh_pmu_print_ratio - print a / b truncated to @dec (2 or 3) decimals, or
 * "-" when b is 0; a numerator too large to scale loses its decimals
 */
static void lh_pmu_print_ratio(struct seq_file *m, s64 a, u64 b, int dec)
{
	u64 scale = dec == 3 ? 1000 : 100;
	u64 x = a < 0 ? -(u64)a : a;
	const char *sign = a < 0 ? "-" : "";
	u64 q;

	if (!b) {
		seq_puts(m, " -");
		return;
	}
	if (x > div64_u64(U64_MAX, scale)) {
		seq_printf(m, " %s%llu", sign, div64_u64(x, b));
		return;
	}
	q = div64_u64(x * scale, b);
	seq_printf(m, " %s%llu.%0*llu", sign, div64_u64(q, scale), dec,
		   q - div64_u64(q, scale) * scale);
}

/*
 * lh_pmu_print_row - one row of a counters file: windows, sum, mean per
 * window and the value for the largest sample ("-" without one)
 */
static void lh_pmu_print_row(struct seq_file *m, int cpu, const char *row,
			     u64 windows, s64 sum, bool max_ok, s64 max)
{
	seq_printf(m, "CPU%d %s %llu %lld", cpu, row, windows, sum);
	lh_pmu_print_ratio(m, sum, windows, 2);
	if (max_ok)
		seq_printf(m, " %lld\n", max);
	else
		seq_puts(m, " -\n");
}

/* lh_pmu_find - index of a generic event in the set, or -1 */
static int lh_pmu_find(const char *name)
{
	int i;

	for (i = 0; i < lh_pmu_set.nr; i++) {
		if (!strcmp(lh_pmu_set.ev[i].name, name))
			return i;
	}
	return -1;
}

/* lh_pmu_print_derived - one row of a ratio of two events (or of an event to ns) */
static void lh_pmu_print_derived(struct seq_file *m, int cpu, const char *row,
				 const struct lh_pmu_stats *st, int num,
				 int den)
{
	u64 den_sum = den < 0 ? st->win_sum_ns : st->sum[den];
	u64 den_max = den < 0 ? st->max_win_ns : st->max_val[den];
	bool max_ok = st->max_valid && (st->max_ok & BIT(num)) &&
		      (den < 0 || (st->max_ok & BIT(den)));

	seq_printf(m, "CPU%d %s %llu -", cpu, row, st->nr[num]);
	lh_pmu_print_ratio(m, st->sum[num], den_sum, 3);
	if (max_ok)
		lh_pmu_print_ratio(m, st->max_val[num], den_max, 3);
	else
		seq_puts(m, " -");
	seq_putc(m, '\n');
}

/**
 * lh_counters_show() - print <type>/counters
 * @m:  the seq_file
 * @id: a type that lh_counters_cover()
 *
 * Per CPU: a row for the latency, one for the window length, one per event
 * (windows it was read in, sum, mean per window, value in the window of the
 * largest sample), then IPC and GHz where cycles and instructions are in the
 * set.
 *
 * Context: process context.
 * Return: 0 or -ENOMEM.
 */
int lh_counters_show(struct seq_file *m, enum lh_hist_id id)
{
	struct lh_pmu_stats *st;
	int i, cpu, cyc, ins;

	st = kmalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	mutex_lock(&lh_pmu_lock);
	seq_printf(m, "# counters over %s windows: %s\n", lh_hist_types[id].name,
		   lh_pmu_window[id]);
	seq_printf(m, "# counting %s; events:", lh_pmu_on ? "on" : "off");
	for (i = 0; i < lh_pmu_set.nr; i++)
		seq_printf(m, " %s", lh_pmu_set.ev[i].name);
	seq_puts(m, "\n#CPU row windows sum mean max_sample\n");
	cyc = lh_pmu_find("cycles");
	ins = lh_pmu_find("instructions");
	for_each_possible_cpu(cpu) {
		*st = per_cpu_ptr(lh_pmu_stats, cpu)->hist[id];
		lh_pmu_print_row(m, cpu, "latency_us", st->windows,
				 st->lat_sum_us, st->max_valid, st->max_lat_us);
		lh_pmu_print_row(m, cpu, "window_ns", st->windows,
				 st->win_sum_ns, st->max_valid, st->max_win_ns);
		for (i = 0; i < lh_pmu_set.nr; i++)
			lh_pmu_print_row(m, cpu, lh_pmu_set.ev[i].name,
					 st->nr[i], st->sum[i],
					 st->max_valid && (st->max_ok & BIT(i)),
					 st->max_val[i]);
		if (cyc >= 0 && ins >= 0)
			lh_pmu_print_derived(m, cpu, "ipc", st, ins, cyc);
		if (cyc >= 0)
			lh_pmu_print_derived(m, cpu, "ghz", st, cyc, -1);
	}
	mutex_unlock(&lh_pmu_lock);
	kfree(st);
	return 0;
}

/**
 * lh_counters_reset() - empty the counter statistics of one type
 * @id: the histogram being reset (a type without counters has none to empty)
 *
 * Context: process context. A sample filed meanwhile may survive in part.
 */
void lh_counters_reset(enum lh_hist_id id)
{
	lh_pmu_stats_clear(id);
}

/**
 * lh_counters_cover() - does a type have counters over its windows?
 * @id: the histogram
 *
 * Context: any.
 */
bool lh_counters_cover(enum lh_hist_id id)
{
	return lh_pmu_window[id];
}

/**
 * lh_counters_init() - allocate the per-CPU state; choose the default set
 *
 * The default set is cycles, ref-cycles, instructions and cache-misses,
 * plus the msr PMU's SMI count where this machine has one.
 *
 * Context: module init, before the debugfs tree; load-time parameters may
 * have set the event set already.
 * Return: 0 or -ENOMEM.
 */
int lh_counters_init(void)
{
	struct lh_pmu_set *def;
	int cpu, i;

	check_trace_callback_type_sched_switch(lh_pmu_switch);
	lh_pmu_cpus = alloc_percpu(struct lh_pmu_cpu);
	lh_pmu_stats = alloc_percpu(struct lh_pmu_stats_cpu);
	/* Resolving reads sysfs (seq_file locks): never under lh_pmu_lock. */
	def = kzalloc(sizeof(*def), GFP_KERNEL);
	if (!lh_pmu_cpus || !lh_pmu_stats || !def)
		goto out_free;
	for_each_possible_cpu(cpu)
		for (i = 0; i < LH_PMU_MAX_EVENTS; i++)
			per_cpu_ptr(lh_pmu_cpus, cpu)->err[i] = -ENODEV;

	if (WARN_ON_ONCE(lh_pmu_parse_set(LH_PMU_DEFAULT, def)))
		def->nr = 0;
	else if (!lh_pmu_resolve(LH_PMU_DEFAULT_SMI, &def->ev[def->nr]))
		def->nr++;

	mutex_lock(&lh_pmu_lock);
	if (!lh_pmu_set_given)		/* else counter_events= at load time */
		lh_pmu_set = *def;
	mutex_unlock(&lh_pmu_lock);
	kfree(def);
	return 0;

out_free:
	kfree(def);
	free_percpu(lh_pmu_stats);
	free_percpu(lh_pmu_cpus);
	return -ENOMEM;
}

/**
 * lh_counters_start() - accept control writes; start counting if counters=1
 * was given at load time
 *
 * Context: module init, after lh_counters_init() and lh_tp_lookup().
 * Return: 0 or the error of starting.
 */
int lh_counters_start(void)
{
	int ret = 0;

	mutex_lock(&lh_pmu_lock);
	lh_pmu_ready = true;
	if (lh_pmu_pending)
		ret = lh_pmu_start();
	lh_pmu_pending = false;
	mutex_unlock(&lh_pmu_lock);
	return ret;
}

/**
 * lh_counters_exit() - stop counting and free the per-CPU state
 *
 * Context: module exit or failed init, after the debugfs tree is gone.
 */
void lh_counters_exit(void)
{
	/* A late parameter write must find lh_pmu_ready false. */
	mutex_lock(&lh_pmu_lock);
	lh_pmu_ready = false;
	lh_pmu_stop();
	mutex_unlock(&lh_pmu_lock);
	/* A work queued by a hotplug callback before the stop uses the state. */
	flush_work(&lh_pmu_hp_work);
	free_percpu(lh_pmu_stats);
	free_percpu(lh_pmu_cpus);
}
