// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: a local variable of a frame by its DWARF name (libdwfl): the
 * one that lies at some bytes below the frame's CFA, as the compiler
 * placed it (DW_OP_fbreg from DW_OP_call_frame_cfa). Looked for in
 * vmlinux and in the modules' objects: the *.ko in $STACKOV_MODULES (a
 * directory, or several with ':'), else beside vmlinux. Recorded as any
 * other answer, so that a replay names it with no object at hand. The
 * modules are looked in first: vmlinux's DWARF is the larger by far.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "internal.h"

/* @name without gcc's clone suffixes: copy_name.constprop.0.isra.0 */
static void plain(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s", name);
	buf[strcspn(buf, ".")] = '\0';
}

/*
 * A DIE's name, or its abstract origin's: a concrete instance of an
 * inlined or cloned function (copy_name.constprop.0.isra.0), and its
 * variables, name themselves through it.
 */
static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute at;
	Dwarf_Die origin;
	const char *name = dwarf_diename(die);

	if (!name && dwarf_attr(die, DW_AT_abstract_origin, &at) && dwarf_formref_die(&at, &origin))
		name = dwarf_diename(&origin);
	return name;
}

/* A variable's offset from the CFA: a location of one DW_OP_fbreg. */
static int fbreg(Dwarf_Die *var, long *off)
{
	Dwarf_Attribute at;
	Dwarf_Op *ops;
	size_t n;

	if (!dwarf_attr_integrate(var, DW_AT_location, &at) || dwarf_getlocation(&at, &ops, &n) ||
	    n != 1 || ops[0].atom != DW_OP_fbreg)
		return -1;
	*off = (long)ops[0].number;
	return 0;
}

/* The frame base of @fn is the CFA (gcc's DW_OP_call_frame_cfa). */
static int cfa_based(Dwarf_Die *fn)
{
	Dwarf_Attribute at;
	Dwarf_Op *ops;
	size_t n;

	return dwarf_attr_integrate(fn, DW_AT_frame_base, &at) && !dwarf_getlocation(&at, &ops, &n) &&
	       n == 1 && ops[0].atom == DW_OP_call_frame_cfa;
}

struct want {
	const char *fn;		/* its name, no clone suffix */
	long lo, hi;		/* the bytes below the CFA to cover: [lo, hi) */
	char name[64];
	long at, size;
	int found;
};

/* In the function @fn (a concrete one: it has code), the variable over w's bytes. */
static void scan_fn(Dwarf_Die *fn, struct want *w)
{
	Dwarf_Die child, type;
	Dwarf_Attribute ta;
	Dwarf_Word size;
	const char *name;
	long off;

	if (!cfa_based(fn) || dwarf_child(fn, &child))
		return;
	do {
		if (dwarf_tag(&child) != DW_TAG_variable || fbreg(&child, &off))
			continue;
		name = die_name(&child);
		if (!name || !dwarf_attr_integrate(&child, DW_AT_type, &ta) ||
		    !dwarf_formref_die(&ta, &type) || dwarf_aggregate_size(&type, &size))
			continue;
		/* the highest variable that overlaps the bytes below the slot */
		if (off < w->hi && off + (long)size > w->lo && (!w->found || off > w->at)) {
			snprintf(w->name, sizeof(w->name), "%s", name);
			w->at = off;
			w->size = (long)size;
			w->found = 1;
		}
	} while (!dwarf_siblingof(&child, &child));
}

static const Dwfl_Callbacks offline = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/*
 * Every concrete subprogram named @w->fn in the object @path: through
 * libdwfl, which applies a module's relocations (a .ko is ET_REL: its
 * DWARF's strings are found through them).
 */
static void scan_object(const char *path, struct want *w)
{
	Dwarf_Off off = 0, next;
	Dwarf_Addr bias;
	Dwfl_Module *mod;
	size_t hsize;
	Dwarf *dw = NULL;
	Dwfl *dwfl = dwfl_begin(&offline);

	if (!dwfl)
		return;
	mod = dwfl_report_offline(dwfl, "", path, -1);
	dwfl_report_end(dwfl, NULL, NULL);
	if (mod)
		dw = dwfl_module_getdwarf(mod, &bias);
	while (dw && !w->found && !dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cu, die;

		if (dwarf_offdie(dw, off + hsize, &cu) && !dwarf_child(&cu, &die)) {
			do {
				const char *name;
				Dwarf_Addr pc;

				if (dwarf_tag(&die) != DW_TAG_subprogram || dwarf_lowpc(&die, &pc))
					continue;
				name = die_name(&die);
				if (name && !strcmp(name, w->fn))
					scan_fn(&die, w);
			} while (!w->found && !dwarf_siblingof(&die, &die));
		}
		off = next;
	}
	dwfl_end(dwfl);
}

static void scan_dir(const char *dir, struct want *w)
{
	char path[4096];
	struct dirent *e;
	DIR *d = opendir(dir);
	size_t n;

	if (!d)
		return;
	while (!w->found && (e = readdir(d))) {
		n = strlen(e->d_name);
		if (n < 4 || strcmp(e->d_name + n - 3, ".ko"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		scan_object(path, w);
	}
	closedir(d);
}

/*
 * The local variable of @func over the bytes [@lo, @hi) below its CFA
 * (negative offsets): 0 with its name, offset and size, -1 if no object
 * at hand names one.
 */
int so_frame_local(struct stackov *s, const char *func, long lo, long hi, char *name, size_t len,
		   long *at, long *size)
{
	struct want w = { 0 };
	char key[256], val[160], fn[128], dir[4096], *env, *p, *q;

	snprintf(key, sizeof(key), "%s:%ld:%ld", func, lo, hi);
	if (s->tape) {
		if (so_tape_lookup(s, "L", key, val, sizeof(val)) ||
		    sscanf(val, "%63s %ld %ld", w.name, at, size) != 3)
			return -1;
		snprintf(name, len, "%s", w.name);
		return 0;
	}
	plain(func, fn, sizeof(fn));
	w.fn = fn;
	w.lo = lo;
	w.hi = hi;
	env = getenv("STACKOV_MODULES");
	if (env && *env) {
		snprintf(dir, sizeof(dir), "%s", env);
		for (p = dir; !w.found && p; p = q) {
			q = strchr(p, ':');
			if (q)
				*q++ = '\0';
			if (*p)
				scan_dir(p, &w);
		}
	} else if (s->t.vmlinux) {
		snprintf(dir, sizeof(dir), "%s", s->t.vmlinux);
		p = strrchr(dir, '/');
		if (p) {
			*p = '\0';
			scan_dir(dir, &w);
		} else {
			scan_dir(".", &w);
		}
	}
	if (!w.found && s->t.vmlinux)
		scan_object(s->t.vmlinux, &w);
	if (!w.found) {
		so_rec(s, "L %s -\n", key);
		return -1;
	}
	so_rec(s, "L %s %s %ld %ld\n", key, w.name, w.at, w.size);
	snprintf(name, len, "%s", w.name);
	*at = w.at;
	*size = w.size;
	return 0;
}
