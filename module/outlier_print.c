// SPDX-License-Identifier: GPL-2.0
/*
 * outlier_print.c - <type>/outliers-CPUx: one CPU's outlier log of one
 * type (outlier.c) as text, read context.
 *
 *   #outliers budget_us=<n> filed=<n> kept=<n> dropped=<n> unexplained=<n>
 *	first_seq=<n> next_seq=<n> realtime_offset_ns=<n>	(one line)
 *   outlier seq=<n> time_ns=<n> latency_us=<n> cause=<category>
 *	cause_kind=<kind> cause_id=<n> cause_name=<name> window_ns=<n>
 *	hardirq=<ns> softirq=<ns> nmi=<ns> thread=<ns> other=<ns>
 *	victim_pid=<n> victim_prio=<n> victim_comm=<comm>
 *	culprit_pid=<n> culprit_prio=<n> culprit_comm=<comm>	(one line)
 *     <detail lines, as in explain-CPUx>
 *
 * A reader that writes a sequence number to its open file reads only the
 * records after it (from the next read at offset 0); first_seq says how
 * many it missed. Each record is copied out under its log's lock, one at
 * a time: the filing waits for one copy at most.
 */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include <latency_hist/outlier.h>
#include <latency_hist/outlier_priv.h>

#define LH_O_WRITE_MAX	24	/* bytes of a sequence number written */

static const char *const lh_o_cause_names[LH_XC_NR + 1] = {
	"hardirq", "softirq", "nmi", "thread", "other", "unexplained",
};

static const char *const lh_o_kind_names[] = {
	[LH_XD_IRQ] = "irq", [LH_XD_VECTOR] = "vector",
	[LH_XD_SOFTIRQ] = "softirq", [LH_XD_THREAD] = "thread",
	[LH_XD_THREAD_REST] = "thread-rest", [LH_XD_IDLE] = "idle",
	[LH_XD_UNCOVERED] = "uncovered",
};

/*
 * struct lh_o_reader - an open outliers-CPUx file
 * @after_seq: print the records after this number (written by the reader)
 * @base_seq:  the first record this read prints
 * @end_seq:   one past the last, as of the header
 * @rec:       the record being printed
 */
struct lh_o_reader {
	enum lh_hist_id id;
	int cpu;
	u64 after_seq;
	u64 base_seq;
	u64 end_seq;
	struct lh_o_head head;
	struct lh_o_rec rec;
};

/* lh_o_print_name - " <key>=<name>", blanks and control bytes as '_' */
static void lh_o_print_name(struct seq_file *m, const char *key,
			    const char *name, size_t len)
{
	char buf[TASK_COMM_LEN];
	int i;

	strscpy(buf, name, min(len, sizeof(buf)));
	for (i = 0; buf[i]; i++) {
		if ((unsigned char)buf[i] <= ' ' || buf[i] == 0x7f)
			buf[i] = '_';
	}
	seq_printf(m, " %s=%s", key, buf[0] ? buf : "-");
}

/* lh_o_print_task - " <role>_pid=<n> <role>_prio=<n> <role>_comm=<comm>" */
static void lh_o_print_task(struct seq_file *m, const char *role,
			    const struct lh_task_info *t)
{
	char key[16];

	seq_printf(m, " %s_pid=%d %s_prio=%d", role, t->pid, role,
		   99 - t->prio);
	snprintf(key, sizeof(key), "%s_comm", role);
	lh_o_print_name(m, key, t->comm, TASK_COMM_LEN);
}

/* lh_o_print_detail - one detail line, as explain-CPUx prints it */
static void lh_o_print_detail(struct seq_file *m, const struct lh_o_detail *d)
{
	char name[LH_X_NAME];
	int i;

	strscpy(name, d->name, sizeof(name));
	for (i = 0; name[i]; i++) {
		if ((unsigned char)name[i] <= ' ' || name[i] == 0x7f)
			name[i] = '_';
	}
	switch (d->kind) {
	case LH_XD_IRQ:
	case LH_XD_VECTOR:
	case LH_XD_SOFTIRQ:
		seq_printf(m, "  %s %d %s %u %llu\n", lh_o_kind_names[d->kind],
			   d->id, name[0] ? name : "-", d->count, d->ns);
		break;
	case LH_XD_THREAD:
		seq_printf(m, "  thread %d %d %s %llu\n", d->id, 99 - d->prio,
			   name[0] ? name : "-", d->ns);
		break;
	case LH_XD_THREAD_REST:
		seq_printf(m, "  thread-rest %d %llu\n", d->id, d->ns);
		break;
	case LH_XD_IDLE:
	case LH_XD_UNCOVERED:
		seq_printf(m, "  %s %llu\n", lh_o_kind_names[d->kind], d->ns);
		break;
	}
}

/* lh_o_print_rec - a record's line and its detail lines */
static void lh_o_print_rec(struct seq_file *m, const struct lh_o_rec *o)
{
	int i;

	seq_printf(m, "outlier seq=%llu time_ns=%llu latency_us=%lld cause=%s",
		   o->seq, o->time_ns, o->lat_us, lh_o_cause_names[o->cause]);
	if (o->cause_detail >= 0) {
		const struct lh_o_detail *d = &o->d[o->cause_detail];

		seq_printf(m, " cause_kind=%s cause_id=%d",
			   lh_o_kind_names[d->kind], d->id);
		lh_o_print_name(m, "cause_name", d->name, LH_X_NAME);
	} else {
		seq_puts(m, " cause_kind=- cause_id=-1 cause_name=-");
	}
	seq_printf(m, " window_ns=%llu hardirq=%llu softirq=%llu nmi=%llu thread=%llu other=%llu",
		   o->window_ns, o->cat_ns[LH_XC_HARDIRQ],
		   o->cat_ns[LH_XC_SOFTIRQ], o->cat_ns[LH_XC_NMI],
		   o->cat_ns[LH_XC_THREAD], o->cat_ns[LH_XC_OTHER]);
	lh_o_print_task(m, "victim", &o->victim);
	lh_o_print_task(m, "culprit", &o->culprit);
	seq_putc(m, '\n');
	for (i = 0; i < o->nr_details; i++)
		lh_o_print_detail(m, &o->d[i]);
	if (o->more)
		seq_printf(m, "  more %u\n", o->more);
}

/*
 * lh_o_seq_start - position 0 is the header (the counters are copied
 * then), 1.. the records from base_seq on; a record dropped since is
 * skipped
 */
static void *lh_o_seq_start(struct seq_file *m, loff_t *pos)
{
	struct lh_o_reader *rd = m->private;
	struct lh_o_log *log;
	u64 seq;

	lh_o_lock_readers();
	log = lh_o_log(rd->id, rd->cpu);
	if (!*pos) {
		memset(&rd->head, 0, sizeof(rd->head));
		if (log)
			lh_o_log_get(log, &rd->head);
		rd->end_seq = rd->head.first_seq + rd->head.kept;
		rd->base_seq = max(rd->head.first_seq, rd->after_seq + 1);
		return SEQ_START_TOKEN;
	}
	if (!log)
		return NULL;
	for (seq = rd->base_seq + *pos - 1; seq < rd->end_seq;
	     seq++, ++*pos) {
		if (!lh_o_rec_get(log, seq, &rd->rec))
			return &rd->rec;
	}
	return NULL;
}

/* lh_o_seq_next - the next record */
static void *lh_o_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	lh_o_unlock_readers();
	return lh_o_seq_start(m, pos);
}

/* lh_o_seq_stop - let the logs be freed again */
static void lh_o_seq_stop(struct seq_file *m, void *v)
{
	lh_o_unlock_readers();
}

/* lh_o_seq_show - print the header or one record */
static int lh_o_seq_show(struct seq_file *m, void *v)
{
	struct lh_o_reader *rd = m->private;

	if (v != SEQ_START_TOKEN) {
		lh_o_print_rec(m, v);
		return 0;
	}
	seq_printf(m, "#outliers budget_us=%llu filed=%llu kept=%llu dropped=%llu unexplained=%llu",
		   lh_outlier_budget_us(rd->id), rd->head.filed,
		   rd->head.kept, rd->head.dropped, rd->head.unexplained);
	seq_printf(m, " first_seq=%llu next_seq=%llu realtime_offset_ns=%lld\n",
		   rd->head.first_seq, rd->end_seq,
		   ktime_to_ns(ktime_mono_to_real(0)));
	return 0;
}

static const struct seq_operations lh_o_seq_ops = {
	.start	= lh_o_seq_start,
	.next	= lh_o_seq_next,
	.stop	= lh_o_seq_stop,
	.show	= lh_o_seq_show,
};

/**
 * lh_outliers_open() - open an outliers-CPUx file
 * @file: the file
 * @id:   its histogram
 * @cpu:  its CPU
 *
 * Context: process context.
 * Return: 0 or a negative error.
 */
int lh_outliers_open(struct file *file, enum lh_hist_id id, int cpu)
{
	struct lh_o_reader *rd;

	rd = __seq_open_private(file, &lh_o_seq_ops, sizeof(*rd));
	if (!rd)
		return -ENOMEM;
	rd->id = id;
	rd->cpu = cpu;
	return 0;
}

/**
 * lh_outliers_write() - a sequence number: read only the records after it
 * @file:  the open file
 * @ubuf:  the number, in decimal, at most one trailing newline
 * @count: its length
 * @ppos:  not moved: the next read starts at offset 0
 *
 * Context: process context.
 * Return: @count, or -EINVAL (nothing changed) or -EFAULT.
 */
ssize_t lh_outliers_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	struct lh_o_reader *rd = m->private;
	char buf[LH_O_WRITE_MAX];
	u64 seq;

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (strlen(buf) != count || buf[0] < '0' || buf[0] > '9' ||
	    kstrtou64(buf, 10, &seq))
		return -EINVAL;
	mutex_lock(&m->lock);
	rd->after_seq = seq;
	mutex_unlock(&m->lock);
	return count;
}
