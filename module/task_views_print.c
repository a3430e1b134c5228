// SPDX-License-Identifier: GPL-2.0
/*
 * task_views_print.c - the files of the per-task and per-cgroup views
 * (task_views.c keeps them): <type>/views, their switch; <type>/tasks and
 * <type>/cgroups, in the format of irq/lines (line_stats.c prints the
 * fields), so lh reads all of them with one reader:
 *
 *	#tasks 256
 *	#tid name samples min mean p99 p99.9 max max_cpu culprit_pid culprit
 *	812 rt_sleeper 1000 3 11.52 40 52 61 1 0 swapper/1
 *	#other 0
 *
 * The first header line gives the table's size ("off" while the views are
 * off); a cgroups line's key is the cgroup v2 id and its name the path
 * from the cgroup2 root, looked up here, at read time ("?" when the cgroup
 * is gone or not visible from the reader's cgroup namespace). A blank or
 * control byte of a name prints as '?'.
 */
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <latency_hist/compat.h>
#include <latency_hist/line_stats.h>
#include <latency_hist/task_views.h>
#include <latency_hist/task_views_priv.h>

#define LH_TV_MODE_RO	0400
#define LH_TV_MODE_RW	0600

/* lh_tv_file_id - the histogram of a views file */
static enum lh_hist_id lh_tv_file_id(const void *data)
{
	return (unsigned long)data;
}

/*
 * lh_tv_copy - copy entry @i of @t into @copy under its lock; false if it
 * has no samples
 */
static bool lh_tv_copy(struct lh_tv_table *t, unsigned int i,
		       struct lh_tv_entry *copy)
{
	struct lh_tv_entry *e = &t->entries[i];
	unsigned long flags;

	if (!READ_ONCE(e->owner))
		return false;
	flags = lh_line_lock(&e->lock);
	*copy = *e;
	lh_line_unlock(&e->lock, flags);
	return copy->owner && copy->stats.nr_samples;
}

/*
 * lh_tv_header - the two header lines: "#<what> <entries>|off", then the
 * fields with @key_word first
 */
static void lh_tv_header(struct seq_file *m, const char *what,
			 const struct lh_tv_table *t, const char *key_word)
{
	char size[16] = "off";

	if (t)
		snprintf(size, sizeof(size), "%u", t->nr_entries);
	lh_lines_print_header(m, what, size, key_word);
}

/* lh_tv_other - the last line: "#other <n>" */
static void lh_tv_other(struct seq_file *m, struct lh_tv_table *t)
{
	seq_printf(m, "#other %lld\n", t ? atomic64_read(&t->other) : 0LL);
}

/* tasks_show - print <type>/tasks: one line per task with samples */
static int tasks_show(struct seq_file *m, void *unused)
{
	struct lh_tv_entry *copy = kmalloc(sizeof(*copy), GFP_KERNEL);
	char comm[TASK_COMM_LEN];
	struct lh_tv_table *t;
	unsigned int i;

	if (!copy)
		return -ENOMEM;
	mutex_lock(&lh_tv_mutex);
	t = lh_tv_views[lh_tv_file_id(m->private)] ?
	    &lh_tv_views[lh_tv_file_id(m->private)]->tasks : NULL;
	lh_tv_header(m, "tasks", t, "tid");
	for (i = 0; t && i < t->nr_entries; i++) {
		if (!lh_tv_copy(t, i, copy))
			continue;
		lh_line_safe_name(comm, copy->comm, sizeof(comm));
		seq_printf(m, "%d %s", copy->pid, comm[0] ? comm : "?");
		lh_line_stats_print_fields(m, &copy->stats);
	}
	lh_tv_other(m, t);
	mutex_unlock(&lh_tv_mutex);
	kfree(copy);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tasks);

/* cgroups_show - print <type>/cgroups: one line per cgroup with samples */
static int cgroups_show(struct seq_file *m, void *unused)
{
	struct lh_tv_entry *copy = kmalloc(sizeof(*copy), GFP_KERNEL);
	char *path = kmalloc(PATH_MAX, GFP_KERNEL);
	struct lh_tv_table *t;
	unsigned int i;
	int ret = 0;

	if (!copy || !path) {
		ret = -ENOMEM;
		goto out_free;
	}
	mutex_lock(&lh_tv_mutex);
	t = lh_tv_views[lh_tv_file_id(m->private)] ?
	    &lh_tv_views[lh_tv_file_id(m->private)]->cgroups : NULL;
	lh_tv_header(m, "cgroups", t, "cgroup");
	for (i = 0; t && i < t->nr_entries; i++) {
		if (!lh_tv_copy(t, i, copy))
			continue;
		if (lh_cgroup_path_of_id(copy->key, path, PATH_MAX) ||
		    !path[0])
			strscpy(path, "?", PATH_MAX);
		/* in place: the field is never longer than the path */
		lh_line_safe_name(path, path, PATH_MAX);
		seq_printf(m, "%llu %s", copy->key, path);
		lh_line_stats_print_fields(m, &copy->stats);
	}
	lh_tv_other(m, t);
	mutex_unlock(&lh_tv_mutex);
out_free:
	kfree(path);
	kfree(copy);
	return ret;
}
DEFINE_SHOW_ATTRIBUTE(cgroups);

/* lh_tv_views_read - <type>/views: 1 while on, 0 while off */
static ssize_t lh_tv_views_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	enum lh_hist_id id = lh_tv_file_id(file_inode(file)->i_private);
	char buf[3];

	mutex_lock(&lh_tv_mutex);
	snprintf(buf, sizeof(buf), "%d\n", !!lh_tv_views[id]);
	mutex_unlock(&lh_tv_mutex);
	return simple_read_from_buffer(ubuf, count, ppos, buf, 2);
}

/*
 * lh_tv_views_write - <type>/views: a boolean (1/0, y/n, on/off); anything
 * else is -EINVAL and changes nothing
 */
static ssize_t lh_tv_views_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	enum lh_hist_id id = lh_tv_file_id(file_inode(file)->i_private);
	bool on;
	int ret;

	if (*ppos)
		return -EINVAL;
	ret = kstrtobool_from_user(ubuf, count, &on);
	if (ret)
		return ret;
	ret = lh_tv_switch(id, on);
	return ret ? ret : count;
}

static const struct file_operations lh_tv_views_fops = {
	.owner		= THIS_MODULE,
	.open		= simple_open,
	.read		= lh_tv_views_read,
	.write		= lh_tv_views_write,
	.llseek		= default_llseek,
};

/**
 * lh_task_views_files() - the views, tasks and cgroups files of one type
 * @dir: its directory
 * @id:  a histogram with LH_T_VIEWS
 *
 * Context: process context, module init.
 * Return: 0, or the error of the first file that could not be made.
 */
int lh_task_views_files(struct dentry *dir, enum lh_hist_id id)
{
	void *data = (void *)(unsigned long)id;
	struct dentry *d;

	d = debugfs_create_file("views", LH_TV_MODE_RW, dir, data,
				&lh_tv_views_fops);
	if (IS_ERR(d))
		return PTR_ERR(d);
	d = debugfs_create_file("tasks", LH_TV_MODE_RO, dir, data,
				&tasks_fops);
	if (IS_ERR(d))
		return PTR_ERR(d);
	d = debugfs_create_file("cgroups", LH_TV_MODE_RO, dir, data,
				&cgroups_fops);
	return PTR_ERR_OR_ZERO(d);
}
