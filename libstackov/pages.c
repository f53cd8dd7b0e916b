// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: the kernel's page tables, walked from init_top_pgt as the
 * MMU walks them (4 levels), for a reader that sees only what an ELF
 * vmcore maps, and a stack's vm_struct with its pages' frame numbers.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define PTE_PFN_MASK	0x000ffffffffff000ULL
#define PRESENT		0x1ULL
#define LARGE		0x80ULL
#define PAGE_OFFSET_DEFAULT	0xffff888000000000ULL

/* Where the direct map starts: page_offset_base (RANDOMIZE_MEMORY). */
uint64_t so_page_offset(struct stackov *s)
{
	uint64_t p, v;

	if (!s->page_offset) {
		s->page_offset = PAGE_OFFSET_DEFAULT;
		if (!so_sym(s, "page_offset_base", &p) && !so_raw_read(s, p, &v, sizeof(v)))
			s->page_offset = v;
	}
	return s->page_offset;
}

/* @addr's physical address, from the kernel's page tables: 0 if mapped. */
int so_vtop(struct stackov *s, uint64_t addr, uint64_t *phys)
{
	static const int shift[] = { 30, 21, 12 };
	uint64_t table, entry, po = so_page_offset(s), mask;
	unsigned int i;

	if (so_sym(s, "init_top_pgt", &table) ||
	    so_raw_read(s, table + 8 * ((addr >> 39) & 511), &entry, sizeof(entry)))
		return -1;
	for (i = 0; i < ARRAY_SIZE(shift); i++) {
		if (!(entry & PRESENT))
			return -1;
		if (so_raw_read(s, po + (entry & PTE_PFN_MASK) + 8 * ((addr >> shift[i]) & 511),
				&entry, sizeof(entry)))
			return -1;
		if (shift[i] != 12 && (entry & PRESENT) && (entry & LARGE)) {
			mask = (1ULL << shift[i]) - 1;
			*phys = (entry & PTE_PFN_MASK & ~mask) | (addr & mask);
			return 0;
		}
	}
	if (!(entry & PRESENT))
		return -1;
	*phys = (entry & PTE_PFN_MASK) | (addr & 0xfff);
	return 0;
}

/* @pc as crash's value_to_symstr() says it: name, or name+offset. */
void so_symstr(struct stackov *s, uint64_t pc, char *buf, size_t len)
{
	char name[128];
	uint64_t start;

	if (so_name(s, pc, name, sizeof(name), &start))
		snprintf(buf, len, "%lx", (unsigned long)pc);
	else if (pc == start)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%s+%lu", name, (unsigned long)(pc - start));
}

/* Who allocated a vm_struct: its caller's symbol, or "?". */
void so_vm_caller(struct stackov *s, uint64_t vm, char *buf, size_t len)
{
	uint64_t caller = 0;

	if (vm)
		so_u64(s, vm + so_moff(s, "vm_struct", "caller"), &caller);
	if (caller)
		so_symstr(s, caller, buf, len);
	else
		snprintf(buf, len, "?");
}

/* A stack's vm_struct: address, size, pages and their PFNs, caller. */
void so_vm_struct(struct stackov *s, const char *indent, uint64_t vm)
{
	uint64_t addr = 0, size = 0, pa;
	uint32_t nr = 0, i;
	char sym[160];

	if (!vm || so_u64(s, vm + so_moff(s, "vm_struct", "addr"), &addr) ||
	    so_u64(s, vm + so_moff(s, "vm_struct", "size"), &size)) {
		so_printf(s, "%svm_struct: none (not a vmalloc'd stack)\n", indent);
		return;
	}
	so_u32(s, vm + so_moff(s, "vm_struct", "nr_pages"), &nr);
	so_vm_caller(s, vm, sym, sizeof(sym));
	so_printf(s, "%svm_struct: %lx, area %lx..%lx (%lu bytes, a guard page included), %u pages, caller %s\n",
		  indent, (unsigned long)vm, (unsigned long)addr, (unsigned long)(addr + size),
		  (unsigned long)size, nr, sym);
	so_printf(s, "%spfns:     ", indent);
	for (i = 0; i < nr && i < 16; i++) {
		char key[32], v[32];
		uint64_t pfn = 0;

		/* A walk's answer is recorded as one: the PFN itself. */
		snprintf(key, sizeof(key), "%lx", (unsigned long)(addr + i * SO_PAGE));
		if (s->tape) {
			if (!so_tape_lookup(s, "P", key, v, sizeof(v)))
				pfn = strtoull(v, NULL, 16);
		} else {
			if (!so_vtop(s, addr + i * SO_PAGE, &pa))
				pfn = pa >> 12;
			so_rec(s, "P %s %lx\n", key, (unsigned long)pfn);
		}
		so_printf(s, "%s%lx", i ? " " : "", (unsigned long)pfn);
	}
	so_printf(s, "\n");
}
