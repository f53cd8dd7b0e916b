// SPDX-License-Identifier: GPL-2.0
/*
 * vmcore-check - say in one line whether a dump file is whole: a
 * kdump-compressed file (makedumpfile, QEMU) must hold all its page
 * descriptors and the data they point to; an ELF core must hold each of
 * its segments. Exit 0 if whole, 1 with the reason if not.
 *
 *   vmcore-check FILE
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

static int check_elf(int fd)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int i;

	if (read_at(fd, &eh, sizeof(eh), 0) || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return bad("not a 64-bit ELF core (%llu bytes)", file_size);
	for (i = 0; i < eh.e_phnum; i++) {
		if (read_at(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)))
			return bad("truncated: %llu bytes, program header %llu is missing",
				   file_size, (unsigned long long)i);
		if (ph.p_offset + ph.p_filesz > (unsigned long long)file_size)
			return bad("truncated: %llu bytes, a segment ends at %llu",
				   file_size, (unsigned long long)(ph.p_offset + ph.p_filesz));
	}
	return 0;
}

int main(int argc, char **argv)
{
	char sig[8];
	struct stat st;
	int fd, ret;

	if (argc != 2) {
		fprintf(stderr, "usage: vmcore-check FILE\n");
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
	if (!memcmp(sig, "KDUMP   ", 8))
		ret = check_kdump(fd);
	else if (!memcmp(sig, ELFMAG, SELFMAG))
		ret = check_elf(fd);
	else
		ret = bad("is not a kdump-compressed or ELF dump");
	close(fd);
	return ret;
}
