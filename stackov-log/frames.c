// SPDX-License-Identifier: GPL-2.0
/*
 * stackov-log: each frame's bytes, given vmlinux (and the modules' .ko),
 * by elfutils' libdwfl. A frame at a return address uses the stack from
 * its callee's CFA up to its own, which is the offset of its CFA rule
 * there: from the kernel's ORC table when vmlinux has one (as the ORC
 * unwinder reads it, and the crash extension), else from the DWARF CFI
 * (dwarf_cfi_addrframe). Where the CFA is %rbp + 16 (a frame-pointer
 * kernel), the frame is 16 bytes plus what its prologue pushes and
 * subtracts from %rsp after "mov %rsp,%rbp". The faulting frame (RIP)
 * is measured at its instruction, not at a call.
 */
#include <dirent.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stackov-log.h"

#define X86_REG_RBP	6
#define X86_REG_RSP	7
#define ORC_REG_SP	5
#define ORC_TYPE_CALL	0

static Dwfl *dwfl;
static Dwfl_Module *kernel;
static const char *mod_dir;
static char banner[256];

/* vmlinux's ORC table: each entry's address, and the entries. */
static GElf_Addr *orc_ip;
static const unsigned char *orc_u;
static size_t orc_num;

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

/* @len bytes at @addr of @mod's file, 0 if it has none there. */
static int read_at(Dwfl_Module *mod, GElf_Addr addr, void *buf, size_t len)
{
	GElf_Addr a = addr, bias;
	Elf_Scn *scn = dwfl_module_address_section(mod, &a, &bias);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;

	if (!d || !d->d_buf || a + len > d->d_size)
		return 0;
	memcpy(buf, (char *)d->d_buf + a, len);
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

/* The ORC entry's CFA offset from %rsp at @ip; -1 if it is not %rsp-based. */
static long orc_bytes(GElf_Addr ip)
{
	size_t lo = 0, hi = orc_num;
	const unsigned char *p;
	unsigned int bits;

	if (!orc_num || ip < orc_ip[0])
		return -1;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (orc_ip[mid] <= ip)
			lo = mid;
		else
			hi = mid;
	}
	p = orc_u + 6 * lo;
	bits = p[4] | p[5] << 8;
	if ((bits & 0xf) != ORC_REG_SP || ((bits >> 8) & 3) != ORC_TYPE_CALL)
		return -1;
	return (short)(p[0] | p[1] << 8);
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
	load_orc(elf);
	read_banner(kernel);
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

/* After "push %rbp; mov %rsp,%rbp": what the prologue pushes and subtracts. */
static long fp_prologue(Dwfl_Module *mod, GElf_Addr fn, GElf_Addr pc)
{
	unsigned char b[64];
	size_t i = 0, len = pc - fn < sizeof(b) ? pc - fn : sizeof(b);
	long bytes = 16;

	if (len < 4 || !read_at(mod, fn, b, len))
		return -1;
	if (len >= 4 && b[0] == 0xf3 && b[1] == 0x0f && b[2] == 0x1e && b[3] == 0xfa)
		i += 4;		/* endbr64 */
	if (i + 5 <= len && (b[i] == 0xe8 || (b[i] == 0x0f && b[i + 1] == 0x1f)))
		i += 5;		/* call __fentry__, or its nop */
	if (i + 4 > len || b[i] != 0x55 || b[i + 1] != 0x48 || b[i + 2] != 0x89 || b[i + 3] != 0xe5)
		return -1;
	i += 4;
	while (i < len) {
		if (b[i] >= 0x50 && b[i] <= 0x57 && b[i] != 0x54) {
			bytes += 8;			/* push %reg */
			i += 1;
		} else if (i + 1 < len && b[i] == 0x41 && b[i + 1] >= 0x50 && b[i + 1] <= 0x57) {
			bytes += 8;			/* push %r8..%r15 */
			i += 2;
		} else if (i + 3 < len && b[i] == 0x48 && b[i + 1] == 0x83 && b[i + 2] == 0xec) {
			bytes += b[i + 3];		/* sub $imm8,%rsp */
			i += 4;
		} else if (i + 6 < len && b[i] == 0x48 && b[i + 1] == 0x81 && b[i + 2] == 0xec) {
			bytes += b[i + 3] | b[i + 4] << 8 | b[i + 5] << 16 | (long)b[i + 6] << 24;
			i += 7;				/* sub $imm32,%rsp */
		} else if (i + 2 < len && (b[i] & 0xf0) == 0x40 && (b[i + 1] == 0x89 || b[i + 1] == 0x8b) &&
			   b[i + 2] >= 0xc0) {
			i += 3;				/* mov %reg,%reg */
		} else if (i + 1 < len && (b[i] == 0x89 || b[i] == 0x8b || b[i] == 0x31) && b[i + 1] >= 0xc0) {
			i += 2;				/* 32-bit mov or xor, register to register */
		} else {
			/* and $-N,%rsp realigns the stack: what it takes is not knowable */
			if (i + 2 < len && b[i] == 0x48 && b[i + 1] == 0x83 && b[i + 2] == 0xe4)
				return -1;
			break;
		}
	}
	return bytes;
}

/* The bytes of frame @e at @pc (the instruction, or the call before a return address). */
static long cfa_bytes(Dwfl_Module *mod, GElf_Addr fn, GElf_Addr pc)
{
	Dwarf_Addr bias;
	Dwarf_CFI *cfi = dwfl_module_dwarf_cfi(mod, &bias);
	Dwarf_Frame *frame = NULL;
	Dwarf_Op *ops;
	size_t nops;
	long bytes = -1;

	if (mod == kernel && orc_num)
		return orc_bytes(pc);
	if (!cfi)
		cfi = dwfl_module_eh_cfi(mod, &bias);
	if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame) || dwarf_frame_cfa(frame, &ops, &nops) ||
	    nops != 1) {
		free(frame);
		return -1;
	}
	if (ops[0].atom == DW_OP_breg0 + X86_REG_RSP || (ops[0].atom == DW_OP_bregx && ops[0].number == X86_REG_RSP))
		bytes = (long)(ops[0].atom == DW_OP_bregx ? ops[0].number2 : ops[0].number);
	else if (ops[0].atom == DW_OP_breg0 + X86_REG_RBP && ops[0].number == 16)
		bytes = fp_prologue(mod, fn, pc);
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
		/* A return address is measured at its call; the faulting RIP at itself. */
		e->bytes = cfa_bytes(mod, fn, i < 0 || !e->off ? e->pc : e->pc - 1);
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
	return 16384;	/* x86-64's THREAD_SIZE without KASAN */
}

void sl_frames_close(void)
{
	if (dwfl)
		dwfl_end(dwfl);
	dwfl = NULL;
	free(orc_ip);
	orc_ip = NULL;
	orc_num = 0;
}
