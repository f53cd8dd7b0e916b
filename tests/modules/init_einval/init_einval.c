// SPDX-License-Identifier: GPL-2.0
/* init_einval - a test module for MODULE= whose init fails with -EINVAL. */
#include <linux/module.h>

static int __init init_einval_init(void)
{
	pr_err("init_einval: refusing to load\n");
	return -EINVAL;
}

module_init(init_einval_init);
MODULE_LICENSE("GPL");
