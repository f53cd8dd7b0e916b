/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libstackov: a kernel stack overflow explained, once, for every reader.
 *
 * A reader (crash's extension, gdb's and drgn's Python bindings, a replay
 * file) fills in struct stackov_target with what it knows of the kernel:
 * its memory, its symbols and types, VMCOREINFO, the CPU that crashed.
 * The engine does the rest: the stacks and their guard pages, the fault,
 * the unwind (frame pointers, or ORC read from the dump), the fold, the
 * context, entry and atomic state, and the words, text or JSON. The way
 * libdwfl's Dwfl_Callbacks and libdrgn's memory and symbol finders work.
 */
#ifndef STACKOV_H
#define STACKOV_H

#include <stddef.h>
#include <stdint.h>

#define STACKOV_VERSION	"1.0"
#define STACKOV_API	__attribute__((visibility("default")))

/*
 * What a reader provides. Each returns 0 (or a size >= 0) on success and
 * -1 when it has no answer. @ctx is the reader's own.
 */
struct stackov_target {
	void *ctx;
	/* @len bytes of kernel virtual memory at @addr. */
	int (*read)(void *ctx, uint64_t addr, void *buf, size_t len);
	/* A symbol's address, as the kernel ran (KASLR applied). */
	int (*symbol)(void *ctx, const char *name, uint64_t *addr);
	/* sizeof(struct @name). */
	long (*struct_size)(void *ctx, const char *name);
	/* offsetof(struct @s, @m), anonymous structs and unions looked into;
	 * a bit field's byte offset.
	 */
	long (*member_offset)(void *ctx, const char *s, const char *m);
	long (*member_size)(void *ctx, const char *s, const char *m);
	/* The number of elements of the array @sym. Optional. */
	long (*array_len)(void *ctx, const char *sym);
	/* VMCOREINFO's value of @key. Optional. */
	int (*vmcoreinfo)(void *ctx, const char *key, char *buf, size_t len);
	/* The CPU the reader takes for the crashed one when the dump's
	 * panic_cpu names none (a live guest: the selected CPU). Optional.
	 */
	int (*crashed_cpu)(void *ctx);
	/* The registers of a CPU that runs (a live guest's). Optional. */
	int (*cpu_regs)(void *ctx, int cpu, uint64_t *ip, uint64_t *sp, uint64_t *bp);
	/*
	 * Reads that fail may be done again through the kernel's page
	 * tables, at the direct map (gdb on an ELF vmcore, which maps no
	 * vmalloc or cpu_entry_area).
	 */
	int walk_on_fault;
	/* The kernel's vmlinux: its .symtab names the frames. */
	const char *vmlinux;
};

struct stackov;

/* A handle on one target; NULL with the reason in @err. */
STACKOV_API struct stackov *stackov_open(const struct stackov_target *t, char *err, size_t errlen);
STACKOV_API void stackov_close(struct stackov *s);

/*
 * Record every answer the target gives into @path (text; added to what a
 * recording there holds), for stackov_replay_open() (text or gzip'd): a
 * dump replayed without the dump.
 */
STACKOV_API int stackov_record(struct stackov *s, const char *path);
STACKOV_API struct stackov *stackov_replay_open(const char *path, char *err, size_t errlen);
/* Reads the replayed engine asked for and the recording did not hold. */
STACKOV_API long stackov_replay_misses(const struct stackov *s);

/*
 * Run one command, as the readers name them:
 *   stackov [-a | -c | -i | -j] [-C CPU] [pid | taskp]  the verdict (crash's help
 *                                                 stackov); -C: the task on CPU
 *   stackov-bt [pid | taskp]                      any task's frames
 *   stackov-stacks [-j] [pid | taskp | -c CPU | -a]  stacks with guards
 *   stackov-where ADDRESS                         which stack, of whom
 *   stackov-kind ADDRESS [CPU]                    the stack's name, alone
 *   stackov-current [CPU]                         the task on CPU (the crashed
 *                                                 one), as JSON
 *   stackov-name ADDRESS...                       each one's function, a line each
 * Its output, text, is in *@out (free() it). Returns 0, or 1 for a
 * refusal ("stackov: ..." in *@out: no overflow to explain, no such
 * task), or 2 for a usage error.
 */
STACKOV_API int stackov_command(struct stackov *s, int argc, char **argv, char **out);
/* The same, from one string split on blanks. */
STACKOV_API int stackov_command_line(struct stackov *s, const char *line, char **out);
STACKOV_API void stackov_free(void *p);

/*
 * A dump file, before a reader opens it: 0 when @vmlinux may read @dump,
 * else 1 with one line in @why (no VMCOREINFO; another kernel's build
 * id). stackov_dump_info(): VMCOREINFO's @key (KERNELOFFSET...).
 */
STACKOV_API int stackov_dump_mismatch(const char *dump, const char *vmlinux, char *why,
				      size_t len);
STACKOV_API int stackov_dump_info(const char *dump, const char *key, char *buf, size_t len);

/*
 * For the log explainer: the fold and the words, on frames named from a
 * log. @names[i] is frame i's function, deepest first; @bytes[i] its size
 * or -1. Fills *start, *period, *reps and *cyc_bytes (-1 if a turn has
 * a frame of unknown size), and writes "a -> b xN (M bytes per cycle)"
 * into @buf (empty without a cycle).
 */
STACKOV_API void stackov_fold(const char * const *names, const long *bytes, int n, int *start, int *period,
		  int *reps, long *cyc_bytes);
STACKOV_API void stackov_cycle_words(const char * const *names, int start, int period, int reps,
			 long cyc_bytes, char *buf, size_t len);
/*
 * The title reports of one bug are grouped by: "WHAT in a -> b -> c", the
 * cycle in call order from the rotation that is smallest, name by name
 * (gcc's suffixes aside), so that any turn a trace shows of one cycle
 * gives one title; without a cycle, "WHAT in f", f the deepest function
 * that comes back in @names (deepest first), else the deepest.
 */
STACKOV_API void stackov_signature(const char * const *names, int n, int start, int period, int reps,
				   const char *what, char *buf, size_t len);
/* @s as a JSON string body: ", \ and every byte below 0x20 or above
 * 0x7e escaped as \u00XX.
 */
STACKOV_API void stackov_json_string(const char *s, char *buf, size_t len);
/* @s (a comm) as the verdict's text words it: every byte below 0x20 or
 * above 0x7e as \xNN.
 */
STACKOV_API void stackov_text_string(const char *s, char *buf, size_t len);
/* KSTACK_OFFSET_MAX's mask for a kernel @major.@minor. */
STACKOV_API unsigned int stackov_kstack_mask(int major, int minor);

/*
 * ORC, from a vmlinux or module ELF's .orc_unwind_ip and .orc_unwind:
 * the entry for @ip, decoded as the format @new_format says (6.4's
 * struct orc_entry has a signal bit: member_offset(orc_entry, signal)).
 */
struct stackov_orc_entry {
	short sp_offset, bp_offset;
	unsigned int sp_reg, bp_reg, type, end, signal;
};

#define STACKOV_ORC_REG_UNDEFINED	0
#define STACKOV_ORC_REG_PREV_SP		1
#define STACKOV_ORC_REG_BP		4
#define STACKOV_ORC_REG_SP		5
#define STACKOV_ORC_REG_BP_INDIRECT	8
#define STACKOV_ORC_REG_SP_INDIRECT	9
#define STACKOV_ORC_TYPE_CALL		0
#define STACKOV_ORC_TYPE_REGS		1
#define STACKOV_ORC_TYPE_REGS_PARTIAL	2
#define STACKOV_ORC_TYPE_NONE		0xff	/* 6.4's UNDEFINED or END_OF_STACK */

STACKOV_API void stackov_orc_decode(const unsigned char raw[6], int new_format, struct stackov_orc_entry *e);
/*
 * The rightmost of @n entries whose address is at or below @ip
 * (__orc_find()): @ips are absolute and sorted. -1 if none.
 */
STACKOV_API long stackov_orc_search(const uint64_t *ips, long n, uint64_t ip);
/*
 * The bytes a frame at @ip uses, up to and with its return address, by
 * its ORC entry: sp_offset for an SP-based CFA; -1 for any other. @call:
 * @ip is a return address (the call before it is what counts).
 */
STACKOV_API long stackov_orc_frame_bytes(const struct stackov_orc_entry *e);

#endif /* STACKOV_H */
