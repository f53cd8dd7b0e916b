// SPDX-License-Identifier: GPL-2.0
/*
 * Overflow by recursion, in each execution context that has a stack of its
 * own to overflow: the writer's task, a kthread, a kworker, hardirq (the
 * per-CPU IRQ stack), softirq, and task context with a spinlock held. With
 * CONFIG_VMAP_STACK the access below the stack hits a guard page.
 */
#include "lkdtm_ext.h"

#include <linux/compiler.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

/* Big enough that each level costs real stack, small enough for FRAME_WARN. */
#define RECURSE_FRAME_BYTES 256

/* Never reached by the fatal scenarios; a base case the compiler must honour. */
static unsigned long recurse_limit = ULONG_MAX;

/*
 * One recursive function per context, so that a call trace names the
 * scenario. The array is filled before the recursive call and read after
 * it, and barrier_data() makes the compiler assume both matter: every level
 * keeps a frame of its own, and the call can be neither folded into a loop
 * nor turned into a tail call.
 */
#define DEFINE_RECURSER(ctx)						\
static noinline __noclone int recurse_##ctx##_frame(unsigned long depth) \
{									\
	char buf[RECURSE_FRAME_BYTES];					\
	int ret;							\
									\
	memset(buf, depth & 0xff, sizeof(buf));				\
	barrier_data(buf);						\
	if (depth >= READ_ONCE(recurse_limit))				\
		return buf[0];						\
	ret = recurse_##ctx##_frame(depth + 1);				\
	barrier_data(buf);						\
	return ret + buf[depth % sizeof(buf)];				\
}

DEFINE_RECURSER(task)
DEFINE_RECURSER(kthread)
DEFINE_RECURSER(work)
DEFINE_RECURSER(hardirq)
DEFINE_RECURSER(softirq)
DEFINE_RECURSER(locked)

static void say_where(const char *ctx)
{
	pr_info("recursing in %s: comm %s pid %d cpu %d, task stack %p, preempt_count %#x\n",
		ctx, current->comm, task_pid_nr(current), raw_smp_processor_id(),
		task_stack_page(current), preempt_count());
}

static void lkdtm_ext_RECURSE_TASK(void)
{
	say_where("task context");
	recurse_task_frame(0);
	pr_err("FAIL: recursion returned; the stack did not overflow\n");
}

static int recurse_kthread_fn(void *unused)
{
	say_where("a kthread");
	recurse_kthread_frame(0);
	pr_err("FAIL: kthread recursion returned\n");
	return 0;
}

static void lkdtm_ext_RECURSE_KTHREAD(void)
{
	struct task_struct *t;

	t = kthread_run(recurse_kthread_fn, NULL, "lkdtm_recurse");
	if (IS_ERR(t)) {
		pr_err("FAIL: kthread_run: %ld\n", PTR_ERR(t));
		return;
	}
	lkdtm_ext_wait_for_crash("RECURSE_KTHREAD");
}

static void recurse_work_fn(struct work_struct *work)
{
	say_where("a work item");
	recurse_work_frame(0);
	pr_err("FAIL: work item recursion returned\n");
}
static DECLARE_WORK(recurse_work, recurse_work_fn);

static void lkdtm_ext_RECURSE_WORKQUEUE(void)
{
	schedule_work(&recurse_work);
	lkdtm_ext_wait_for_crash("RECURSE_WORKQUEUE");
}

static void recurse_irq_work_fn(struct irq_work *work)
{
	pr_info("recursing in hardirq: cpu %d, in_hardirq %d\n",
		raw_smp_processor_id(), !!in_hardirq());
	recurse_hardirq_frame(0);
	pr_err("FAIL: hardirq recursion returned\n");
}
static DEFINE_IRQ_WORK(recurse_irq_work, recurse_irq_work_fn);

static void lkdtm_ext_RECURSE_HARDIRQ(void)
{
	/* irq_work runs from a self-IPI: hardirq, on the per-CPU IRQ stack. */
	irq_work_queue(&recurse_irq_work);
	lkdtm_ext_wait_for_crash("RECURSE_HARDIRQ");
}

static void recurse_timer_fn(struct timer_list *t)
{
	pr_info("recursing in softirq: comm %s cpu %d, in_serving_softirq %d\n",
		current->comm, raw_smp_processor_id(), !!in_serving_softirq());
	recurse_softirq_frame(0);
	pr_err("FAIL: softirq recursion returned\n");
}
static DEFINE_TIMER(recurse_timer, recurse_timer_fn);

static void lkdtm_ext_RECURSE_SOFTIRQ(void)
{
	/* A timer runs in the TIMER softirq, on whichever stack that uses. */
	mod_timer(&recurse_timer, jiffies + 1);
	lkdtm_ext_wait_for_crash("RECURSE_SOFTIRQ");
}

static DEFINE_SPINLOCK(recurse_lock);

static void lkdtm_ext_RECURSE_LOCKED(void)
{
	spin_lock(&recurse_lock);
	say_where("task context with recurse_lock held");
	recurse_locked_frame(0);
	spin_unlock(&recurse_lock);
	pr_err("FAIL: recursion returned; the stack did not overflow\n");
}

static struct crashtype crashtypes[] = {
	CRASHTYPE(RECURSE_TASK, "unbounded recursion in the writer's own task context"),
	CRASHTYPE(RECURSE_KTHREAD, "unbounded recursion in a kthread (comm lkdtm_recurse)"),
	CRASHTYPE(RECURSE_WORKQUEUE, "unbounded recursion in a work item, on a kworker"),
	CRASHTYPE(RECURSE_HARDIRQ, "unbounded recursion in hardirq (irq_work), on the IRQ stack"),
	CRASHTYPE(RECURSE_SOFTIRQ, "unbounded recursion in softirq (a timer)"),
	CRASHTYPE(RECURSE_LOCKED, "unbounded recursion with a spinlock held, preemption off"),
};

/*
 * A scenario that was queued but has not run yet must not run after the
 * module text is gone: cancel the timer, the work item and the irq_work.
 */
static void recurse_exit(void)
{
	del_timer_sync(&recurse_timer);
	cancel_work_sync(&recurse_work);
	irq_work_sync(&recurse_irq_work);
}

CRASHTYPE_CATEGORY_EXIT(recurse, crashtypes, recurse_exit);
