// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: stacks over their life: each CPU's cached stacks, which
 * should be no one's (-c), every CPU's IRQ and exception stacks (-i), and
 * where an address lies. Every task's high-water mark (-a) is headroom.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* How deep a task's stack was ever used (headroom.c's count), -1 if unread. */
static long stack_used(struct stackov *s, uint64_t stack)
{
	long left = stack ? so_stack_left(s, stack, stack + so_thread_size(s), 1) : -1;

	return left < 0 ? -1 : (long)so_thread_size(s) - left;
}

/* The slots of each CPU's stack cache (kernel/fork.c's cached_stacks[]), 0 if none. */
static long cache_slots(struct stackov *s)
{
	long slots = so_alen(s, "cached_stacks");

	if (!so_has_sym(s, "cached_stacks"))
		return 0;
	return slots > 0 ? slots : 2;
}

/* The vm_struct cached in @cpu's slot @i: 0 with it, -1 if the slot is empty. */
static int cache_slot(struct stackov *s, int cpu, long i, uint64_t *vm)
{
	uint64_t base;

	if (so_percpu(s, "cached_stacks", cpu, &base) || so_u64(s, base + 8 * i, vm) || !*vm)
		return -1;
	return 0;
}

/* Each CPU's cached stacks. */
int so_cmd_cached(struct stackov *s)
{
	uint64_t *tasks, vm, addr;
	long n = so_all_tasks(s, &tasks), slots = cache_slots(s), t, i;
	struct so_task k;
	int cpu, any = 0;

	if (!slots) {
		free(tasks);
		return so_refuse(s, "this kernel has no cached_stacks (no CONFIG_VMAP_STACK)");
	}
	for (cpu = 0; cpu < so_nr_cpus(s); cpu++)
		for (i = 0; i < slots; i++) {
			if (cache_slot(s, cpu, i, &vm))
				continue;
			addr = 0;
			so_u64(s, vm + so_moff(s, "vm_struct", "addr"), &addr);
			so_printf(s, "cpu %d  slot %ld  %lx..%lx  used %ld of %lu", cpu, i,
				  (unsigned long)addr, (unsigned long)(addr + so_thread_size(s)),
				  stack_used(s, addr), (unsigned long)so_thread_size(s));
			for (t = 0; t < n; t++)
				if (!so_task(s, tasks[t], &k) && k.stack == addr) {
					so_printf(s, "  STILL the stack of pid %ld", k.pid);
					break;
				}
			so_printf(s, "\n");
			so_vm_struct(s, "    ", vm);
			any = 1;
		}
	if (!any)
		so_printf(s, "no cached stacks\n");
	free(tasks);
	return 0;
}

/* Every CPU's IRQ and exception stacks (or @only's), with their guards. */
int so_cmd_cpu_stacks(struct stackov *s, int only)
{
	struct so_region r[SO_MAX_REGIONS];
	int cpu, n, i;

	for (cpu = 0; cpu < so_nr_cpus(s); cpu++) {
		if (only >= 0 && cpu != only)
			continue;
		n = so_regions(s, cpu, 0, r, SO_MAX_REGIONS);
		for (i = 0; i < n; i++)
			so_printf(s, "cpu %d  %-10s %lx..%lx %6lu bytes\n", cpu, r[i].name,
				  (unsigned long)r[i].lo, (unsigned long)r[i].hi,
				  (unsigned long)(r[i].hi - r[i].lo));
	}
	return 0;
}

/*
 * The heads of vmalloc's busy lists: vmap_area_list up to 6.8; from 6.9,
 * each vmap_node's busy.head (mm/vmalloc.c).
 */
static int busy_lists(struct stackov *s, uint64_t *heads, int max)
{
	uint64_t nodes, nr_a, base;
	uint32_t nr;
	long size, busy, head;
	int i, n = 0;

	if (!so_sym(s, "vmap_area_list", &heads[0]))
		return 1;
	size = so_size(s, "vmap_node");
	busy = so_moff(s, "vmap_node", "busy");
	head = so_moff(s, "rb_list", "head");
	if (so_sym(s, "vmap_nodes", &nodes) || so_sym(s, "nr_vmap_nodes", &nr_a) || size <= 0 ||
	    busy < 0 || head < 0 || so_u64(s, nodes, &base) || so_u32(s, nr_a, &nr))
		return 0;
	for (i = 0; i < (int)nr && n < max; i++)
		heads[n++] = base + i * size + busy + head;
	return n;
}

/* The vmap_area holding @addr: 0 with its bounds and vm_struct. */
static int vmalloc_area(struct stackov *s, uint64_t addr, uint64_t *lo, uint64_t *hi, uint64_t *vm)
{
	uint64_t heads[1024], node;
	long off = so_moff(s, "vmap_area", "list");
	int n = busy_lists(s, heads, (int)ARRAY_SIZE(heads)), i;
	long steps;

	if (off < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (so_u64(s, heads[i], &node))
			continue;
		for (steps = 0; node != heads[i] && node && steps < 1000000; steps++) {
			uint64_t va = node - off;

			if (!so_u64(s, va + so_moff(s, "vmap_area", "va_start"), lo) &&
			    !so_u64(s, va + so_moff(s, "vmap_area", "va_end"), hi) &&
			    *lo <= addr && addr < *hi) {
				*vm = 0;
				so_u64(s, va + so_moff(s, "vmap_area", "vm"), vm);
				return 0;
			}
			if (so_u64(s, node, &node))
				break;
		}
	}
	return -1;
}

#define VMALLOC_DEFAULT	0xffffc90000000000UL	/* without RANDOMIZE_MEMORY */
#define VMALLOC_BYTES	(32UL << 40)		/* 4-level paging's 32 TiB */

/* @addr in a CPU's cached stack (which no task owns): 0 with its bounds. */
static int cached_slot(struct stackov *s, uint64_t addr, int *cpu_out, uint64_t *lo)
{
	long slots = cache_slots(s), i;
	uint64_t vm;
	int cpu;

	for (cpu = 0; cpu < so_nr_cpus(s); cpu++)
		for (i = 0; i < slots; i++) {
			if (cache_slot(s, cpu, i, &vm) ||
			    so_u64(s, vm + so_moff(s, "vm_struct", "addr"), lo))
				continue;
			if (addr >= *lo && addr < *lo + so_thread_size(s)) {
				*cpu_out = cpu;
				return 0;
			}
		}
	return -1;
}

/* @addr in vmalloc space (vmalloc_base, randomized, and its 32 TiB). */
static int in_vmalloc(struct stackov *s, uint64_t addr)
{
	uint64_t p, base = VMALLOC_DEFAULT;

	if (!so_sym(s, "vmalloc_base", &p))
		so_u64(s, p, &base);
	return addr >= base && addr - base < VMALLOC_BYTES;
}

/*
 * Which stack or guard page @addr is in, of whom, else which vmalloc area,
 * in words in @buf; what kind of place it is.
 */
enum so_at so_where(struct stackov *s, uint64_t addr, char *buf, size_t len)
{
	struct so_region r[SO_MAX_REGIONS], *at;
	uint64_t *tasks, lo, hi, vm;
	struct so_task k;
	char comm[80], name[128];
	long n, i;
	int cpu, nr;

	for (cpu = 0; cpu < so_nr_cpus(s); cpu++) {
		nr = so_regions(s, cpu, 0, r, SO_MAX_REGIONS);
		at = so_region_of(r, nr, addr);
		if (at) {
			snprintf(buf, len, "cpu %d's %s %s+%#lx", cpu, at->name,
				 at->guard ? "page" : "stack", (unsigned long)(addr - at->lo));
			return SO_AT_CPU_STACK;
		}
	}
	n = so_all_tasks(s, &tasks);
	for (i = 0; i < n; i++) {
		if (so_task(s, tasks[i], &k) || !k.stack)
			continue;
		if (addr >= k.stack - SO_PAGE && addr < k.stack + so_thread_size(s)) {
			int guard = addr < k.stack;

			so_text_comm(k.comm, comm, sizeof(comm));
			snprintf(buf, len, "%s of pid %ld \"%s\", %s+%#lx",
				 guard ? "the guard page below the TASK stack" : "the TASK stack", k.pid,
				 comm, guard ? "page" : "stack",
				 (unsigned long)(addr - (guard ? k.stack - SO_PAGE : k.stack)));
			free(tasks);
			return SO_AT_TASK_STACK;
		}
	}
	free(tasks);
	if (!cached_slot(s, addr, &cpu, &lo)) {
		snprintf(buf, len, "a stack in cpu %d's cache, %lx..%lx, stack+%#lx: freed by the task that had it, kept for the next",
			 cpu, (unsigned long)lo, (unsigned long)(lo + so_thread_size(s)),
			 (unsigned long)(addr - lo));
		return SO_AT_CACHED;
	}
	if (!vmalloc_area(s, addr, &lo, &hi, &vm)) {
		so_vm_caller(s, vm, name, sizeof(name));
		snprintf(buf, len, "vmalloc area %lx..%lx, caller %s, not a stack",
			 (unsigned long)lo, (unsigned long)hi, name);
		return SO_AT_VMALLOC;
	}
	if (in_vmalloc(s, addr)) {
		snprintf(buf, len, "vmalloc space that no area holds: unmapped, as a freed vmap stack is once vfree() has run");
		return SO_AT_UNMAPPED;
	}
	snprintf(buf, len, "no stack, guard page or vmalloc area");
	return SO_AT_NOWHERE;
}

/* One line: where @addr lies. */
int so_cmd_where(struct stackov *s, uint64_t addr)
{
	char buf[320];

	so_where(s, addr, buf, sizeof(buf));
	so_printf(s, "%lx: %s\n", (unsigned long)addr, buf);
	return 0;
}
