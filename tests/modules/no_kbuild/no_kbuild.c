// SPDX-License-Identifier: GPL-2.0
/* no_kbuild - a module source with no Kbuild or Makefile beside it. */
#include <linux/module.h>

MODULE_LICENSE("GPL");
