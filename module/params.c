// SPDX-License-Identifier: GPL-2.0
/*
 * params.c - every control of the debugfs tree, also as a module parameter.
 *
 * Under Secure Boot the kernel's lockdown refuses to open debugfs files that
 * can be written, so on such rigs /sys/module/latency_hist/parameters/ is the
 * only way to enable, filter and reset. The parameters are also the way to
 * start recording at load time (insmod latency_hist.ko enable_wakeup=1).
 *
 * One kernel_param_ops serves them all: a parameter's argument names the
 * control and the switch or histogram (lh_param_arg()), and its setter and
 * getter hand the text to lh_ctl_write() and lh_ctl_read(), the functions
 * the debugfs files use, so validation and effect are identical on both
 * paths. The parameters themselves are generated from the rows of
 * include/latency_hist/types.h: enable_<switch>, <switch>_pid,
 * threshold_<type>; then reset, counters and counter_events.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>

#include <latency_hist/control.h>
#include <latency_hist/types.h>

/* lh_param_arg - encode (control, switch or histogram) as a parameter's arg */
#define lh_param_arg(ctl, id)	((void *)(((unsigned long)(ctl) << 8) | (id)))

/* lh_param_ctl - the control of a parameter */
static enum lh_ctl_id lh_param_ctl(const struct kernel_param *kp)
{
	return (unsigned long)kp->arg >> 8;
}

/* lh_param_id - the switch or histogram of a parameter */
static int lh_param_id(const struct kernel_param *kp)
{
	return (unsigned long)kp->arg & 0xff;
}

/* lh_param_set - a write to any parameter (sysfs holds the parameter lock) */
static int lh_param_set(const char *val, const struct kernel_param *kp)
{
	return lh_ctl_write(lh_param_ctl(kp), lh_param_id(kp), val,
			    LH_CTL_PARAM);
}

/* lh_param_get - a read of any parameter: its value and a newline */
static int lh_param_get(char *buf, const struct kernel_param *kp)
{
	return lh_ctl_read(lh_param_ctl(kp), lh_param_id(kp), buf, PAGE_SIZE,
			   LH_CTL_PARAM);
}

static const struct kernel_param_ops lh_param_ops = {
	.set	= lh_param_set,
	.get	= lh_param_get,
};

/*
 * The parameters of each row: enable_<name> and, with a filter,
 * <name>_pid for a switch; threshold_<param> and outlier_<param> for a
 * histogram (outlier_<param> refuses non-zero where status says
 * outliers=0). Each
 * expansion starts with the ';' that ends the declaration before it, so
 * that rows can follow each other; the ';' after the list ends the last.
 */
#define LH_SWITCH(ID, name, pid, ...)					\
	;								\
	module_param_cb(enable_##name, &lh_param_ops,			\
			lh_param_arg(LH_CTL_ENABLE, LH_SW_##ID), 0644);	\
	MODULE_PARM_DESC(enable_##name, "Record the " #name		\
			 " histograms (0/1, default 0; status lists them and what they need)") \
	LH_PARAM_PID_##pid(name, ID)
#define LH_PARAM_PID_LH_PID(name, ID)					\
	;								\
	module_param_cb(name##_pid, &lh_param_ops,			\
			lh_param_arg(LH_CTL_PID, LH_SW_##ID), 0644);	\
	MODULE_PARM_DESC(name##_pid, "Follow only this thread id in the " \
			 #name " histograms (0 = no filter, default 0)")
#define LH_PARAM_PID_LH_NO_PID(...)
#define LH_HIST(ID, name, param, ...)					\
	;								\
	module_param_cb(threshold_##param, &lh_param_ops,		\
			lh_param_arg(LH_CTL_THRESHOLD, LH_HIST_##ID), 0644); \
	MODULE_PARM_DESC(threshold_##param,				\
			 "Stop the ftrace ring buffer at the first " name \
			 " sample >= this many us (0 = off, default 0)")	\
	;								\
	module_param_cb(outlier_##param, &lh_param_ops,		\
			lh_param_arg(LH_CTL_OUTLIER, LH_HIST_##ID), 0644); \
	MODULE_PARM_DESC(outlier_##param,				\
			 "Log each " #param					\
			 " sample >= this many us with its cause (0 = off, default 0)")
#include <latency_hist/type_list.h>
;

module_param_cb(reset, &lh_param_ops, lh_param_arg(LH_CTL_RESET_NAME, 0),
		0644);
MODULE_PARM_DESC(reset,
		 "Write a histogram name as listed in status (e.g. wakeup/sharedprio) or 'all' to reset it");

module_param_cb(counters, &lh_param_ops, lh_param_arg(LH_CTL_COUNTERS, 0),
		0644);
MODULE_PARM_DESC(counters,
		 "Read perf counters over every latency window (0/1, default 0)");

module_param_cb(explain, &lh_param_ops, lh_param_arg(LH_CTL_EXPLAIN, 0),
		0644);
MODULE_PARM_DESC(explain,
		 "Break each CPU's worst window down into hardirq, softirq, nmi, thread and other time (0/1, default 0)");

module_param_cb(counter_events, &lh_param_ops,
		lh_param_arg(LH_CTL_COUNTER_EVENTS, 0), 0644);
MODULE_PARM_DESC(counter_events,
		 "Counters to read: names (cycles, cpu-clock, msr/smi/, ...) or type:config, comma separated");
