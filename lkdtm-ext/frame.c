// SPDX-License-Identifier: GPL-2.0
/*
 * Overflow by one frame: a single function whose frame is larger than the
 * stack space left. BIG_FRAME's first touch lands in the guard page below
 * the stack; GUARD_JUMP's frame is larger than stack plus guard page, so
 * its first touch skips the one-page guard and lands beyond it.
 */
#include "lkdtm_ext.h"

#include <linux/compiler.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/vmalloc.h>

BOUNDED_INT_PARAM_STEP(guard_jump_kb, 32, 24, 64, 8,
		       "GUARD_JUMP frame size in KiB, a multiple of 8");

/*
 * Touch the frame at its low end only, with a read: if it lands in mapped
 * memory (another vmalloc area, or the linear map on novmap), nothing
 * there is changed. The buffer is __uninitialized, so that
 * CONFIG_INIT_STACK_ALL_ZERO does not zero it (a memset from its low end,
 * a write into whatever lies there). The callee does nothing else, so
 * nothing else runs with the stack pointer that far down.
 */
static int big_frame_sink;

#define DEFINE_BIG_FRAME(_name, _bytes)				\
static noinline __noclone void _name(void)				\
{									\
	char buf[_bytes] __uninitialized;				\
									\
	barrier_data(buf);						\
	WRITE_ONCE(big_frame_sink, READ_ONCE(buf[0]));			\
}

DEFINE_BIG_FRAME(big_frame_16k, THREAD_SIZE)
DEFINE_BIG_FRAME(guard_jump_24k, 24 * 1024)
DEFINE_BIG_FRAME(guard_jump_32k, 32 * 1024)
DEFINE_BIG_FRAME(guard_jump_40k, 40 * 1024)
DEFINE_BIG_FRAME(guard_jump_48k, 48 * 1024)
DEFINE_BIG_FRAME(guard_jump_56k, 56 * 1024)
DEFINE_BIG_FRAME(guard_jump_64k, 64 * 1024)

/* Indexed by (guard_jump_kb - 24) / 8; the parameter allows nothing else. */
static void (* const guard_jumps[])(void) = {
	guard_jump_24k, guard_jump_32k, guard_jump_40k,
	guard_jump_48k, guard_jump_56k, guard_jump_64k,
};

/*
 * Say where a frame of @bytes below the current stack pointer will start,
 * and return that as a short word for the result line.
 */
static const char *predict(const char *name, unsigned long bytes)
{
	unsigned long sp = current_stack_pointer;
	unsigned long bottom = (unsigned long)task_stack_page(current);
	unsigned long target = sp - bytes;
	const char *what, *word;

	if (target >= bottom) {
		what = "inside the stack";
		word = "stack";
	} else if (IS_ENABLED(CONFIG_VMAP_STACK) && bottom - target <= PAGE_SIZE) {
		what = "in the guard page below the stack";
		word = "guard";
	} else if (!is_vmalloc_addr((void *)target)) {
		what = "outside vmalloc space";
		word = "linear";
	} else if (vmalloc_to_page((void *)target)) {
		what = "in MAPPED vmalloc memory beyond the guard page";
		word = "mapped";
	} else {
		what = "in unmapped vmalloc space beyond the guard page";
		word = "unmapped";
	}
	pr_info("%s: frame of %lu bytes from sp %p: first touch at %p, %lu bytes below the stack bottom %p: %s\n",
		name, bytes, (void *)sp, (void *)target,
		target < bottom ? bottom - target : 0, (void *)bottom, what);
	return word;
}

static void lkdtm_ext_BIG_FRAME(void)
{
	const char *where = predict("BIG_FRAME", THREAD_SIZE);

	big_frame_16k();
	/* A guard page must have stopped this; without one, nothing can. */
	if (IS_ENABLED(CONFIG_VMAP_STACK))
		pr_err("FAIL: BIG_FRAME: the read %s below the stack went unnoticed\n", where);
	else
		pr_info("BIG_FRAME: result landed=%s: the read below the stack went unnoticed (no guard page without CONFIG_VMAP_STACK)\n",
			where);
}

/*
 * Not FAIL when the read lands in mapped memory: a one-page guard cannot
 * catch a frame that starts below it (only stack probing such as
 * -fstack-clash-protection would), and showing that is the point.
 */
static void lkdtm_ext_GUARD_JUMP(void)
{
	int kb = guard_jump_kb.val;
	const char *where = predict("GUARD_JUMP", kb * 1024UL);

	guard_jumps[(kb - 24) / 8]();
	pr_info("GUARD_JUMP: result landed=%s frame_kb=%d: the read below the stack went unnoticed; the one-page guard was skipped\n",
		where, kb);
}

static struct crashtype crashtypes[] = {
	CRASHTYPE(BIG_FRAME, "one frame of THREAD_SIZE; its first touch hits the guard page"),
	CRASHTYPE(GUARD_JUMP, "one frame larger than stack plus guard page: skips the guard"),
};

CRASHTYPE_CATEGORY(frame, crashtypes);
