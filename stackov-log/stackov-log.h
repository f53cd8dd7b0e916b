/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stackov-log: a kernel stack overflow explained from its log alone.
 * What the files share: one overflow report as read from the log, its
 * trace entries, and the verdict built from them, one file per step:
 * line.c (a log line made plain), report.c (reports found and read),
 * verdict.c (stack, whose, entry, cycle), frames.c (each frame's bytes,
 * from vmlinux and the modules), print.c (the verdict in words and JSON).
 */
#ifndef STACKOV_LOG_H
#define STACKOV_LOG_H

#include <stddef.h>

#define SL_MAX_ENTRIES	2048	/* of one report's trace */
#define SL_MAX_REPORTS	64
#define SL_MAX_PERIOD	8	/* the dump readers' */
#define SL_NAME		128
#define VMALLOC_DEFAULT		0xffffc90000000000UL	/* x86-64, 4-level paging */
#define VMALLOC_DEFAULT_END	0xffffe90000000000UL
#define ARRAY_SIZE(x)	(sizeof(x) / sizeof((x)[0]))

/* Where a trace entry was printed: between which markers. */
enum sl_section {
	SEC_NONE,	/* before any marker (older kernels) */
	SEC_TASK,
	SEC_IRQ,
	SEC_SOFTIRQ,
	SEC_NMI,
	SEC_DF,
	SEC_EXC,	/* #DB, #MC, #VC: another exception stack */
};

struct sl_entry {
	char func[SL_NAME];
	char mod[64];		/* "" for vmlinux */
	unsigned long off, size;
	int unreliable;		/* printed with a leading "? " */
	enum sl_section sec;
	/* Filled in by frames.c, given vmlinux: */
	unsigned long pc;	/* the return address, 0 if not found */
	long bytes;		/* the stack the frame uses, -1 if unknown */
	int realigns;		/* its prologue aligns %rsp (and $-N): a pad no log shows */
	char file[96];		/* its source file, "" if unknown */
	int call;		/* the instruction before pc: CALL_* */
	char callee[SL_NAME];	/* a direct call's target, by name */
};

enum { CALL_UNKNOWN, CALL_NONE, CALL_DIRECT, CALL_INDIRECT };

enum sl_kind {
	K_GUARD,	/* BUG: X stack guard page was hit */
	K_DOUBLE_FAULT,	/* kernel stack overflow (double-fault), no BUG line */
	K_END_MAGIC,	/* STACK_END_MAGIC found overwritten */
	K_BARE_DF,	/* "PANIC: double fault" with no guard page named */
	K_CANARY,	/* stack-protector: an on-stack buffer overran */
	K_FREED,	/* a page fault on unmapped vmalloc space: a freed stack's? */
	K_KASAN_STACK,	/* KASAN: an access outside a stack variable, in a frame */
};

struct sl_report {
	enum sl_kind kind;
	long first_line, last_line;	/* 1-based, in the log */
	char title[256];		/* the line that opened it */
	char caller[16];		/* its [ T123]/[ C1] caller id, "" if none */
	int ended;			/* an end marker was seen */
	int has_oops;			/* the die() line after the BUG line */
	char stack[16];			/* "TASK", "IRQ", "DF", ... or "" */
	int stack_inferred;		/* from the trace's markers, not a BUG line */
	int have_bounds, hashed;
	int wrapped;			/* the BUG line's bounds are on the next line */
	unsigned long fault, lo, hi;
	long below;			/* the lab's "N bytes below the stack", -1 */
	int cpu, pid;			/* -1 if the log does not say */
	char comm[64];
	char wq[64], wq_fn[SL_NAME];	/* the Workqueue: line */
	struct sl_entry rip;		/* the faulting instruction, the RIP: line */
	int have_rip;
	unsigned long rsp, rbp;		/* of the faulting context, 0 if not printed */
	unsigned long cr2, rdi;		/* the register dump's, 0 if not printed */
	long orig_rax;			/* a user frame's ORIG_RAX: its syscall, or -1 */
	int orig_rax_next;		/* "ORIG_RAX:" ended a wrapped line */
	int kasan;			/* the oops line says KASAN: THREAD_SIZE doubled */
	int kasan_other;		/* a KASAN report not titled stack-: kept if on a stack */
	/* arm64's panic_bad_stack(): "Task stack: [lo..hi]" and the others */
	int arm64;
	int nranges;
	struct { char name[16]; unsigned long lo, hi; } range[6];
	char release[96];		/* "6.1.0-lab #1" from the CPU: line */
	char canary_func[SL_NAME];
	char hardware[128];
	struct sl_entry e[SL_MAX_ENTRIES];
	int n;
	int dropped;			/* entries over SL_MAX_ENTRIES */
};

/* The verdict on one report. */
struct sl_verdict {
	struct sl_report *r;
	enum sl_section sec;		/* the overflowed stack's section */
	struct sl_entry *frame[SL_MAX_ENTRIES + 1];	/* innermost first */
	int nframes;
	int reliable;			/* the frames are reliable entries */
	int dropped;			/* '?' entries that are no frame of the chain */
	int cyc_start, cyc_period, cyc_reps;
	long cyc_bytes;
	char context[384];
	char ctx_kind[16];		/* task, kthread, kworker, hardirq, softirq, unknown */
	char entry[256];
	char chain[256];
	long total;			/* the frames' bytes, -1 if none known */
	int known;			/* frames whose bytes are known */
};

/* line.c */
char *sl_plain(char *line, char *caller, size_t clen);
int sl_parse_entry(const char *s, struct sl_entry *e);

/* report.c */
int sl_read_log(const char *path, struct sl_report **reports, int *nreports,
		long *lines, char *err, size_t errlen);

/* verdict.c */
void sl_verdict(struct sl_report *r, struct sl_verdict *v);
void sl_cycle(struct sl_verdict *v);
const char *sl_syscall_name(const char *func, char *buf, size_t len);

/* frames.c */
int sl_frames_open(const char *vmlinux, const char *modules, char *err, size_t errlen);
void sl_frames_measure(struct sl_report *r, char *err, size_t errlen);
long sl_syscall_nr(const char *sysname);
unsigned long sl_thread_size(const struct sl_report *r);
const char *sl_vmlinux_banner(void);
void sl_frames_close(void);

/* print.c */
void sl_print_text(const struct sl_verdict *v, int have_vmlinux);
void sl_print_json(const struct sl_verdict *v);
void sl_print_facts(const struct sl_verdict *v);

#endif
