// SPDX-License-Identifier: GPL-2.0
/*
 * explain_print.c - the records of explain as the explain-CPUx files show
 * them: read context, on a copy taken under the record's lock.
 *
 * A record holds what the replay (explain_replay.c) could read safely at
 * filing time: numbers and names copied into it, the timer callbacks' too,
 * never an address to look up now.
 */
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <latency_hist/explain.h>
#include <latency_hist/explain_priv.h>

static const char *const lh_x_cat_names[LH_XC_NR] = {
	"hardirq", "softirq", "nmi", "thread", "other",
};

/* lh_x_print_name - print a name with blanks and control bytes as '_' */
static void lh_x_print_name(struct seq_file *m, const char *name)
{
	char buf[LH_X_NAME];
	int i;

	strscpy(buf, name, sizeof(buf));
	for (i = 0; buf[i]; i++) {
		if ((unsigned char)buf[i] <= ' ' || buf[i] == 0x7f)
			buf[i] = '_';
	}
	seq_printf(m, " %s", buf[0] ? buf : "-");
}

/*
 * lh_x_print_idle_state - an idle state's line: its index, its name (the
 * kernel's own idle by the function that runs it, with "-" for the exit
 * latency no driver gives), what ended its periods (kind, number, name;
 * "none -1 -" for nothing before the CPU switched), their count and time
 */
static void lh_x_print_idle_state(struct seq_file *m,
				  const struct lh_x_idle_acc *a,
				  const struct lh_x_detail *d)
{
	static const char *const wake_kinds[] = {
		[0] = "none", [LH_XE_IRQ_ENTRY] = "irq",
		[LH_XE_VEC_ENTRY] = "vector", [LH_XE_NMI] = "nmi",
	};

	seq_printf(m, "    idle-state %d", a->state);
	if (a->state < 0) {
		seq_printf(m, " (others) - - -1 - %u %llu\n", d->count, d->ns);
		return;
	}
	if (a->exit_us == LH_X_NO_DRIVER) {
		seq_printf(m, " %s -", a->state == 0 ? "cpu_idle_poll" :
			   a->state == 1 ? "default_idle_call" : "-");
	} else {
		lh_x_print_name(m, a->name);
		seq_printf(m, " %u", a->exit_us);
	}
	seq_printf(m, " %s %d", wake_kinds[a->wake_kind], a->wake_id);
	lh_x_print_name(m, a->wake_name);
	seq_printf(m, " %u %llu\n", d->count, d->ns);
}

/**
 * lh_explain_show() - print one explain-CPUx file
 * @m:   the seq_file
 * @id:  the histogram
 * @cpu: the CPU
 *
 * Context: process context.
 */
void lh_explain_show(struct seq_file *m, enum lh_hist_id id, int cpu)
{
	static const char *const kinds[] = {
		[LH_XD_IRQ] = "irq", [LH_XD_VECTOR] = "vector",
		[LH_XD_SOFTIRQ] = "softirq",
	};
	struct lh_x_rec_cpu *rc = lh_x_rec_cpu(id, cpu);
	struct lh_x_rec *rec;
	int i;

	if (!rc) {
		seq_puts(m, "(none)\n");
		return;
	}
	rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return;
	lh_x_rec_get(rc, rec);
	if (!rec->valid) {
		seq_puts(m, "(none)\n");
		kfree(rec);
		return;
	}
	for (i = 0; i < LH_XC_NR; i++)
		seq_printf(m, "%s %llu %u\n", lh_x_cat_names[i], rec->cat_ns[i],
			   rec->cat_count[i]);
	seq_printf(m, "window %llu\n", rec->window_ns);
	for (i = 0; i < rec->nr_details; i++) {
		const struct lh_x_detail *d = &rec->d[i];

		switch (d->kind) {
		case LH_XD_IRQ:
		case LH_XD_VECTOR:
		case LH_XD_SOFTIRQ:
			seq_printf(m, "  %s %d", kinds[d->kind], d->id);
			lh_x_print_name(m, d->name);
			seq_printf(m, " %u %llu\n", d->count, d->ns);
			break;
		case LH_XD_THREAD:
			seq_printf(m, "  thread %d %d", d->id, 99 - d->prio);
			lh_x_print_name(m, d->name);
			seq_printf(m, " %llu\n", d->ns);
			break;
		case LH_XD_THREAD_REST:
			seq_printf(m, "  thread-rest %d %llu\n", d->id, d->ns);
			break;
		case LH_XD_IDLE:
			seq_printf(m, "  idle %llu\n", d->ns);
			break;
		case LH_XD_UNCOVERED:
			seq_printf(m, "  uncovered %llu\n", d->ns);
			break;
		case LH_XD_TIMER:
			seq_printf(m, "    timer %s %u %llu\n",
				   rec->timer_sym[d->id],
				   d->count, d->ns);
			break;
		case LH_XD_IDLE_STATE:
			lh_x_print_idle_state(m, &rec->idle[d->id], d);
			break;
		}
	}
	kfree(rec);
}
