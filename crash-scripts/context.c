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
	ulong flags = 0, pc = 0, pcp, kthread, worker, fn, nest;
	unsigned int n = 0;
	long off;
	char sym[BUFSIZE];
	int hardirq;

	readmem(v.tc->task + MEMBER_OFFSET("task_struct", "flags"), KVADDR, &flags,
		sizeof(unsigned int), "flags", RETURN_ON_ERROR | QUIET);
	pcp = percpu_hot_addr("__preempt_count", "preempt_count", v.cpu);
	if (pcp)
		readmem(pcp, KVADDR, &pc, sizeof(int), "preempt_count", RETURN_ON_ERROR | QUIET);
	/* The double-fault handler's nmi_enter() added one hardirq level. */
	hardirq = (int)((pc >> 16) & 0xf) - ((pc & 0x00f00000) ? 1 : 0);
	/*
	 * And one NMI level (and the hardirq level, when it is still
	 * counted); bit 31 is x86's inverted PREEMPT_NEED_RESCHED.
	 */
	v.preempt = pc & 0x7fffffff;
	if (v.preempt & 0x00f00000) {
		v.preempt -= 0x00100000;
		if (v.preempt & 0x000f0000)
			v.preempt -= 0x00010000;
	}
	/*
	 * From 6.11, oops_enter() opens a printk emergency section
	 * (nbcon_cpu_emergency_enter(): preempt_disable()), still open when
	 * kdump saves the CPU: its levels are the oops', not the code's.
	 */
	nest = percpu_hot_addr("nbcon_pcpu_emergency_nesting", NULL, v.cpu);
	if (nest && readmem(nest, KVADDR, &n, sizeof(int), "emergency nesting", RETURN_ON_ERROR | QUIET) &&
	    n > 0 && n <= (v.preempt & 0xff))
		v.preempt -= n;
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

/*
 * Whether panic() ran on this CPU before the dump (QEMU's dump on pvpanic;
 * kdump's comes from oops_end(), before it): a return address into panic()
 * on the DF stack. panic() and its notifiers then hold preempt_count,
 * which no longer says what the fault's was.
 */
int panic_ran(void)
{
	ulong w, off;
	struct syment *sp;
	int i;

	for (i = 0; i < v.nregions; i++) {
		struct region *r = &v.regions[i];
		ulong a;

		if (strcmp(r->name, "DF"))
			continue;
		for (a = r->lo; a < r->hi; a += sizeof(ulong)) {
			if (!read_ulong(a, &w))
				return 0;
			if (!(w >> 47))
				continue;
			off = 0;
			sp = value_search(w, &off);
			if (sp && off && !strcmp(sp->name, "panic"))
				return 1;
		}
	}
	return 0;
}

/*
 * Whether the code ran atomic when it overflowed: its preempt_count (less
 * what the double fault's nmi_enter() added), part by part, and whether
 * interrupts were off (the interrupted frame's EFLAGS.IF). Returns 1 if
 * it ran atomic, 0 if not, -1 if that is unknown.
 */
int atomic_str(char *buf, size_t len)
{
	static const struct { unsigned int mask; const char *what; } part[] = {
		{ 0x000000ff, "preemption off" },
		{ 0x0000ff00, "softirq" },
		{ 0x000f0000, "hardirq" },
		{ 0x00f00000, "NMI" },
	};
	char parts[64] = "";
	int irqs_off = !(v.flags & 0x200), atomic = (v.preempt & 0x00ffffff) || irqs_off;
	size_t i, n = 0;

	if (panic_ran()) {
		snprintf(buf, len, "%s: interrupts %s; preempt_count unknown: panic() ran since",
			 irqs_off ? "yes" : "unknown", irqs_off ? "off" : "on");
		return irqs_off ? 1 : -1;
	}
	for (i = 0; i < ARRAY_SIZE(part); i++)
		if (v.preempt & part[i].mask)
			n += snprintf(parts + n, sizeof(parts) - n, "%s%s", n ? ", " : " (",
				      part[i].what);
	if (n)
		snprintf(parts + n, sizeof(parts) - n, ")");
	snprintf(buf, len, "%s: interrupts %s; preempt_count 0x%x%s", atomic ? "yes" : "no",
		 irqs_off ? "off" : "on", v.preempt, parts);
	return atomic;
}

/* How the task came into the kernel: its syscall, its kthread function. */
void find_entry(void)
{
	ulong flags = 0, kthread = 0, fn = 0, regs;
	long nr = -1, off;
	struct syment *sp;

	v.kstack_offset = -1;
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
	find_kstack_offset();
}

/*
 * KSTACK_OFFSET_MAX: & 0x3ff up to 6.8, & 0x3f0 from 6.9 (randomize_kstack:
 * improve entropy diffusion).
 */
static unsigned int kstack_offset_mask(void)
{
	unsigned long version = THIS_KERNEL_VERSION;

	if (version < LINUX(6, 9, 0))
		return 0x3ff;
	return 0x3f0;
}

/*
 * With CONFIG_RANDOMIZE_KSTACK_OFFSET on, each syscall's entry puts
 * KSTACK_OFFSET_MAX(task->kstack_offset) bytes (chosen at the task's last
 * syscall exit) below its registers: how much of the stack that took.
 * -1 where there is none: the static key off, or no such member (a kernel
 * that kept it per CPU).
 */
void find_kstack_offset(void)
{
	unsigned int on = 0, off = 0;
	long m = MEMBER_OFFSET("task_struct", "kstack_offset");

	v.kstack_offset = -1;
	if (m < 0 || !symbol_exists("randomize_kstack_offset"))
		return;
	/* A static key's first member: struct static_key's atomic_t enabled. */
	if (!readmem(symbol_value("randomize_kstack_offset"), KVADDR, &on, sizeof(on),
		     "randomize_kstack_offset", RETURN_ON_ERROR | QUIET) || !on)
		return;
	if (readmem(v.tc->task + m, KVADDR, &off, sizeof(off), "kstack_offset",
		    RETURN_ON_ERROR | QUIET))
		v.kstack_offset = off & kstack_offset_mask();
}
