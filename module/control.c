// SPDX-License-Identifier: GPL-2.0
/*
 * control.c - enable switches, pid filters, resets, histogram memory, status.
 *
 * Everything a user can change goes through here, serialized by one mutex
 * that only process context takes (never a probe). Probes see the result
 * through lh_switch_enabled(), lh_pid() and lh_hist_cpu().
 *
 * Histogram memory (about 80 KiB per type per CPU) is allocated on the first
 * enable of a switch, per CPU on that CPU's NUMA node, never in a probe path
 * and never from the small static per-CPU area. It stays until the module is
 * unloaded, so histograms remain readable after a disable, as in the RT patch.
 *
 * Before module init finishes (module parameters given to insmod), enable
 * requests are only validated and remembered; lh_control_start() applies them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/topology.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>

#include <latency_hist/control.h>
#include <latency_hist/counters.h>

const struct lh_switch lh_switches[LH_NR_SWITCHES] = {
	[LH_SW_PREEMPTIRQSOFF] = {
		.name = "preemptirqsoff", .ops = &lh_preemptirq_ops,
	},
	[LH_SW_WAKEUP] = {
		.name = "wakeup", .has_pid = true, .ops = &lh_wakeup_ops,
	},
	[LH_SW_MISSED_TIMER_OFFSETS] = {
		.name = "missed_timer_offsets", .has_pid = true,
		.ops = &lh_timer_ops,
	},
	[LH_SW_TIMERANDWAKEUP] = {
		.name = "timerandwakeup",
	},
};

const struct lh_hist_type lh_hist_types[LH_NR_HISTS] = {
	[LH_HIST_IRQSOFF] = {
		.name = "irqsoff", .sw = LH_SW_PREEMPTIRQSOFF,
	},
	[LH_HIST_PREEMPTOFF] = {
		.name = "preemptoff", .sw = LH_SW_PREEMPTIRQSOFF,
	},
	[LH_HIST_PREEMPTIRQSOFF] = {
		.name = "preemptirqsoff", .sw = LH_SW_PREEMPTIRQSOFF,
	},
	[LH_HIST_WAKEUP] = {
		.name = "wakeup", .sw = LH_SW_WAKEUP, .has_max_record = true,
	},
	[LH_HIST_WAKEUP_SHAREDPRIO] = {
		.name = "wakeup/sharedprio", .sw = LH_SW_WAKEUP,
		.has_max_record = true,
	},
	[LH_HIST_MISSED_TIMER_OFFSETS] = {
		.name = "missed_timer_offsets",
		.sw = LH_SW_MISSED_TIMER_OFFSETS, .has_max_record = true,
	},
	[LH_HIST_TIMERANDWAKEUP] = {
		.name = "timerandwakeup", .sw = LH_SW_TIMERANDWAKEUP,
		.has_max_record = true,
	},
};

static DEFINE_MUTEX(lh_control_lock);

/* All below: written under lh_control_lock only. */
bool lh_switch_on[LH_NR_SWITCHES];
pid_t lh_pid_filter[LH_NR_SWITCHES];
s64 lh_stop_us[LH_NR_HISTS] = { [0 ... LH_NR_HISTS - 1] = S64_MAX };
struct lh_hist_cpu **lh_hist_cpus[LH_NR_HISTS];
static const char *lh_switch_reason[LH_NR_SWITCHES];	/* NULL: available */
static bool lh_switch_pending[LH_NR_SWITCHES];	/* asked for before start */
static bool lh_started;

/* lh_parse_uint - strict unsigned decimal: digits, at most one trailing '\n' */
static int lh_parse_uint(const char *buf, u64 *val)
{
	size_t len = strnlen(buf, LH_WRITE_MAX);

	if (len >= LH_WRITE_MAX)
		return -EINVAL;
	if (len && buf[len - 1] == '\n')
		len--;
	if (!len || buf[0] < '0' || buf[0] > '9')
		return -EINVAL;
	/* kstrtoull accepts one trailing newline and nothing else after digits */
	if (kstrtoull(buf, 10, val))
		return -EINVAL;
	return 0;
}

/* lh_parse_uint_max - lh_parse_uint, and -EINVAL above @max */
static int lh_parse_uint_max(const char *buf, u64 max, u64 *val)
{
	int ret = lh_parse_uint(buf, val);

	if (ret)
		return ret;
	return *val > max ? -EINVAL : 0;
}

/* lh_hist_bytes - histogram memory held by one type, allocator rounding included */
static size_t lh_hist_bytes(enum lh_hist_id id)
{
	if (!lh_hist_cpus[id])
		return 0;
	return kmalloc_size_roundup(nr_cpu_ids * sizeof(struct lh_hist_cpu *)) +
	       num_possible_cpus() *
	       (kmalloc_size_roundup(sizeof(struct lh_hist_cpu)) +
		LH_HIST_BUCKETS_BYTES +
		kmalloc_size_roundup(LH_HIST_BUCKETS_BYTES / PAGE_SIZE *
				     sizeof(struct page *)));
}

/*
 * lh_buckets_alloc - the zeroed buckets of one CPU histogram, in pages of
 * @node mapped together; NULL, quietly, when memory is short: the writer
 * gets ENOMEM, and a stack dump (vzalloc_node() has no __GFP_NOWARN) would
 * tell a user nothing more. vfree() releases the pages and their array.
 */
static atomic64_t *lh_buckets_alloc(int node)
{
	const unsigned int nr = LH_HIST_BUCKETS_BYTES / PAGE_SIZE;
	struct page **pages;
	unsigned int i;
	void *addr;

	BUILD_BUG_ON(LH_HIST_BUCKETS_BYTES % PAGE_SIZE);
	pages = kvcalloc(nr, sizeof(*pages), GFP_KERNEL | __GFP_NOWARN);
	if (!pages)
		return NULL;
	for (i = 0; i < nr; i++) {
		pages[i] = alloc_pages_node(node, GFP_KERNEL | __GFP_ZERO |
					    __GFP_NOWARN, 0);
		if (!pages[i])
			goto out_free;
	}
	addr = vmap(pages, nr, VM_MAP | VM_MAP_PUT_PAGES, PAGE_KERNEL);
	if (addr)
		return addr;
out_free:
	while (i--)
		__free_page(pages[i]);
	kvfree(pages);
	return NULL;
}

/* lh_hist_cpu_free - release one CPU histogram (NULL is fine) */
static void lh_hist_cpu_free(struct lh_hist_cpu *h)
{
	if (!h)
		return;
	vfree(h->buckets);
	kfree(h);
}

/* lh_hist_free - release one type's histograms; no probe may use them */
static void lh_hist_free(enum lh_hist_id id)
{
	struct lh_hist_cpu **cpus = lh_hist_cpus[id];
	int cpu;

	if (!cpus)
		return;
	WRITE_ONCE(lh_hist_cpus[id], NULL);
	for_each_possible_cpu(cpu)
		lh_hist_cpu_free(cpus[cpu]);
	kfree(cpus);
}

/*
 * lh_hist_alloc - give one type its per-CPU histograms, each on its node
 *
 * The buckets (exactly 20 pages) are allocated apart from the few other
 * fields: in one block of 80 KiB plus a few bytes, kmalloc would take an
 * order-5 block (128 KiB) and vmalloc 21 pages. Nothing here warns when
 * memory is short: the caller returns ENOMEM.
 */
static int lh_hist_alloc(enum lh_hist_id id)
{
	struct lh_hist_cpu **cpus;
	int cpu;

	if (lh_hist_cpus[id])
		return 0;

	cpus = kcalloc(nr_cpu_ids, sizeof(*cpus), GFP_KERNEL | __GFP_NOWARN);
	if (!cpus)
		return -ENOMEM;

	for_each_possible_cpu(cpu) {
		cpus[cpu] = kzalloc_node(sizeof(**cpus),
					 GFP_KERNEL | __GFP_NOWARN,
					 cpu_to_node(cpu));
		if (!cpus[cpu])
			goto out_free;
		cpus[cpu]->buckets = lh_buckets_alloc(cpu_to_node(cpu));
		if (!cpus[cpu]->buckets)
			goto out_free;
		lh_hist_cpu_init(cpus[cpu]);
	}

	/* Pairs with smp_load_acquire() in lh_hist_cpu(). */
	smp_store_release(&lh_hist_cpus[id], cpus);
	return 0;

out_free:
	for_each_possible_cpu(cpu)
		lh_hist_cpu_free(cpus[cpu]);
	kfree(cpus);
	return -ENOMEM;
}

/* lh_switch_alloc - allocate every histogram a switch feeds */
static int lh_switch_alloc(enum lh_switch_id sw)
{
	int id, ret;

	for (id = 0; id < LH_NR_HISTS; id++) {
		if (lh_hist_types[id].sw != sw)
			continue;
		ret = lh_hist_alloc(id);
		if (ret)
			return ret;
	}
	return 0;
}

/* lh_switch_off - turn one switch off; caller holds lh_control_lock */
static void lh_switch_off(enum lh_switch_id sw)
{
	const struct lh_switch_ops *ops = lh_switches[sw].ops;

	if (!lh_switch_on[sw])
		return;

	/* timerandwakeup sums both parents: it cannot outlive either. */
	if (sw == LH_SW_WAKEUP || sw == LH_SW_MISSED_TIMER_OFFSETS)
		lh_switch_off(LH_SW_TIMERANDWAKEUP);

	WRITE_ONCE(lh_switch_on[sw], false);
	if (ops) {
		lh_tp_unhook(ops->probes, ops->nr_probes);
		ops->clear();
	}
}

/* lh_switch_on_locked - turn one switch on; caller holds lh_control_lock */
static int lh_switch_on_locked(enum lh_switch_id sw)
{
	const struct lh_switch_ops *ops = lh_switches[sw].ops;
	int ret;

	if (lh_switch_on[sw])
		return 0;

	if (lh_switch_reason[sw]) {
		pr_notice("cannot enable %s: %s\n", lh_switches[sw].name,
			  lh_switch_reason[sw]);
		return -ENODEV;
	}

	if (sw == LH_SW_TIMERANDWAKEUP &&
	    !(lh_switch_on[LH_SW_WAKEUP] &&
	      lh_switch_on[LH_SW_MISSED_TIMER_OFFSETS]))
		return -EINVAL;

	ret = lh_switch_alloc(sw);
	if (ret)
		return ret;

	if (ops) {
		ops->clear();
		ret = lh_tp_hook(ops->probes, ops->nr_probes);
		if (ret)
			return ret;
	}
	/* After the histograms: pairs with smp_load_acquire() in lh_switch_enabled(). */
	smp_store_release(&lh_switch_on[sw], true);
	return 0;
}

/**
 * lh_enable_write() - handle a write to enable/<switch> or enable_<switch>
 * @sw:  the switch
 * @buf: NUL-terminated user text: an unsigned decimal, non-zero enables
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL for bad text or a timerandwakeup without both parents,
 * -ENODEV if this kernel cannot measure the type, -ENOMEM, or a hook error.
 */
int lh_enable_write(enum lh_switch_id sw, const char *buf)
{
	u64 val;
	int ret;

	ret = lh_parse_uint(buf, &val);
	if (ret)
		return ret;

	mutex_lock(&lh_control_lock);
	if (!lh_started) {
		lh_switch_pending[sw] = val != 0;
		ret = 0;
	} else if (val) {
		ret = lh_switch_on_locked(sw);
	} else {
		lh_switch_off(sw);
	}
	mutex_unlock(&lh_control_lock);
	return ret;
}

/**
 * lh_pid_write() - handle a write to <switch>/pid or <switch>_pid
 * @sw:  LH_SW_WAKEUP or LH_SW_MISSED_TIMER_OFFSETS
 * @buf: NUL-terminated user text: a thread id up to PID_MAX_LIMIT, 0 for all
 *
 * Context: process context.
 * Return: 0 or -EINVAL.
 */
int lh_pid_write(enum lh_switch_id sw, const char *buf)
{
	u64 val;
	int ret;

	ret = lh_parse_uint_max(buf, PID_MAX_LIMIT, &val);
	if (ret)
		return ret;

	mutex_lock(&lh_control_lock);
	WRITE_ONCE(lh_pid_filter[sw], (pid_t)val);
	mutex_unlock(&lh_control_lock);
	return 0;
}

/*
 * lh_hists_reset - empty the histograms of the types in @ids on every
 * possible CPU: stop recording into them, wait once for the probes in
 * flight, empty, record again (hist.h: a reset is exact)
 */
static void lh_hists_reset(unsigned long ids)
{
	int id, cpu;

	for_each_set_bit(id, &ids, LH_NR_HISTS) {
		if (!lh_hist_cpus[id])
			continue;
		for_each_possible_cpu(cpu)
			lh_hist_cpu_reset_begin(lh_hist_cpus[id][cpu]);
	}
	tracepoint_synchronize_unregister();
	for_each_set_bit(id, &ids, LH_NR_HISTS) {
		if (!lh_hist_cpus[id])
			continue;
		for_each_possible_cpu(cpu)
			lh_hist_cpu_reset_end(lh_hist_cpus[id][cpu]);
		lh_counters_reset(id);
	}
}

/**
 * lh_reset_write() - handle a write to <type>/reset
 * @id:  the histogram
 * @buf: NUL-terminated user text: an unsigned decimal, non-zero resets
 *
 * Context: process context.
 * Return: 0 or -EINVAL.
 */
int lh_reset_write(enum lh_hist_id id, const char *buf)
{
	u64 val;
	int ret;

	ret = lh_parse_uint(buf, &val);
	if (ret)
		return ret;

	if (val) {
		mutex_lock(&lh_control_lock);
		lh_hists_reset(BIT(id));
		mutex_unlock(&lh_control_lock);
	}
	return 0;
}

/**
 * lh_threshold_write() - handle a write to <type>/threshold or threshold_<type>
 * @id:  the histogram
 * @buf: NUL-terminated user text: microseconds up to INT_MAX, 0 for off
 *
 * Context: process context.
 * Return: 0 or -EINVAL.
 */
int lh_threshold_write(enum lh_hist_id id, const char *buf)
{
	u64 val;
	int ret;

	ret = lh_parse_uint_max(buf, INT_MAX, &val);
	if (ret)
		return ret;

	mutex_lock(&lh_control_lock);
	WRITE_ONCE(lh_stop_us[id], val ? (s64)val : S64_MAX);
	mutex_unlock(&lh_control_lock);
	return 0;
}

/**
 * lh_threshold_us() - the threshold of a histogram
 * @id: the histogram
 *
 * Context: any.
 * Return: microseconds, 0 when off.
 */
u64 lh_threshold_us(enum lh_hist_id id)
{
	s64 stop_us = READ_ONCE(lh_stop_us[id]);

	return stop_us == S64_MAX ? 0 : stop_us;
}

/**
 * lh_reset_by_name() - handle a write to the reset module parameter
 * @buf: a histogram name as in the status file, or "all"
 *
 * Context: process context.
 * Return: 0 or -EINVAL for an unknown name.
 */
int lh_reset_by_name(const char *buf)
{
	size_t len = strnlen(buf, LH_WRITE_MAX);
	unsigned long ids = 0;
	bool all;
	int id;

	if (len >= LH_WRITE_MAX)
		return -EINVAL;
	if (len && buf[len - 1] == '\n')
		len--;
	all = len == 3 && !strncmp(buf, "all", 3);

	for (id = 0; id < LH_NR_HISTS; id++) {
		if (all || (strlen(lh_hist_types[id].name) == len &&
			    !strncmp(buf, lh_hist_types[id].name, len)))
			ids |= BIT(id);
	}
	if (!ids)
		return -EINVAL;
	mutex_lock(&lh_control_lock);
	lh_hists_reset(ids);
	mutex_unlock(&lh_control_lock);
	return 0;
}

/**
 * lh_status_show() - print the status file
 * @m: the seq_file
 *
 * One line per histogram: name, available, enabled (its switch), bytes of
 * histogram memory held, and why it is unavailable if it is.
 *
 * Context: process context.
 */
void lh_status_show(struct seq_file *m)
{
	int id;

	mutex_lock(&lh_control_lock);
	for (id = 0; id < LH_NR_HISTS; id++) {
		enum lh_switch_id sw = lh_hist_types[id].sw;

		seq_printf(m, "%s available=%d enabled=%d bytes=%zu",
			   lh_hist_types[id].name, !lh_switch_reason[sw],
			   lh_switch_on[sw], lh_hist_bytes(id));
		if (lh_switch_reason[sw])
			seq_printf(m, " reason=%s", lh_switch_reason[sw]);
		seq_putc(m, '\n');
	}
	mutex_unlock(&lh_control_lock);
}

/**
 * lh_control_init() - prepare the probe files; learn which switches this
 * kernel supports
 *
 * Context: module init, after lh_tp_lookup().
 * Return: 0.
 */
int lh_control_init(void)
{
	int sw;

	for (sw = 0; sw < LH_NR_SWITCHES; sw++) {
		const struct lh_switch_ops *ops = lh_switches[sw].ops;

		if (!ops)
			continue;
		lh_switch_reason[sw] = ops->prepare();
		if (lh_tp_first_missing(ops->probes, ops->nr_probes))
			lh_switch_reason[sw] = ops->missing;
	}
	if (lh_switch_reason[LH_SW_WAKEUP])
		lh_switch_reason[LH_SW_TIMERANDWAKEUP] =
			lh_switch_reason[LH_SW_WAKEUP];
	else if (lh_switch_reason[LH_SW_MISSED_TIMER_OFFSETS])
		lh_switch_reason[LH_SW_TIMERANDWAKEUP] =
			lh_switch_reason[LH_SW_MISSED_TIMER_OFFSETS];
	return 0;
}

/**
 * lh_control_start() - accept control writes and apply load-time parameters
 *
 * Switches are applied in enum order, so timerandwakeup comes after both of
 * its parents. A switch that cannot be enabled fails the module load.
 *
 * Context: module init, once the debugfs tree exists.
 * Return: 0 or the error of the first switch that could not be enabled.
 */
int lh_control_start(void)
{
	int sw, ret = 0;

	mutex_lock(&lh_control_lock);
	lh_started = true;
	for (sw = 0; sw < LH_NR_SWITCHES && !ret; sw++) {
		if (lh_switch_pending[sw])
			ret = lh_switch_on_locked(sw);
	}
	mutex_unlock(&lh_control_lock);
	return ret;
}

/**
 * lh_control_exit() - turn every switch off and free all histograms
 *
 * Context: module exit or failed init, after the debugfs tree is gone.
 */
void lh_control_exit(void)
{
	int sw, id;

	/*
	 * Module parameter files outlive the exit function for a moment, so a
	 * late write must find lh_started false and the memory already gone.
	 */
	mutex_lock(&lh_control_lock);
	lh_started = false;
	for (sw = LH_NR_SWITCHES - 1; sw >= 0; sw--)
		lh_switch_off(sw);
	for (id = 0; id < LH_NR_HISTS; id++)
		lh_hist_free(id);
	mutex_unlock(&lh_control_lock);
}
