// SPDX-License-Identifier: GPL-2.0
/*
 * lkdtm-ext: stack-overflow scenarios for stackov-lab, in the manner of
 * drivers/misc/lkdtm. This file only dispatches: it finds a name in the
 * family tables and calls the scenario, from a debugfs write or from the
 * trigger= module parameter.
 *
 *   echo RECURSE_TASK > /sys/kernel/debug/lkdtm_ext/trigger
 *   cat /sys/kernel/debug/lkdtm_ext/list
 */
#include "lkdtm_ext.h"

#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/uaccess.h>

#define NAME_MAX_LEN 64

static struct crashtype_category *categories[] = {
	&recurse_crashtypes,
	&frame_crashtypes,
	&corrupt_crashtypes,
	&misuse_crashtypes,
	&lifecycle_crashtypes,
};

#define CRASH_WAIT_MS 10000

void lkdtm_ext_wait_for_crash(const char *name)
{
	msleep(CRASH_WAIT_MS);
	pr_err("FAIL: %s: the kernel is still running %d s later; nothing caught the overflow\n",
	       name, CRASH_WAIT_MS / 1000);
}

static int bounded_int_set(const char *val, const struct kernel_param *kp)
{
	struct bounded_int *b = kp->arg;
	int v, ret;

	ret = kstrtoint(val, 0, &v);
	if (ret) {
		pr_err("%s=%s is not a number\n", kp->name, val);
		return ret;
	}
	if (v < b->min || v > b->max) {
		pr_err("%s=%d is out of range (%d..%d)\n", kp->name, v, b->min, b->max);
		return -EINVAL;
	}
	if (b->step && (v - b->min) % b->step) {
		pr_err("%s=%d is not %d plus a multiple of %d\n", kp->name, v, b->min, b->step);
		return -EINVAL;
	}
	b->val = v;
	return 0;
}

static int bounded_int_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", ((struct bounded_int *)kp->arg)->val);
}

const struct kernel_param_ops bounded_int_ops = {
	.set = bounded_int_set,
	.get = bounded_int_get,
};

static char *trigger;
module_param(trigger, charp, 0444);
MODULE_PARM_DESC(trigger, "Scenario to run at load time (see the list file)");

static struct dentry *lkdtm_ext_dir;

static const struct crashtype *find_crashtype(const char *name)
{
	int i, j;

	for (i = 0; i < ARRAY_SIZE(categories); i++)
		for (j = 0; j < categories[i]->len; j++)
			if (!strcmp(name, categories[i]->crashtypes[j].name))
				return &categories[i]->crashtypes[j];
	return NULL;
}

static void log_valid_names(const char *bad)
{
	int i, j;

	pr_err("unknown scenario '%s'; valid names:\n", bad);
	for (i = 0; i < ARRAY_SIZE(categories); i++)
		for (j = 0; j < categories[i]->len; j++)
			pr_err("  %s\n", categories[i]->crashtypes[j].name);
}

static int run_crashtype(const char *name)
{
	const struct crashtype *ct = find_crashtype(name);

	if (!ct) {
		log_valid_names(name);
		return -EINVAL;
	}
	pr_info("Performing %s (pid %d, comm %s)\n", ct->name,
		task_pid_nr(current), current->comm);
	ct->func();
	return 0;
}

static ssize_t trigger_write(struct file *f, const char __user *ubuf,
			     size_t count, loff_t *off)
{
	char buf[NAME_MAX_LEN];
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (count == 0 || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	ret = run_crashtype(strim(buf));
	if (ret)
		return ret;
	*off += count;
	return count;
}

static const struct file_operations trigger_fops = {
	.owner = THIS_MODULE,
	.write = trigger_write,
};

static int list_show(struct seq_file *m, void *v)
{
	int i, j;

	for (i = 0; i < ARRAY_SIZE(categories); i++)
		for (j = 0; j < categories[i]->len; j++)
			seq_printf(m, "%-20s %s\n",
				   categories[i]->crashtypes[j].name,
				   categories[i]->crashtypes[j].desc);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(list);

static int __init lkdtm_ext_init(void)
{
	if (trigger && !find_crashtype(trigger)) {
		log_valid_names(trigger);
		return -EINVAL;
	}

	lkdtm_ext_dir = debugfs_create_dir("lkdtm_ext", NULL);
	debugfs_create_file("trigger", 0200, lkdtm_ext_dir, NULL, &trigger_fops);
	debugfs_create_file("list", 0444, lkdtm_ext_dir, NULL, &list_fops);
	pr_info("ready: write a scenario name to /sys/kernel/debug/lkdtm_ext/trigger\n");

	if (trigger)
		run_crashtype(trigger);
	return 0;
}

static void __exit lkdtm_ext_exit(void)
{
	int i;

	debugfs_remove_recursive(lkdtm_ext_dir);
	for (i = 0; i < ARRAY_SIZE(categories); i++)
		if (categories[i]->exit)
			categories[i]->exit();
}

module_init(lkdtm_ext_init);
module_exit(lkdtm_ext_exit);

MODULE_DESCRIPTION("Stack overflow scenarios for stackov-lab");
MODULE_LICENSE("GPL");
