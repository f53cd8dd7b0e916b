/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stackov: what the crash extension's files share: the verdict being
 * built (the stacks of one CPU and task, the fault, the frames, the cycle,
 * the context) and the steps that fill it in, one file per concern:
 * regions.c, unwind.c, orc.c, fold.c, context.c, print.c, lifecycle.c; stackov.c
 * holds the command. Built with -fvisibility=hidden: nothing here is seen
 * by crash or by another extension.
 */
#ifndef STACKOV_VERDICT_H
#define STACKOV_VERDICT_H

#include "defs.h"

#define STACKOV_END_MAGIC	0x57AC6E9DUL	/* include/uapi/linux/magic.h */
#define STACKOV_PF_KTHREAD	0x00200000UL	/* include/linux/sched.h */
#define STACKOV_PF_IDLE		0x00000002UL
#define STACKOV_PF_WQ_WORKER	0x00000020UL
#define STACKOV_MAX_FRAMES	1024
#define STACKOV_MAX_REGIONS	16
#define STACKOV_MAX_PERIOD	8

#ifndef ARRAY_SIZE	/* the kernel's, which crash's defs.h does not have */
#define ARRAY_SIZE(x)	(sizeof(x) / sizeof((x)[0]))
#endif

/* A stack (or its guard page) of the CPU and task being explained. */
struct region {
	char name[32];
	ulong lo, hi;
	int guard;		/* the page(s) below a stack */
};

struct frame {
	ulong pc;
	ulong fp;		/* its frame pointer, or where one would be (CFA - 16), 0 if unknown */
	long bytes;		/* the stack it uses, up to its CFA, -1 if unknown */
	char name[64];
};

/* arch/x86/include/asm/orc_types.h and include/linux/objtool.h (6.1) */
#define STACKOV_ORC_REG_UNDEFINED	0
#define STACKOV_ORC_REG_PREV_SP		1
#define STACKOV_ORC_REG_BP		4
#define STACKOV_ORC_REG_SP		5
#define STACKOV_ORC_REG_BP_INDIRECT	8
#define STACKOV_ORC_REG_SP_INDIRECT	9
#define STACKOV_ORC_TYPE_CALL		0
/* what 6.1 has no type for: 6.4's ORC_TYPE_UNDEFINED, ORC_TYPE_END_OF_STACK */
#define STACKOV_ORC_TYPE_NONE		0xff

/* struct orc_entry, unpacked. */
struct stackov_orc {
	short sp_offset, bp_offset;
	unsigned int sp_reg, bp_reg, type, end;
};

struct verdict {
	struct task_context *tc;
	int cpu;
	ulong task_stack;
	ulong task_vm;		/* task_struct.stack_vm_area */
	struct region regions[STACKOV_MAX_REGIONS];
	int nregions;
	int have_regs;
	ulong ip, sp, bp, flags;	/* flags: the interrupted frame's EFLAGS */
	unsigned int preempt;	/* preempt_count at the fault */
	ulong fault;		/* the address the faulting instruction touched */
	const char *fault_how;
	struct region *hit;	/* the region holding the fault, or NULL */
	struct region *stack;	/* the stack the fault overflowed (hit or above it) */
	struct frame frames[STACKOV_MAX_FRAMES];
	int nframes;
	const char *how;	/* the unwinder's words: "on the ORC unwind" */
	int cyc_start, cyc_period, cyc_reps;
	long cyc_bytes;
	char context[128];
	char entry[128];
	long kstack_offset;	/* the syscall's random stack offset, -1 if none */
};

/* The verdict of the one stackov command that runs. */
extern struct verdict v;

static inline int read_ulong(ulong addr, ulong *val)
{
	return readmem(addr, KVADDR, val, sizeof(*val), "stackov", RETURN_ON_ERROR | QUIET);
}

/* regions.c */
void find_regions(void);
ulong percpu_hot_addr(const char *sym, const char *member, int cpu);
struct region *region_of(ulong addr);
struct region *stack_above(struct region *g);

/* unwind.c */
void read_df_regs(void);
void find_fault(void);
void walk_frames(void);

/* orc.c */
int have_orc(void);
int orc_load(void);
void orc_unload(void);
int orc_find(ulong ip, struct stackov_orc *e);
int module_text(ulong mod, int init, ulong *base, ulong *end);

/* fold.c */
void fold_cycle(void);
void cycle_str(char *buf, size_t len);

/* context.c */
void find_context(void);
void find_entry(void);
void find_kstack_offset(void);
int panic_ran(void);
int atomic_str(char *buf, size_t len);

/* print.c */
void print_vm_struct(const char *indent, ulong vm);
void print_text(void);
void print_json(void);
void print_cpu_stacks(void);

/* lifecycle.c */
void print_all_usage(long off);
void print_cached(void);

#endif /* STACKOV_VERDICT_H */
