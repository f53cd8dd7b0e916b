// SPDX-License-Identifier: GPL-2.0
/* syntax_error - a test module for MODULE= that does not compile. */
#include <linux/module.h>

static int __init syntax_error_init(void)
{
	return 0	/* the semicolon is missing on purpose */
}

module_init(syntax_error_init);
MODULE_LICENSE("GPL");
