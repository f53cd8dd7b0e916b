// SPDX-License-Identifier: GPL-2.0
/*
 * stackov: the kernel's ORC tables, read from the dump as the kernel's own
 * unwinder reads them (arch/x86/kernel/unwind_orc.c): vmlinux's
 * __start_orc_unwind_ip.. and each module's mod->arch tables. For each
 * address, an entry says where the caller's stack pointer was (the CFA: a
 * register plus an offset) and where %rbp was saved.
 * rules/stackov/orc.py says the same in Python.
 */
#include "verdict.h"

#define ORC_MAX_TABLES	128
#define ORC_MAX_ENTRIES	(1L << 22)

struct orc_table {
	ulong lo[2], hi[2];	/* the text it covers: core and init */
	int nranges;
	long num;
	ulong *ips;		/* each entry's address, sorted */
	unsigned char *u;	/* struct orc_entry, 6 bytes each */
};

static struct orc_table tables[ORC_MAX_TABLES];
static int ntables;
static int new_format;	/* 6.4's struct orc_entry: type:3, signal:1 */

#define STACKOV_MOD_TEXT		0	/* enum mod_mem_type, 6.4 on */
#define STACKOV_MOD_INIT_TEXT	4

/*
 * A module's core text (@init 0) or init text (1), 1 if it has it: in
 * mod->core_layout and init_layout up to 6.3, from 6.4 in mod->mem[STACKOV_MOD_TEXT]
 * and mem[STACKOV_MOD_INIT_TEXT] (include/linux/module.h).
 */
int module_text(ulong mod, int init, ulong *base, ulong *end)
{
	long off, base_off, size_off;
	unsigned int size;

	if (MEMBER_EXISTS("module", "core_layout")) {
		off = MEMBER_OFFSET("module", init ? "init_layout" : "core_layout");
		base_off = MEMBER_OFFSET("module_layout", "base");
		size_off = MEMBER_OFFSET("module_layout", "text_size");
	} else {
		off = MEMBER_OFFSET("module", "mem");
		if (off < 0 || STRUCT_SIZE("module_memory") <= 0)
			return 0;
		off += (init ? STACKOV_MOD_INIT_TEXT : STACKOV_MOD_TEXT) * STRUCT_SIZE("module_memory");
		base_off = MEMBER_OFFSET("module_memory", "base");
		size_off = MEMBER_OFFSET("module_memory", "size");
	}
	if (off < 0 || base_off < 0 || size_off < 0 ||
	    !read_ulong(mod + off + base_off, base) || !*base ||
	    !readmem(mod + off + size_off, KVADDR, &size, sizeof(size), "module text size",
		     RETURN_ON_ERROR | QUIET))
		return 0;
	*end = *base + size;
	return 1;
}

int have_orc(void)
{
	return symbol_exists("__start_orc_unwind_ip");
}

/* int ip[] holds each address relative to its own slot. */
static int load_table(struct orc_table *t, ulong ip_tab, ulong u_tab, long num)
{
	int *rel;
	long i;

	if (num <= 0 || num > ORC_MAX_ENTRIES)
		return 0;
	rel = malloc(num * sizeof(*rel));
	t->ips = malloc(num * sizeof(*t->ips));
	t->u = malloc(num * 6);
	if (!rel || !t->ips || !t->u ||
	    !readmem(ip_tab, KVADDR, rel, num * sizeof(*rel), "orc_unwind_ip",
		     RETURN_ON_ERROR | QUIET) ||
	    !readmem(u_tab, KVADDR, t->u, num * 6, "orc_unwind", RETURN_ON_ERROR | QUIET)) {
		free(rel);
		free(t->ips);
		free(t->u);
		return 0;
	}
	for (i = 0; i < num; i++)
		t->ips[i] = ip_tab + 4 * i + rel[i];
	free(rel);
	t->num = num;
	return 1;
}

static void load_modules(void)
{
	ulong head = symbol_value("modules"), node, mod, ip_tab, u_tab;
	long list = MEMBER_OFFSET("module", "list"), arch = MEMBER_OFFSET("module", "arch");
	unsigned int num;

	if (list < 0 || arch < 0 || !read_ulong(head, &node))
		return;
	for (; node != head && node && ntables < ORC_MAX_TABLES; read_ulong(node, &node)) {
		struct orc_table *t = &tables[ntables];

		mod = node - list;
		if (!readmem(mod + arch + MEMBER_OFFSET("mod_arch_specific", "num_orcs"), KVADDR,
			     &num, sizeof(num), "num_orcs", RETURN_ON_ERROR | QUIET) || !num ||
		    !read_ulong(mod + arch + MEMBER_OFFSET("mod_arch_specific", "orc_unwind_ip"),
				&ip_tab) ||
		    !read_ulong(mod + arch + MEMBER_OFFSET("mod_arch_specific", "orc_unwind"),
				&u_tab))
			continue;
		t->nranges = 0;
		if (module_text(mod, 0, &t->lo[t->nranges], &t->hi[t->nranges]))
			t->nranges++;
		if (module_text(mod, 1, &t->lo[t->nranges], &t->hi[t->nranges]))
			t->nranges++;
		if (load_table(t, ip_tab, u_tab, num))
			ntables++;
	}
}

/* vmlinux's tables and every module's; 0 if vmlinux's cannot be read. */
int orc_load(void)
{
	struct orc_table *t = &tables[0];
	ulong start = symbol_value("__start_orc_unwind_ip");
	ulong stop = symbol_value("__stop_orc_unwind_ip");

	ntables = 0;
	new_format = MEMBER_EXISTS("orc_entry", "signal");
	if (!load_table(t, start, symbol_value("__start_orc_unwind"), (stop - start) / 4))
		return 0;
	/* The table covers vmlinux's text, up to its last (terminating) entry. */
	t->lo[0] = t->ips[0];
	t->hi[0] = t->ips[t->num - 1] + 1;
	t->nranges = 1;
	ntables = 1;
	load_modules();
	return 1;
}

void orc_unload(void)
{
	int i;

	for (i = 0; i < ntables; i++) {
		free(tables[i].ips);
		free(tables[i].u);
	}
	ntables = 0;
}

/* The rightmost entry at or below @ip (__orc_find()), 0 if none. */
int orc_find(ulong ip, struct stackov_orc *e)
{
	long lo, hi, mid, found = -1;
	unsigned short bits;
	unsigned char *p;
	int i, r;

	for (i = 0; i < ntables; i++) {
		struct orc_table *t = &tables[i];

		for (r = 0; r < t->nranges; r++)
			if (ip >= t->lo[r] && ip < t->hi[r])
				break;
		if (r == t->nranges)
			continue;
		for (lo = 0, hi = t->num - 1; lo <= hi;) {
			mid = lo + (hi - lo) / 2;
			if (t->ips[mid] <= ip) {
				found = mid;
				lo = mid + 1;
			} else {
				hi = mid - 1;
			}
		}
		if (found < 0)
			return 0;
		p = t->u + 6 * found;
		e->sp_offset = (short)(p[0] | p[1] << 8);
		e->bp_offset = (short)(p[2] | p[3] << 8);
		bits = p[4] | p[5] << 8;
		e->sp_reg = bits & 0xf;
		e->bp_reg = (bits >> 4) & 0xf;
		if (new_format) {
			unsigned int kind = (bits >> 8) & 7;

			e->type = kind >= 2 ? kind - 2 : STACKOV_ORC_TYPE_NONE;
			e->end = kind == 1;
		} else {
			e->type = (bits >> 8) & 3;
			e->end = (bits >> 10) & 1;
		}
		return 1;
	}
	return 0;
}
