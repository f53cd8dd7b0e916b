// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: the fault and the frames. The registers the double-fault
 * handler saved, the address the CPU failed to push to, and the unwind
 * from there: the kernel's own ORC unwind when it has ORC, else the
 * frame-pointer chain; each frame named as kallsyms names it, and
 * measured.
 */
#include <string.h>

#include "internal.h"

/*
 * The registers the double-fault handler saved: the CPU pushed them at
 * the top of this CPU's DF stack. A real frame has a kernel CS and a text
 * RIP. 0 if there is one.
 */
int so_df_regs(struct stackov *s, struct so_verdict *v)
{
	struct so_region *df = NULL;
	long psize = so_size(s, "pt_regs");
	uint64_t regs, cs;
	int i;

	for (i = 0; i < v->nregions; i++)
		if (!strcmp(v->regions[i].name, "DF"))
			df = &v->regions[i];
	if (!df || psize <= 0)
		return -1;
	regs = df->hi - psize;
	if (so_u64(s, regs + so_moff(s, "pt_regs", "ip"), &v->ip) ||
	    so_u64(s, regs + so_moff(s, "pt_regs", "sp"), &v->sp) ||
	    so_u64(s, regs + so_moff(s, "pt_regs", "bp"), &v->bp) ||
	    so_u64(s, regs + so_moff(s, "pt_regs", "flags"), &v->flags) ||
	    so_u64(s, regs + so_moff(s, "pt_regs", "cs"), &cs))
		return -1;
	v->have_regs = (cs & 3) == 0 && so_is_text(s, v->ip);
	return v->have_regs ? 0 : -1;
}

/*
 * The address the kernel reports (CR2): a double fault on a full stack
 * comes from the CPU failing to push the page fault's frame, which it
 * pushes after aligning the stack pointer to 16 bytes. Whatever the
 * faulting instruction was (a push, a call, rep stos at %rdi, a read at
 * %rsp), that first push is at (rsp & ~15) - 8.
 */
void so_fault(struct so_verdict *v)
{
	v->fault = (v->sp & ~15ULL) - 8;
	v->fault_how = "the CPU's push of the page fault's frame";
	v->hit = so_region_of(v->regions, v->nregions, v->fault);
	v->stack = so_stack_above(v->regions, v->nregions, v->hit);
}

static struct so_frame *new_frame(struct stackov *s, struct so_walk *w, uint64_t pc, uint64_t fp)
{
	struct so_frame *f = &w->frames[w->n++];
	uint64_t start;

	f->pc = pc;
	f->fp = fp;
	f->bytes = -1;
	if (so_name(s, pc, f->name, sizeof(f->name), &start))
		snprintf(f->name, sizeof(f->name), "??");
	return f;
}

/*
 * What each frame uses: from where its callee's frame ended (the stack
 * pointer at the fault, for the deepest) up to its CFA, the word above its
 * return address (and its saved frame pointer). A deepest frame caught in
 * its prologue has only its return address on the stack.
 */
static void frame_bytes(struct so_walk *w, struct so_region *r, int nr)
{
	uint64_t low = w->sp;
	int i;

	for (i = 0; i < w->n; i++) {
		struct so_frame *f = &w->frames[i];

		/* A guard page counts as its stack's: the deepest frame is often there. */
		if (f->fp && so_stack_above(r, nr, so_region_of(r, nr, f->fp)) !=
		    so_stack_above(r, nr, so_region_of(r, nr, low))) {
			low = f->fp + 16;	/* a switch of stacks: its size is unknown */
		} else if (f->fp && f->fp + 16 > low) {
			f->bytes = (long)(f->fp + 16 - low);
			low = f->fp + 16;
		} else if (i == 0) {
			f->bytes = 8;
			low = w->sp + 8;
		} else {
			f->bytes = -1;
		}
	}
}

/*
 * The kernel's own ORC unwind (unwind_next_frame()) from the registers:
 * each frame's CFA from the entry for its pc (for a return address, the
 * call before it); the caller's return address is the word below the
 * CFA. Ends where the kernel's ends, at an entry's pt_regs (an interrupt,
 * an exception, a syscall) or the end of a kthread's stack, or where no
 * entry is found or the stack would go the wrong way.
 */
static void walk_orc(struct stackov *s, struct so_walk *w, struct so_region *r, int nr,
		     uint64_t ip, uint64_t sp, uint64_t bp)
{
	struct stackov_orc_entry e;
	struct so_frame *f;
	uint64_t cfa, ret;
	int signal = !w->ret_start;

	w->how = "on the ORC unwind";
	while (w->n < SO_MAX_FRAMES) {
		f = new_frame(s, w, ip, 0);
		if (!strcmp(f->name, "??") || so_orc_find(s, signal ? ip : ip - 1, &e) ||
		    e.sp_reg == STACKOV_ORC_REG_UNDEFINED || e.type != STACKOV_ORC_TYPE_CALL)
			break;
		if (e.sp_reg == STACKOV_ORC_REG_SP) {
			cfa = sp + e.sp_offset;
		} else if (e.sp_reg == STACKOV_ORC_REG_BP) {
			cfa = bp + e.sp_offset;
		} else if (e.sp_reg == STACKOV_ORC_REG_SP_INDIRECT) {
			if (so_u64(s, sp, &cfa))
				break;
			cfa += e.sp_offset;
		} else if (e.sp_reg == STACKOV_ORC_REG_BP_INDIRECT) {
			if (so_u64(s, bp + e.sp_offset, &cfa))
				break;
		} else {
			break;
		}
		if (so_u64(s, cfa - 8, &ret) ||
		    (e.bp_reg == STACKOV_ORC_REG_PREV_SP && so_u64(s, cfa + e.bp_offset, &bp)) ||
		    (e.bp_reg == STACKOV_ORC_REG_BP && so_u64(s, bp + e.bp_offset, &bp)))
			break;
		if (cfa <= sp && so_region_of(r, nr, cfa) == so_region_of(r, nr, sp))
			break;
		f->fp = cfa - 16;
		ip = ret;
		sp = cfa;
		signal = 0;
	}
}

/*
 * Frame-pointer walk from the registers, while the frame pointer stays on
 * one of the stacks. Before a function's "push %rbp" the caller is the
 * word at the stack pointer and %rbp is still the caller's frame.
 */
static void walk_fp(struct stackov *s, struct so_walk *w, struct so_region *r, int nr,
		    uint64_t ip, uint64_t sp, uint64_t bp)
{
	uint64_t fp = bp, next, ret, start = 0;
	uint8_t op = 0;
	char name[128];

	w->how = "on the frame-pointer chain";
	new_frame(s, w, ip, 0);
	so_name(s, ip, name, sizeof(name), &start);
	so_u8(s, ip, &op);
	/*
	 * Not past "push %rbp" (0x55) yet: gcc may put other work before it.
	 * (A return address has its function's frame made.)
	 */
	if (!w->ret_start && (start == ip || op == 0x55) && !so_u64(s, sp, &ret))
		new_frame(s, w, ret, fp);
	else
		w->frames[0].fp = fp;
	while (w->n < SO_MAX_FRAMES && so_region_of(r, nr, fp)) {
		if (so_u64(s, fp, &next) || so_u64(s, fp + 8, &ret))
			break;
		if (!so_is_text(s, ret))
			break;
		/*
		 * An entry stub's frame pointer has bit 0 set: it marks the
		 * pt_regs of an interrupt or exception; the chain ends there.
		 */
		new_frame(s, w, ret, (next & 1) ? 0 : next);
		if ((next & 1) || next <= fp)
			break;
		fp = next;
	}
}

/* The frames from @ip, @sp and @bp: ORC's when the kernel has ORC. */
void so_walk(struct stackov *s, struct so_region *r, int nr, uint64_t ip, uint64_t sp,
	     uint64_t bp, struct so_walk *w)
{
	w->n = 0;
	w->sp = sp;
	if (so_have_orc(s))
		walk_orc(s, w, r, nr, ip, sp, bp);
	else
		walk_fp(s, w, r, nr, ip, sp, bp);
	frame_bytes(w, r, nr);
	so_fold(w);
}
