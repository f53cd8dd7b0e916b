// SPDX-License-Identifier: GPL-2.0
/*
 * late_overflow - a test module for MODULE=: it loads cleanly, then
 * overflows a kworker's stack delay_s seconds later (default 30), by a
 * recursion with a buffer per level. With MODULE_WAIT shorter than that,
 * the guest powers off first: nothing happened in the wait.
 */
#include <linux/module.h>
#include <linux/string.h>
#include <linux/workqueue.h>

static unsigned int delay_s = 30;
module_param(delay_s, uint, 0);

static noinline int late_overflow_level(int level)
{
	char buf[256];

	if (level < 0)
		return 0;
	memset(buf, level, sizeof(buf));
	return late_overflow_level(level + 1) + buf[level & 0xff];
}

static void late_overflow_fn(struct work_struct *work)
{
	pr_info("late_overflow: recursing now\n");
	late_overflow_level(0);
}

static DECLARE_DELAYED_WORK(late_overflow_work, late_overflow_fn);

static int __init late_overflow_init(void)
{
	pr_info("late_overflow: overflowing in %u s\n", delay_s);
	schedule_delayed_work(&late_overflow_work, delay_s * HZ);
	return 0;
}

static void __exit late_overflow_exit(void)
{
	cancel_delayed_work_sync(&late_overflow_work);
}

module_init(late_overflow_init);
module_exit(late_overflow_exit);
MODULE_DESCRIPTION("MODULE= test: an overflow that comes late");
MODULE_LICENSE("GPL");
