// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - the /sys/kernel/debug/latency_hist/ tree of the PREEMPT_RT patch.
 *
 * The RT patch created tracing/latency_hist, which on every tracefs-era
 * kernel (4.1+) ended up at the debugfs root; a module cannot do otherwise,
 * because tracefs's file API is not exported and debugfs tracing/ is a
 * tracefs automount. So the tree lives at /sys/kernel/debug/latency_hist/.
 *
 * Files are root-only. Histogram files show a snapshot taken when the file is
 * opened, so one `cat` sees one consistent histogram however many read()
 * calls it takes, and recording never pauses for a reader. The rows file,
 * which lh reads instead of the CPUx files, prints every CPU from a snapshot
 * taken when that CPU is printed, and only its non-zero rows.
 *
 * What the tree holds is derived from the rows of include/latency_hist/types.h.
 * Every control file (the enable switches, pid, threshold, reset, counters/enable,
 * counters/events) shares one file_operations that hands the text to
 * lh_ctl_write(), which module parameters use too (control.c).
 *
 * A file's private data encodes which histogram, switch or control and
 * which CPU it belongs to; see lh_file_data().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <latency_hist/control.h>
#include <latency_hist/counters.h>
#include <latency_hist/debugfs.h>
#include <latency_hist/explain.h>
#include <latency_hist/hist_mem.h>
#include <latency_hist/outlier.h>
#include <latency_hist/task_views.h>

#define LH_MODE_RO	0400
#define LH_MODE_RW	0600
#define LH_MODE_WO	0200

static struct dentry *lh_debugfs_root;

/*
 * lh_file_data - encode a file's private data: (histogram, cpu) for the
 * histogram files, (control, switch or histogram) for the controls
 */
static void *lh_file_data(int id, int sub)
{
	return (void *)(((unsigned long)sub << 8) | id);
}

/* lh_data_id - the histogram or switch of a file's private data */
static int lh_data_id(const void *data)
{
	return (unsigned long)data & 0xff;
}

/* lh_data_sub - the CPU (histogram files) or control of a file's private data */
static int lh_data_sub(const void *data)
{
	return (unsigned long)data >> 8;
}

/* lh_file_id - the histogram or switch of an open file */
static int lh_file_id(const struct inode *inode)
{
	return lh_data_id(inode->i_private);
}

/* lh_file_cpu - the CPU of an open per-CPU file */
static int lh_file_cpu(const struct inode *inode)
{
	return lh_data_sub(inode->i_private);
}

/* lh_file_ctl - the control of an open control file */
static enum lh_ctl_id lh_file_ctl(const struct inode *inode)
{
	return lh_data_sub(inode->i_private);
}

/*
 * lh_copy_write_size - fetch a control write as a string into @buf of @size
 * bytes; reject what cannot be valid
 */
static int lh_copy_write_size(const char __user *ubuf, size_t count,
			      loff_t *ppos, char *buf, size_t size)
{
	if (*ppos || !count || count >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (strlen(buf) != count)
		return -EINVAL;		/* an embedded NUL hides trailing junk */
	return 0;
}

/* struct lh_cpu_file - what an open CPUx file shows */
struct lh_cpu_file {
	struct lh_hist_snapshot snap;
	struct lh_hist_stats stats;
};

/* lh_cpu_seq_start - position 0 is the header, 1..10240 the bucket rows */
static void *lh_cpu_seq_start(struct seq_file *m, loff_t *pos)
{
	struct lh_cpu_file *cf = m->private;

	if (!*pos)
		return SEQ_START_TOKEN;
	if (*pos <= LH_NR_BUCKETS)
		return &cf->snap.counts[*pos - 1];
	return NULL;
}

/* lh_cpu_seq_next - advance to the next row */
static void *lh_cpu_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return lh_cpu_seq_start(m, pos);
}

/* lh_cpu_seq_stop - nothing to release per read() */
static void lh_cpu_seq_stop(struct seq_file *m, void *v)
{
}

/* lh_cpu_seq_show - print the header or one row */
static int lh_cpu_seq_show(struct seq_file *m, void *v)
{
	struct lh_cpu_file *cf = m->private;
	const u64 *count = v;

	if (v == SEQ_START_TOKEN)
		lh_hist_print_header(m, &cf->stats, &cf->snap);
	else
		lh_hist_print_row(m, count - cf->snap.counts, *count);
	return 0;
}

static const struct seq_operations lh_cpu_seq_ops = {
	.start	= lh_cpu_seq_start,
	.next	= lh_cpu_seq_next,
	.stop	= lh_cpu_seq_stop,
	.show	= lh_cpu_seq_show,
};

/*
 * lh_seq_open_buf - seq_open() with @size bytes of private data for the
 * reader's snapshot (kvmalloc: a snapshot is 80 KiB); lh_seq_release_buf()
 * frees it
 */
static void *lh_seq_open_buf(struct file *file, const struct seq_operations *ops,
			     size_t size)
{
	void *buf;
	int ret;

	buf = kvmalloc(size, GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	ret = seq_open(file, ops);
	if (ret) {
		kvfree(buf);
		return ERR_PTR(ret);
	}
	((struct seq_file *)file->private_data)->private = buf;
	return buf;
}

/* lh_seq_release_buf - drop what lh_seq_open_buf() allocated */
static int lh_seq_release_buf(struct inode *inode, struct file *file)
{
	kvfree(((struct seq_file *)file->private_data)->private);
	return seq_release(inode, file);
}

/* lh_cpu_open - snapshot one CPU histogram for this reader */
static int lh_cpu_open(struct inode *inode, struct file *file)
{
	struct lh_cpu_file *cf;

	cf = lh_seq_open_buf(file, &lh_cpu_seq_ops, sizeof(*cf));
	if (IS_ERR(cf))
		return PTR_ERR(cf);
	lh_hist_snapshot(lh_hist_cpu(lh_file_id(inode), lh_file_cpu(inode)),
			 &cf->snap);
	lh_hist_stats(&cf->snap, &cf->stats);
	return 0;
}

static const struct file_operations lh_cpu_fops = {
	.owner		= THIS_MODULE,
	.open		= lh_cpu_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= lh_seq_release_buf,
};

/*
 * struct lh_rows_file - an open rows file: its histogram, and the copy of
 * the CPU being printed
 */
struct lh_rows_file {
	enum lh_hist_id id;
	struct lh_hist_snapshot snap;
};

/*
 * lh_rows_seq_start - position 0 is the header, then one position per
 * possible CPU: position p is the first possible CPU >= p - 1
 */
static void *lh_rows_seq_start(struct seq_file *m, loff_t *pos)
{
	unsigned int cpu;

	if (!*pos)
		return SEQ_START_TOKEN;
	if (*pos > nr_cpu_ids)
		return NULL;
	cpu = cpumask_next(*pos - 2, cpu_possible_mask);
	if (cpu >= nr_cpu_ids)
		return NULL;
	*pos = cpu + 1;
	return (void *)(unsigned long)(cpu + 2);	/* never SEQ_START_TOKEN */
}

/* lh_rows_seq_next - advance to the next possible CPU */
static void *lh_rows_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return lh_rows_seq_start(m, pos);
}

/*
 * lh_rows_seq_show - print the header, or one CPU from a snapshot taken now:
 * a CPU is one seq_file record, so a read() never splits it, and the copy
 * is taken again if seq_file retries the record in a larger buffer
 */
static int lh_rows_seq_show(struct seq_file *m, void *v)
{
	struct lh_rows_file *rf = m->private;
	int cpu = (unsigned long)v - 2;

	if (v == SEQ_START_TOKEN) {
		lh_hist_print_rows_header(m);
		return 0;
	}
	lh_hist_snapshot(lh_hist_cpu(rf->id, cpu), &rf->snap);
	lh_hist_print_rows(m, cpu, &rf->snap);
	return 0;
}

static const struct seq_operations lh_rows_seq_ops = {
	.start	= lh_rows_seq_start,
	.next	= lh_rows_seq_next,
	.stop	= lh_cpu_seq_stop,
	.show	= lh_rows_seq_show,
};

/* lh_rows_open - open a rows file with room for one CPU's snapshot */
static int lh_rows_open(struct inode *inode, struct file *file)
{
	struct lh_rows_file *rf;

	rf = lh_seq_open_buf(file, &lh_rows_seq_ops, sizeof(*rf));
	if (IS_ERR(rf))
		return PTR_ERR(rf);
	rf->id = lh_file_id(inode);
	return 0;
}

static const struct file_operations lh_rows_fops = {
	.owner		= THIS_MODULE,
	.open		= lh_rows_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= lh_seq_release_buf,
};

/* max_latency_show - print one max_latency-CPUx file */
static int max_latency_show(struct seq_file *m, void *v)
{
	struct lh_max_record rec;

	lh_hist_get_max(lh_hist_cpu(lh_data_id(m->private),
				    lh_data_sub(m->private)), &rec);
	lh_hist_print_max(m, &rec);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(max_latency);

/* explain_show - print one explain-CPUx file */
static int explain_show(struct seq_file *m, void *v)
{
	lh_explain_show(m, lh_data_id(m->private), lh_data_sub(m->private));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(explain);

/* outliers_open - open one outliers-CPUx file (outlier_print.c) */
static int outliers_open(struct inode *inode, struct file *file)
{
	return lh_outliers_open(file, lh_file_id(inode), lh_file_cpu(inode));
}

static const struct file_operations lh_outliers_fops = {
	.owner		= THIS_MODULE,
	.open		= outliers_open,
	.read		= seq_read,
	.write		= lh_outliers_write,
	.llseek		= seq_lseek,
	.release	= seq_release_private,
};

/* explain_status_show - print explain/status */
static int explain_status_show(struct seq_file *m, void *v)
{
	lh_explain_status_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(explain_status);

/* struct lh_summary_buf - a summary reader's copies: one CPU's, and the merge */
struct lh_summary_buf {
	struct lh_hist_snapshot cpu;
	struct lh_hist_snapshot all;
	struct lh_hist_summary sum;
};

/*
 * lh_summary_show - print a summary file: one line per possible CPU from one
 * snapshot each, then "all" from the merge of exactly those snapshots
 */
static int lh_summary_show(struct seq_file *m, void *v)
{
	enum lh_hist_id id = lh_data_id(m->private);
	struct lh_summary_buf *b;
	char label[16];
	int cpu;

	b = kvmalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	lh_hist_snapshot_clear(&b->all);
	lh_hist_print_summary_header(m);
	for_each_possible_cpu(cpu) {
		lh_hist_snapshot(lh_hist_cpu(id, cpu), &b->cpu);
		lh_hist_summarize(&b->cpu, &b->sum);
		snprintf(label, sizeof(label), "%d", cpu);
		lh_hist_print_summary(m, label, &b->sum);
		lh_hist_merge(&b->all, &b->cpu);
	}
	lh_hist_summarize(&b->all, &b->sum);
	lh_hist_print_summary(m, "all", &b->sum);
	kvfree(b);
	return 0;
}

/* lh_summary_open - open a summary file; computed whole at the first read */
static int lh_summary_open(struct inode *inode, struct file *file)
{
	return single_open_size(file, lh_summary_show, inode->i_private,
				(num_possible_cpus() + 2) * 128);
}

static const struct file_operations lh_summary_fops = {
	.owner		= THIS_MODULE,
	.open		= lh_summary_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* lh_ctl_file_read - read a control: its show into a page, then the slice asked for */
static ssize_t lh_ctl_file_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	const struct inode *inode = file_inode(file);
	char *buf;
	ssize_t ret;

	if (!lh_ctl_readable(lh_file_ctl(inode)))
		return -EINVAL;
	buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = lh_ctl_read(lh_file_ctl(inode), lh_file_id(inode), buf,
			  PAGE_SIZE, 0);
	if (ret >= 0)
		ret = simple_read_from_buffer(ubuf, count, ppos, buf, ret);
	kfree(buf);
	return ret;
}

/* lh_ctl_file_write - write a control: one write() at offset 0 is one request */
static ssize_t lh_ctl_file_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	const struct inode *inode = file_inode(file);
	size_t size = lh_ctl_write_max(lh_file_ctl(inode));
	char *buf;
	int ret;

	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = lh_copy_write_size(ubuf, count, ppos, buf, size);
	if (!ret)
		ret = lh_ctl_write(lh_file_ctl(inode), lh_file_id(inode), buf, 0);
	kfree(buf);
	return ret ? ret : count;
}

/* One file_operations for every control file: enable, pid, threshold, reset, counters. */
static const struct file_operations lh_ctl_fops = {
	.owner		= THIS_MODULE,
	.open		= simple_open,
	.read		= lh_ctl_file_read,
	.write		= lh_ctl_file_write,
	.llseek		= default_llseek,
};

/* status_show - print the status file */
static int status_show(struct seq_file *m, void *v)
{
	lh_status_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(status);

/* lines_show - print <type>/lines, as its switch's probe file keeps it */
static int lines_show(struct seq_file *m, void *v)
{
	enum lh_switch_id sw = lh_hist_types[lh_data_id(m->private)].sw;

	return lh_switches[sw].ops->lines_show(m);
}
DEFINE_SHOW_ATTRIBUTE(lines);

/* counters_show - print <type>/counters */
static int counters_show(struct seq_file *m, void *v)
{
	return lh_counters_show(m, lh_data_id(m->private));
}
DEFINE_SHOW_ATTRIBUTE(counters);

/* counters_status_show - print counters/status */
static int counters_status_show(struct seq_file *m, void *v)
{
	lh_counters_status_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(counters_status);

/* The first error of creating the tree, 0 if none. */
static int lh_debugfs_err;

/* lh_dir - debugfs_create_dir(), remembering the first error */
static struct dentry *lh_dir(const char *name, struct dentry *parent)
{
	struct dentry *d = debugfs_create_dir(name, parent);

	if (IS_ERR(d) && !lh_debugfs_err)
		lh_debugfs_err = PTR_ERR(d);
	return d;
}

/* lh_file - debugfs_create_file(), remembering the first error */
static void lh_file(const char *name, umode_t mode, struct dentry *parent,
		    void *data, const struct file_operations *fops)
{
	struct dentry *d = debugfs_create_file(name, mode, parent, data, fops);

	if (IS_ERR(d) && !lh_debugfs_err)
		lh_debugfs_err = PTR_ERR(d);
}

/* lh_ctl_file - a control file: (control, switch or histogram) */
static void lh_ctl_file(const char *name, umode_t mode, struct dentry *parent,
			enum lh_ctl_id ctl, int id)
{
	lh_file(name, mode, parent, lh_file_data(id, ctl), &lh_ctl_fops);
}

/* lh_create_hist_files - the files of one histogram, as its row says */
static void lh_create_hist_files(struct dentry *dir, enum lh_hist_id id)
{
	enum lh_switch_id sw = lh_hist_types[id].sw;
	char name[32];
	int cpu;

	for_each_possible_cpu(cpu) {
		snprintf(name, sizeof(name), "CPU%d", cpu);
		lh_file(name, LH_MODE_RO, dir, lh_file_data(id, cpu),
			&lh_cpu_fops);
	}
	if (lh_hist_has(id, LH_T_MAX)) {
		for_each_possible_cpu(cpu) {
			snprintf(name, sizeof(name), "max_latency-CPU%d", cpu);
			lh_file(name, LH_MODE_RO, dir, lh_file_data(id, cpu),
				&max_latency_fops);
		}
	}
	if (lh_hist_has(id, LH_T_EXPLAIN)) {
		for_each_possible_cpu(cpu) {
			snprintf(name, sizeof(name), "explain-CPU%d", cpu);
			lh_file(name, LH_MODE_RO, dir, lh_file_data(id, cpu),
				&explain_fops);
		}
	}
	lh_file("summary", LH_MODE_RO, dir, lh_file_data(id, 0),
		&lh_summary_fops);
	lh_file("rows", LH_MODE_RO, dir, lh_file_data(id, 0), &lh_rows_fops);
	lh_ctl_file("reset", LH_MODE_WO, dir, LH_CTL_RESET, id);
	lh_ctl_file("threshold", LH_MODE_RW, dir, LH_CTL_THRESHOLD, id);
	if (lh_hist_has(id, LH_T_OUTLIER)) {
		lh_ctl_file("outlier_us", LH_MODE_RW, dir, LH_CTL_OUTLIER, id);
		/*
		 * Read-only, so that it reads under lockdown as the other
		 * files do; root may still write a sequence number to it
		 * (outside lockdown, which refuses an open for writing).
		 */
		for_each_possible_cpu(cpu) {
			snprintf(name, sizeof(name), "outliers-CPU%d", cpu);
			lh_file(name, LH_MODE_RO, dir, lh_file_data(id, cpu),
				&lh_outliers_fops);
		}
	}
	if (lh_hist_types[id].window)
		lh_file("counters", LH_MODE_RO, dir, lh_file_data(id, 0),
			&counters_fops);
	if (lh_hist_holds_pid(id))
		lh_ctl_file("pid", LH_MODE_RW, dir, LH_CTL_PID, sw);
	if (lh_hist_has(id, LH_T_LINES))
		lh_file("lines", LH_MODE_RO, dir, lh_file_data(id, 0),
			&lines_fops);
	if (lh_hist_has(id, LH_T_VIEWS)) {
		int err = lh_task_views_files(dir, id);

		if (err && !lh_debugfs_err)
			lh_debugfs_err = err;
	}
}

/**
 * lh_debugfs_init() - create the latency_hist tree, whole or not at all
 *
 * Without debugfs (not built, disabled at boot: -ENODEV, -ENOENT) the module
 * loads without the tree and the module parameters control everything. A
 * tree that could not be made, or only in part (no memory), is removed again
 * and the error returned: a file that is silently missing would look like a
 * feature that is.
 *
 * Context: module init, after lh_control_init().
 * Return: 0, or the error of a file or directory that could not be made.
 */
int lh_debugfs_init(void)
{
	struct dentry *dirs[LH_NR_HISTS + 1];
	struct dentry *enable, *counters, *explain;
	int id, sw;

	lh_debugfs_err = 0;
	lh_debugfs_root = debugfs_create_dir("latency_hist", NULL);
	if (PTR_ERR_OR_ZERO(lh_debugfs_root) == -ENODEV ||
	    PTR_ERR_OR_ZERO(lh_debugfs_root) == -ENOENT) {
		/* Not built in, or debugfs=off or no-mount on the command line */
		pr_info("no debugfs: control through the module parameters only\n");
		lh_debugfs_root = NULL;
		return 0;
	}
	if (IS_ERR(lh_debugfs_root)) {
		lh_debugfs_err = PTR_ERR(lh_debugfs_root);
		lh_debugfs_root = NULL;
		return lh_debugfs_err;
	}

	enable = lh_dir("enable", lh_debugfs_root);
	for (sw = 0; sw < LH_NR_SWITCHES; sw++)
		lh_ctl_file(lh_switches[sw].name, LH_MODE_RW, enable,
			    LH_CTL_ENABLE, sw);

	/* Parents come first in the list (lh_types_check()). */
	dirs[LH_HIST_ROOT] = lh_debugfs_root;
	for (id = 0; id < LH_NR_HISTS; id++) {
		dirs[id] = lh_dir(kbasename(lh_hist_types[id].name),
				  dirs[lh_hist_types[id].parent]);
		lh_create_hist_files(dirs[id], id);
	}

	lh_file("status", LH_MODE_RO, lh_debugfs_root, NULL, &status_fops);

	counters = lh_dir("counters", lh_debugfs_root);
	lh_ctl_file("enable", LH_MODE_RW, counters, LH_CTL_COUNTERS, 0);
	lh_ctl_file("events", LH_MODE_RW, counters, LH_CTL_COUNTER_EVENTS, 0);
	lh_file("status", LH_MODE_RO, counters, NULL, &counters_status_fops);

	explain = lh_dir("explain", lh_debugfs_root);
	lh_ctl_file("enable", LH_MODE_RW, explain, LH_CTL_EXPLAIN, 0);
	lh_file("status", LH_MODE_RO, explain, NULL, &explain_status_fops);

	if (lh_debugfs_err) {
		debugfs_remove(lh_debugfs_root);
		lh_debugfs_root = NULL;
		return lh_debugfs_err;
	}
	return 0;
}

/**
 * lh_debugfs_exit() - remove the tree; waits for file operations in flight
 *
 * Context: module exit, before lh_control_exit().
 */
void lh_debugfs_exit(void)
{
	debugfs_remove(lh_debugfs_root);
	lh_debugfs_root = NULL;
}
