/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libstackov's own: the handle, the verdict being built, and the steps
 * that fill it in, one file per concern:
 *   target.c   the reader's answers: typed reads, symbols, types, per-CPU
 *   record.c   those answers recorded, and replayed without the dump
 *   symbols.c  a text address's name: vmlinux's .symtab, modules' kallsyms
 *   pages.c    the kernel's page tables, a stack's vm_struct
 *   tasks.c    a task's facts, every task, one named by pid or address
 *   regions.c  a CPU's and a task's stacks, with their guard pages
 *   orc.c      ORC entries, from the dump's memory or an ELF's sections
 *   unwind.c   the double fault's registers, the fault, the frames
 *   fold.c     recursion folded into a cycle
 *   context.c  context, entry, atomic, the random stack offset
 *   words.c    every sentence and JSON key, once; the text and JSON writers
 *   verdict.c  the commands: the verdict and its companions
 *   lifecycle.c  cached stacks, every CPU's stacks, where an address lies
 *   headroom.c every stack's headroom, deepest first, and the near misses;
 *              every task's high-water mark
 *   map.c      the stack drawn, top first, with a crash's marks: text or SVG
 *   crashes.c  the crashes that are no overflow: canary, stack end, a
 *              freed stack, any other oops or panic
 *   insn.c     the address a faulting instruction touched
 *   dwarf.c    a frame's local variable by its DWARF name (libdw)
 */
#ifndef STACKOV_INTERNAL_H
#define STACKOV_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "stackov.h"

#define SO_END_MAGIC	0x57AC6E9DUL	/* include/uapi/linux/magic.h */
#define SO_PF_IDLE	0x00000002U	/* include/linux/sched.h */
#define SO_PF_WQ_WORKER	0x00000020U
#define SO_PF_KTHREAD	0x00200000U
#define SO_PAGE		4096UL
#define SO_MAX_FRAMES	1024
#define SO_NEAR_MISS	2048	/* bytes left: a near miss below this */
#define SO_MAX_REGIONS	16
#define SO_MAX_PERIOD	8
#define SO_MAX_TASKS	100000
#define SO_ORC_MAX_TABLES	128
#define SO_ORC_MAX_ENTRIES	(1L << 22)

#ifndef __printf
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(x)	(sizeof(x) / sizeof((x)[0]))
#endif

/* A stack (or its guard page) of the CPU and task being explained. */
struct so_region {
	char name[40];
	uint64_t lo, hi;
	int guard;		/* the page(s) below a stack */
};

struct so_frame {
	uint64_t pc;
	uint64_t fp;		/* its frame pointer, or where one would be (CFA - 16), 0 if unknown */
	long bytes;		/* the stack it uses, up to its CFA, -1 if unknown */
	char name[128];
};

struct so_task {
	uint64_t addr, stack, vm;
	long pid;
	int cpu;
	unsigned int flags;
	char comm[17];
};

/* Frames, from some registers, and their fold. */
struct so_walk {
	struct so_frame frames[SO_MAX_FRAMES];
	int n;
	const char *how;	/* the unwinder's words: "on the ORC unwind" */
	uint64_t sp;		/* the stack pointer it started from */
	int ret_start;		/* it started at a return address, not a CPU's pc */
	int cyc_start, cyc_period, cyc_reps;
	long cyc_bytes;
};

struct so_verdict {
	struct so_task task;
	int cpu;
	struct so_region regions[SO_MAX_REGIONS];
	int nregions;
	uint64_t ip, sp, bp, flags;	/* flags: the interrupted frame's EFLAGS */
	int have_regs;
	unsigned int preempt;	/* preempt_count at the fault */
	uint64_t fault;		/* the address the faulting instruction touched */
	const char *fault_how;
	struct so_region *hit;	/* the region holding the fault, or NULL */
	struct so_region *stack;	/* the stack the fault overflowed */
	struct so_walk w;
	char context[512];
	char entry[320];
	long kstack_offset;	/* the syscall's random stack offset, -1 if none */
	int panic_ran;
};

/* What a crash that was no overflow was (crashes.c). */
enum so_crash_kind {
	SO_CRASH_CANARY,	/* __stack_chk_fail: a canary overwritten */
	SO_CRASH_END,		/* STACK_END_MAGIC overwritten */
	SO_CRASH_FREED,		/* a fault on a freed stack's address */
	SO_CRASH_BUG,		/* BUG(): ud2 */
	SO_CRASH_OOPS,		/* any other fault in the kernel */
	SO_CRASH_PANIC,		/* a panic with no exception frame */
};

/* Where an address lies (lifecycle.c's so_where). */
enum so_at {
	SO_AT_NOWHERE,		/* no stack, guard page or vmalloc area */
	SO_AT_CPU_STACK,	/* a CPU's IRQ or exception stack, or its guard */
	SO_AT_TASK_STACK,	/* a task's stack, or the guard page below it */
	SO_AT_VMALLOC,		/* a vmalloc area that is no stack */
	SO_AT_CACHED,		/* a stack in a CPU's cache: no task's now */
	SO_AT_UNMAPPED,		/* vmalloc space that no area holds */
	SO_AT_NULL,		/* the NULL page */
};

struct so_crash {
	enum so_crash_kind kind;
	struct so_task task;
	int cpu;
	uint64_t lo, hi;	/* the task's stack */
	long left;		/* its bytes never used */
	char deepest[128];
	const char *magic;
	uint64_t magic_word;
	char func[160];		/* canary: the function's return point; oops: RIP; panic: its caller */
	char func_name[128];	/* canary: the function */
	uint64_t frame_lo, frame_hi;	/* canary: the function's frame (hi 0: unknown) */
	uint64_t slot, slot_value, canary;
	char slot_how[40];	/* "-0x8(%rbp)" */
	int have_slot, have_canary;
	char local[64];		/* canary: the variable below the slot, by DWARF, "" */
	long local_at, local_size;	/* its offset from the CFA, its bytes */
	uint64_t regs, ip, sp;	/* oops: the exception frame */
	char entry[128];	/* the entry code that called the handler */
	uint64_t fault;
	char fault_how[80];
	int have_fault;
	enum so_at where_kind;
	char where[256];
	char near[160];		/* the deepest other stack: whose */
	char near_in[128];	/* and the code at its deepest */
	long near_left;
	/* The frames from where the crash left its code (walked if have_walk). */
	struct so_region regions[SO_MAX_REGIONS];
	int nregions, have_walk;
	uint64_t walk_ip, walk_bp;
	struct so_walk w;
};

/* A growing text buffer: the command's output. */
struct so_out {
	char *buf;
	size_t len, cap;
};

struct so_syms;
struct so_orc;
struct so_tape;

struct stackov {
	struct stackov_target t;
	struct so_tape *tape;	/* replaying: the answers, no target */
	FILE *rec;		/* recording: each answer, as it is given */
	char rec_path[4096];
	struct so_syms *syms;
	struct so_orc *orc;
	void *cache;		/* target.c's answers, by key */
	long misses;
	int walking;		/* inside a page-table walk: no walk again */
	int have_version, major, minor;
	uint64_t thread_size, page_offset;
	struct so_out *out;
	char err[256];
};

/* target.c */
int so_read(struct stackov *s, uint64_t addr, void *buf, size_t len);
int so_u64(struct stackov *s, uint64_t addr, uint64_t *v);
int so_u32(struct stackov *s, uint64_t addr, uint32_t *v);
int so_u8(struct stackov *s, uint64_t addr, uint8_t *v);
int so_sym(struct stackov *s, const char *name, uint64_t *addr);
int so_has_sym(struct stackov *s, const char *name);
long so_size(struct stackov *s, const char *st);
long so_moff(struct stackov *s, const char *st, const char *m);
long so_msize(struct stackov *s, const char *st, const char *m);
long so_alen(struct stackov *s, const char *sym);
int so_info(struct stackov *s, const char *key, char *buf, size_t len);
int so_crashed_cpu(struct stackov *s);
int so_cpu_regs(struct stackov *s, int cpu, uint64_t *ip, uint64_t *sp, uint64_t *bp);
int so_percpu(struct stackov *s, const char *sym, int cpu, uint64_t *addr);
int so_percpu_hot(struct stackov *s, const char *sym, const char *member, int cpu, uint64_t *addr);
int so_nr_cpus(struct stackov *s);
void so_version(struct stackov *s, int *major, int *minor);
uint64_t so_thread_size(struct stackov *s);
int so_cstr(struct stackov *s, uint64_t addr, char *buf, size_t len);
int so_raw_read(struct stackov *s, uint64_t addr, void *buf, size_t len);
void so_cache_free(struct stackov *s);

/* record.c */
struct so_tape *so_tape_load(const char *path, char *err, size_t errlen);
void so_tape_free(struct so_tape *t);
int so_tape_read(struct stackov *s, uint64_t addr, void *buf, size_t len);
int so_tape_lookup(struct stackov *s, const char *kind, const char *key, char *val, size_t len);
void so_rec(struct stackov *s, const char *fmt, ...) __printf(2, 3);
void so_rec_read(struct stackov *s, uint64_t addr, const void *buf, size_t len, int ok);
int so_rec_finish(struct stackov *s);

/* symbols.c */
int so_name(struct stackov *s, uint64_t pc, char *name, size_t len, uint64_t *start);
int so_is_text(struct stackov *s, uint64_t pc);
void so_syms_free(struct so_syms *y);
int so_module_text(struct stackov *s, uint64_t mod, int init, uint64_t *base, uint64_t *end);
int so_modules(struct stackov *s, uint64_t *mods, int max);

/* pages.c */
uint64_t so_page_offset(struct stackov *s);
int so_vtop(struct stackov *s, uint64_t addr, uint64_t *phys);
void so_vm_struct(struct stackov *s, const char *indent, uint64_t vm);
void so_vm_caller(struct stackov *s, uint64_t vm, char *buf, size_t len);
void so_symstr(struct stackov *s, uint64_t pc, char *buf, size_t len);

/* tasks.c */
int so_task(struct stackov *s, uint64_t addr, struct so_task *k);
int so_current(struct stackov *s, int cpu, uint64_t *task);
long so_all_tasks(struct stackov *s, uint64_t **tasks);
int so_find_task(struct stackov *s, const char *arg, struct so_task *k);
int so_sleeping_regs(struct stackov *s, const struct so_task *k, uint64_t *ip, uint64_t *sp,
		     uint64_t *bp);

/* regions.c */
int so_regions(struct stackov *s, int cpu, uint64_t task_stack, struct so_region *r, int max);
struct so_region *so_region_of(struct so_region *r, int n, uint64_t addr);
struct so_region *so_stack_above(struct so_region *r, int n, struct so_region *g);

/* orc.c */
int so_have_orc(struct stackov *s);
int so_orc_find(struct stackov *s, uint64_t ip, struct stackov_orc_entry *e);
void so_orc_free(struct so_orc *o);

/* unwind.c */
int so_df_regs(struct stackov *s, struct so_verdict *v);
void so_fault(struct so_verdict *v);
void so_walk(struct stackov *s, struct so_region *r, int nr, uint64_t ip, uint64_t sp,
	     uint64_t bp, struct so_walk *w);

/* fold.c */
void so_fold(struct so_walk *w);
void so_cycle_str(const struct so_walk *w, char *buf, size_t len);

/* context.c */
void so_context(struct stackov *s, struct so_verdict *v);
void so_entry(struct stackov *s, struct so_verdict *v);
int so_panic_ran(struct stackov *s, struct so_verdict *v);
int so_atomic(const struct so_verdict *v, char *buf, size_t len);
const char *so_magic(struct stackov *s, const struct so_task *k, uint64_t *word);

/* words.c */
void so_printf(struct stackov *s, const char *fmt, ...) __printf(2, 3);
void so_text_comm(const char *comm, char *buf, size_t len);
void so_print_verdict(struct stackov *s, struct so_verdict *v);
void so_print_json(struct stackov *s, struct so_verdict *v);
void so_print_crash(struct stackov *s, struct so_crash *c, long near);
void so_print_crash_json(struct stackov *s, const struct so_crash *c, long near);
void so_print_frames(struct stackov *s, const struct so_walk *w, struct so_region *r, int nr);
int so_refuse(struct stackov *s, const char *fmt, ...) __printf(2, 3);

/* verdict.c */
int so_explain(struct stackov *s, const struct so_task *who, int cpu, struct so_verdict *v);

/* lifecycle.c */
enum so_at so_where(struct stackov *s, uint64_t addr, char *buf, size_t len);
int so_cmd_cached(struct stackov *s);
int so_cmd_cpu_stacks(struct stackov *s, int only);
int so_cmd_where(struct stackov *s, uint64_t addr);

/* headroom.c */
long so_stack_left(struct stackov *s, uint64_t lo, uint64_t hi, int magic);
int so_cmd_headroom(struct stackov *s, int json, long near);
int so_cmd_usage(struct stackov *s);
void so_deepest_code(struct stackov *s, uint64_t from, uint64_t hi, char *name, size_t len);
void so_near_miss(struct stackov *s, uint64_t except, char *who, size_t len, char *code,
		  size_t clen, long *left);

/* crashes.c */
int so_crash(struct stackov *s, const struct so_task *k, int cpu, struct so_crash *c);

/* dwarf.c */
int so_frame_local(struct stackov *s, const char *func, long lo, long hi, char *name, size_t len,
		   long *at, long *size);

/* insn.c */
int so_insn_mem(const uint8_t *code, size_t len, const uint64_t regs[16], uint64_t rip,
		uint64_t *ea, char *how, size_t hlen);

/* map.c */
int so_cmd_map(struct stackov *s, int svg);

#endif /* STACKOV_INTERNAL_H */
