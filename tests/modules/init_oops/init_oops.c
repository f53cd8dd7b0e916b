// SPDX-License-Identifier: GPL-2.0
/*
 * init_oops - a test module for MODULE=: its init writes through a NULL
 * pointer. An oops, a panic (oops=panic) and a dump, but no stack
 * overflow: the readers must say so, as a verdict.
 */
#include <linux/module.h>

static int *target;

static int __init init_oops_init(void)
{
	pr_info("init_oops: writing through a NULL pointer\n");
	WRITE_ONCE(*target, 1);
	return 0;
}

module_init(init_oops_init);
MODULE_DESCRIPTION("MODULE= test: an oops in init, no overflow");
MODULE_LICENSE("GPL");
