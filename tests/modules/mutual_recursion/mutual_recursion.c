// SPDX-License-Identifier: GPL-2.0
/*
 * mutual_recursion - a test module for MODULE=: an expression evaluator
 * whose three mutually recursive functions (expr -> term -> factor ->
 * expr) each keep a buffer of a different size. The input nests without
 * end, so loading it overflows the loading task's stack through a cycle
 * of three frames, not one frame repeated.
 */
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>

static noinline int mr_expr(int depth);

static noinline int mr_factor(int depth)
{
	char scratch[96];

	memset(scratch, depth, sizeof(scratch));
	barrier_data(scratch);
	return mr_expr(depth + 1) + scratch[depth % sizeof(scratch)];
}

static noinline int mr_term(int depth)
{
	char scratch[160];

	memset(scratch, depth, sizeof(scratch));
	barrier_data(scratch);
	return mr_factor(depth + 1) + scratch[depth % sizeof(scratch)];
}

/* "(((((...": every expression is a parenthesised one. */
static noinline int mr_expr(int depth)
{
	char scratch[64];

	memset(scratch, depth, sizeof(scratch));
	barrier_data(scratch);
	return mr_term(depth + 1) + scratch[depth % sizeof(scratch)];
}

static int __init mutual_recursion_init(void)
{
	pr_info("mutual_recursion: evaluating an expression that nests forever\n");
	return mr_expr(0) ? 0 : -EINVAL;
}

static void __exit mutual_recursion_exit(void)
{
}

module_init(mutual_recursion_init);
module_exit(mutual_recursion_exit);
MODULE_DESCRIPTION("MODULE= test: mutual recursion through three functions that overflows");
MODULE_LICENSE("GPL");
