// SPDX-License-Identifier: GPL-2.0
/*
 * control.c - the controls: enable switches with their dependency rule, pid
 * filters, thresholds, resets, the counter controls, and the status file.
 *
 * Both user interfaces hand every write to lh_ctl_write() with the control
 * and the type it addresses; the table lh_controls[] says how its text is
 * checked, shown and stored. Writers are serialized by the module's
 * parameter lock (kernel_param_lock(THIS_MODULE)), which sysfs already
 * holds around every parameter setter and lh_ctl_write() takes for debugfs
 * writes, except for counter_events, whose names are resolved in sysfs
 * (counters.c serializes it). Switch state and histogram memory also change under
 * lh_control_lock, which the status reader takes; probes see the result
 * through lh_switch_enabled(), lh_pid() and lh_hist_cpu(), never a lock.
 *
 * Load-time parameters arrive before module init has run: until
 * lh_control_start() each write is only checked and its text remembered;
 * lh_control_start() replays the texts in control order (filters and
 * thresholds first, then the switches in list order, parents before the
 * types that need them). After lh_control_exit() every write fails with
 * ENODEV: the parameter files outlive the exit function for a moment.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/threads.h>

#include <latency_hist/clock.h>
#include <latency_hist/control.h>
#include <latency_hist/counters.h>
#include <latency_hist/explain.h>
#include <latency_hist/hist_mem.h>
#include <latency_hist/outlier.h>

#define LH_EVENTS_WRITE_MAX	512	/* bytes of an event set write */

/*
 * struct lh_ctl_req - one write to a control
 * @text:  the user's text, NUL-terminated
 * @val:   its value, for a number control
 * @flags: LH_CTL_PARAM
 */
struct lh_ctl_req {
	const char *text;
	u64 val;
	unsigned int flags;
};

/*
 * struct lh_control - one control of both interfaces
 * @name:      its name in messages
 * @write_max: a write of this many bytes or more is invalid
 * @max:       a number control's largest value (an unsigned decimal, at
 *             most one trailing newline); 0: a text control, which @check
 *             or @store parses itself
 * @check:     a text control's check, before module init only (its @store
 *             checks the text again)
 * @store:     act on a checked write
 * @show:      print the value and a newline into @buf; NULL: write-only
 * @own_lock:  a debugfs write does not take the parameter lock: @store
 *             reads sysfs (which holds kernfs locks that nest outside the
 *             parameter lock) and serializes itself
 */
struct lh_control {
	const char *name;
	size_t write_max;
	bool own_lock;
	u64 max;
	int (*check)(int id, const struct lh_ctl_req *req);
	int (*store)(int id, const struct lh_ctl_req *req);
	int (*show)(int id, char *buf, size_t size, unsigned int flags);
};

static DEFINE_MUTEX(lh_control_lock);

/* Written under lh_control_lock and the parameter lock. */
bool lh_switch_on[LH_NR_SWITCHES];
pid_t lh_pid_filter[LH_NR_SWITCHES];
s64 lh_stop_us[LH_NR_HISTS] = { [0 ... LH_NR_HISTS - 1] = S64_MAX };
/* On while any threshold is: until then the probes do not compare. */
DEFINE_STATIC_KEY_FALSE(lh_thresholds_on);
static const char *lh_switch_reason[LH_NR_SWITCHES];	/* NULL: available */

/* The gate: under the parameter lock. */
enum lh_ctl_state {
	LH_CTL_LOADING,		/* before lh_control_start(): remember */
	LH_CTL_LIVE,
	LH_CTL_GONE,		/* after lh_control_exit(): refuse */
};

static enum lh_ctl_state lh_ctl_state;
/* Texts written before start, per control and type (kstrdup'ed). */
static char *lh_ctl_pending[LH_NR_CTLS][LH_NR_HISTS];

/* lh_parse_uint - strict unsigned decimal: digits, at most one trailing '\n' */
int lh_parse_uint(const char *buf, u64 *val)
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

/* lh_switch_off - turn a switch off, and first every switch that needs it */
static void lh_switch_off(enum lh_switch_id sw)
{
	const struct lh_switch_ops *ops = lh_switches[sw].ops;
	int dep;

	if (!lh_switch_on[sw])
		return;

	/* A type that sums others cannot outlive them: dependents first. */
	for (dep = LH_NR_SWITCHES - 1; dep > sw; dep--) {
		if (lh_switches[dep].needs & BIT(sw))
			lh_switch_off(dep);
	}

	mutex_lock(&lh_control_lock);
	WRITE_ONCE(lh_switch_on[sw], false);
	mutex_unlock(&lh_control_lock);
	if (ops) {
		lh_tp_unhook(ops->probes, ops->nr_probes);
		ops->clear();
	}
}

/* lh_switch_alloc - allocate every histogram a switch feeds */
static int lh_switch_alloc(enum lh_switch_id sw)
{
	int id, ret = 0;

	mutex_lock(&lh_control_lock);
	for (id = 0; id < LH_NR_HISTS && !ret; id++) {
		if (lh_hist_types[id].sw == sw)
			ret = lh_hist_alloc(id);
	}
	mutex_unlock(&lh_control_lock);
	return ret;
}

/* lh_switch_on_locked - turn one switch on; its needs must be on already */
static int lh_switch_on_locked(enum lh_switch_id sw)
{
	const struct lh_switch_ops *ops = lh_switches[sw].ops;
	unsigned long on = 0;
	int ret, need;

	if (lh_switch_on[sw])
		return 0;

	if (lh_switch_reason[sw]) {
		pr_notice("cannot enable %s: %s\n", lh_switches[sw].name,
			  lh_switch_reason[sw]);
		return -ENODEV;
	}

	for (need = 0; need < LH_NR_SWITCHES; need++) {
		if (lh_switch_on[need])
			on |= BIT(need);
	}
	if (lh_switches[sw].needs & ~on)
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
	mutex_lock(&lh_control_lock);
	/* Pairs with smp_load_acquire() in lh_switch_enabled(). */
	smp_store_release(&lh_switch_on[sw], true);
	mutex_unlock(&lh_control_lock);
	return 0;
}

/* lh_enable_store - enable/<switch>: non-zero enables, 0 disables */
static int lh_enable_store(int sw, const struct lh_ctl_req *req)
{
	if (!req->val) {
		lh_switch_off(sw);
		return 0;
	}
	return lh_switch_on_locked(sw);
}

/* lh_enable_show - 0 or 1 */
static int lh_enable_show(int sw, char *buf, size_t size, unsigned int flags)
{
	return scnprintf(buf, size, "%d\n", lh_switch_enabled(sw));
}

/* lh_pid_store - <switch>/pid: a thread id up to PID_MAX_LIMIT, 0 for all */
static int lh_pid_store(int sw, const struct lh_ctl_req *req)
{
	WRITE_ONCE(lh_pid_filter[sw], (pid_t)req->val);
	return 0;
}

/* lh_pid_show - the pid filter, 0 for none */
static int lh_pid_show(int sw, char *buf, size_t size, unsigned int flags)
{
	return scnprintf(buf, size, "%d\n", lh_pid(sw));
}

/* lh_threshold_store - <type>/threshold: microseconds up to INT_MAX, 0 off */
static int lh_threshold_store(int id, const struct lh_ctl_req *req)
{
	bool any = false;
	int i;

	WRITE_ONCE(lh_stop_us[id], req->val ? (s64)req->val : S64_MAX);
	for (i = 0; i < LH_NR_HISTS; i++)
		any |= READ_ONCE(lh_stop_us[i]) != S64_MAX;
	/* A probe that passes the branch still compares with the value. */
	if (any)
		static_branch_enable(&lh_thresholds_on);
	else
		static_branch_disable(&lh_thresholds_on);
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

/* lh_threshold_show - microseconds, 0 = off */
static int lh_threshold_show(int id, char *buf, size_t size,
			     unsigned int flags)
{
	return scnprintf(buf, size, "%llu\n", lh_threshold_us(id));
}

/* lh_outlier_store - <type>/outlier_us: microseconds up to INT_MAX, 0 off */
static int lh_outlier_store(int id, const struct lh_ctl_req *req)
{
	return lh_outlier_budget_set(id, req->val);
}

/* lh_outlier_show - microseconds, 0 = off */
static int lh_outlier_show(int id, char *buf, size_t size, unsigned int flags)
{
	return scnprintf(buf, size, "%llu\n", lh_outlier_budget_us(id));
}

/*
 * lh_lines_reset_quiet - a reset of the histograms in @ids, in its quiet
 * period (struct lh_hist_reset_hook): their types' per-line views go at
 * the same instant, so the lines and the histograms hold one set of samples
 */
static void lh_lines_reset_quiet(unsigned long ids)
{
	int id;

	for_each_set_bit(id, &ids, LH_NR_HISTS) {
		const struct lh_switch_ops *ops =
			lh_switches[lh_hist_types[id].sw].ops;

		if (ops && ops->reset)
			ops->reset();
	}
}

static struct lh_hist_reset_hook lh_lines_reset_hook = {
	.quiet	= lh_lines_reset_quiet,
	.node	= LIST_HEAD_INIT(lh_lines_reset_hook.node),
};

/*
 * lh_types_reset - empty the histograms of the types in @ids and their
 * per-line views (exactly: see lh_hists_reset()), then their counter
 * statistics
 */
static void lh_types_reset(unsigned long ids)
{
	int id;

	mutex_lock(&lh_control_lock);
	lh_hists_reset(ids);
	mutex_unlock(&lh_control_lock);
	for_each_set_bit(id, &ids, LH_NR_HISTS)
		lh_counters_reset(id);
}

/* lh_reset_store - <type>/reset: non-zero resets, 0 does nothing */
static int lh_reset_store(int id, const struct lh_ctl_req *req)
{
	if (req->val)
		lh_types_reset(BIT(id));
	return 0;
}

/*
 * lh_reset_match - the histograms a reset parameter names ("all" or one
 * name as in status), as a bitmap; 0 for an unknown name
 */
static unsigned long lh_reset_match(const char *buf)
{
	size_t len = strlen(buf);
	unsigned long ids = 0;
	int id;

	if (len && buf[len - 1] == '\n')
		len--;
	for (id = 0; id < LH_NR_HISTS; id++) {
		if ((len == 3 && !strncmp(buf, "all", 3)) ||
		    (strlen(lh_hist_types[id].name) == len &&
		     !strncmp(buf, lh_hist_types[id].name, len)))
			ids |= BIT(id);
	}
	return ids;
}

/* lh_reset_name_check - reset=: a histogram name or "all" */
static int lh_reset_name_check(int unused, const struct lh_ctl_req *req)
{
	return lh_reset_match(req->text) ? 0 : -EINVAL;
}

/* lh_reset_name_store - reset=<name>|all */
static int lh_reset_name_store(int unused, const struct lh_ctl_req *req)
{
	unsigned long ids = lh_reset_match(req->text);

	if (!ids)
		return -EINVAL;
	lh_types_reset(ids);
	return 0;
}

/* lh_reset_name_show - a reset has no state: an empty line */
static int lh_reset_name_show(int unused, char *buf, size_t size,
			      unsigned int flags)
{
	return scnprintf(buf, size, "\n");
}

/* lh_parse_bit - exactly "0" or "1", at most one trailing '\n' */
static int lh_parse_bit(const char *buf, bool *on)
{
	if ((buf[0] != '0' && buf[0] != '1') ||
	    (buf[1] && strcmp(buf + 1, "\n")))
		return -EINVAL;
	*on = buf[0] == '1';
	return 0;
}

/* lh_bit_check - counters/enable, explain/enable: "0" or "1" */
static int lh_bit_check(int unused, const struct lh_ctl_req *req)
{
	bool on;

	return lh_parse_bit(req->text, &on);
}

/* lh_counters_store - counters/enable: "1" starts counting, "0" stops */
static int lh_counters_store(int unused, const struct lh_ctl_req *req)
{
	bool on;

	return lh_parse_bit(req->text, &on) ?: lh_counters_enable(on);
}

/* lh_counters_show - 0 or 1 */
static int lh_counters_show_ctl(int unused, char *buf, size_t size,
				unsigned int flags)
{
	return scnprintf(buf, size, "%d\n", lh_counters_enabled());
}

/* lh_explain_store - explain/enable: "1" starts explaining, "0" stops */
static int lh_explain_store(int unused, const struct lh_ctl_req *req)
{
	bool on;
	int ret;

	ret = lh_parse_bit(req->text, &on);
	if (ret)
		return ret;
	/* No reset meanwhile: it would race with the floors read at "on". */
	mutex_lock(&lh_control_lock);
	ret = lh_explain_enable(on);
	mutex_unlock(&lh_control_lock);
	return ret;
}

/* lh_explain_show_ctl - 0 or 1 */
static int lh_explain_show_ctl(int unused, char *buf, size_t size,
			       unsigned int flags)
{
	return scnprintf(buf, size, "%d\n", lh_explain_enabled());
}

/*
 * lh_events_check - counter_events before init: the names' form; a
 * "pmu/event/" name is resolved when the write is replayed, without the
 * parameter lock that insmod holds now
 */
static int lh_events_check(int unused, const struct lh_ctl_req *req)
{
	return lh_counters_events_check(req->text, false);
}

/*
 * lh_events_store - counters/events: the new event set
 *
 * A "pmu/event/" name is resolved by reading sysfs, which a write to a
 * parameter file must not do: it holds that sysfs file's lock, of the same
 * class. So after load such names go through counters/events, or as the
 * type:config that sysfs shows.
 */
static int lh_events_store(int unused, const struct lh_ctl_req *req)
{
	if ((req->flags & LH_CTL_PARAM) && strchr(req->text, '/')) {
		pr_info("counter_events: after load, give PMU events as type:config\n");
		return -EINVAL;
	}
	return lh_counters_events_write(req->text);
}

/* lh_events_show - one name a line, or (a parameter) all on one line */
static int lh_events_show(int unused, char *buf, size_t size,
			  unsigned int flags)
{
	return lh_counters_events_print(buf, size,
					flags & LH_CTL_PARAM ? ' ' : '\n');
}

static const struct lh_control lh_controls[LH_NR_CTLS] = {
	[LH_CTL_PID] = {
		.name = "pid", .write_max = LH_WRITE_MAX, .max = PID_MAX_LIMIT,
		.store = lh_pid_store, .show = lh_pid_show,
	},
	[LH_CTL_THRESHOLD] = {
		.name = "threshold", .write_max = LH_WRITE_MAX, .max = INT_MAX,
		.store = lh_threshold_store, .show = lh_threshold_show,
	},
	[LH_CTL_OUTLIER] = {
		.name = "outlier_us", .write_max = LH_WRITE_MAX, .max = INT_MAX,
		.store = lh_outlier_store, .show = lh_outlier_show,
	},
	[LH_CTL_COUNTER_EVENTS] = {
		.name = "counter_events", .write_max = LH_EVENTS_WRITE_MAX,
		.own_lock = true, .check = lh_events_check,
		.store = lh_events_store, .show = lh_events_show,
	},
	[LH_CTL_ENABLE] = {
		.name = "enable", .write_max = LH_WRITE_MAX, .max = U64_MAX,
		.store = lh_enable_store, .show = lh_enable_show,
	},
	[LH_CTL_COUNTERS] = {
		.name = "counters", .write_max = LH_WRITE_MAX,
		.check = lh_bit_check, .store = lh_counters_store,
		.show = lh_counters_show_ctl,
	},
	[LH_CTL_EXPLAIN] = {
		.name = "explain", .write_max = LH_WRITE_MAX,
		.check = lh_bit_check, .store = lh_explain_store,
		.show = lh_explain_show_ctl,
	},
	[LH_CTL_RESET] = {
		.name = "reset", .write_max = LH_WRITE_MAX, .max = U64_MAX,
		.store = lh_reset_store,
	},
	[LH_CTL_RESET_NAME] = {
		.name = "reset", .write_max = LH_WRITE_MAX,
		.check = lh_reset_name_check, .store = lh_reset_name_store,
		.show = lh_reset_name_show,
	},
};

/*
 * lh_ctl_parse - check a write against its control's grammar; a text
 * control's own check runs only before init (@store checks while live)
 */
static int lh_ctl_parse(const struct lh_control *c, int id,
			struct lh_ctl_req *req, bool loading)
{
	if (strnlen(req->text, c->write_max) >= c->write_max)
		return -EINVAL;
	if (c->max) {
		if (lh_parse_uint(req->text, &req->val) || req->val > c->max)
			return -EINVAL;
		return 0;
	}
	return loading ? c->check(id, req) : 0;
}

/* lh_ctl_remember - keep the text of a write made before start */
static int lh_ctl_remember(enum lh_ctl_id ctl, int id, const char *text)
{
	char *copy = kstrdup(text, GFP_KERNEL);

	if (!copy)
		return -ENOMEM;
	kfree(lh_ctl_pending[ctl][id]);
	lh_ctl_pending[ctl][id] = copy;
	return 0;
}

/*
 * lh_ctl_write_locked - the gate: remember before start, act while live,
 * refuse after exit; caller holds the parameter lock
 */
static int lh_ctl_write_locked(enum lh_ctl_id ctl, int id,
			       struct lh_ctl_req *req)
{
	const struct lh_control *c = &lh_controls[ctl];
	enum lh_ctl_state state = READ_ONCE(lh_ctl_state);
	int ret;

	if (state == LH_CTL_GONE)
		return -ENODEV;
	ret = lh_ctl_parse(c, id, req, state == LH_CTL_LOADING);
	if (ret)
		return ret;
	if (state == LH_CTL_LOADING)
		return lh_ctl_remember(ctl, id, req->text);
	return c->store(id, req);
}

/**
 * lh_ctl_write() - a write to a control, from debugfs or a parameter
 * @ctl:   the control
 * @id:    the switch or histogram it addresses (unused for global ones)
 * @text:  NUL-terminated user text
 * @flags: LH_CTL_PARAM for a module parameter, whose lock sysfs holds
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL for text the control's grammar refuses (or a
 * dependency not met), -ENODEV for a type this kernel cannot measure or a
 * write after exit, -ENOMEM, or an error from hooking.
 */
int lh_ctl_write(enum lh_ctl_id ctl, int id, const char *text,
		 unsigned int flags)
{
	struct lh_ctl_req req = { .text = text, .flags = flags };
	int ret;

	if ((flags & LH_CTL_PARAM) || lh_controls[ctl].own_lock)
		return lh_ctl_write_locked(ctl, id, &req);
	kernel_param_lock(THIS_MODULE);
	ret = lh_ctl_write_locked(ctl, id, &req);
	kernel_param_unlock(THIS_MODULE);
	return ret;
}

/**
 * lh_ctl_read() - print a control's value and a newline
 * @ctl:   the control
 * @id:    the switch or histogram it addresses
 * @buf:   the buffer
 * @size:  its size
 * @flags: LH_CTL_PARAM for a module parameter
 *
 * Context: process context.
 * Return: the length printed, or -EINVAL for a write-only control.
 */
int lh_ctl_read(enum lh_ctl_id ctl, int id, char *buf, size_t size,
		unsigned int flags)
{
	if (!lh_controls[ctl].show)
		return -EINVAL;
	return lh_controls[ctl].show(id, buf, size, flags);
}

/**
 * lh_ctl_write_max() - the size from which a write to a control is invalid
 * @ctl: the control
 *
 * Context: any.
 */
size_t lh_ctl_write_max(enum lh_ctl_id ctl)
{
	return lh_controls[ctl].write_max;
}

/**
 * lh_ctl_readable() - can a control be read?
 * @ctl: the control
 *
 * Context: any.
 */
bool lh_ctl_readable(enum lh_ctl_id ctl)
{
	return lh_controls[ctl].show;
}

/* lh_status_needs - print "needs=" and the switches @sw needs, or "-" */
static void lh_status_needs(struct seq_file *m, enum lh_switch_id sw)
{
	unsigned long needs = lh_switches[sw].needs;
	const char *sep = "";
	int need;

	seq_puts(m, " needs=");
	if (!needs)
		seq_putc(m, '-');
	for_each_set_bit(need, &needs, LH_NR_SWITCHES) {
		seq_printf(m, "%s%s", sep, lh_switches[need].name);
		sep = ",";
	}
}

/* lh_status_slow - does @sw make every system call take the slow path? */
static bool lh_status_slow(enum lh_switch_id sw)
{
	const struct lh_switch_ops *ops = lh_switches[sw].ops;

	return ops && lh_tp_slows_syscalls(ops->probes, ops->nr_probes);
}

/**
 * lh_status_show() - print the status file
 * @m: the seq_file
 *
 * One line per histogram: name, available, enabled (its switch), bytes of
 * histogram memory held; then its row: the switch that feeds it, the
 * switches that one needs, whether its directory has the pid filter, max
 * records and counters, whether its switch makes every system call take
 * the slow path, whether it has explain-CPUx files, its clock (and why
 * that one: lh_clock_status()), the samples it holds that have no lh_sample
 * event (lh_hist_untraced()); and last why it is unavailable, if it is.
 *
 * Context: process context.
 */
void lh_status_show(struct seq_file *m)
{
	int id;

	mutex_lock(&lh_control_lock);
	for (id = 0; id < LH_NR_HISTS; id++) {
		enum lh_switch_id sw = lh_hist_types[id].sw;

		seq_printf(m, "%s available=%d enabled=%d bytes=%zu switch=%s",
			   lh_hist_types[id].name, !lh_switch_reason[sw],
			   lh_switch_on[sw], lh_hist_bytes(id),
			   lh_switches[sw].name);
		lh_status_needs(m, sw);
		seq_printf(m, " pid=%d max=%d counters=%d syscall_slow_path=%d explain=%d outliers=%d",
			   lh_hist_holds_pid(id), lh_hist_has(id, LH_T_MAX),
			   !!lh_hist_types[id].window, lh_status_slow(sw),
			   lh_hist_has(id, LH_T_EXPLAIN),
			   lh_hist_has(id, LH_T_OUTLIER));
		lh_clock_status(m, id);
		seq_printf(m, " untraced=%lu", lh_hist_untraced(id));
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
 * A switch without probes of its own is unavailable for the first reason
 * one of its needs is.
 *
 * Context: module init, after lh_tp_lookup().
 * Return: 0.
 */
int lh_control_init(void)
{
	int sw, need;

	for (sw = 0; sw < LH_NR_SWITCHES; sw++) {
		const struct lh_switch_ops *ops = lh_switches[sw].ops;

		if (ops) {
			lh_switch_reason[sw] = ops->prepare();
			if (lh_tp_first_missing(ops->probes, ops->nr_probes))
				lh_switch_reason[sw] = ops->missing;
		}
		for (need = 0; need < sw && !lh_switch_reason[sw]; need++) {
			if (lh_switches[sw].needs & BIT(need))
				lh_switch_reason[sw] = lh_switch_reason[need];
		}
	}
	lh_hist_reset_hook_add(&lh_lines_reset_hook);
	return 0;
}

/*
 * lh_ctl_replay - apply one write remembered before start; caller holds the
 * parameter lock, which a control that reads sysfs runs without
 */
static int lh_ctl_replay(enum lh_ctl_id ctl, int id, struct lh_ctl_req *req)
{
	int ret;

	if (lh_controls[ctl].own_lock) {
		kernel_param_unlock(THIS_MODULE);
		ret = lh_ctl_write_locked(ctl, id, req);
		kernel_param_lock(THIS_MODULE);
	} else {
		ret = lh_ctl_write_locked(ctl, id, req);
	}
	if (ret)
		pr_err("%s given at load: error %d\n", lh_controls[ctl].name,
		       ret);
	return ret;
}

/**
 * lh_control_start() - accept control writes; replay the load-time ones
 *
 * Controls are replayed in enum lh_ctl_id order, each in list order, so a
 * filter is set before its switch goes on and a type after the types it
 * needs. A write that fails now fails the module load. A control that
 * reads sysfs (counter_events) is replayed without the parameter lock.
 *
 * Context: module init, once the debugfs tree exists.
 * Return: 0 or the error of the first write that failed.
 */
int lh_control_start(void)
{
	int ctl, id, ret = 0;

	kernel_param_lock(THIS_MODULE);
	WRITE_ONCE(lh_ctl_state, LH_CTL_LIVE);
	for (ctl = 0; ctl < LH_NR_CTLS; ctl++) {
		for (id = 0; id < LH_NR_HISTS; id++) {
			char *text = lh_ctl_pending[ctl][id];
			struct lh_ctl_req req = { .text = text };

			if (!text)
				continue;
			lh_ctl_pending[ctl][id] = NULL;
			if (!ret)
				ret = lh_ctl_replay(ctl, id, &req);
			kfree(text);
		}
	}
	kernel_param_unlock(THIS_MODULE);
	return ret;
}

/**
 * lh_control_exit() - refuse further writes, turn every switch off, free
 * all histograms
 *
 * Context: module exit or failed init, after the debugfs tree is gone.
 */
void lh_control_exit(void)
{
	int sw, id;

	kernel_param_lock(THIS_MODULE);
	WRITE_ONCE(lh_ctl_state, LH_CTL_GONE);
	for (sw = LH_NR_SWITCHES - 1; sw >= 0; sw--)
		lh_switch_off(sw);
	mutex_lock(&lh_control_lock);
	lh_hist_reset_hook_del(&lh_lines_reset_hook);
	for (id = 0; id < LH_NR_HISTS; id++)
		lh_hist_free(id);
	mutex_unlock(&lh_control_lock);
	for (sw = 0; sw < LH_NR_CTLS; sw++) {
		for (id = 0; id < LH_NR_HISTS; id++) {
			kfree(lh_ctl_pending[sw][id]);
			lh_ctl_pending[sw][id] = NULL;
		}
	}
	kernel_param_unlock(THIS_MODULE);
}
