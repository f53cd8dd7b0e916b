// SPDX-License-Identifier: GPL-2.0
/*
 * Overflow by recursion. Each scenario recurses without bound in one
 * execution context until the stack runs out; with CONFIG_VMAP_STACK the
 * access below the stack hits its guard page.
 */
#include "lkdtm_ext.h"

#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>

/* Big enough that each level costs real stack, small enough for FRAME_WARN. */
#define RECURSE_FRAME_BYTES 256

/* Never reached by the fatal scenarios; a base case the compiler must honour. */
static unsigned long recurse_limit = ULONG_MAX;

/*
 * The array is filled before the recursive call and read after it, and
 * barrier_data() makes the compiler assume both matter: every level keeps a
 * frame of its own, and the call can be neither folded into a loop nor
 * turned into a tail call.
 */
static noinline __noclone int recurse_task_frame(unsigned long depth)
{
	char buf[RECURSE_FRAME_BYTES];
	int ret;

	memset(buf, depth & 0xff, sizeof(buf));
	barrier_data(buf);
	if (depth >= READ_ONCE(recurse_limit))
		return buf[0];
	ret = recurse_task_frame(depth + 1);
	barrier_data(buf);
	return ret + buf[depth % sizeof(buf)];
}

static void lkdtm_ext_RECURSE_TASK(void)
{
	pr_info("recursing in task context: comm %s pid %d, stack %p\n",
		current->comm, task_pid_nr(current), task_stack_page(current));
	recurse_task_frame(0);
	pr_err("FAIL: recursion returned; the stack did not overflow\n");
}

static struct crashtype crashtypes[] = {
	CRASHTYPE(RECURSE_TASK, "unbounded recursion in the writer's own task context"),
};

CRASHTYPE_CATEGORY(recurse, crashtypes);
