// SPDX-License-Identifier: GPL-2.0
/*
 * stackov: whose stack it was and how it came into the kernel: task,
 * kthread, kworker (with its work function), hardirq or softirq; its
 * syscall, kthread function or the idle loop.
 */
#include "verdict.h"

/* Task, kthread, kworker (with its work function), hardirq or softirq. */
void find_context(void)
{
	ulong flags = 0, pc = 0, kthread, worker, fn;
	long off;
	char sym[BUFSIZE];
	int hardirq;

	readmem(v.tc->task + MEMBER_OFFSET("task_struct", "flags"), KVADDR, &flags,
		sizeof(unsigned int), "flags", RETURN_ON_ERROR | QUIET);
	if (symbol_exists("__preempt_count"))
		readmem(symbol_value("__preempt_count") + kt->__per_cpu_offset[v.cpu], KVADDR,
			&pc, sizeof(int), "preempt_count", RETURN_ON_ERROR | QUIET);
	/* The double-fault handler's nmi_enter() added one hardirq level. */
	hardirq = (int)((pc >> 16) & 0xf) - ((pc & 0x00f00000) ? 1 : 0);
	if (v.stack && !strcmp(v.stack->name, "IRQ")) {
		if (hardirq > 0)
			snprintf(v.context, sizeof(v.context), "hardirq (on the IRQ stack, interrupting pid %ld \"%s\")",
				 v.tc->pid, v.tc->comm);
		else if (pc & 0x100)
			snprintf(v.context, sizeof(v.context), "softirq (from irq_exit() on the IRQ stack, interrupting pid %ld \"%s\")",
				 v.tc->pid, v.tc->comm);
		else
			snprintf(v.context, sizeof(v.context), "IRQ stack (preempt_count %#lx)", pc);
		return;
	}
	if (pc & 0x100) {
		snprintf(v.context, sizeof(v.context), "softirq (on the stack of pid %ld \"%s\")",
			 v.tc->pid, v.tc->comm);
		return;
	}
	if (!(flags & STACKOV_PF_KTHREAD)) {
		snprintf(v.context, sizeof(v.context), "task (pid %ld \"%s\")", v.tc->pid, v.tc->comm);
		return;
	}
	if (!(flags & STACKOV_PF_WQ_WORKER)) {
		snprintf(v.context, sizeof(v.context), "kthread (pid %ld \"%s\")", v.tc->pid, v.tc->comm);
		return;
	}
	/* kworker: task->worker_private is its struct kthread, whose data is the worker. */
	off = MEMBER_OFFSET("task_struct", "worker_private");
	fn = 0;
	if (off >= 0 && read_ulong(v.tc->task + off, &kthread) &&
	    read_ulong(kthread + MEMBER_OFFSET("kthread", "data"), &worker))
		read_ulong(worker + MEMBER_OFFSET("worker", "current_func"), &fn);
	snprintf(v.context, sizeof(v.context), "kworker (pid %ld \"%s\", work function %s)",
		 v.tc->pid, v.tc->comm, fn ? value_to_symstr(fn, sym, 0) : "unknown");
}

/* How the task came into the kernel: its syscall, its kthread function. */
void find_entry(void)
{
	ulong flags = 0, kthread = 0, fn = 0, regs;
	long nr = -1, off;
	struct syment *sp;

	readmem(v.tc->task + MEMBER_OFFSET("task_struct", "flags"), KVADDR, &flags,
		sizeof(unsigned int), "flags", RETURN_ON_ERROR | QUIET);
	if (flags & STACKOV_PF_IDLE) {
		snprintf(v.entry, sizeof(v.entry), "the idle loop");
		return;
	}
	if (flags & STACKOV_PF_KTHREAD) {
		off = MEMBER_OFFSET("task_struct", "worker_private");
		if (off >= 0 && read_ulong(v.tc->task + off, &kthread) && kthread &&
		    MEMBER_OFFSET("kthread", "threadfn") >= 0)
			read_ulong(kthread + MEMBER_OFFSET("kthread", "threadfn"), &fn);
		sp = fn ? value_search(fn, NULL) : NULL;
		snprintf(v.entry, sizeof(v.entry), "kthread function %s", sp ? sp->name : "unknown");
		return;
	}
	regs = v.task_stack + STACKSIZE() - STRUCT_SIZE("pt_regs");
	read_ulong(regs + MEMBER_OFFSET("pt_regs", "orig_ax"), (ulong *)&nr);
	sp = NULL;
	if (symbol_exists("sys_call_table") && nr >= 0 && nr < 1024 &&
	    read_ulong(symbol_value("sys_call_table") + nr * sizeof(ulong), &fn))
		sp = value_search(fn, NULL);
	snprintf(v.entry, sizeof(v.entry), "syscall %ld (%s)", nr, sp ? sp->name : "?");
}
