// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: the stacks of a CPU and a task: the task's, the CPU's IRQ
 * stack, its exception stacks (cpu_entry_area), each with its guard page.
 */
#include <string.h>

#include "internal.h"

static int add(struct so_region *r, int n, int max, const char *name, uint64_t lo, uint64_t hi,
	       int guard)
{
	if (n >= max || lo >= hi)
		return n;
	snprintf(r[n].name, sizeof(r[n].name), "%s", name);
	r[n].lo = lo;
	r[n].hi = hi;
	r[n].guard = guard;
	return n + 1;
}

/* The task's stack (if @task_stack), @cpu's IRQ and exception stacks. */
int so_regions(struct stackov *s, int cpu, uint64_t task_stack, struct so_region *r, int max)
{
	static const char * const ist[] = { "DF", "NMI", "DB", "MCE", "VC", "VC2" };
	uint64_t size = so_thread_size(s), ptr, top, cea;
	long irq_size;
	char member[32];
	unsigned int i;
	int n = 0;

	if (task_stack) {
		n = add(r, n, max, "TASK", task_stack, task_stack + size, 0);
		n = add(r, n, max, "TASK-GUARD", task_stack - SO_PAGE, task_stack, 1);
	}
	irq_size = so_size(s, "irq_stack");
	if (!so_percpu_hot(s, "hardirq_stack_ptr", "hardirq_stack_ptr", cpu, &ptr) &&
	    !so_u64(s, ptr, &top) && top && irq_size > 0) {
		top += 8;	/* hardirq_stack_ptr is the top word */
		n = add(r, n, max, "IRQ", top - irq_size, top, 0);
		n = add(r, n, max, "IRQ-GUARD", top - irq_size - SO_PAGE, top - irq_size, 1);
	}
	if (so_percpu(s, "cea_exception_stacks", cpu, &ptr) || so_u64(s, ptr, &cea) || !cea)
		return n;
	for (i = 0; i < ARRAY_SIZE(ist); i++) {
		long off, len, goff, glen;

		snprintf(member, sizeof(member), "%s_stack", ist[i]);
		off = so_moff(s, "cea_exception_stacks", member);
		len = so_msize(s, "cea_exception_stacks", member);
		if (off < 0 || len <= 0)
			continue;
		n = add(r, n, max, ist[i], cea + off, cea + off + len, 0);
		snprintf(member, sizeof(member), "%s_stack_guard", ist[i]);
		goff = so_moff(s, "cea_exception_stacks", member);
		glen = so_msize(s, "cea_exception_stacks", member);
		if (goff >= 0 && glen > 0) {
			snprintf(member, sizeof(member), "%s-GUARD", ist[i]);
			n = add(r, n, max, member, cea + goff, cea + goff + glen, 1);
		}
	}
	return n;
}

struct so_region *so_region_of(struct so_region *r, int n, uint64_t addr)
{
	int i;

	for (i = 0; i < n; i++)
		if (addr >= r[i].lo && addr < r[i].hi)
			return &r[i];
	return NULL;
}

/* The stack a guard page belongs to: the region just above it. */
struct so_region *so_stack_above(struct so_region *r, int n, struct so_region *g)
{
	int i;

	if (!g || !g->guard)
		return g;
	for (i = 0; i < n; i++)
		if (!r[i].guard && r[i].lo == g->hi)
			return &r[i];
	return NULL;
}
