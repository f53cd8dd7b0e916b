// SPDX-License-Identifier: GPL-2.0
/*
 * stackov: the stacks of the CPU and task being explained (the task's,
 * the CPU's IRQ stack, its exception stacks), each with its guard page.
 */
#include "verdict.h"

static void add_region(const char *name, ulong lo, ulong hi, int guard)
{
	struct region *r;

	if (v.nregions >= STACKOV_MAX_REGIONS || lo >= hi)
		return;
	r = &v.regions[v.nregions++];
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->lo = lo;
	r->hi = hi;
	r->guard = guard;
}

struct region *region_of(ulong addr)
{
	int i;

	for (i = 0; i < v.nregions; i++)
		if (addr >= v.regions[i].lo && addr < v.regions[i].hi)
			return &v.regions[i];
	return NULL;
}

/* The stack a guard page belongs to: the region just above it. */
struct region *stack_above(struct region *g)
{
	int i;

	if (!g || !g->guard)
		return g;
	for (i = 0; i < v.nregions; i++)
		if (!v.regions[i].guard && v.regions[i].lo == g->hi)
			return &v.regions[i];
	return NULL;
}

/*
 * The address of a per-CPU variable on @cpu: @sym itself up to 6.1; from
 * 6.2, current_task, hardirq_stack_ptr and __preempt_count are @member of
 * the per-CPU struct pcpu_hot. 0 if neither is in the dump.
 */
ulong percpu_hot_addr(const char *sym, const char *member, int cpu)
{
	long off;

	if (symbol_exists((char *)sym))
		return symbol_value((char *)sym) + kt->__per_cpu_offset[cpu];
	if (!member || !symbol_exists("pcpu_hot"))
		return 0;
	off = MEMBER_OFFSET("pcpu_hot", (char *)member);
	if (off < 0)
		return 0;
	return symbol_value("pcpu_hot") + kt->__per_cpu_offset[cpu] + off;
}

static ulong percpu_ptr(const char *sym, const char *member, int cpu)
{
	ulong addr = percpu_hot_addr(sym, member, cpu), val;

	if (!addr || !read_ulong(addr, &val))
		return 0;
	return val;
}

/* The task's stack, this CPU's IRQ stack and exception stacks, each with its guard. */
void find_regions(void)
{
	static const char * const ist[] = { "DF", "NMI", "DB", "MCE", "VC", "VC2" };
	ulong top, cea, size = STACKSIZE();
	long irq_size;
	char member[32];
	unsigned int i;

	v.nregions = 0;
	if (v.task_stack) {
		add_region("TASK", v.task_stack, v.task_stack + size, 0);
		add_region("TASK-GUARD", v.task_stack - PAGESIZE(), v.task_stack, 1);
	}
	top = percpu_ptr("hardirq_stack_ptr", "hardirq_stack_ptr", v.cpu);
	irq_size = STRUCT_SIZE("irq_stack");
	if (top && irq_size > 0) {
		top += 8;	/* hardirq_stack_ptr is the top word */
		add_region("IRQ", top - irq_size, top, 0);
		add_region("IRQ-GUARD", top - irq_size - PAGESIZE(), top - irq_size, 1);
	}
	cea = percpu_ptr("cea_exception_stacks", NULL, v.cpu);
	for (i = 0; cea && i < ARRAY_SIZE(ist); i++) {
		long off, len, goff, glen;

		snprintf(member, sizeof(member), "%s_stack", ist[i]);
		off = MEMBER_OFFSET("cea_exception_stacks", member);
		len = MEMBER_SIZE("cea_exception_stacks", member);
		if (off < 0 || len <= 0)
			continue;
		add_region(ist[i], cea + off, cea + off + len, 0);
		snprintf(member, sizeof(member), "%s_stack_guard", ist[i]);
		goff = MEMBER_OFFSET("cea_exception_stacks", member);
		glen = MEMBER_SIZE("cea_exception_stacks", member);
		if (goff >= 0 && glen > 0) {
			snprintf(member, sizeof(member), "%s-GUARD", ist[i]);
			add_region(member, cea + goff, cea + goff + glen, 1);
		}
	}
}
