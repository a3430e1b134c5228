// SPDX-License-Identifier: GPL-2.0
/*
 * params.c - every control of the debugfs tree, also as a module parameter.
 *
 * Under Secure Boot the kernel's lockdown refuses to open debugfs files that
 * can be written, so on such rigs /sys/module/latency_hist/parameters/ is the
 * only way to enable, filter and reset. The parameters are also the way to
 * start recording at load time (insmod latency_hist.ko enable_wakeup=1).
 * Each setter hands the text to the same control.c function the debugfs file
 * uses, so validation and effect are identical on both paths.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include <latency_hist/control.h>
#include <latency_hist/counters.h>

/* lh_param_sw - the switch a parameter belongs to */
static enum lh_switch_id lh_param_sw(const struct kernel_param *kp)
{
	return (unsigned long)kp->arg;
}

/* lh_param_enable_set - enable_<switch>=N */
static int lh_param_enable_set(const char *val, const struct kernel_param *kp)
{
	return lh_enable_write(lh_param_sw(kp), val);
}

/* lh_param_enable_get - 0 or 1 */
static int lh_param_enable_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", lh_switch_enabled(lh_param_sw(kp)));
}

static const struct kernel_param_ops lh_param_enable_ops = {
	.set	= lh_param_enable_set,
	.get	= lh_param_enable_get,
};

/* lh_param_pid_set - <switch>_pid=PID */
static int lh_param_pid_set(const char *val, const struct kernel_param *kp)
{
	return lh_pid_write(lh_param_sw(kp), val);
}

/* lh_param_pid_get - the pid filter, 0 for none */
static int lh_param_pid_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", lh_pid(lh_param_sw(kp)));
}

static const struct kernel_param_ops lh_param_pid_ops = {
	.set	= lh_param_pid_set,
	.get	= lh_param_pid_get,
};

/* lh_param_reset_set - reset=<histogram name>|all */
static int lh_param_reset_set(const char *val, const struct kernel_param *kp)
{
	return lh_reset_by_name(val);
}

/* lh_param_reset_get - a reset has no state: an empty line */
static int lh_param_reset_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "\n");
}

static const struct kernel_param_ops lh_param_reset_ops = {
	.set	= lh_param_reset_set,
	.get	= lh_param_reset_get,
};

#define LH_PARAM_SW(sw)	((void *)(unsigned long)(sw))

module_param_cb(enable_preemptirqsoff, &lh_param_enable_ops,
		LH_PARAM_SW(LH_SW_PREEMPTIRQSOFF), 0644);
MODULE_PARM_DESC(enable_preemptirqsoff,
		 "Record irqsoff, preemptoff and preemptirqsoff histograms (0/1, default 0)");

module_param_cb(enable_wakeup, &lh_param_enable_ops,
		LH_PARAM_SW(LH_SW_WAKEUP), 0644);
MODULE_PARM_DESC(enable_wakeup,
		 "Record wakeup and wakeup/sharedprio histograms (0/1, default 0)");

module_param_cb(enable_missed_timer_offsets, &lh_param_enable_ops,
		LH_PARAM_SW(LH_SW_MISSED_TIMER_OFFSETS), 0644);
MODULE_PARM_DESC(enable_missed_timer_offsets,
		 "Record the missed_timer_offsets histogram (0/1, default 0)");

module_param_cb(enable_timerandwakeup, &lh_param_enable_ops,
		LH_PARAM_SW(LH_SW_TIMERANDWAKEUP), 0644);
MODULE_PARM_DESC(enable_timerandwakeup,
		 "Record timer+wakeup sums; needs wakeup and missed_timer_offsets (0/1, default 0)");

module_param_cb(wakeup_pid, &lh_param_pid_ops,
		LH_PARAM_SW(LH_SW_WAKEUP), 0644);
MODULE_PARM_DESC(wakeup_pid,
		 "Follow only this thread id in the wakeup histograms (0 = all RT tasks, default 0)");

module_param_cb(missed_timer_offsets_pid, &lh_param_pid_ops,
		LH_PARAM_SW(LH_SW_MISSED_TIMER_OFFSETS), 0644);
MODULE_PARM_DESC(missed_timer_offsets_pid,
		 "Follow only this thread id in missed_timer_offsets (0 = all RT sleepers, default 0)");

module_param_cb(reset, &lh_param_reset_ops, NULL, 0644);
MODULE_PARM_DESC(reset,
		 "Write a histogram name as listed in status (e.g. wakeup/sharedprio) or 'all' to reset it");

/* lh_param_hist - the histogram a threshold parameter belongs to */
static enum lh_hist_id lh_param_hist(const struct kernel_param *kp)
{
	return (unsigned long)kp->arg;
}

/* lh_param_threshold_set - threshold_<type>=US */
static int lh_param_threshold_set(const char *val,
				  const struct kernel_param *kp)
{
	return lh_threshold_write(lh_param_hist(kp), val);
}

/* lh_param_threshold_get - microseconds, 0 = off */
static int lh_param_threshold_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%llu\n", lh_threshold_us(lh_param_hist(kp)));
}

static const struct kernel_param_ops lh_param_threshold_ops = {
	.set	= lh_param_threshold_set,
	.get	= lh_param_threshold_get,
};

#define LH_PARAM_THRESHOLD(name, id)					\
	module_param_cb(threshold_##name, &lh_param_threshold_ops,	\
			(void *)(unsigned long)(id), 0644);		\
	MODULE_PARM_DESC(threshold_##name,				\
			 "Stop the ftrace ring buffer at the first " #name \
			 " sample >= this many us (0 = off, default 0)")

LH_PARAM_THRESHOLD(irqsoff, LH_HIST_IRQSOFF);
LH_PARAM_THRESHOLD(preemptoff, LH_HIST_PREEMPTOFF);
LH_PARAM_THRESHOLD(preemptirqsoff, LH_HIST_PREEMPTIRQSOFF);
LH_PARAM_THRESHOLD(wakeup, LH_HIST_WAKEUP);
LH_PARAM_THRESHOLD(wakeup_sharedprio, LH_HIST_WAKEUP_SHAREDPRIO);
LH_PARAM_THRESHOLD(missed_timer_offsets, LH_HIST_MISSED_TIMER_OFFSETS);
LH_PARAM_THRESHOLD(timerandwakeup, LH_HIST_TIMERANDWAKEUP);

/* lh_param_counters_set - counters=0|1 */
static int lh_param_counters_set(const char *val, const struct kernel_param *kp)
{
	return lh_counters_enable_write(val);
}

/* lh_param_counters_get - 0 or 1 */
static int lh_param_counters_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", lh_counters_enabled());
}

static const struct kernel_param_ops lh_param_counters_ops = {
	.set	= lh_param_counters_set,
	.get	= lh_param_counters_get,
};

module_param_cb(counters, &lh_param_counters_ops, NULL, 0644);
MODULE_PARM_DESC(counters,
		 "Read perf counters over every latency window (0/1, default 0)");

/*
 * lh_param_counter_events_set - counter_events=NAME[,NAME...]
 *
 * A "pmu/event/" name is resolved by reading sysfs, which a write to a
 * parameter file must not do: it holds that sysfs file's lock, of the same
 * class. So after load such names go through counters/events, or as the
 * type:config that sysfs shows.
 */
static int lh_param_counter_events_set(const char *val,
				       const struct kernel_param *kp)
{
	if (lh_counters_started() && strchr(val, '/')) {
		pr_info("counter_events: after load, give PMU events as type:config\n");
		return -EINVAL;
	}
	return lh_counters_events_write(val);
}

/* lh_param_counter_events_get - the event set on one line */
static int lh_param_counter_events_get(char *buf,
				       const struct kernel_param *kp)
{
	return lh_counters_events_print(buf);
}

static const struct kernel_param_ops lh_param_counter_events_ops = {
	.set	= lh_param_counter_events_set,
	.get	= lh_param_counter_events_get,
};

module_param_cb(counter_events, &lh_param_counter_events_ops, NULL, 0644);
MODULE_PARM_DESC(counter_events,
		 "Counters to read: names (cycles, cpu-clock, msr/smi/, ...) or type:config, comma separated");
