// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: the kernel's ORC tables (arch/x86/kernel/unwind_orc.c), one
 * decoder for every source: vmlinux's __start_orc_unwind_ip.. and each
 * module's mod->arch tables read from the dump's memory (searched in
 * place, as __orc_find() does, a few words a lookup), or an ELF file's
 * .orc_unwind_ip and .orc_unwind sections (the log explainer's). For each
 * address an entry says where the caller's stack pointer was (the CFA: a
 * register plus an offset) and where %rbp was saved.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * struct orc_entry, 6 bytes: sp_offset, bp_offset, then sp_reg:4,
 * bp_reg:4 and, up to 6.3, type:2, end:1; from 6.4, type:3 (0 undefined,
 * 1 end of stack, 2 call, 3 regs, 4 partial regs), signal:1. Which one a
 * kernel writes is whether struct orc_entry has a member "signal": its
 * own types say, never its version (a backport keeps its version).
 */
void stackov_orc_decode(const unsigned char raw[6], int new_format, struct stackov_orc_entry *e)
{
	unsigned int bits = raw[4] | raw[5] << 8;

	e->sp_offset = (short)(raw[0] | raw[1] << 8);
	e->bp_offset = (short)(raw[2] | raw[3] << 8);
	e->sp_reg = bits & 0xf;
	e->bp_reg = (bits >> 4) & 0xf;
	if (new_format) {
		unsigned int kind = (bits >> 8) & 7;

		e->type = kind >= 2 ? kind - 2 : STACKOV_ORC_TYPE_NONE;
		e->end = kind == 1;
		e->signal = (bits >> 11) & 1;
	} else {
		e->type = (bits >> 8) & 3;
		e->end = (bits >> 10) & 1;
		e->signal = 0;
	}
}

long stackov_orc_search(const uint64_t *ips, long n, uint64_t ip)
{
	long lo = 0, hi = n - 1, mid, found = -1;

	while (lo <= hi) {
		mid = lo + (hi - lo) / 2;
		if (ips[mid] <= ip) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return found;
}

long stackov_orc_frame_bytes(const struct stackov_orc_entry *e)
{
	if (e->sp_reg != STACKOV_ORC_REG_SP || e->type != STACKOV_ORC_TYPE_CALL)
		return -1;
	return e->sp_offset;
}

/* One table in the dump's memory: int ip[] and struct orc_entry u[]. */
struct so_orc_table {
	uint64_t ip_tab, u_tab;
	long num;
	uint64_t lo[2], hi[2];	/* the text it covers: core and init */
	int nranges;
};

struct so_orc {
	int loaded, new_format;
	struct so_orc_table t[SO_ORC_MAX_TABLES];
	int n;
};

int so_have_orc(struct stackov *s)
{
	return so_has_sym(s, "__start_orc_unwind_ip");
}

/* Entry @i's address: int ip[] holds each relative to its own slot. */
static int ip_at(struct stackov *s, const struct so_orc_table *t, long i, uint64_t *ip)
{
	int32_t rel;

	if (so_read(s, t->ip_tab + 4 * i, &rel, sizeof(rel)))
		return -1;
	*ip = t->ip_tab + 4 * i + (int64_t)rel;
	return 0;
}

static void load(struct stackov *s, struct so_orc *o)
{
	uint64_t start, stop, u, mods[512], ip_tab, u_tab, first, last;
	long arch = so_moff(s, "module", "arch");
	uint32_t num;
	int n, i;

	o->loaded = 1;
	o->new_format = so_moff(s, "orc_entry", "signal") >= 0;
	if (so_sym(s, "__start_orc_unwind_ip", &start) || so_sym(s, "__stop_orc_unwind_ip", &stop) ||
	    so_sym(s, "__start_orc_unwind", &u) || stop <= start ||
	    (long)((stop - start) / 4) > SO_ORC_MAX_ENTRIES)
		return;
	o->t[0].ip_tab = start;
	o->t[0].u_tab = u;
	o->t[0].num = (stop - start) / 4;
	/* It covers vmlinux's text, up to its last (terminating) entry. */
	if (ip_at(s, &o->t[0], 0, &first) || ip_at(s, &o->t[0], o->t[0].num - 1, &last))
		return;
	o->t[0].lo[0] = first;
	o->t[0].hi[0] = last + 1;
	o->t[0].nranges = 1;
	o->n = 1;
	if (arch < 0)
		return;
	n = so_modules(s, mods, (int)ARRAY_SIZE(mods));
	for (i = 0; i < n && o->n < SO_ORC_MAX_TABLES; i++) {
		struct so_orc_table *t = &o->t[o->n];
		uint64_t m = mods[i] + arch;

		if (so_u32(s, m + so_moff(s, "mod_arch_specific", "num_orcs"), &num) || !num ||
		    (long)num > SO_ORC_MAX_ENTRIES ||
		    so_u64(s, m + so_moff(s, "mod_arch_specific", "orc_unwind_ip"), &ip_tab) ||
		    so_u64(s, m + so_moff(s, "mod_arch_specific", "orc_unwind"), &u_tab))
			continue;
		t->ip_tab = ip_tab;
		t->u_tab = u_tab;
		t->num = num;
		t->nranges = 0;
		if (!so_module_text(s, mods[i], 0, &t->lo[0], &t->hi[0]))
			t->nranges++;
		if (!so_module_text(s, mods[i], 1, &t->lo[t->nranges], &t->hi[t->nranges]))
			t->nranges++;
		o->n++;
	}
}

/* The rightmost entry at or below @ip (__orc_find()): 0, -1 if none. */
int so_orc_find(struct stackov *s, uint64_t ip, struct stackov_orc_entry *e)
{
	struct so_orc *o;
	long lo, hi, mid, found = -1;
	unsigned char raw[6];
	uint64_t a;
	int i, r;

	if (!s->orc)
		s->orc = calloc(1, sizeof(*s->orc));
	o = s->orc;
	if (!o)
		return -1;
	if (!o->loaded)
		load(s, o);
	for (i = 0; i < o->n; i++) {
		struct so_orc_table *t = &o->t[i];

		for (r = 0; r < t->nranges; r++)
			if (ip >= t->lo[r] && ip < t->hi[r])
				break;
		if (r == t->nranges)
			continue;
		for (lo = 0, hi = t->num - 1; lo <= hi;) {
			mid = lo + (hi - lo) / 2;
			if (ip_at(s, t, mid, &a))
				return -1;
			if (a <= ip) {
				found = mid;
				lo = mid + 1;
			} else {
				hi = mid - 1;
			}
		}
		if (found < 0 || so_read(s, t->u_tab + 6 * found, raw, sizeof(raw)))
			return -1;
		stackov_orc_decode(raw, o->new_format, e);
		return 0;
	}
	return -1;
}

void so_orc_free(struct so_orc *o)
{
	free(o);
}
