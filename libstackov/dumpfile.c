// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: what a dump file's VMCOREINFO says before any reader opens
 * it: KERNELOFFSET (the KASLR offset, which gdb must be told), BUILD-ID
 * and OSRELEASE (which kernel wrote it), read from an ELF dump's note or
 * from a kdump-compressed dump's copy (makedumpfile's diskdump_mod.h,
 * QEMU's kdump-zlib too); and a vmlinux's GNU build id. A vmlinux that is
 * not the dump's kernel gives a wrong report, never an error: every
 * reader refuses it in the same line.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* @f's PT_NOTE notes: calls @fn for each; 1 if @fn said stop. */
static int each_note(FILE *f, int (*fn)(const char *name, uint32_t type, const unsigned char *desc,
					 uint32_t len, void *arg), void *arg)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	unsigned char *data;
	int i, stop = 0;

	if (fseek(f, 0, SEEK_SET) || fread(&eh, sizeof(eh), 1, f) != 1 ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return -1;
	for (i = 0; i < eh.e_phnum && !stop; i++) {
		size_t pos = 0;

		if (fseek(f, (long)(eh.e_phoff + (uint64_t)i * eh.e_phentsize), SEEK_SET) ||
		    fread(&ph, sizeof(ph), 1, f) != 1)
			return -1;
		if (ph.p_type != PT_NOTE || ph.p_filesz > (1 << 24))
			continue;
		data = malloc(ph.p_filesz);
		if (!data || fseek(f, (long)ph.p_offset, SEEK_SET) ||
		    fread(data, 1, ph.p_filesz, f) != ph.p_filesz) {
			free(data);
			return -1;
		}
		while (!stop && pos + 12 <= ph.p_filesz) {
			uint32_t namesz, descsz, type;
			char name[64] = "";

			memcpy(&namesz, data + pos, 4);
			memcpy(&descsz, data + pos + 4, 4);
			memcpy(&type, data + pos + 8, 4);
			pos += 12;
			if (namesz > ph.p_filesz - pos)
				break;
			snprintf(name, sizeof(name), "%.*s", (int)namesz, (const char *)data + pos);
			pos += (namesz + 3) & ~3U;
			if (descsz > ph.p_filesz - pos)
				break;
			stop = fn(name, type, data + pos, descsz, arg);
			pos += (descsz + 3) & ~3U;
		}
		free(data);
	}
	return stop;
}

struct found {
	char *text;
	size_t len;
};

static int vmcoreinfo_note(const char *name, uint32_t type, const unsigned char *desc, uint32_t len,
			   void *arg)
{
	struct found *fd = arg;

	(void)type;
	if (strcmp(name, "VMCOREINFO"))
		return 0;
	fd->text = malloc(len + 1);
	if (fd->text) {
		memcpy(fd->text, desc, len);
		fd->text[len] = '\0';
		fd->len = len;
	}
	return 1;
}

/* The dump's VMCOREINFO text (free() it), or NULL when it has none. */
static char *vmcoreinfo_text(const char *dump)
{
	FILE *f = fopen(dump, "rb");
	unsigned char head[432];
	struct found fd = { 0 };
	int32_t block;
	uint64_t off, size;

	if (!f)
		return NULL;
	if (fread(head, 1, sizeof(head), f) == sizeof(head) && !memcmp(head, "KDUMP   ", 8)) {
		memcpy(&block, head + 428, 4);
		if (block > 0 && block <= (1 << 20) && !fseek(f, block + 32, SEEK_SET) &&
		    fread(&off, 8, 1, f) == 1 && fread(&size, 8, 1, f) == 1 && off && size &&
		    size < (1 << 20) && !fseek(f, (long)off, SEEK_SET)) {
			fd.text = malloc(size + 1);
			if (fd.text && fread(fd.text, 1, size, f) == size)
				fd.text[size] = '\0';
			else {
				free(fd.text);
				fd.text = NULL;
			}
		}
	} else {
		each_note(f, vmcoreinfo_note, &fd);
	}
	fclose(f);
	return fd.text;
}

/* KEY's value in VMCOREINFO text @t, into @buf: 0, or -1 if it has none. */
static int info_value(const char *t, const char *key, char *buf, size_t len)
{
	size_t k = strlen(key);
	const char *p = t;

	while (p && *p) {
		if (!strncmp(p, key, k) && p[k] == '=') {
			snprintf(buf, len, "%.*s", (int)strcspn(p + k + 1, "\n"), p + k + 1);
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

static int build_id_note(const char *name, uint32_t type, const unsigned char *desc, uint32_t len,
			 void *arg)
{
	char *hex = arg;
	uint32_t i;

	if (strcmp(name, "GNU") || type != NT_GNU_BUILD_ID || len > 64)
		return 0;
	for (i = 0; i < len; i++)
		sprintf(hex + 2 * i, "%02x", desc[i]);
	return 1;
}

/*
 * 0 when @vmlinux may read @dump; else 1 with one line in @why: the dump
 * has no VMCOREINFO (nothing says where its kernel was), or its build id
 * is not vmlinux's.
 */
STACKOV_API int stackov_dump_mismatch(const char *dump, const char *vmlinux, char *why, size_t len)
{
	char *info = vmcoreinfo_text(dump), want[160] = "", rel[160] = "?", have[160] = "";
	FILE *f;

	if (!info) {
		snprintf(why, len, "%s has no VMCOREINFO note: its kernel's offset cannot be known", dump);
		return 1;
	}
	info_value(info, "BUILD-ID", want, sizeof(want));
	info_value(info, "OSRELEASE", rel, sizeof(rel));
	free(info);
	f = fopen(vmlinux, "rb");
	if (f) {
		each_note(f, build_id_note, have);
		fclose(f);
	}
	if (want[0] && have[0] && strncmp(have, want, strlen(want))) {
		snprintf(why, len, "%s is not the kernel of this dump: the dump's build id is %s (%s), vmlinux's %s",
			 vmlinux, want, rel, have);
		return 1;
	}
	return 0;
}

/* VMCOREINFO's @key of @dump: 0 with it in @buf, -1 if none. */
STACKOV_API int stackov_dump_info(const char *dump, const char *key, char *buf, size_t len)
{
	char *info = vmcoreinfo_text(dump);
	int r = info ? info_value(info, key, buf, len) : -1;

	free(info);
	return r;
}
