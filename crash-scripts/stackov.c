// SPDX-License-Identifier: GPL-2.0
/*
 * stackov: a crash extension that explains a kernel stack overflow from
 * the dump alone: which stack the fault hit (task, IRQ, exception), its
 * bounds and guard page, where the fault was, the task and context, and
 * the frames of the overflowed stack with recursion folded into a cycle.
 * This file is the command; verdict.h says where each step lives.
 *
 * Build against the defs.h of the crash that reads the dump:
 *   gcc -Wall -Wextra -shared -fPIC -fvisibility=hidden -nostartfiles \
 *	-DX86_64 -I CRASH_SRC -o stackov.so *.c
 * then in crash: extend stackov.so; help stackov.
 */
#include "verdict.h"

static void cmd_stackov(void);
static char *help_stackov[];

static struct command_table_entry command_table[] = {
	{ "stackov", cmd_stackov, help_stackov, 0 },
	{ NULL },
};

static void __attribute__((constructor)) stackov_init(void)
{
	register_extension(command_table);
}

struct verdict v;

static void cmd_stackov(void)
{
	int c, json = 0, irq = 0, all = 0, cached = 0;
	ulong value;
	long off;

	while ((c = getopt(argcnt, args, "acij")) != EOF) {
		switch (c) {
		case 'a':
			all = 1;
			break;
		case 'c':
			cached = 1;
			break;
		case 'i':
			irq = 1;
			break;
		case 'j':
			json = 1;
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs)
		cmd_usage(pc->curcmd, SYNOPSIS);
	if (!machine_type("X86_64"))
		error(FATAL, "only x86_64 dumps are supported\n");
	off = MEMBER_OFFSET("task_struct", "stack");
	if (off < 0 || !symbol_exists("cea_exception_stacks") || STRUCT_SIZE("pt_regs") <= 0)
		error(FATAL, "this dump lacks the symbols it needs (task_struct.stack, cea_exception_stacks, pt_regs)\n");
	if (irq) {
		print_cpu_stacks();
		return;
	}
	if (all) {
		print_all_usage(off);
		return;
	}
	if (cached) {
		print_cached();
		return;
	}

	BZERO(&v, sizeof(v));
	if (args[optind]) {
		switch (str_to_context(args[optind], &value, &v.tc)) {
		case STR_PID:
		case STR_TASK:
			break;
		default:
			error(FATAL, "no task or pid %s in this dump\n", args[optind]);
		}
	} else {
		if (!tt->panic_task)
			error(FATAL, "this dump has no panic task; name a pid or task\n");
		v.tc = task_to_context(tt->panic_task);
		if (!v.tc)
			error(FATAL, "the panic task %lx is not in the task list\n", tt->panic_task);
	}
	v.cpu = v.tc->processor;
	if (!read_ulong(v.tc->task + off, &v.task_stack))
		error(FATAL, "cannot read the stack pointer of task %lx\n", v.tc->task);
	if (MEMBER_OFFSET("task_struct", "stack_vm_area") >= 0)
		read_ulong(v.tc->task + MEMBER_OFFSET("task_struct", "stack_vm_area"), &v.task_vm);
	find_regions();
	if (v.tc->task != tt->panic_task)
		error(FATAL, "pid %ld \"%s\" is not the panic task: it did not overflow its stack\n",
		      v.tc->pid, v.tc->comm);
	read_df_regs();
	if (!v.have_regs)
		error(FATAL, "cpu %d took no double fault: no stack overflow to explain (see bt)\n",
		      v.cpu);
	find_fault();
	if (!v.stack || !v.hit || (!v.hit->guard && v.hit == v.stack && v.fault >= v.stack->lo))
		error(FATAL, "the double fault at %lx (rsp %lx) is not below a known stack: %s\n",
		      v.ip, v.sp, v.hit ? "inside a stack" : "outside every stack of cpu (a frame that skipped the guard?)");
	walk_frames();
	fold_cycle();
	find_context();
	find_entry();
	if (json)
		print_json();
	else
		print_text();
}

static char *help_stackov[] = {
	"stackov",
	"explain a kernel stack overflow",
	"[-a | -c | -i | -j] [pid | taskp]",
	"  Explains the stack overflow that brought the kernel down: which stack",
	"  the fault hit (the task's, this CPU's IRQ stack, an exception stack),",
	"  its bounds and guard page, the faulting address and how far below the",
	"  stack it is, the task and the context (task, kthread, kworker with its",
	"  work function, hardirq, softirq), the state of STACK_END_MAGIC, and the",
	"  frames on the frame-pointer chain from the registers the double-fault",
	"  handler saved, with the bytes each frame uses and recursion folded",
	"  into a cycle. The default task is the panic task.",
	"",
	"    -a  every task's stack high-water mark, deepest first",
	"    -c  each CPU's cached stacks, with their vm_structs",
	"    -i  every CPU's IRQ and exception stacks, with their guards",
	"    -j  the verdict as one JSON object on one line",
	"\nEXAMPLE",
	"  After RECURSE_TASK:\n",
	"    crash> stackov",
	"    stack overflow: TASK stack, pid 60 \"labtrig\" (task ffff8880002bcec0) on cpu 0",
	"      context:   task (pid 60 \"labtrig\")",
	"      entry:     syscall 1 (__x64_sys_write)",
	"      stack:     ffffc90000130000..ffffc90000134000 (16384 bytes)",
	"      guard:     ffffc9000012f000..ffffc90000130000, hit",
	"      fault:     ffffc9000012fff8, 8 bytes below the stack (push; ...)",
	"      cycle:     recurse_task_frame x53 (288 bytes per cycle)",
	NULL
};
