// SPDX-License-Identifier: GPL-2.0
/*
 * counters_names.c - event names to perf types and configs: perf's generic
 * names, a PMU's sysfs events ("msr/smi/") and raw "type:config" pairs.
 *
 * A PMU's event is resolved by reading two small files under
 * /sys/bus/event_source/devices/, so resolving must never run under a lock
 * a sysfs read may wait behind: neither lh_pmu_lock nor the module's
 * parameter lock, which sysfs takes inside its own file lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <latency_hist/counters_priv.h>

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

/* lh_pmu_check_dynamic - the form of a "pmu/event/" name, not resolved */
static int lh_pmu_check_dynamic(const char *name, struct lh_pmu_event *e)
{
	const char *ev = strchr(name, '/') + 1;
	size_t pmu_len = ev - 1 - name, ev_len = strcspn(ev, "/");

	if (!lh_pmu_name_ok(name, pmu_len) || !lh_pmu_name_ok(ev, ev_len) ||
	    (ev[ev_len] && strcmp(ev + ev_len, "/")))
		return -EINVAL;
	return strscpy(e->name, name, sizeof(e->name)) < 0 ? -EINVAL : 0;
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

/**
 * lh_pmu_resolve() - one event name: generic ("cycles"), dynamic PMU
 * ("msr/smi/") or raw "type:config"
 * @name: the name
 * @e:    filled with it, its type and config
 *
 * Context: process context; reads sysfs for a PMU name: hold no lock that
 * a sysfs read may need (lh_pmu_lock, the parameter lock).
 * Return: 0, or -EINVAL if it names nothing.
 */
int lh_pmu_resolve(const char *name, struct lh_pmu_event *e)
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

/**
 * lh_pmu_parse_set() - parse a list of event names separated by blanks or
 * commas
 * @buf:         the list
 * @set:         filled with the events
 * @resolve_pmu: resolve "pmu/event/" names in sysfs; false: only check
 *               their form (a parameter given to insmod: its lock is held)
 *
 * Context: process context; with @resolve_pmu as lh_pmu_resolve().
 * Return: 0, or -EINVAL for an unknown or repeated name, or too many.
 */
int lh_pmu_parse_set(const char *buf, struct lh_pmu_set *set,
		     bool resolve_pmu)
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
		if (!resolve_pmu && strchr(name, '/'))
			ret = lh_pmu_check_dynamic(name, &set->ev[set->nr]);
		else
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
 * lh_counters_events_check() - check a new event set without using it
 * @buf:         NUL-terminated list of event names (blank or comma separated)
 * @resolve_pmu: as lh_pmu_parse_set()
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL or -ENOMEM.
 */
int lh_counters_events_check(const char *buf, bool resolve_pmu)
{
	struct lh_pmu_set *set;
	int ret;

	set = kzalloc(sizeof(*set), GFP_KERNEL);
	if (!set)
		return -ENOMEM;
	ret = lh_pmu_parse_set(buf, set, resolve_pmu);
	kfree(set);
	return ret;
}
