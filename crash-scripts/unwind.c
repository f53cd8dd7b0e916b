// SPDX-License-Identifier: GPL-2.0
/*
 * stackov: the fault and the frames. The registers the double-fault
 * handler saved, the address the CPU failed to push to, the frame-pointer
 * walk from there, each frame named as kallsyms names it and measured.
 */
#include "verdict.h"

/*
 * The registers the double-fault handler saved: the CPU pushed them at the
 * top of this CPU's DF stack. A real frame has a kernel CS and a text RIP.
 */
void read_df_regs(void)
{
	struct region *df = NULL;
	long psize = STRUCT_SIZE("pt_regs");
	ulong regs, cs;
	int i;

	for (i = 0; i < v.nregions; i++)
		if (!strcmp(v.regions[i].name, "DF"))
			df = &v.regions[i];
	if (!df || psize <= 0)
		return;
	regs = df->hi - psize;
	if (!read_ulong(regs + MEMBER_OFFSET("pt_regs", "ip"), &v.ip) ||
	    !read_ulong(regs + MEMBER_OFFSET("pt_regs", "sp"), &v.sp) ||
	    !read_ulong(regs + MEMBER_OFFSET("pt_regs", "bp"), &v.bp) ||
	    !read_ulong(regs + MEMBER_OFFSET("pt_regs", "flags"), &v.flags) ||
	    !read_ulong(regs + MEMBER_OFFSET("pt_regs", "cs"), &cs))
		return;
	v.have_regs = (cs & 3) == 0 && value_search(v.ip, NULL);
}

/*
 * The address the kernel reports (CR2): a double fault on a full stack
 * comes from the CPU failing to push the page fault's frame, which it
 * pushes after aligning the stack pointer to 16 bytes. Whatever the
 * faulting instruction was (a push, a call, rep stos at %rdi, a read at
 * %rsp), that first push is at (rsp & ~15) - 8.
 */
void find_fault(void)
{
	v.fault = (v.sp & ~15UL) - 8;
	v.fault_how = "the CPU's push of the page fault's frame";
	v.hit = region_of(v.fault);
	v.stack = stack_above(v.hit);
}

/*
 * A module's init text: crash names it _MODULE_INIT_START_<module>; the
 * kernel's own symbol table of the module (mod->kallsyms, whole while the
 * init function runs) has the function's name, as an oops would print it.
 */
static int module_init_name(ulong pc, char *name, size_t len)
{
	ulong head = symbol_value("modules"), node, mod, base, end, ks, symtab, strtab, best = 0;
	long list = MEMBER_OFFSET("module", "list");
	unsigned int num = 0, i, best_name = 0;
	struct { unsigned int name; unsigned char info, other; unsigned short shndx;
		 ulong value, size; } sym;

	if (list < 0 || !read_ulong(head, &node))
		return 0;
	for (; node != head && node; read_ulong(node, &node)) {
		mod = node - list;
		if (!module_text(mod, 1, &base, &end) || pc < base || pc >= end)
			continue;
		if (!read_ulong(mod + MEMBER_OFFSET("module", "kallsyms"), &ks) || !ks ||
		    !read_ulong(ks + MEMBER_OFFSET("mod_kallsyms", "symtab"), &symtab) ||
		    !read_ulong(ks + MEMBER_OFFSET("mod_kallsyms", "strtab"), &strtab))
			return 0;
		readmem(ks + MEMBER_OFFSET("mod_kallsyms", "num_symtab"), KVADDR, &num, sizeof(num),
			"num_symtab", RETURN_ON_ERROR | QUIET);
		for (i = 1; i < num && i < 100000; i++) {
			if (!readmem(symtab + i * sizeof(sym), KVADDR, &sym, sizeof(sym), "sym",
				     RETURN_ON_ERROR | QUIET))
				break;
			if (sym.value >= base && sym.value <= pc && sym.value >= best) {
				best = sym.value;
				best_name = sym.name;
			}
		}
		return best && read_string(strtab + best_name, name, len - 1) > 0;
	}
	return 0;
}

static void name_frame(struct frame *f)
{
	ulong off = 0;
	struct syment *sp = value_search(f->pc, &off);

	if (sp && !strncmp(sp->name, "_MODULE_INIT_", 13) &&
	    module_init_name(f->pc, f->name, sizeof(f->name)))
		return;
	snprintf(f->name, sizeof(f->name), "%s", sp ? sp->name : "??");
}

/*
 * What each frame uses: from where its callee's frame ended (the stack
 * pointer at the fault, for the deepest) up to its CFA, the word above its
 * return address (and its saved frame pointer). A deepest frame caught in
 * its prologue has only its return address on the stack.
 */
static void frame_bytes(void)
{
	ulong low = v.sp;
	int i;

	for (i = 0; i < v.nframes; i++) {
		struct frame *f = &v.frames[i];

		/* A guard page counts as its stack's: the deepest frame is often there. */
		if (f->fp && stack_above(region_of(f->fp)) != stack_above(region_of(low))) {
			low = f->fp + 16;	/* a switch of stacks: its size is unknown */
		} else if (f->fp && f->fp + 16 > low) {
			f->bytes = f->fp + 16 - low;
			low = f->fp + 16;
		} else if (i == 0) {
			f->bytes = 8;
			low = v.sp + 8;
		} else {
			f->bytes = -1;
		}
	}
}

static struct frame *new_frame(ulong pc, ulong fp)
{
	struct frame *f = &v.frames[v.nframes++];

	f->pc = pc;
	f->fp = fp;
	f->bytes = -1;
	name_frame(f);
	return f;
}

/*
 * The kernel's own ORC unwind (unwind_next_frame()) from the saved
 * registers: each frame's CFA from the entry for its pc (for a return
 * address, the call before it); the caller's return address is the word
 * below the CFA. Ends where the kernel's ends, at an entry's pt_regs (an
 * interrupt, an exception, a syscall) or the end of a kthread's stack, or
 * where no entry is found or the stack would go the wrong way.
 */
static void walk_orc(void)
{
	ulong ip = v.ip, sp = v.sp, bp = v.bp, cfa, ret;
	int signal = 1;
	struct frame *f;
	struct stackov_orc e;

	v.how = "on the ORC unwind";
	if (!orc_load()) {
		new_frame(ip, 0);
		return;
	}
	while (v.nframes < STACKOV_MAX_FRAMES) {
		f = new_frame(ip, 0);
		if (!strcmp(f->name, "??") || !orc_find(signal ? ip : ip - 1, &e) ||
		    e.sp_reg == STACKOV_ORC_REG_UNDEFINED || e.type != STACKOV_ORC_TYPE_CALL)
			break;
		if (e.sp_reg == STACKOV_ORC_REG_SP) {
			cfa = sp + e.sp_offset;
		} else if (e.sp_reg == STACKOV_ORC_REG_BP) {
			cfa = bp + e.sp_offset;
		} else if (e.sp_reg == STACKOV_ORC_REG_SP_INDIRECT) {
			if (!read_ulong(sp, &cfa))
				break;
			cfa += e.sp_offset;
		} else if (e.sp_reg == STACKOV_ORC_REG_BP_INDIRECT) {
			if (!read_ulong(bp + e.sp_offset, &cfa))
				break;
		} else {
			break;
		}
		if (!read_ulong(cfa - 8, &ret) ||
		    (e.bp_reg == STACKOV_ORC_REG_PREV_SP && !read_ulong(cfa + e.bp_offset, &bp)) ||
		    (e.bp_reg == STACKOV_ORC_REG_BP && !read_ulong(bp + e.bp_offset, &bp)))
			break;
		if (cfa <= sp && region_of(cfa) == region_of(sp))
			break;
		f->fp = cfa - 16;
		ip = ret;
		sp = cfa;
		signal = 0;
	}
	orc_unload();
}

/*
 * Frame-pointer walk from the saved registers. Before a function's
 * "push %rbp" the caller is the word at the stack pointer and %rbp is
 * still the caller's frame.
 */
static void walk_fp(void)
{
	ulong off = 0, fp = v.bp, next, ret;
	unsigned char op = 0;

	v.how = "on the frame-pointer chain";
	new_frame(v.ip, 0);
	value_search(v.ip, &off);
	readmem(v.ip, KVADDR, &op, 1, "stackov insn", RETURN_ON_ERROR | QUIET);
	/* Not past "push %rbp" (0x55) yet: gcc may put other work before it. */
	if ((off == 0 || op == 0x55) && read_ulong(v.sp, &ret))
		new_frame(ret, fp);
	else
		v.frames[0].fp = fp;
	while (v.nframes < STACKOV_MAX_FRAMES && region_of(fp)) {
		if (!read_ulong(fp, &next) || !read_ulong(fp + 8, &ret))
			break;
		if (!is_kernel_text(ret) && !value_search(ret, NULL))
			break;
		/*
		 * An entry stub's frame pointer has bit 0 set: it marks the
		 * pt_regs of an interrupt or exception; the chain ends there.
		 */
		new_frame(ret, (next & 1) ? 0 : next);
		if ((next & 1) || next <= fp)
			break;
		fp = next;
	}
}

/* The frames from the saved registers: ORC's when the kernel has ORC. */
void walk_frames(void)
{
	v.nframes = 0;
	if (have_orc())
		walk_orc();
	else
		walk_fp();
	frame_bytes();
}
