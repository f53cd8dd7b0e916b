// SPDX-License-Identifier: GPL-2.0
/*
 * deep_parse - a test module for MODULE=: a "driver" whose descriptor
 * parser recurses once per nested node, with a buffer per level. Its
 * table has a cycle, so loading it overflows the loading task's stack.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>

struct node {
	const char *name;
	const struct node *child;
};

/* The last node points back at the first: the descriptor is corrupt. */
static const struct node table[];
static const struct node table[] = {
	{ "root", &table[1] },
	{ "bus", &table[2] },
	{ "dev", &table[0] },
};

static noinline int deep_parse_node(const struct node *n, int level)
{
	char path[512];
	int ret;

	snprintf(path, sizeof(path), "%d/%s", level, n->name);
	if (!n->child)
		return strlen(path);
	ret = deep_parse_node(n->child, level + 1);
	return ret + path[0];
}

static int __init deep_parse_init(void)
{
	pr_info("deep_parse: parsing the descriptor table\n");
	return deep_parse_node(&table[0], 0) > 0 ? 0 : -EINVAL;
}

static void __exit deep_parse_exit(void)
{
}

module_init(deep_parse_init);
module_exit(deep_parse_exit);
MODULE_DESCRIPTION("MODULE= test: a recursive descriptor parser that overflows");
MODULE_LICENSE("GPL");
