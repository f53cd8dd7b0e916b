// SPDX-License-Identifier: GPL-2.0
/*
 * odd_comm - a test module for MODULE=: a kthread whose name holds a byte
 * that is no ASCII (0xe9) and a control character (0x01) overflows its
 * stack by recursion. Every reader must still give valid JSON, and the
 * same JSON, for a comm like that: the kernel prints it as it is.
 */
#include <linux/err.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>

static noinline int odd_comm_dive(int depth)
{
	char buf[200];

	buf[depth % sizeof(buf)] = (char)depth;
	barrier_data(buf);
	if (depth > 1000000)	/* never: the stack ends long before */
		return 0;
	return odd_comm_dive(depth + 1) + buf[0];
}

static int odd_comm_fn(void *unused)
{
	pr_info("odd_comm: recursing in a kthread named with odd bytes\n");
	return odd_comm_dive(0);
}

static int __init odd_comm_init(void)
{
	struct task_struct *t = kthread_run(odd_comm_fn, NULL, "odd\351\001comm");

	return PTR_ERR_OR_ZERO(t);
}

static void __exit odd_comm_exit(void)
{
}

module_init(odd_comm_init);
module_exit(odd_comm_exit);
MODULE_DESCRIPTION("MODULE= test: a kthread with a non-ASCII, control-character name overflows");
MODULE_LICENSE("GPL");
