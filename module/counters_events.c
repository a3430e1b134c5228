// SPDX-License-Identifier: GPL-2.0
/*
 * counters_events.c - the perf events behind the counters: one pinned
 * counting event per entry of the event set on every online CPU while
 * counting is on, created when counting starts or a CPU comes online,
 * released when it stops or the CPU goes down; the two controls
 * (counters/enable, counters/events) that control.c hands over; the
 * per-CPU state's life.
 *
 * The hotplug callbacks only withdraw events from the probes and hand the
 * rest to a work item: they run with cpu_hotplug_lock held, and creating or
 * releasing a software event (context-switches, ...) takes it again, a
 * recursion lockdep reports.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>

#include <latency_hist/counters_priv.h>

/* Serializes the event set, counting on/off and CPU hotplug work. */
DEFINE_MUTEX(lh_pmu_lock);

/* All below: written under lh_pmu_lock while counting is off. */
struct lh_pmu_set lh_pmu_set;
u32 lh_pmu_gen;
bool lh_pmu_on;
static enum cpuhp_state lh_pmu_hp_state;

struct lh_pmu_cpu __percpu *lh_pmu_cpus;
struct lh_pmu_stats_cpu __percpu *lh_pmu_stats;

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

	ret = lh_tp_hook(lh_pmu_probes, lh_pmu_nr_probes);
	if (ret)
		return ret;
	/* Marks of an earlier generation must not pair with this one's. */
	WRITE_ONCE(lh_pmu_gen, lh_pmu_gen + 1 ? lh_pmu_gen + 1 : 1);
	/* No calls: the callbacks run with cpu_hotplug_lock held. */
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					"latency_hist/counters:online",
					lh_pmu_cpu_online, lh_pmu_cpu_offline);
	if (ret < 0) {
		lh_tp_unhook(lh_pmu_probes, lh_pmu_nr_probes);
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
	lh_tp_unhook(lh_pmu_probes, lh_pmu_nr_probes);
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
 * Context: process context; may sleep; names are resolved before
 * lh_pmu_lock is taken (counters_names.c), so the caller holds no lock.
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
	ret = lh_pmu_parse_set(buf, set, true);
	if (ret)
		goto out;

	mutex_lock(&lh_pmu_lock);
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
 * lh_counters_enable() - handle a write to counters/enable
 * @on: start counting, or stop
 *
 * Context: process context; may sleep.
 * Return: 0, or an error from hooking or CPU hotplug.
 */
int lh_counters_enable(bool on)
{
	int ret = 0;

	mutex_lock(&lh_pmu_lock);
	if (on && !lh_pmu_on)
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
	return READ_ONCE(lh_pmu_on);
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
 * lh_counters_init() - allocate the per-CPU state; choose the default set
 *
 * The default set is cycles, ref-cycles, instructions and cache-misses,
 * plus the msr PMU's SMI count where this machine has one.
 *
 * Context: module init, before the controls start (their load-time
 * writes are replayed then).
 * Return: 0 or -ENOMEM.
 */
int lh_counters_init(void)
{
	struct lh_pmu_set *def;
	int cpu, i;

	lh_pmu_probes_prepare();
	lh_pmu_cpus = alloc_percpu(struct lh_pmu_cpu);
	lh_pmu_stats = alloc_percpu(struct lh_pmu_stats_cpu);
	/* Resolving reads sysfs (seq_file locks): never under lh_pmu_lock. */
	def = kzalloc(sizeof(*def), GFP_KERNEL);
	if (!lh_pmu_cpus || !lh_pmu_stats || !def)
		goto out_free;
	for_each_possible_cpu(cpu)
		for (i = 0; i < LH_PMU_MAX_EVENTS; i++)
			per_cpu_ptr(lh_pmu_cpus, cpu)->err[i] = -ENODEV;

	if (WARN_ON_ONCE(lh_pmu_parse_set(LH_PMU_DEFAULT, def, true)))
		def->nr = 0;
	else if (!lh_pmu_resolve(LH_PMU_DEFAULT_SMI, &def->ev[def->nr]))
		def->nr++;

	mutex_lock(&lh_pmu_lock);
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
 * lh_counters_exit() - stop counting and free the per-CPU state
 *
 * Context: module exit or failed init, after the debugfs tree is gone.
 */
void lh_counters_exit(void)
{
	/* control.c refuses writes from before lh_control_exit() on. */
	mutex_lock(&lh_pmu_lock);
	lh_pmu_stop();
	mutex_unlock(&lh_pmu_lock);
	/* A work queued by a hotplug callback before the stop uses the state. */
	flush_work(&lh_pmu_hp_work);
	free_percpu(lh_pmu_stats);
	free_percpu(lh_pmu_cpus);
}
