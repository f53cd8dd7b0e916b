// SPDX-License-Identifier: GPL-2.0
/*
 * stackov-log: each frame's bytes, given vmlinux (and the modules' .ko),
 * by elfutils' libdwfl. A frame at a return address uses the stack from
 * its callee's CFA up to its own, which is the offset of its CFA rule
 * there: from the kernel's ORC table when vmlinux has one (as the ORC
 * unwinder reads it, and the crash extension), else from the DWARF CFI
 * (dwarf_cfi_addrframe). Where the CFA is %rbp + 16 (a frame-pointer
 * kernel), from what its prologue pushes and subtracts, decoded by
 * capstone. The faulting frame (RIP)
 * is measured at its instruction, not at a call.
 */
#include <capstone/capstone.h>
#include <dirent.h>
#include <limits.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stackov-log.h"
#include "stackov.h"

#define DWARF_REG_RBP	6
#define DWARF_REG_RSP	7

static Dwfl *dwfl;
static Dwfl_Module *kernel;
static const char *mod_dir;
static char banner[256];
static int orc_6_4;	/* the kernel writes 6.4's struct orc_entry */

/* vmlinux's ORC table: each entry's address, and the entries. */
static uint64_t *orc_ip;
static const unsigned char *orc_u;
static size_t orc_num;

/* capstone's x86-64 decoder, with details: opened once, with vmlinux */
static csh cs;

static char *debuginfo_path;
static const Dwfl_Callbacks offline = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

/* The section of @elf named @name, and its data. */
static Elf_Data *section(Elf *elf, const char *name, GElf_Shdr *shdr)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, shdr))
			continue;
		n = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (n && !strcmp(n, name) && shdr->sh_type != SHT_NOBITS)
			return elf_getdata(scn, NULL);
	}
	return NULL;
}

/*
 * The bytes of @mod's section from @addr on, and how many (0 if @addr is
 * in no section with data).
 */
static const char *section_bytes(Dwfl_Module *mod, GElf_Addr addr, size_t *left)
{
	GElf_Addr a = addr, bias;
	Elf_Scn *scn = dwfl_module_address_section(mod, &a, &bias);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;

	*left = d && d->d_buf && a < d->d_size ? d->d_size - a : 0;
	return *left ? (const char *)d->d_buf + a : NULL;
}

/* @len bytes at @addr of @mod's file, 0 if it has none there. */
static int read_at(Dwfl_Module *mod, GElf_Addr addr, void *buf, size_t len)
{
	size_t left;
	const char *p = section_bytes(mod, addr, &left);

	if (!p || len > left)
		return 0;
	memcpy(buf, p, len);
	return 1;
}

static void load_orc(Elf *elf)
{
	GElf_Shdr ip_sh, u_sh;
	Elf_Data *ip = section(elf, ".orc_unwind_ip", &ip_sh);
	Elf_Data *u = section(elf, ".orc_unwind", &u_sh);
	size_t i;

	if (!ip || !u || ip->d_size / 4 != u->d_size / 6 || !ip->d_size)
		return;
	orc_num = ip->d_size / 4;
	orc_ip = malloc(orc_num * sizeof(*orc_ip));
	if (!orc_ip) {
		orc_num = 0;
		return;
	}
	/* int ip[] holds each address relative to its own slot (sorted at link time). */
	for (i = 0; i < orc_num; i++)
		orc_ip[i] = ip_sh.sh_addr + 4 * i + ((const int *)ip->d_buf)[i];
	orc_u = u->d_buf;
}

/*
 * The ORC entry's CFA offset from %rsp at @ip; -1 if it is not %rsp-based:
 * the engine's decoder, on the file's tables.
 */
static long orc_bytes(GElf_Addr ip)
{
	struct stackov_orc_entry e;
	long i = stackov_orc_search(orc_ip, (long)orc_num, ip);

	if (i < 0)
		return -1;
	stackov_orc_decode(orc_u + 6 * i, orc_6_4, &e);
	return stackov_orc_frame_bytes(&e);
}

/* Whether @die defines struct @st: -1 if not, else whether it has a member @m. */
static int defines(Dwarf_Die *die, const char *st, const char *m)
{
	Dwarf_Die mem;
	const char *name = dwarf_diename(die);

	if (dwarf_tag(die) != DW_TAG_structure_type || !dwarf_hasattr(die, DW_AT_byte_size) ||
	    !name || strcmp(name, st))
		return -1;
	if (dwarf_child(die, &mem) == 0)
		do {
			name = dwarf_diename(&mem);
			if (name && !strcmp(name, m))
				return 1;
		} while (dwarf_siblingof(&mem, &mem) == 0);
	return 0;
}

/*
 * Whether @mod's DWARF has a struct @st with a member @m: how the dump
 * readers tell 6.4's struct orc_entry (a member "signal") from 6.1's, by
 * the kernel's own types, never by its version (a backport keeps its
 * version). A struct is defined at a CU's top level.
 */
static int struct_has_member(Dwfl_Module *mod, const char *st, const char *m)
{
	Dwarf_Addr bias;
	Dwarf *dw = dwfl_module_getdwarf(mod, &bias);
	Dwarf_Off off = 0, next;
	size_t hsize;
	Dwarf_Die cu, die;
	int r;

	for (; dw && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0; off = next) {
		if (!dwarf_offdie(dw, off + hsize, &cu) || dwarf_child(&cu, &die))
			continue;
		do {
			r = defines(&die, st, m);
			if (r >= 0)
				return r;
		} while (dwarf_siblingof(&die, &die) == 0);
	}
	return 0;
}

static void read_banner(Dwfl_Module *mod)
{
	int i, n = dwfl_module_getsymtab(mod);
	GElf_Sym sym;
	GElf_Addr addr;

	for (i = 1; i < n; i++) {
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, NULL, NULL, NULL);

		if (name && !strcmp(name, "linux_banner")) {
			size_t len = sym.st_size && sym.st_size < sizeof(banner) ? sym.st_size : sizeof(banner) - 1;

			if (read_at(mod, addr, banner, len))
				banner[strcspn(banner, "\n")] = '\0';
			return;
		}
	}
}

int sl_frames_open(const char *vmlinux, const char *modules, char *err, size_t errlen)
{
	GElf_Addr bias;
	Elf *elf;

	elf_version(EV_CURRENT);
	dwfl = dwfl_begin(&offline);
	if (!dwfl) {
		snprintf(err, errlen, "libdwfl: %s", dwfl_errmsg(-1));
		return -1;
	}
	dwfl_report_begin(dwfl);
	kernel = dwfl_report_offline(dwfl, "vmlinux", vmlinux, -1);
	dwfl_report_end(dwfl, NULL, NULL);
	elf = kernel ? dwfl_module_getelf(kernel, &bias) : NULL;
	if (!elf) {
		snprintf(err, errlen, "VMLINUX=%s: %s", vmlinux, dwfl_errmsg(-1));
		dwfl_end(dwfl);
		dwfl = NULL;
		return -1;
	}
	if (dwfl_module_getsymtab(kernel) <= 0) {
		snprintf(err, errlen, "VMLINUX=%s: it has no symbols", vmlinux);
		dwfl_end(dwfl);
		dwfl = NULL;
		return -1;
	}
	read_banner(kernel);
	load_orc(elf);
	if (orc_num)
		orc_6_4 = struct_has_member(kernel, "orc_entry", "signal");
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) == CS_ERR_OK)
		cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	else
		cs = 0;	/* no decoder: frame-pointer frames' bytes stay unknown */
	mod_dir = modules;
	return 0;
}

const char *sl_vmlinux_banner(void)
{
	return banner;
}

/* @dir/.../@name.ko, searched to a depth of 6; 1 if found, in @path. */
static int find_ko(const char *dir, const char *name, char *path, size_t len, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char sub[4096];
	int found = 0;

	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		size_t n = strlen(de->d_name), i;

		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (n > 3 && !strcmp(de->d_name + n - 3, ".ko") && n - 3 == strlen(name)) {
			/* A module's name has '_' where its file may have '-'. */
			for (i = 0; i < n - 3; i++)
				if (!(de->d_name[i] == name[i] || (de->d_name[i] == '-' && name[i] == '_')))
					break;
			if (i == n - 3) {
				snprintf(path, len, "%s", sub);
				found = 1;
			}
		} else if (depth > 0 && (de->d_type == DT_DIR || de->d_type == DT_UNKNOWN)) {
			found = find_ko(sub, name, path, len, depth - 1);
		}
	}
	closedir(d);
	return found;
}

/* The Dwfl_Module of @name ("" for vmlinux), reported from MODULES= on first use. */
static Dwfl_Module *module_of(const char *name)
{
	static struct { char name[64]; Dwfl_Module *mod; } seen[64];
	static int nseen;
	Dwfl_Module *m = NULL;
	char path[4096];
	int i;

	if (!name[0])
		return kernel;
	for (i = 0; i < nseen; i++)
		if (!strcmp(seen[i].name, name))
			return seen[i].mod;
	if (mod_dir && find_ko(mod_dir, name, path, sizeof(path), 6)) {
		dwfl_report_begin_add(dwfl);
		m = dwfl_report_offline(dwfl, name, path, -1);
		dwfl_report_end(dwfl, NULL, NULL);
	}
	if (nseen < 64) {
		snprintf(seen[nseen].name, sizeof(seen[0].name), "%s", name);
		seen[nseen++].mod = m;
	}
	return m;
}

/* The address of function @e->func in its module, by name and size. */
static int sym_addr(Dwfl_Module *mod, const struct sl_entry *e, GElf_Addr *addr)
{
	int i, n = dwfl_module_getsymtab(mod), found = 0;
	GElf_Sym sym;
	GElf_Addr a;

	for (i = 1; i < n; i++) {
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &a, NULL, NULL, NULL);

		if (!name || GELF_ST_TYPE(sym.st_info) != STT_FUNC || strcmp(name, e->func))
			continue;
		*addr = a;
		found = 1;
		if (sym.st_size == e->size)
			return 1;
	}
	return found;
}

/*
 * Where the CFA is %rbp + 16 the CFI no longer says how far %rsp went:
 * the code does. Capstone decodes the function (@size bytes from @fn),
 * and the stack's depth is followed from its entry (8: the return
 * address) along every path, as branches go: 8 more for each push, 8 less
 * for each pop, what "sub/add $N,%rsp" take and give back. The frame at
 * @pc uses the depth there (a return address: the depth at its call). -1
 * where %rsp moves another way (and $-16, a lea) or @pc is not reached.
 */
static long prologue_bytes(Dwfl_Module *mod, GElf_Addr fn, GElf_Addr size, GElf_Addr pc)
{
	static unsigned char b[65536];
	static long depth[65536];
	static size_t work[65536];
	size_t len = size < sizeof(b) ? size : sizeof(b), left, n, i, w = 0, lo, hi;
	long bytes = -1, ijmp;
	int seeded = 0;
	cs_insn *insn;

	/*
	 * The log's size of the last function of a section (kallsyms': up to
	 * the next symbol, a __pfx_ of another section on 6.2 and later) may
	 * run past the section's end.
	 */
	section_bytes(mod, fn, &left);
	if (len > left)
		len = left;
	if (!cs || pc < fn || pc - fn >= len || !read_at(mod, fn, b, len))
		return -1;
	n = cs_disasm(cs, b, len, fn, 0, &insn);
	for (i = 0; i < n; i++)
		depth[i] = LONG_MIN;
	if (n)
		depth[0] = 8;
	work[w++] = 0;
	ijmp = LONG_MIN;
again:
	while (w && n) {
		size_t k = work[--w];
		const cs_insn *in = &insn[k];
		const cs_x86 *x = &in->detail->x86;
		int to_rsp = x->op_count == 2 && x->operands[0].type == X86_OP_REG &&
			     x->operands[0].reg == X86_REG_RSP;
		int imm = to_rsp && x->operands[1].type == X86_OP_IMM;
		long d = depth[k];
		size_t next[2], nn = 0, j;

		if (in->id == X86_INS_PUSH || in->id == X86_INS_PUSHFQ)
			d += 8;
		else if (in->id == X86_INS_POP || in->id == X86_INS_POPFQ)
			d -= 8;
		else if (in->id == X86_INS_SUB && imm)
			d += x->operands[1].imm;
		else if (in->id == X86_INS_ADD && imm)
			d -= x->operands[1].imm;
		else if (to_rsp && in->id != X86_INS_CMP && in->id != X86_INS_TEST)
			continue;	/* %rsp from elsewhere (a leave, a lea): no further */
		if (in->id == X86_INS_RET)
			continue;
		if (in->id == X86_INS_JMP && x->op_count == 1 && x->operands[0].type != X86_OP_IMM &&
		    ijmp == LONG_MIN)
			ijmp = d;	/* a switch's jump through its table */
		if (in->id != X86_INS_JMP && k + 1 < n)
			next[nn++] = k + 1;
		if (cs_insn_group(cs, in, CS_GRP_JUMP) && x->op_count == 1 &&
		    x->operands[0].type == X86_OP_IMM) {
			/* the branch's target, by address */
			for (lo = 0, hi = n; lo < hi;) {
				size_t mid = lo + (hi - lo) / 2;

				if (insn[mid].address < (uint64_t)x->operands[0].imm)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo < n && insn[lo].address == (uint64_t)x->operands[0].imm)
				next[nn++] = lo;
		}
		for (j = 0; j < nn; j++)
			if (depth[next[j]] == LONG_MIN && w < ARRAY_SIZE(work)) {
				depth[next[j]] = d;
				work[w++] = next[j];
			}
	}
	/*
	 * The cases of a switch are reached through its table, not by a
	 * branch to follow: each block that nothing reached starts at the
	 * depth of that jump.
	 */
	if (ijmp != LONG_MIN && !seeded) {
		seeded = 1;
		for (i = 1; i < n; i++)
			if (depth[i] == LONG_MIN && (insn[i - 1].id == X86_INS_JMP || insn[i - 1].id == X86_INS_RET) &&
			    w < ARRAY_SIZE(work)) {
				depth[i] = ijmp;
				work[w++] = i;
			}
		goto again;
	}
	for (i = 0; i < n; i++)
		if (insn[i].address == pc && depth[i] != LONG_MIN)
			bytes = depth[i];
	/* A return address: the depth at the call before it. */
	for (i = 1; bytes < 0 && i < n; i++)
		if (insn[i - 1].address + insn[i - 1].size == pc && depth[i - 1] != LONG_MIN)
			bytes = depth[i - 1];
	if (n)
		cs_free(insn, n);
	return bytes;
}

/*
 * Whether @fn's first instructions align %rsp ("and $-16,%rsp", with
 * %r10 keeping the old one: gcc's dynamic realignment). The pad it leaves
 * between its frame and its caller's is 0 or more bytes, as %rsp was at
 * the call: the dump readers count it in the caller's frame, and a log
 * cannot tell it.
 */
static int realigns(Dwfl_Module *mod, GElf_Addr fn)
{
	unsigned char b[32];
	cs_insn *insn;
	size_t n, i;
	int found = 0;

	if (!cs || !read_at(mod, fn, b, sizeof(b)))
		return 0;
	n = cs_disasm(cs, b, sizeof(b), fn, 4, &insn);
	for (i = 0; i < n && !found; i++) {
		const cs_x86 *x = &insn[i].detail->x86;

		found = insn[i].id == X86_INS_AND && x->op_count == 2 &&
			x->operands[0].type == X86_OP_REG && x->operands[0].reg == X86_REG_RSP &&
			x->operands[1].type == X86_OP_IMM && x->operands[1].imm < 0;
	}
	if (n)
		cs_free(insn, n);
	return found;
}

/* How far @fn's prologue goes: to its first branch, call or return. */
static GElf_Addr prologue_end(Dwfl_Module *mod, GElf_Addr fn)
{
	unsigned char b[256];
	GElf_Addr end = 0;
	cs_insn *insn;
	size_t n, i;

	if (!cs || !read_at(mod, fn, b, sizeof(b)))
		return 0;
	n = cs_disasm(cs, b, sizeof(b), fn, 0, &insn);
	for (i = 0; i < n && !end; i++)
		if (cs_insn_group(cs, &insn[i], CS_GRP_JUMP) || cs_insn_group(cs, &insn[i], CS_GRP_CALL) ||
		    cs_insn_group(cs, &insn[i], CS_GRP_RET))
			end = insn[i].address - fn;
	if (n)
		cs_free(insn, n);
	return end;
}

/*
 * The function ET_REL @elf's relocation @r (in relocation section @rela)
 * calls: its symbol, or for a section symbol (a static function of the
 * same file) the function at the addend's place in that section.
 */
static const char *rel_target(Elf *elf, Elf_Scn *rela, GElf_Rela *r)
{
	GElf_Shdr sh, symsh;
	Elf_Scn *symscn;
	Elf_Data *d;
	GElf_Sym sym, f;
	size_t i;

	if (!gelf_getshdr(rela, &sh))
		return NULL;
	symscn = elf_getscn(elf, sh.sh_link);
	d = symscn ? elf_getdata(symscn, NULL) : NULL;
	if (!d || !gelf_getshdr(symscn, &symsh) || !gelf_getsym(d, GELF_R_SYM(r->r_info), &sym))
		return NULL;
	if (GELF_ST_TYPE(sym.st_info) != STT_SECTION)
		return elf_strptr(elf, symsh.sh_link, sym.st_name);
	/* rel32 = S + A - P, and the call goes to P + 4 + rel32 = S + A + 4 */
	for (i = 0; i < symsh.sh_size / symsh.sh_entsize; i++)
		if (gelf_getsym(d, i, &f) && GELF_ST_TYPE(f.st_info) == STT_FUNC &&
		    f.st_shndx == sym.st_shndx && f.st_value == (GElf_Addr)(r->r_addend + 4))
			return elf_strptr(elf, symsh.sh_link, f.st_name);
	return NULL;
}

/* The call that ends at @a + 5 in ET_REL @elf's section @scn: its target's name. */
static const char *rel_call(Elf *elf, Elf_Scn *scn, GElf_Addr a)
{
	Elf_Scn *r = NULL;
	const char *name = NULL;
	GElf_Rela rela;
	GElf_Shdr sh;
	Elf_Data *d;
	size_t i;

	while ((r = elf_nextscn(elf, r))) {
		if (!gelf_getshdr(r, &sh) || sh.sh_type != SHT_RELA || sh.sh_info != elf_ndxscn(scn))
			continue;
		d = elf_getdata(r, NULL);
		for (i = 0; d && sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++)
			if (gelf_getrela(d, i, &rela) && rela.r_offset == a + 1)
				name = rel_target(elf, r, &rela);
	}
	return name;
}

/*
 * What the instruction before return address @e->pc is, as capstone
 * decodes the bytes ending there: a direct call (and to what, by name: in
 * a module, from its relocation), an indirect call (a retpoline thunk's
 * too), or no call at all: then the entry is a stale word, not a frame.
 */
static void call_before(Dwfl_Module *mod, struct sl_entry *e)
{
	static const int lengths[] = { 5, 2, 3, 4, 6, 7 };
	unsigned char b[7];
	GElf_Addr a = e->pc - 5, bias;
	Elf_Scn *scn = dwfl_module_address_section(mod, &a, &bias);
	Elf *elf = dwfl_module_getelf(mod, &bias);
	const char *name = NULL;
	GElf_Ehdr eh;
	cs_insn *insn;
	size_t k, n;

	e->call = CALL_UNKNOWN;
	if (!cs || !scn || !elf || !read_at(mod, e->pc - 7, b, 7))
		return;
	e->call = CALL_NONE;
	for (k = 0; k < ARRAY_SIZE(lengths) && e->call == CALL_NONE; k++) {
		int l = lengths[k];

		n = cs_disasm(cs, b + 7 - l, l, e->pc - l, 1, &insn);
		if (n == 1 && insn[0].size == l && insn[0].id == X86_INS_CALL) {
			const cs_x86 *x = &insn[0].detail->x86;

			if (x->op_count == 1 && x->operands[0].type == X86_OP_IMM) {
				e->call = CALL_DIRECT;
				/* In a module, the linker fills in a call out of its section. */
				if (gelf_getehdr(elf, &eh) && eh.e_type == ET_REL)
					name = rel_call(elf, scn, a);
				if (!name)
					name = dwfl_module_addrname(mod, x->operands[0].imm);
				snprintf(e->callee, sizeof(e->callee), "%s", name ? name : "?");
				if (name && !strncmp(name, "__x86_indirect_", 15))
					e->call = CALL_INDIRECT;
			} else {
				e->call = CALL_INDIRECT;
			}
		}
		if (n)
			cs_free(insn, n);
	}
}

/*
 * The bytes of frame @e at @pc (the instruction, or the call before a
 * return address); @fn is its function's start.
 */
static long cfa_bytes(Dwfl_Module *mod, const struct sl_entry *e, GElf_Addr fn, GElf_Addr pc)
{
	struct sl_entry parent;
	Dwarf_Addr bias;
	Dwarf_CFI *cfi = dwfl_module_dwarf_cfi(mod, &bias);
	Dwarf_Frame *frame = NULL;
	Dwarf_Op *ops;
	size_t nops;
	long bytes = -1, off = 0;
	unsigned int reg = ~0U;

	if (mod == kernel && orc_num)
		return orc_bytes(pc);
	if (!cfi)
		cfi = dwfl_module_eh_cfi(mod, &bias);
	if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame) || dwarf_frame_cfa(frame, &ops, &nops) ||
	    nops != 1) {
		free(frame);
		return -1;
	}
	/* CFA = reg + offset: DW_OP_bregN offset, or DW_OP_bregx reg offset */
	if (ops[0].atom == DW_OP_bregx) {
		reg = ops[0].number;
		off = (long)ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		reg = ops[0].atom - DW_OP_breg0;
		off = (long)ops[0].number;
	}
	if (reg == DWARF_REG_RSP)
		bytes = off;
	else if (reg == DWARF_REG_RBP && off == 16 && !strstr(e->func, ".cold"))
		bytes = prologue_bytes(mod, fn, e->size ? e->size : 65536, e->pc);
	else if (reg == DWARF_REG_RBP && off == 16) {
		/* func.cold is a piece of func, moved away: func's prologue made the frame */
		parent = *e;
		parent.func[strcspn(parent.func, ".")] = '\0';
		parent.size = 0;
		if (sym_addr(mod, &parent, &fn))
			bytes = prologue_bytes(mod, fn, prologue_end(mod, fn) + 16, fn + prologue_end(mod, fn));
	}
	free(frame);
	return bytes;
}

void sl_frames_measure(struct sl_report *r, char *err, size_t errlen)
{
	int i;

	err[0] = '\0';
	if (!dwfl)
		return;
	for (i = -1; i < r->n; i++) {
		struct sl_entry *e = i < 0 ? &r->rip : &r->e[i];
		Dwfl_Module *mod;
		GElf_Addr fn;

		if (i < 0 && !r->have_rip)
			continue;
		mod = module_of(e->mod);
		if (!mod) {
			if (!err[0])
				snprintf(err, errlen, "no %s.ko under MODULES=%s: its frames' sizes are unknown",
					 e->mod, mod_dir ? mod_dir : "(none given)");
			continue;
		}
		if (!sym_addr(mod, e, &fn))
			continue;
		e->pc = fn + e->off;
		e->realigns = realigns(mod, fn);
		if (i >= 0 && e->off)
			call_before(mod, e);
		/* A return address is measured at its call; the faulting RIP at itself. */
		e->bytes = cfa_bytes(mod, e, fn, i < 0 || !e->off ? e->pc : e->pc - 1);
		if (mod == kernel) {
			Dwfl_Line *l = dwfl_module_getsrc(mod, e->pc);
			const char *src = l ? dwfl_lineinfo(l, NULL, NULL, NULL, NULL, NULL) : NULL;

			if (src)
				snprintf(e->file, sizeof(e->file), "%s", src);
		}
	}
}

/* The number of @sysname in vmlinux's sys_call_table, -1 if not found. */
long sl_syscall_nr(const char *sysname)
{
	int i, n;
	GElf_Sym sym;
	GElf_Addr a, table = 0, target = 0;
	size_t size = 0;
	unsigned long slot;
	long nr;

	if (!dwfl)
		return -1;
	n = dwfl_module_getsymtab(kernel);
	for (i = 1; i < n && (!table || !target); i++) {
		const char *name = dwfl_module_getsym_info(kernel, i, &sym, &a, NULL, NULL, NULL);

		if (!name)
			continue;
		if (!strcmp(name, "sys_call_table")) {
			table = a;
			size = sym.st_size;
		} else if (!strcmp(name, sysname)) {
			target = a;
		}
	}
	if (!table || !target)
		return -1;
	for (nr = 0; (size_t)nr < size / 8; nr++)
		if (read_at(kernel, table + 8 * nr, &slot, 8) && slot == target)
			return nr;
	return -1;
}

unsigned long sl_thread_size(const struct sl_report *r)
{
	if (r->have_bounds && r->hi - r->lo >= 4096 && r->hi - r->lo <= 65536)
		return r->hi - r->lo;
	return r->kasan ? 32768 : 16384;	/* x86-64's THREAD_SIZE, KASAN's doubled */
}

void sl_frames_close(void)
{
	if (dwfl)
		dwfl_end(dwfl);
	dwfl = NULL;
	if (cs)
		cs_close(&cs);
	free(orc_ip);
	orc_ip = NULL;
	orc_num = 0;
}
