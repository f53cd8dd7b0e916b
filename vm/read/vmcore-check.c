// SPDX-License-Identifier: GPL-2.0
/*
 * vmcore-check - say in one line whether a dump file is whole: a
 * kdump-compressed file (makedumpfile, QEMU) must hold all its page
 * descriptors and the data they point to; an ELF core must hold each of
 * its segments. With VMLINUX, also that it is the kernel that wrote the
 * dump: the BUILD-ID in the dump's VMCOREINFO is VMLINUX's GNU build id,
 * and a dump without VMCOREINFO is refused. Exit 0 if whole (and
 * matching), 1 with the reason if not. A kdump file that makedumpfile
 * marked incomplete (it stopped writing: no space left) is truncated,
 * whatever its size.
 *
 * With -i, say which kernel wrote the dump instead, a "key=value" a line:
 * format (kdump or elf), build_id and release (from VMCOREINFO), version
 * (uname -v: the kdump header's copy of init_uts_ns, or init_uts_ns read
 * from an ELF dump's memory through VMCOREINFO's symbol and phys_base).
 * A value the dump does not hold is left empty.
 *
 *   vmcore-check FILE [VMLINUX]
 *   vmcore-check -i FILE
 */
#include <elf.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* From makedumpfile's diskdump_mod.h, x86_64 layout. */
struct disk_dump_header {
	char signature[8];
	int32_t header_version;
	char utsname[6][65];
	int64_t tv_sec, tv_usec;
	uint32_t status;
	int32_t block_size;
	int32_t sub_hdr_size;
	uint32_t bitmap_blocks;
	uint32_t max_mapnr;
	uint32_t total_ram_blocks;
	uint32_t device_blocks;
	uint32_t written_blocks;
	uint32_t current_cpu;
	int32_t nr_cpus;
};

/* makedumpfile's disk_dump_header.status: it stopped before the end. */
#define DUMP_DH_COMPRESSED_INCOMPLETE 0x8

struct page_desc {
	int64_t offset;
	uint32_t size;
	uint32_t flags;
	uint64_t page_flags;
};

static const char *file;
static unsigned long long file_size;

static int bad(const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", file);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return 1;
}

static int read_at(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	return n == (ssize_t)len ? 0 : -1;
}

static int check_kdump(int fd)
{
	struct disk_dump_header h;
	struct page_desc pd;
	unsigned long long bs, bitmap_len, pd_off, pages = 0, end;
	unsigned char *bitmap;
	unsigned long long i;

	if (read_at(fd, &h, sizeof(h), 0))
		return bad("truncated: %llu bytes, shorter than a kdump header (%llu)",
			   file_size, (unsigned long long)sizeof(h));
	if (h.status & DUMP_DH_COMPRESSED_INCOMPLETE)
		return bad("truncated: makedumpfile marked it incomplete (it stopped writing, e.g. out of space), %llu bytes",
			   file_size);
	bs = h.block_size;
	if (bs < 512 || bs > 65536 || h.sub_hdr_size < 0)
		return bad("corrupt kdump header: block size %llu, sub-header %llu blocks",
			   bs, (unsigned long long)h.sub_hdr_size);
	bitmap_len = (unsigned long long)h.bitmap_blocks * bs;
	pd_off = (1 + h.sub_hdr_size + (unsigned long long)h.bitmap_blocks) * bs;
	if ((unsigned long long)file_size < pd_off)
		return bad("truncated: %llu bytes, the headers and bitmaps alone need %llu",
			   file_size, pd_off);
	bitmap = malloc(bitmap_len / 2);
	if (!bitmap || read_at(fd, bitmap, bitmap_len / 2,
			       (1 + h.sub_hdr_size) * bs + bitmap_len / 2))
		return bad("cannot read the dumpable-page bitmap (%llu bytes at %llu)",
			   bitmap_len / 2, (1 + h.sub_hdr_size) * bs + bitmap_len / 2);
	for (i = 0; i < bitmap_len / 2; i++)
		pages += __builtin_popcount(bitmap[i]);
	free(bitmap);
	if (pages == 0)
		return 0;
	end = pd_off + pages * sizeof(pd);
	if ((unsigned long long)file_size < end)
		return bad("truncated: %llu bytes, its page descriptors end at %llu",
			   file_size, end);
	/* Descriptors are not in file order (zero pages share one block). */
	end = 0;
	for (i = 0; i < pages; i++) {
		if (read_at(fd, &pd, sizeof(pd), pd_off + i * sizeof(pd)))
			return bad("cannot read page descriptor %llu of %llu", i, pages);
		if (pd.offset < 0)
			return bad("corrupt page descriptor %llu (offset %llu)",
				   i, (unsigned long long)pd.offset);
		if ((unsigned long long)pd.offset + pd.size > end)
			end = pd.offset + pd.size;
	}
	if ((unsigned long long)file_size < end)
		return bad("truncated: %llu bytes, its page data ends at %llu",
			   file_size, end);
	return 0;
}

/*
 * The number of program headers: with more than 65534 (QEMU's dump of a
 * KASLR kernel), e_phnum is PN_XNUM and section header 0 holds it.
 */
static unsigned long elf_phnum(int fd, const Elf64_Ehdr *eh)
{
	Elf64_Shdr sh;

	if (eh->e_phnum != PN_XNUM)
		return eh->e_phnum;
	if (!eh->e_shoff || read_at(fd, &sh, sizeof(sh), eh->e_shoff))
		return PN_XNUM;
	return sh.sh_info;
}

static int check_elf(int fd)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	unsigned long i, n;

	if (read_at(fd, &eh, sizeof(eh), 0) || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return bad("not a 64-bit ELF core (%llu bytes)", file_size);
	n = elf_phnum(fd, &eh);
	for (i = 0; i < n; i++) {
		if (read_at(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)))
			return bad("truncated: %llu bytes, program header %llu is missing",
				   file_size, (unsigned long long)i);
		if (ph.p_offset + ph.p_filesz > (unsigned long long)file_size)
			return bad("truncated: %llu bytes, a segment ends at %llu",
				   file_size, (unsigned long long)(ph.p_offset + ph.p_filesz));
	}
	return 0;
}

typedef int note_fn(const char *name, uint32_t type, const char *desc,
		    uint32_t len, void *arg);

/*
 * The notes of the ELF file on @fd, from its PT_NOTE segments: call @fn
 * on each, until it returns non-zero (which is returned).
 */
static int walk_notes(int fd, note_fn *fn, void *arg)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	char *buf;
	unsigned long i, n;
	int ret = 0;

	if (read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64)
		return -1;
	n = elf_phnum(fd, &eh);
	for (i = 0; i < n && !ret; i++) {
		unsigned long long pos = 0;

		if (read_at(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)))
			return -1;
		if (ph.p_type != PT_NOTE || ph.p_filesz > (1 << 24))
			continue;
		buf = malloc(ph.p_filesz);
		if (!buf || read_at(fd, buf, ph.p_filesz, ph.p_offset)) {
			free(buf);
			return -1;
		}
		while (!ret && pos + sizeof(Elf64_Nhdr) <= ph.p_filesz) {
			Elf64_Nhdr *n = (Elf64_Nhdr *)(buf + pos);
			unsigned long long name = pos + sizeof(*n);
			unsigned long long desc = name + ((n->n_namesz + 3) & ~3u);

			if (desc + n->n_descsz > ph.p_filesz)
				break;
			ret = fn(buf + name, n->n_type, buf + desc, n->n_descsz, arg);
			pos = desc + ((n->n_descsz + 3) & ~3u);
		}
		free(buf);
	}
	return ret;
}

#define ID_MAX 41

static int gnu_build_id(const char *name, uint32_t type, const char *desc,
			uint32_t len, void *arg)
{
	char *out = arg;
	uint32_t i;

	if (strcmp(name, "GNU") || type != NT_GNU_BUILD_ID || len * 2 >= ID_MAX)
		return 0;
	for (i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", (unsigned char)desc[i]);
	return 1;
}

struct info {
	char id[ID_MAX], rel[65], ver[65];
	unsigned long long uts;		/* SYMBOL(init_uts_ns) */
	long long phys_base;		/* NUMBER(phys_base) */
	int found;
};

/*
 * VMCOREINFO's BUILD-ID=, OSRELEASE=, SYMBOL(init_uts_ns)= and
 * NUMBER(phys_base)= values, from its text.
 */
static void info_values(const char *text, size_t len, struct info *in)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t l = (nl ? nl : end) - p;
		char v[80];

		if (l > 9 && !memcmp(p, "BUILD-ID=", 9))
			snprintf(in->id, ID_MAX, "%.*s", (int)(l - 9), p + 9);
		if (l > 10 && !memcmp(p, "OSRELEASE=", 10))
			snprintf(in->rel, sizeof(in->rel), "%.*s", (int)(l - 10), p + 10);
		if (l > 20 && l < 80 && !memcmp(p, "SYMBOL(init_uts_ns)=", 20)) {
			snprintf(v, sizeof(v), "%.*s", (int)(l - 20), p + 20);
			in->uts = strtoull(v, NULL, 16);
		}
		if (l > 18 && l < 80 && !memcmp(p, "NUMBER(phys_base)=", 18)) {
			snprintf(v, sizeof(v), "%.*s", (int)(l - 18), p + 18);
			in->phys_base = strtoll(v, NULL, 10);
		}
		p += l + 1;
	}
}

static int vmcoreinfo_note(const char *name, uint32_t type, const char *desc,
			   uint32_t len, void *arg)
{
	struct info *in = arg;

	(void)type;
	if (strcmp(name, "VMCOREINFO"))
		return 0;
	info_values(desc, len, in);
	in->found = 1;
	return 1;
}

/* A kdump-compressed dump's VMCOREINFO: its sub header says where. */
static void kdump_vmcoreinfo(int fd, struct info *in)
{
	struct disk_dump_header h;
	uint64_t where[2];
	char *text;

	if (read_at(fd, &h, sizeof(h), 0) || h.block_size < 512 ||
	    read_at(fd, where, sizeof(where), h.block_size + 32) ||
	    !where[0] || !where[1] || where[1] > (1 << 20))
		return;
	text = malloc(where[1]);
	if (text && !read_at(fd, text, where[1], where[0])) {
		info_values(text, where[1], in);
		in->found = 1;
	}
	free(text);
}

/* __START_KERNEL_map: the kernel image's virtual base on x86_64. */
#define KERNEL_MAP 0xffffffff80000000ULL
#define UTS_LEN 65

/*
 * init_uts_ns's version (uname -v), read from the memory of the ELF dump
 * on @fd: its address from VMCOREINFO, made physical with phys_base, in
 * the PT_LOAD that holds it. struct uts_namespace starts with its name
 * (since 5.11; a struct kref before it until then): the name is where
 * "Linux" is, within the first 16 bytes.
 */
static void elf_uts_version(int fd, struct info *in)
{
	unsigned char uts[16 + 4 * UTS_LEN];
	unsigned long long phys;
	unsigned long i, n;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int off;

	if (in->uts < KERNEL_MAP || read_at(fd, &eh, sizeof(eh), 0))
		return;
	phys = in->uts - KERNEL_MAP + in->phys_base;
	n = elf_phnum(fd, &eh);
	for (i = 0; i < n; i++) {
		if (read_at(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)))
			return;
		if (ph.p_type == PT_LOAD && phys >= ph.p_paddr &&
		    phys + sizeof(uts) <= ph.p_paddr + ph.p_filesz)
			break;
	}
	if (i == n || read_at(fd, uts, sizeof(uts), ph.p_offset + phys - ph.p_paddr))
		return;
	for (off = 0; off <= 16; off += 4) {
		if (!memcmp(uts + off, "Linux", 6)) {
			snprintf(in->ver, sizeof(in->ver), "%.*s", UTS_LEN - 1,
				 (char *)uts + off + 3 * UTS_LEN);
			return;
		}
	}
}

/*
 * Which kernel wrote the dump on @fd: -i's lines. makedumpfile copies
 * init_uts_ns into its header; QEMU's kdump writer leaves it empty.
 */
static int identify(int fd, int kdump)
{
	struct info in = { 0 };
	struct disk_dump_header h;

	if (kdump) {
		kdump_vmcoreinfo(fd, &in);
		if (!read_at(fd, &h, sizeof(h), 0)) {
			if (h.utsname[2][0])
				snprintf(in.rel, sizeof(in.rel), "%.64s", h.utsname[2]);
			snprintf(in.ver, sizeof(in.ver), "%.64s", h.utsname[3]);
		}
	} else {
		walk_notes(fd, vmcoreinfo_note, &in);
		elf_uts_version(fd, &in);
	}
	printf("format=%s\nbuild_id=%s\nrelease=%s\nversion=%s\n",
	       kdump ? "kdump" : "elf", in.id, in.rel, in.ver);
	return 0;
}

/* Is @vmlinux the kernel that wrote the dump on @fd? */
static int check_match(int fd, int kdump, const char *vmlinux)
{
	struct info in = { 0 };
	char have[ID_MAX] = "";
	int vfd;

	if (kdump)
		kdump_vmcoreinfo(fd, &in);
	else
		walk_notes(fd, vmcoreinfo_note, &in);
	if (!in.found)
		return bad("has no VMCOREINFO: nothing in it says which kernel wrote it, or where that kernel was");
	vfd = open(vmlinux, O_RDONLY);
	if (vfd < 0)
		return bad("cannot read %s: %s", vmlinux, strerror(errno));
	if (walk_notes(vfd, gnu_build_id, have) != 1)
		have[0] = 0;
	close(vfd);
	if (!have[0])
		return bad("%s is not an ELF vmlinux with a build id", vmlinux);
	if (in.id[0] && strncmp(have, in.id, strlen(in.id)))
		return bad("%s is not the kernel of this dump: the dump's build id is %s (%s), vmlinux's %s",
			   vmlinux, in.id, in.rel[0] ? in.rel : "?", have);
	return 0;
}

int main(int argc, char **argv)
{
	char sig[8];
	struct stat st;
	int fd, ret, id = 0;

	if (argc == 3 && !strcmp(argv[1], "-i")) {
		id = 1;
		argv++;
		argc--;
	}
	if ((argc != 2 && argc != 3) || (id && argc != 2)) {
		fprintf(stderr, "usage: vmcore-check FILE [VMLINUX] | -i FILE\n");
		return 2;
	}
	file = argv[1];
	fd = open(file, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		printf("%s: %s\n", file, strerror(errno));
		return 1;
	}
	file_size = st.st_size;
	if (file_size == 0)
		return bad("is empty (0 bytes)");
	if (read_at(fd, sig, sizeof(sig), 0))
		return bad("truncated: %llu bytes", file_size);
	if (!memcmp(sig, "makedumpfile", 8))
		ret = bad("is makedumpfile's flattened format (-F): makedumpfile -R turns it into a dump file");
	else if (id && (!memcmp(sig, "KDUMP   ", 8) || !memcmp(sig, ELFMAG, SELFMAG)))
		ret = identify(fd, !memcmp(sig, "KDUMP   ", 8));
	else if (!memcmp(sig, "KDUMP   ", 8))
		ret = check_kdump(fd);
	else if (!memcmp(sig, ELFMAG, SELFMAG))
		ret = check_elf(fd);
	else
		ret = bad("is not a kdump-compressed or ELF dump");
	if (!ret && argc == 3)
		ret = check_match(fd, !memcmp(sig, "KDUMP   ", 8), argv[2]);
	close(fd);
	return ret;
}
