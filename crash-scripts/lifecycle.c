// SPDX-License-Identifier: GPL-2.0
/*
 * stackov: stacks over their life: every task's high-water mark (-a) and
 * each CPU's cached stacks, which should be no one's (-c).
 */
#include "verdict.h"

/*
 * How deep a stack was ever used: it starts zeroed, so the lowest non-zero
 * word above STACK_END_MAGIC marks the high-water mark (what the kernel's
 * stack_not_used() computes for DEBUG_STACK_USAGE).
 */
static long stack_used(ulong stack)
{
	static ulong buf[65536 / sizeof(ulong)];
	ulong size = STACKSIZE(), i;

	if (!stack || size > sizeof(buf) ||
	    !readmem(stack, KVADDR, buf, size, "stack", RETURN_ON_ERROR | QUIET))
		return -1;
	for (i = 1; i < size / sizeof(ulong); i++)
		if (buf[i])
			return size - i * sizeof(ulong);
	return 0;
}

struct usage {
	struct task_context *tc;
	long used;
};

static int by_used(const void *a, const void *b)
{
	const struct usage *x = a, *y = b;

	return (y->used > x->used) - (y->used < x->used);
}

/* Every task's stack high-water mark, deepest first. */
void print_all_usage(long off)
{
	struct task_context *tc = FIRST_CONTEXT();
	struct usage *u;
	ulong stack, i, n = RUNNING_TASKS();

	u = (struct usage *)GETBUF(n * sizeof(*u));
	for (i = 0; i < n; i++, tc++) {
		u[i].tc = tc;
		u[i].used = read_ulong(tc->task + off, &stack) ? stack_used(stack) : -1;
	}
	qsort(u, n, sizeof(*u), by_used);
	fprintf(fp, "%8s  %5s  %-16s  %s\n", "PID", "USED", "COMM", "OF");
	for (i = 0; i < n; i++)
		fprintf(fp, "%8ld  %5ld  %-16s  %lu\n", u[i].tc->pid, u[i].used,
			u[i].tc->comm, STACKSIZE());
	FREEBUF(u);
}

/* The task whose stack is at @addr: a cached stack should be no one's. */
static struct task_context *stack_owner(ulong addr)
{
	struct task_context *tc = FIRST_CONTEXT();
	long off = MEMBER_OFFSET("task_struct", "stack");
	ulong i, st;

	for (i = 0; i < RUNNING_TASKS(); i++, tc++)
		if (read_ulong(tc->task + off, &st) && st == addr)
			return tc;
	return NULL;
}

/* Each CPU's cached stacks (kernel/fork.c's cached_stacks[]). */
void print_cached(void)
{
	struct task_context *owner;
	ulong base, vm, addr;
	int cpu, i, n;

	if (!symbol_exists("cached_stacks"))
		error(FATAL, "this kernel has no cached_stacks (no CONFIG_VMAP_STACK)\n");
	n = get_array_length("cached_stacks", NULL, 0);
	base = symbol_value("cached_stacks");
	for (cpu = 0; cpu < kt->cpus; cpu++)
		for (i = 0; i < n; i++) {
			if (!read_ulong(base + kt->__per_cpu_offset[cpu] + i * sizeof(ulong), &vm) || !vm)
				continue;
			addr = 0;
			read_ulong(vm + MEMBER_OFFSET("vm_struct", "addr"), &addr);
			owner = stack_owner(addr);
			fprintf(fp, "cpu %d  slot %d  %lx..%lx  used %ld of %lu", cpu, i, addr,
				addr + STACKSIZE(), stack_used(addr), STACKSIZE());
			if (owner)
				fprintf(fp, "  STILL the stack of pid %lu", owner->pid);
			fprintf(fp, "\n");
			print_vm_struct("    ", vm);
		}
}
