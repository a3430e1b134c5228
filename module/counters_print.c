// SPDX-License-Identifier: GPL-2.0
/*
 * counters_print.c - what the counters show: counters/events,
 * counters/status (per event and CPU: counting, or why not) and
 * <type>/counters (per CPU: the windows' sums, means and the window of the
 * largest sample, with IPC and GHz where cycles and instructions are
 * counted). Readers copy the per-CPU statistics without stopping the
 * probes: a reader racing a sample may see its sum without its window,
 * never a torn 64-bit value.
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include <latency_hist/counters_priv.h>

/**
 * lh_counters_events_print() - the event set, for counters/events or the
 * counter_events parameter
 * @buf:  the buffer
 * @size: its size
 * @sep:  '\n': one name a line; else the separator of one line
 *
 * Context: process context.
 * Return: the length written.
 */
int lh_counters_events_print(char *buf, size_t size, char sep)
{
	int i, len = 0;

	mutex_lock(&lh_pmu_lock);
	for (i = 0; i < lh_pmu_set.nr; i++) {
		if (sep == '\n')
			len += scnprintf(buf + len, size - len, "%s\n",
					 lh_pmu_set.ev[i].name);
		else
			len += scnprintf(buf + len, size - len, "%s%c",
					 lh_pmu_set.ev[i].name,
					 i + 1 < lh_pmu_set.nr ? sep : '\n');
	}
	if (sep != '\n' && !lh_pmu_set.nr)
		len += scnprintf(buf + len, size - len, "\n");
	mutex_unlock(&lh_pmu_lock);
	return len;
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
		   lh_hist_types[id].window);
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

