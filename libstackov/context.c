// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: whose stack it was and how it came into the kernel: task,
 * kthread, kworker (with its work function), hardirq or softirq; its
 * syscall, kthread function or the idle loop; whether it ran atomic; the
 * random stack offset of its syscall; STACK_END_MAGIC.
 */
#include <string.h>

#include "internal.h"

/* @pc's function name, or @dflt. */
static const char *fname(struct stackov *s, uint64_t pc, char *buf, size_t len, const char *dflt)
{
	uint64_t start;

	if (!pc || so_name(s, pc, buf, len, &start))
		snprintf(buf, len, "%s", dflt);
	return buf;
}

/* The task as the verdict names it: pid N "comm", its bytes as they are
 * (each writer escapes them its own way).
 */
static void who(const struct so_task *k, char *buf, size_t len)
{
	snprintf(buf, len, "pid %ld \"%s\"", k->pid, k->comm);
}

/* Task, kthread, kworker (with its work function), hardirq or softirq. */
void so_context(struct stackov *s, struct so_verdict *v)
{
	uint64_t pcp, kthread, worker, fn = 0, nest;
	uint32_t pc = 0, n = 0;
	char w[128], sym[128];
	int hardirq;
	long off;

	if (!so_percpu_hot(s, "__preempt_count", "preempt_count", v->cpu, &pcp))
		so_u32(s, pcp, &pc);
	/* The double-fault handler's nmi_enter() added one hardirq level. */
	hardirq = (int)((pc >> 16) & 0xf) - ((pc & 0x00f00000) ? 1 : 0);
	/*
	 * And one NMI level (and the hardirq level, when it is still
	 * counted); bit 31 is x86's inverted PREEMPT_NEED_RESCHED.
	 */
	v->preempt = pc & 0x7fffffff;
	if (v->preempt & 0x00f00000) {
		v->preempt -= 0x00100000;
		if (v->preempt & 0x000f0000)
			v->preempt -= 0x00010000;
	}
	/*
	 * From 6.11, oops_enter() opens a printk emergency section
	 * (nbcon_cpu_emergency_enter(): preempt_disable()), still open when
	 * kdump saves the CPU: its levels are the oops', not the code's.
	 */
	if (!so_percpu(s, "nbcon_pcpu_emergency_nesting", v->cpu, &nest) && !so_u32(s, nest, &n) &&
	    n > 0 && n <= (v->preempt & 0xff))
		v->preempt -= n;
	who(&v->task, w, sizeof(w));
	if (v->stack && !strcmp(v->stack->name, "IRQ")) {
		if (hardirq > 0)
			snprintf(v->context, sizeof(v->context),
				 "hardirq (on the IRQ stack, interrupting %s)", w);
		else if (pc & 0x100)
			snprintf(v->context, sizeof(v->context),
				 "softirq (from irq_exit() on the IRQ stack, interrupting %s)", w);
		else
			snprintf(v->context, sizeof(v->context), "IRQ stack (preempt_count %#x)", pc);
		return;
	}
	if (pc & 0x100) {
		snprintf(v->context, sizeof(v->context), "softirq (on the stack of %s)", w);
		return;
	}
	if (!(v->task.flags & SO_PF_KTHREAD)) {
		snprintf(v->context, sizeof(v->context), "task (%s)", w);
		return;
	}
	if (!(v->task.flags & SO_PF_WQ_WORKER)) {
		snprintf(v->context, sizeof(v->context), "kthread (%s)", w);
		return;
	}
	/* kworker: task->worker_private is its struct kthread, whose data is the worker. */
	off = so_moff(s, "task_struct", "worker_private");
	if (off >= 0 && !so_u64(s, v->task.addr + off, &kthread) && kthread &&
	    !so_u64(s, kthread + so_moff(s, "kthread", "data"), &worker) && worker)
		so_u64(s, worker + so_moff(s, "worker", "current_func"), &fn);
	snprintf(v->context, sizeof(v->context), "kworker (%s, work function %s)", w,
		 fname(s, fn, sym, sizeof(sym), "unknown"));
}

/*
 * Whether panic() ran on this CPU before the dump (QEMU's dump on pvpanic;
 * kdump's comes from oops_end(), before it): a return address into panic()
 * on the DF stack. panic() and its notifiers then hold preempt_count,
 * which no longer says what the fault's was.
 */
int so_panic_ran(struct stackov *s, struct so_verdict *v)
{
	static uint64_t buf[65536 / 8];
	uint64_t start;
	char name[128];
	int i;
	size_t j, n;

	for (i = 0; i < v->nregions; i++) {
		struct so_region *r = &v->regions[i];

		if (strcmp(r->name, "DF") || r->hi - r->lo > sizeof(buf))
			continue;
		n = (r->hi - r->lo) / 8;
		if (so_read(s, r->lo, buf, n * 8))
			return 0;
		for (j = 0; j < n; j++)
			if (buf[j] >> 47 && !so_name(s, buf[j], name, sizeof(name), &start) &&
			    buf[j] != start && !strcmp(name, "panic"))
				return 1;
	}
	return 0;
}

/*
 * Whether the code ran atomic when it overflowed: its preempt_count (less
 * what the double fault's nmi_enter() added), part by part, and whether
 * interrupts were off (the interrupted frame's EFLAGS.IF). Returns 1 if
 * it ran atomic, 0 if not, -1 if that is unknown.
 */
int so_atomic(const struct so_verdict *v, char *buf, size_t len)
{
	static const struct { unsigned int mask; const char *what; } part[] = {
		{ 0x000000ff, "preemption off" },
		{ 0x0000ff00, "softirq" },
		{ 0x000f0000, "hardirq" },
		{ 0x00f00000, "NMI" },
	};
	char parts[64] = "";
	int irqs_off = !(v->flags & 0x200), atomic = (v->preempt & 0x00ffffff) || irqs_off;
	size_t i, n = 0;

	if (v->panic_ran) {
		snprintf(buf, len, "%s: interrupts %s; preempt_count unknown: panic() ran since",
			 irqs_off ? "yes" : "unknown", irqs_off ? "off" : "on");
		return irqs_off ? 1 : -1;
	}
	for (i = 0; i < ARRAY_SIZE(part); i++)
		if (v->preempt & part[i].mask)
			n += snprintf(parts + n, sizeof(parts) - n, "%s%s", n ? ", " : " (", part[i].what);
	if (n)
		snprintf(parts + n, sizeof(parts) - n, ")");
	snprintf(buf, len, "%s: interrupts %s; preempt_count 0x%x%s", atomic ? "yes" : "no",
		 irqs_off ? "off" : "on", v->preempt, parts);
	return atomic;
}

/* KSTACK_OFFSET_MAX: & 0x3ff up to 6.8, & 0x3f0 from 6.9 (randomize_kstack:
 * improve entropy diffusion).
 */
unsigned int stackov_kstack_mask(int major, int minor)
{
	if (major > 6 || (major == 6 && minor >= 9))
		return 0x3f0;
	return 0x3ff;
}

/*
 * With CONFIG_RANDOMIZE_KSTACK_OFFSET on, each syscall's entry puts
 * KSTACK_OFFSET_MAX(task->kstack_offset) bytes (chosen at the task's last
 * syscall exit) below its registers: how much of the stack that took. -1
 * where there is none: the static key off, or no such member.
 */
static long kstack_offset(struct stackov *s, const struct so_task *k)
{
	long m = so_moff(s, "task_struct", "kstack_offset");
	uint64_t key;
	uint32_t on = 0, off = 0;
	int major, minor;

	/* A static key's first member: struct static_key's atomic_t enabled. */
	if (m < 0 || so_sym(s, "randomize_kstack_offset", &key) || so_u32(s, key, &on) || !on ||
	    so_u32(s, k->addr + m, &off))
		return -1;
	so_version(s, &major, &minor);
	return off & stackov_kstack_mask(major, minor);
}

/* How the task came into the kernel: its syscall, its kthread function. */
void so_entry(struct stackov *s, struct so_verdict *v)
{
	uint64_t kthread = 0, fn = 0, regs, nr = (uint64_t)-1, table;
	char sym[128];
	long off;
	int64_t n;

	v->kstack_offset = -1;
	if (v->task.flags & SO_PF_IDLE) {
		snprintf(v->entry, sizeof(v->entry), "the idle loop");
		return;
	}
	if (v->task.flags & SO_PF_KTHREAD) {
		off = so_moff(s, "task_struct", "worker_private");
		if (off >= 0 && !so_u64(s, v->task.addr + off, &kthread) && kthread &&
		    so_moff(s, "kthread", "threadfn") >= 0)
			so_u64(s, kthread + so_moff(s, "kthread", "threadfn"), &fn);
		snprintf(v->entry, sizeof(v->entry), "kthread function %s",
			 fname(s, fn, sym, sizeof(sym), "unknown"));
		return;
	}
	regs = v->task.stack + so_thread_size(s) - so_size(s, "pt_regs");
	so_u64(s, regs + so_moff(s, "pt_regs", "orig_ax"), &nr);
	n = (int64_t)nr;
	fn = 0;
	if (n >= 0 && n < 1024 && !so_sym(s, "sys_call_table", &table))
		so_u64(s, table + 8 * n, &fn);
	snprintf(v->entry, sizeof(v->entry), "syscall %ld (%s)", (long)n,
		 fname(s, fn, sym, sizeof(sym), "?"));
	v->kstack_offset = kstack_offset(s, &v->task);
}

const char *so_magic(struct stackov *s, const struct so_task *k, uint64_t *word)
{
	*word = 0;
	if (!k->stack || so_u64(s, k->stack, word))
		return "unreadable";
	return *word == SO_END_MAGIC ? "intact" : "overwritten";
}
