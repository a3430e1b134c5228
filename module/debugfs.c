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
 * calls it takes, and recording never pauses for a reader.
 *
 * The file's private data encodes which histogram (or switch) and which CPU
 * it belongs to; see lh_file_data().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <latency_hist/control.h>
#include <latency_hist/counters.h>
#include <latency_hist/debugfs.h>

#define LH_MODE_RO	0400
#define LH_MODE_RW	0600
#define LH_MODE_WO	0200
#define LH_EVENTS_WRITE_MAX	512	/* bytes of an event set write */

static struct dentry *lh_debugfs_root;

/* lh_file_data - encode (histogram or switch id, cpu) as a file's private data */
static void *lh_file_data(int id, int cpu)
{
	return (void *)(((unsigned long)cpu << 8) | id);
}

/* lh_file_id - the histogram or switch id of an open file */
static int lh_file_id(const struct inode *inode)
{
	return (unsigned long)inode->i_private & 0xff;
}

/* lh_file_cpu - the CPU of an open per-CPU file */
static int lh_file_cpu(const struct inode *inode)
{
	return (unsigned long)inode->i_private >> 8;
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

/* lh_copy_write - lh_copy_write_size() for the short controls */
static int lh_copy_write(const char __user *ubuf, size_t count, loff_t *ppos,
			 char buf[LH_WRITE_MAX])
{
	return lh_copy_write_size(ubuf, count, ppos, buf, LH_WRITE_MAX);
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

/* lh_cpu_open - snapshot one CPU histogram for this reader */
static int lh_cpu_open(struct inode *inode, struct file *file)
{
	struct lh_cpu_file *cf;
	int ret;

	cf = kvmalloc(sizeof(*cf), GFP_KERNEL);
	if (!cf)
		return -ENOMEM;

	lh_hist_snapshot(lh_hist_cpu(lh_file_id(inode), lh_file_cpu(inode)),
			 &cf->snap);
	lh_hist_stats(&cf->snap, &cf->stats);

	ret = seq_open(file, &lh_cpu_seq_ops);
	if (ret) {
		kvfree(cf);
		return ret;
	}
	((struct seq_file *)file->private_data)->private = cf;
	return 0;
}

/* lh_cpu_release - drop the reader's snapshot */
static int lh_cpu_release(struct inode *inode, struct file *file)
{
	kvfree(((struct seq_file *)file->private_data)->private);
	return seq_release(inode, file);
}

static const struct file_operations lh_cpu_fops = {
	.owner		= THIS_MODULE,
	.open		= lh_cpu_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= lh_cpu_release,
};

/* lh_max_show - print one max_latency-CPUx file */
static int lh_max_show(struct seq_file *m, void *v)
{
	const struct inode *inode = m->private;
	struct lh_max_record rec;

	lh_hist_get_max(lh_hist_cpu(lh_file_id(inode), lh_file_cpu(inode)),
			&rec);
	lh_hist_print_max(m, &rec);
	return 0;
}

/* lh_max_open - open a max_latency-CPUx file */
static int lh_max_open(struct inode *inode, struct file *file)
{
	return single_open(file, lh_max_show, inode);
}

static const struct file_operations lh_max_fops = {
	.owner		= THIS_MODULE,
	.open		= lh_max_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

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
	enum lh_hist_id id = lh_file_id(m->private);
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
	return single_open_size(file, lh_summary_show, inode,
				(num_possible_cpus() + 2) * 128);
}

static const struct file_operations lh_summary_fops = {
	.owner		= THIS_MODULE,
	.open		= lh_summary_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* lh_enable_read - read enable/<switch>: 0 or 1 */
static ssize_t lh_enable_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[4];
	int len;

	len = scnprintf(buf, sizeof(buf), "%d\n",
			lh_switch_enabled(lh_file_id(file_inode(file))));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/* lh_enable_write_file - write enable/<switch> */
static ssize_t lh_enable_write_file(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	char buf[LH_WRITE_MAX];
	int ret;

	ret = lh_copy_write(ubuf, count, ppos, buf);
	if (!ret)
		ret = lh_enable_write(lh_file_id(file_inode(file)), buf);
	return ret ? ret : count;
}

static const struct file_operations lh_enable_fops = {
	.owner		= THIS_MODULE,
	.open		= simple_open,
	.read		= lh_enable_read,
	.write		= lh_enable_write_file,
	.llseek		= default_llseek,
};

/* lh_pid_read - read <switch>/pid */
static ssize_t lh_pid_read(struct file *file, char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	char buf[16];
	int len;

	len = scnprintf(buf, sizeof(buf), "%d\n",
			lh_pid(lh_file_id(file_inode(file))));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/* lh_pid_write_file - write <switch>/pid */
static ssize_t lh_pid_write_file(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char buf[LH_WRITE_MAX];
	int ret;

	ret = lh_copy_write(ubuf, count, ppos, buf);
	if (!ret)
		ret = lh_pid_write(lh_file_id(file_inode(file)), buf);
	return ret ? ret : count;
}

static const struct file_operations lh_pid_fops = {
	.owner		= THIS_MODULE,
	.open		= simple_open,
	.read		= lh_pid_read,
	.write		= lh_pid_write_file,
	.llseek		= default_llseek,
};

/* lh_threshold_read - read <type>/threshold: microseconds, 0 = off */
static ssize_t lh_threshold_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char buf[24];
	int len;

	len = scnprintf(buf, sizeof(buf), "%llu\n",
			lh_threshold_us(lh_file_id(file_inode(file))));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/* lh_threshold_write_file - write <type>/threshold */
static ssize_t lh_threshold_write_file(struct file *file,
				       const char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	char buf[LH_WRITE_MAX];
	int ret;

	ret = lh_copy_write(ubuf, count, ppos, buf);
	if (!ret)
		ret = lh_threshold_write(lh_file_id(file_inode(file)), buf);
	return ret ? ret : count;
}

static const struct file_operations lh_threshold_fops = {
	.owner		= THIS_MODULE,
	.open		= simple_open,
	.read		= lh_threshold_read,
	.write		= lh_threshold_write_file,
	.llseek		= default_llseek,
};

/* lh_reset_write_file - write <type>/reset; the file cannot be read */
static ssize_t lh_reset_write_file(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	char buf[LH_WRITE_MAX];
	int ret;

	ret = lh_copy_write(ubuf, count, ppos, buf);
	if (!ret)
		ret = lh_reset_write(lh_file_id(file_inode(file)), buf);
	return ret ? ret : count;
}

static const struct file_operations lh_reset_fops = {
	.owner		= THIS_MODULE,
	.open		= simple_open,
	.write		= lh_reset_write_file,
	.llseek		= default_llseek,
};

/* lh_status_file_show - print the status file */
static int lh_status_file_show(struct seq_file *m, void *v)
{
	lh_status_show(m);
	return 0;
}

/* lh_status_open - open the status file */
static int lh_status_open(struct inode *inode, struct file *file)
{
	return single_open(file, lh_status_file_show, NULL);
}

static const struct file_operations lh_status_fops = {
	.owner		= THIS_MODULE,
	.open		= lh_status_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* lh_counters_file_show - print <type>/counters */
static int lh_counters_file_show(struct seq_file *m, void *v)
{
	return lh_counters_show(m, lh_file_id(m->private));
}

/* lh_counters_file_open - open <type>/counters */
static int lh_counters_file_open(struct inode *inode, struct file *file)
{
	return single_open(file, lh_counters_file_show, inode);
}

static const struct file_operations lh_counters_fops = {
	.owner		= THIS_MODULE,
	.open		= lh_counters_file_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* lh_counting_read - read counters/enable: 0 or 1 */
static ssize_t lh_counting_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char buf[4];
	int len;

	len = scnprintf(buf, sizeof(buf), "%d\n", lh_counters_enabled());
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/* lh_counting_write - write counters/enable */
static ssize_t lh_counting_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char buf[LH_WRITE_MAX];
	int ret;

	ret = lh_copy_write(ubuf, count, ppos, buf);
	if (!ret)
		ret = lh_counters_enable_write(buf);
	return ret ? ret : count;
}

static const struct file_operations lh_counting_fops = {
	.owner		= THIS_MODULE,
	.open		= simple_open,
	.read		= lh_counting_read,
	.write		= lh_counting_write,
	.llseek		= default_llseek,
};

/* lh_events_show - print counters/events */
static int lh_events_show(struct seq_file *m, void *v)
{
	lh_counters_events_show(m);
	return 0;
}

/* lh_events_open - open counters/events; a write replaces the set */
static int lh_events_open(struct inode *inode, struct file *file)
{
	return single_open(file, lh_events_show, NULL);
}

/* lh_events_write - write counters/events: the new event set */
static ssize_t lh_events_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char *buf;
	int ret;

	buf = kmalloc(LH_EVENTS_WRITE_MAX, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = lh_copy_write_size(ubuf, count, ppos, buf, LH_EVENTS_WRITE_MAX);
	if (!ret)
		ret = lh_counters_events_write(buf);
	kfree(buf);
	return ret ? ret : count;
}

static const struct file_operations lh_events_fops = {
	.owner		= THIS_MODULE,
	.open		= lh_events_open,
	.read		= seq_read,
	.write		= lh_events_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* lh_counters_status_file_show - print counters/status */
static int lh_counters_status_file_show(struct seq_file *m, void *v)
{
	lh_counters_status_show(m);
	return 0;
}

/* lh_counters_status_open - open counters/status */
static int lh_counters_status_open(struct inode *inode, struct file *file)
{
	return single_open(file, lh_counters_status_file_show, NULL);
}

static const struct file_operations lh_counters_status_fops = {
	.owner		= THIS_MODULE,
	.open		= lh_counters_status_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

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

/* lh_create_hist_files - CPUx, max_latency-CPUx, summary, reset, threshold of one histogram */
static void lh_create_hist_files(struct dentry *dir, enum lh_hist_id id)
{
	char name[32];
	int cpu;

	for_each_possible_cpu(cpu) {
		snprintf(name, sizeof(name), "CPU%d", cpu);
		lh_file(name, LH_MODE_RO, dir, lh_file_data(id, cpu),
			&lh_cpu_fops);
	}
	if (lh_hist_types[id].has_max_record) {
		for_each_possible_cpu(cpu) {
			snprintf(name, sizeof(name), "max_latency-CPU%d", cpu);
			lh_file(name, LH_MODE_RO, dir, lh_file_data(id, cpu),
				&lh_max_fops);
		}
	}
	lh_file("summary", LH_MODE_RO, dir, lh_file_data(id, 0),
		&lh_summary_fops);
	lh_file("reset", LH_MODE_WO, dir, lh_file_data(id, 0), &lh_reset_fops);
	lh_file("threshold", LH_MODE_RW, dir, lh_file_data(id, 0),
		&lh_threshold_fops);
	if (lh_counters_cover(id))
		lh_file("counters", LH_MODE_RO, dir, lh_file_data(id, 0),
			&lh_counters_fops);
}

/* lh_hist_parent - the directory a histogram's own directory goes into */
static struct dentry *lh_hist_parent(enum lh_hist_id id, struct dentry **dirs,
				     const char **leaf)
{
	const char *name = lh_hist_types[id].name;
	const char *slash = strchr(name, '/');
	int parent;

	*leaf = slash ? slash + 1 : name;
	if (!slash)
		return lh_debugfs_root;
	for (parent = 0; parent < id; parent++) {
		if (!strncmp(lh_hist_types[parent].name, name, slash - name) &&
		    !lh_hist_types[parent].name[slash - name])
			return dirs[parent];
	}
	return lh_debugfs_root;
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
	struct dentry *dirs[LH_NR_HISTS];
	struct dentry *enable, *counters;
	const char *leaf;
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
		lh_file(lh_switches[sw].name, LH_MODE_RW, enable,
			lh_file_data(sw, 0), &lh_enable_fops);

	for (id = 0; id < LH_NR_HISTS; id++) {
		struct dentry *parent = lh_hist_parent(id, dirs, &leaf);
		enum lh_switch_id sw = lh_hist_types[id].sw;

		dirs[id] = lh_dir(leaf, parent);
		lh_create_hist_files(dirs[id], id);
		if (lh_switches[sw].has_pid &&
		    !strcmp(lh_switches[sw].name, lh_hist_types[id].name))
			lh_file("pid", LH_MODE_RW, dirs[id],
				lh_file_data(sw, 0), &lh_pid_fops);
	}

	lh_file("status", LH_MODE_RO, lh_debugfs_root, NULL, &lh_status_fops);

	counters = lh_dir("counters", lh_debugfs_root);
	lh_file("enable", LH_MODE_RW, counters, NULL, &lh_counting_fops);
	lh_file("events", LH_MODE_RW, counters, NULL, &lh_events_fops);
	lh_file("status", LH_MODE_RO, counters, NULL, &lh_counters_status_fops);

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
