// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: a text address named as kallsyms names it, the same for
 * every reader: the nearest text symbol at or below it, from vmlinux's
 * .symtab (moved by the KASLR offset: the running _stext against the
 * file's), else from a module's own symbol table in the kernel's memory
 * (mod->kallsyms: its core text, and its init text while init runs), as
 * the oops prints it. The readers' own lookups differ (crash 9 names a
 * frame run_crashtype.cold where crash 8 and drgn say run_crashtype);
 * one rule here gives every reader the same word.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

struct so_sym {
	uint64_t addr;
	char *name;
};

struct so_range {
	uint64_t lo, hi;
};

struct so_modtext {
	uint64_t lo, hi;
	struct so_sym *syms;
	long n;
};

struct so_syms {
	int loaded, mods_loaded;
	struct so_sym *syms;
	long n;
	struct so_range *text;	/* vmlinux's executable sections */
	int ntext;
	int64_t kaslr;
	struct so_modtext *mods;
	int nmods;
};

static int by_addr(const void *a, const void *b)
{
	const struct so_sym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* vmlinux's text symbols: functions and the labels inside them. */
static void load_vmlinux(struct stackov *s, struct so_syms *y)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shnum, i;
	char *exec = NULL;
	uint64_t stext_file = 0, stext;
	long cap = 0;
	int fd;

	y->loaded = 1;
	if (!s->t.vmlinux || elf_version(EV_CURRENT) == EV_NONE)
		return;
	fd = open(s->t.vmlinux, O_RDONLY);
	if (fd < 0)
		return;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_getshdrnum(elf, &shnum))
		goto out;
	exec = calloc(shnum, 1);
	if (!exec)
		goto out;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		exec[elf_ndxscn(scn)] = 1;
		y->text = realloc(y->text, (y->ntext + 1) * sizeof(*y->text));
		if (!y->text)
			goto out;
		y->text[y->ntext].lo = sh.sh_addr;
		y->text[y->ntext++].hi = sh.sh_addr + sh.sh_size;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		GElf_Sym sym;
		size_t n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		n = sh.sh_size / sh.sh_entsize;
		for (i = 1; d && i < n; i++) {
			const char *name;
			int type;

			if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx >= shnum || !exec[sym.st_shndx])
				continue;
			type = GELF_ST_TYPE(sym.st_info);
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if ((type != STT_NOTYPE && type != STT_FUNC) || !name || !*name ||
			    !strncmp(name, ".L", 2) || name[0] == '$')
				continue;
			if (!strcmp(name, "_stext"))
				stext_file = sym.st_value;
			if (y->n == cap) {
				cap = cap ? 2 * cap : 65536;
				y->syms = realloc(y->syms, cap * sizeof(*y->syms));
				if (!y->syms)
					goto out;
			}
			y->syms[y->n].addr = sym.st_value;
			y->syms[y->n++].name = strdup(name);
		}
	}
	qsort(y->syms, y->n, sizeof(*y->syms), by_addr);
	/* The kernel ran moved by KASLR: its _stext was there. */
	if (stext_file && !so_sym(s, "_stext", &stext))
		y->kaslr = (int64_t)(stext - stext_file);
out:
	free(exec);
	if (elf)
		elf_end(elf);
	close(fd);
}

/* The nearest symbol at or below @pc among @n sorted ones, -1 if none. */
static long nearest(const struct so_sym *syms, long n, uint64_t pc)
{
	long lo = 0, hi = n - 1, mid, found = -1;

	while (lo <= hi) {
		mid = lo + (hi - lo) / 2;
		if (syms[mid].addr <= pc) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return found;
}

/*
 * A module's core text (@init 0) or init text (1): in mod->core_layout
 * and init_layout up to 6.3, from 6.4 in mod->mem[MOD_TEXT] and
 * mem[MOD_INIT_TEXT] (include/linux/module.h). 0 if it has it.
 */
int so_module_text(struct stackov *s, uint64_t mod, int init, uint64_t *base, uint64_t *end)
{
	long off, base_off, size_off;
	uint32_t size;

	if (so_moff(s, "module", "core_layout") >= 0) {
		off = so_moff(s, "module", init ? "init_layout" : "core_layout");
		base_off = so_moff(s, "module_layout", "base");
		size_off = so_moff(s, "module_layout", "text_size");
	} else {
		off = so_moff(s, "module", "mem");
		if (off < 0 || so_size(s, "module_memory") <= 0)
			return -1;
		off += (init ? 4 : 0) * so_size(s, "module_memory");	/* MOD_INIT_TEXT, MOD_TEXT */
		base_off = so_moff(s, "module_memory", "base");
		size_off = so_moff(s, "module_memory", "size");
	}
	if (off < 0 || base_off < 0 || size_off < 0 || so_u64(s, mod + off + base_off, base) ||
	    !*base || so_u32(s, mod + off + size_off, &size))
		return -1;
	*end = *base + size;
	return 0;
}

/* The modules' struct module addresses, up to @max; how many. */
int so_modules(struct stackov *s, uint64_t *mods, int max)
{
	uint64_t head, node;
	long list = so_moff(s, "module", "list");
	int n = 0;

	if (list < 0 || so_sym(s, "modules", &head) || so_u64(s, head, &node))
		return 0;
	for (; node != head && node && n < max; ) {
		mods[n++] = node - list;
		if (so_u64(s, node, &node))
			break;
	}
	return n;
}

/* One module text's symbols, from its kallsyms: those inside [lo, hi). */
static void load_module_text(struct stackov *s, struct so_syms *y, uint64_t ks,
			     uint64_t lo, uint64_t hi)
{
	uint64_t symtab, strtab;
	uint32_t num;
	struct { uint32_t name; uint8_t info, other; uint16_t shndx; uint64_t value, size; } *tab;
	struct so_modtext *m;
	uint32_t i;

	if (so_u64(s, ks + so_moff(s, "mod_kallsyms", "symtab"), &symtab) ||
	    so_u64(s, ks + so_moff(s, "mod_kallsyms", "strtab"), &strtab) ||
	    so_u32(s, ks + so_moff(s, "mod_kallsyms", "num_symtab"), &num) || !num || num > 100000)
		return;
	tab = malloc((size_t)num * sizeof(*tab));
	if (!tab || so_raw_read(s, symtab, tab, (size_t)num * sizeof(*tab))) {
		free(tab);
		return;
	}
	y->mods = realloc(y->mods, (y->nmods + 1) * sizeof(*y->mods));
	if (!y->mods) {
		free(tab);
		return;
	}
	m = &y->mods[y->nmods++];
	m->lo = lo;
	m->hi = hi;
	m->syms = calloc(num, sizeof(*m->syms));
	m->n = 0;
	for (i = 1; m->syms && i < num; i++) {
		char name[128];

		if (tab[i].value < lo || tab[i].value >= hi ||
		    so_raw_read(s, strtab + tab[i].name, name, sizeof(name) - 1))
			continue;
		name[sizeof(name) - 1] = '\0';
		m->syms[m->n].addr = tab[i].value;
		m->syms[m->n++].name = strdup(name);
	}
	qsort(m->syms, m->n, sizeof(*m->syms), by_addr);
	free(tab);
}

static void load_modules(struct stackov *s, struct so_syms *y)
{
	uint64_t mods[512], ks, lo, hi;
	long off = so_moff(s, "module", "kallsyms");
	int n, i, init;

	y->mods_loaded = 1;
	if (off < 0)
		return;
	n = so_modules(s, mods, (int)ARRAY_SIZE(mods));
	for (i = 0; i < n; i++) {
		if (so_u64(s, mods[i] + off, &ks) || !ks)
			continue;
		for (init = 0; init <= 1; init++)
			if (!so_module_text(s, mods[i], init, &lo, &hi))
				load_module_text(s, y, ks, lo, hi);
	}
}

static struct so_syms *syms_of(struct stackov *s)
{
	if (!s->syms) {
		s->syms = calloc(1, sizeof(*s->syms));
		if (s->syms)
			load_vmlinux(s, s->syms);
	}
	return s->syms;
}

/* Whether @pc is in vmlinux's text: 1, or in a module's: 2; 0 if neither. */
static int lookup(struct stackov *s, uint64_t pc, const char **name, uint64_t *start)
{
	struct so_syms *y = syms_of(s);
	uint64_t p;
	long i;
	int r;

	if (!y)
		return 0;
	p = pc - y->kaslr;
	for (r = 0; r < y->ntext; r++)
		if (p >= y->text[r].lo && p < y->text[r].hi) {
			i = nearest(y->syms, y->n, p);
			if (i < 0)
				return 0;
			*name = y->syms[i].name;
			*start = y->syms[i].addr + y->kaslr;
			return 1;
		}
	if (!y->mods_loaded)
		load_modules(s, y);
	for (r = 0; r < y->nmods; r++)
		if (pc >= y->mods[r].lo && pc < y->mods[r].hi) {
			i = nearest(y->mods[r].syms, y->mods[r].n, pc);
			if (i < 0)
				return 0;
			*name = y->mods[r].syms[i].name;
			*start = y->mods[r].syms[i].addr;
			return 2;
		}
	return 0;
}

/* @pc's function name, and its start: 0, or -1 if @pc is no known text. */
int so_name(struct stackov *s, uint64_t pc, char *name, size_t len, uint64_t *start)
{
	const char *n = NULL;
	char key[32], v[256], *sp;
	uint64_t st = 0;

	snprintf(key, sizeof(key), "%lx", (unsigned long)pc);
	if (s->tape) {
		if (so_tape_lookup(s, "N", key, v, sizeof(v)))
			return -1;
		st = strtoull(v, &sp, 16);
		snprintf(name, len, "%s", sp + (*sp == ' '));
		*start = st;
		return 0;
	}
	if (!lookup(s, pc, &n, &st)) {
		so_rec(s, "N %lx -\n", (unsigned long)pc);
		return -1;
	}
	so_rec(s, "N %lx %lx %s\n", (unsigned long)pc, (unsigned long)st, n);
	snprintf(name, len, "%s", n);
	*start = st;
	return 0;
}

int so_is_text(struct stackov *s, uint64_t pc)
{
	char name[128];
	uint64_t start;

	return so_name(s, pc, name, sizeof(name), &start) == 0;
}

void so_syms_free(struct so_syms *y)
{
	long i;
	int m;

	if (!y)
		return;
	for (i = 0; i < y->n; i++)
		free(y->syms[i].name);
	free(y->syms);
	free(y->text);
	for (m = 0; m < y->nmods; m++) {
		for (i = 0; i < y->mods[m].n; i++)
			free(y->mods[m].syms[i].name);
		free(y->mods[m].syms);
	}
	free(y->mods);
	free(y);
}
