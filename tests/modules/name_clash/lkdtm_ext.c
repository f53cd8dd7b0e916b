// SPDX-License-Identifier: GPL-2.0
/*
 * A test module for MODULE= named as the lab's own module, lkdtm_ext,
 * which every guest loads: it could never load beside it.
 */
#include <linux/module.h>

static int __init clash_init(void)
{
	return 0;
}

module_init(clash_init);
MODULE_DESCRIPTION("MODULE= test: a module named as the lab's own");
MODULE_LICENSE("GPL");
