// SPDX-License-Identifier: GPL-2.0
/*
 * Stack corruption without an overflow: an on-stack array overrun that the
 * stack protector must catch on return, and an overwritten STACK_END_MAGIC
 * that CONFIG_SCHED_STACK_END_CHECK must catch at the next schedule().
 */
#include "lkdtm_ext.h"

#include <linux/compiler.h>
#include <linux/magic.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>

/*
 * Bytes written into a 16-byte array: past it and over the 8-byte canary
 * that gcc puts right above it, but not over the saved frame pointer.
 */
static int canary_overrun = 24;

static noinline __noclone void canary_victim(void)
{
	char buf[16];
	int len = canary_overrun;

	/* Hide the length so the compiler cannot see, or refuse, the overrun. */
	OPTIMIZER_HIDE_VAR(len);
	memset(buf, 'A', len);
	barrier_data(buf);
}

static void lkdtm_ext_CANARY_SMASH(void)
{
	pr_info("CANARY_SMASH: writing %d bytes into a 16-byte array in canary_victim()\n",
		canary_overrun);
	canary_victim();
	pr_err("FAIL: CANARY_SMASH: canary_victim() returned; the stack protector did not fire\n");
}

static void lkdtm_ext_STACK_END_SMASH(void)
{
	unsigned long *end = end_of_stack(current);

	pr_info("STACK_END_SMASH: stack end %p holds %#lx (STACK_END_MAGIC %#lx); overwriting it and calling schedule()\n",
		end, *end, (unsigned long)STACK_END_MAGIC);
	WRITE_ONCE(*end, 0);
	schedule();
	pr_err("FAIL: STACK_END_SMASH: schedule() returned; the stack end check did not fire\n");
	WRITE_ONCE(*end, STACK_END_MAGIC);
}

static struct crashtype crashtypes[] = {
	CRASHTYPE(CANARY_SMASH, "overrun an on-stack array; the stack protector names the function"),
	CRASHTYPE(STACK_END_SMASH, "overwrite STACK_END_MAGIC and schedule(); SCHED_STACK_END_CHECK"),
};

CRASHTYPE_CATEGORY(corrupt, crashtypes);
