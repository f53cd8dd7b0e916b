// SPDX-License-Identifier: GPL-2.0
/*
 * init_hang - a test module for MODULE=: its init sleeps forever, so
 * insmod never returns and nothing crashes.
 */
#include <linux/delay.h>
#include <linux/module.h>

static int __init init_hang_init(void)
{
	pr_info("init_hang: waiting for an event that never comes\n");
	for (;;)
		msleep_interruptible(1000);
	return 0;
}

module_init(init_hang_init);
MODULE_DESCRIPTION("MODULE= test: an init that never returns");
MODULE_LICENSE("GPL");
