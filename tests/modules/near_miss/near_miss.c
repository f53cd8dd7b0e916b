// SPDX-License-Identifier: GPL-2.0
/*
 * near_miss - a test module for MODULE=: a kthread dives to about 1 KiB
 * above its stack's end, says how near it came, and sleeps; then init
 * writes through a NULL pointer. The dump's crash is that oops, not an
 * overflow, and the readers must still name the near miss: the kthread,
 * near_miss_dive, and the bytes it said. Interrupts are off during the
 * dive, so that no interrupt frame lands below it: the deepest word
 * written is the one near_miss_left() measured.
 */
#include <linux/completion.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/irqflags.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>

#define NEAR_MISS_STOP	1216	/* no deeper once this close to the end */

static DECLARE_COMPLETION(dived);
static unsigned long deepest_left;
static int *target;

/* The bytes from this function's stack pointer down to the stack's end. */
static noinline unsigned long near_miss_left(void)
{
	return current_stack_pointer - (unsigned long)task_stack_page(current);
}

static noinline int near_miss_dive(int depth)
{
	unsigned long left = near_miss_left();
	char buf[128];

	if (left < NEAR_MISS_STOP) {
		deepest_left = left;
		return depth;
	}
	buf[depth % sizeof(buf)] = (char)depth;
	barrier_data(buf);
	return near_miss_dive(depth + 1) + buf[0];
}

static int near_miss_fn(void *unused)
{
	unsigned long flags;
	int depth;

	local_irq_save(flags);
	depth = near_miss_dive(0);
	local_irq_restore(flags);
	pr_info("near_miss: %d frames of near_miss_dive, the deepest %lu bytes above the stack's end\n",
		depth, deepest_left);
	complete(&dived);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static int __init near_miss_init(void)
{
	struct task_struct *t = kthread_run(near_miss_fn, NULL, "near_miss");

	if (IS_ERR(t))
		return PTR_ERR(t);
	wait_for_completion(&dived);
	pr_info("near_miss: writing through a NULL pointer\n");
	WRITE_ONCE(*target, 1);
	return 0;
}

module_init(near_miss_init);
MODULE_DESCRIPTION("MODULE= test: a near miss on one thread while another oopses");
MODULE_LICENSE("GPL");
