// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: the stack crashes that are not overflows, and every other
 * crash, each with its verdict: a smashed stack-protector canary (the
 * function, its slot from the function's own code, what the slot holds
 * against the task's canary), an overwritten STACK_END_MAGIC (what the
 * word holds, how deep the stack went: an overflow that ran past the end
 * or a stray write), a fault on a freed stack (a per-CPU cache slot, or
 * vmalloc space no area holds any more), and any other oops or panic:
 * where it happened. All of them read from the panic task's stack alone,
 * as the dump holds it, with no register a reader must supply.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define KERNEL_CS	0x10	/* arch/x86/include/asm/segment.h */
#define KERNEL_DS	0x18
#define EFLAGS_FIXED	0x2	/* bit 1 of EFLAGS is always set */
#define NULL_PAGE	4096

/*
 * "func+0x48": @pc by name, its offset in hex, as the kernel prints it:
 * %pS for a pc (@back 0), %pB for a return address (@back 1: the
 * function of the call before it; a call of a function that never
 * returns may end its caller, and @pc is then the next one's start).
 */
static void sym_hex(struct stackov *s, uint64_t pc, int back, char *buf, size_t len)
{
	char name[128];
	uint64_t start;

	if (so_name(s, pc - back, name, sizeof(name), &start))
		snprintf(buf, len, "%lx", (unsigned long)pc);
	else
		snprintf(buf, len, "%s+%#lx", name, (unsigned long)(pc - start));
}

/* The target of the call that returns to @ret (e8 rel32): 0, or -1. */
static int call_to(struct stackov *s, uint64_t ret, uint64_t *target)
{
	uint8_t b[5];
	int32_t rel;

	if (so_read(s, ret - 5, b, sizeof(b)) || b[0] != 0xe8)
		return -1;
	memcpy(&rel, b + 1, 4);
	*target = ret + (int64_t)rel;
	return 0;
}

/*
 * The lowest word of the stack from @from up that returns from a call to
 * @fn (a function that never returns: __stack_chk_fail, panic): its
 * index, -1.
 */
static long ret_from(struct stackov *s, const uint64_t *w, long n, const char *fn, long from)
{
	uint64_t target, addr;
	long i;

	if (so_sym(s, fn, &addr))
		return -1;
	for (i = from; i < n; i++)
		if (w[i] && so_is_text(s, w[i]) && !call_to(s, w[i], &target) && target == addr)
			return i;
	return -1;
}

/*
 * The return address of the call to __stack_chk_fail: the lowest above
 * __stack_chk_fail's own frame, whose top is the highest word that
 * returns into it (from its call of panic; deeper ones are stale).
 * Below it, panic's frame holds a copy as its argument (the "corrupted
 * in: %pB" of __builtin_return_address(0)).
 */
static long stack_chk_fail(struct stackov *s, const uint64_t *w, long n)
{
	char name[128];
	uint64_t start;
	long i;

	for (i = n - 1; i >= 0; i--)
		if (w[i] && !so_name(s, w[i] - 1, name, sizeof(name), &start) &&
		    !strcmp(name, "__stack_chk_fail"))
			return ret_from(s, w, n, "__stack_chk_fail", i + 1);
	return ret_from(s, w, n, "__stack_chk_fail", 0);
}

/*
 * The canary's slot in the frame of the function @start: its code reads
 * the canary (mov %gs:0x28,%reg) and stores it (mov %reg,disp(%rbp) or
 * disp(%rsp)). 0 with the displacement and base ("rbp" or "rsp"), -1.
 */
static int canary_store(struct stackov *s, uint64_t start, long *disp, const char **base)
{
	uint8_t c[128];
	int i, reg = -1;

	if (so_read(s, start, c, sizeof(c)))
		return -1;
	for (i = 0; i + 9 <= (int)sizeof(c); i++) {
		/* 65 [REX.W] 8b modrm(00 reg 100) 25 28 00 00 00 */
		if (reg < 0 && c[i] == 0x65 && (c[i + 1] & 0xf8) == 0x48 && c[i + 2] == 0x8b &&
		    (c[i + 3] & 0xc7) == 0x04 && c[i + 4] == 0x25 && c[i + 5] == 0x28 &&
		    !c[i + 6] && !c[i + 7] && !c[i + 8]) {
			reg = ((c[i + 3] >> 3) & 7) | (c[i + 1] & 4 ? 8 : 0);
			i += 8;
			continue;
		}
		/* REX.W 89 modrm: a store of the register it went into */
		if (reg >= 0 && (c[i] & 0xf8) == 0x48 && c[i + 1] == 0x89 &&
		    (((c[i + 2] >> 3) & 7) | (c[i] & 4 ? 8 : 0)) == reg && !(c[i] & 1)) {
			uint8_t m = c[i + 2];
			int mod = m >> 6, rm = m & 7, at = i + 3;

			if (mod != 1 && mod != 2)
				continue;
			if (rm == 4) {
				if (c[at] != 0x24)
					continue;
				at++;
				*base = "rsp";
			} else if (rm == 5) {
				*base = "rbp";
			} else {
				continue;
			}
			if (mod == 1) {
				*disp = (int8_t)c[at];
			} else {
				int32_t d;

				memcpy(&d, c + at, 4);
				*disp = d;
			}
			return 0;
		}
	}
	return -1;
}

/* A push of %rbp first (after endbr64): the function keeps a frame pointer. */
static int pushes_rbp(struct stackov *s, uint64_t fn)
{
	uint8_t c[5];

	if (so_read(s, fn, c, sizeof(c)))
		return 0;
	if (c[0] == 0xf3 && c[1] == 0x0f && c[2] == 0x1e && c[3] == 0xfa)
		return c[4] == 0x55;
	return c[0] == 0x55;
}

static void canary(struct stackov *s, struct so_crash *c, const uint64_t *w, long i)
{
	uint64_t ret = w[i], slot_ret = c->lo + 8 * i, start, chk, rbp = 0;
	const char *base = NULL;
	long disp, off;

	c->kind = SO_CRASH_CANARY;
	sym_hex(s, ret, 1, c->func, sizeof(c->func));
	if (so_name(s, ret - 1, c->func_name, sizeof(c->func_name), &start))
		return;
	c->frame_lo = slot_ret + 8;
	off = so_moff(s, "task_struct", "stack_canary");
	c->have_canary = off >= 0 && !so_u64(s, c->task.addr + off, &c->canary);
	c->have_walk = 1;
	c->w.ret_start = 1;
	c->w.sp = c->frame_lo;	/* the walk's start: see so_crash() */
	c->walk_ip = ret;
	if (!so_sym(s, "__stack_chk_fail", &chk) && pushes_rbp(s, chk) && i >= 1)
		c->walk_bp = w[i - 1];
	if (canary_store(s, start, &disp, &base))
		return;
	if (!strcmp(base, "rsp")) {
		/* %rsp as it was at the call: the word above the return address */
		c->slot = c->frame_lo + disp;
	} else {
		/* %rbp: __stack_chk_fail pushed the caller's first */
		rbp = c->walk_bp;
		if (rbp < c->frame_lo || rbp >= c->hi)
			return;
		c->slot = rbp + disp;
		c->frame_hi = rbp + 16;	/* its saved %rbp and return address */
	}
	snprintf(c->slot_how, sizeof(c->slot_how), "%s%#lx(%%%s)", disp < 0 ? "-" : "",
		 (unsigned long)(disp < 0 ? -disp : disp), base);
	c->have_slot = c->slot >= c->lo && c->slot + 8 <= c->hi &&
		       !so_u64(s, c->slot, &c->slot_value);
}

/*
 * The exception frame of the oops: the highest pt_regs on the stack that
 * the CPU pushed from kernel mode (kernel CS and SS, EFLAGS' fixed bit,
 * a text RIP) and that ends where the CPU put it, at the interrupted
 * %rsp aligned down to 16 bytes. Its index, -1.
 */
static long exception_frame(struct stackov *s, const uint64_t *w, long n, long words, uint64_t lo)
{
	long ip = so_moff(s, "pt_regs", "ip") / 8, cs = so_moff(s, "pt_regs", "cs") / 8,
	     fl = so_moff(s, "pt_regs", "flags") / 8, sp = so_moff(s, "pt_regs", "sp") / 8,
	     ss = so_moff(s, "pt_regs", "ss") / 8, i;

	if (ip < 0 || cs < 0 || fl < 0 || sp < 0 || ss < 0 || words <= 0)
		return -1;
	for (i = n - words; i >= 0; i--) {
		const uint64_t *r = w + i;
		uint64_t end = lo + 8 * (i + words);

		if (r[cs] != KERNEL_CS || (r[ss] != KERNEL_DS && r[ss]) ||
		    !(r[fl] & EFLAGS_FIXED) || r[fl] >= (1UL << 22))
			continue;
		/* the frame ends at the interrupted %rsp, aligned down */
		if (r[sp] < end || r[sp] - end >= 16)
			continue;
		if (so_is_text(s, r[ip]))
			return i;
	}
	return -1;
}

/* pt_regs' general registers by x86 number (rax, rcx, ... r15). */
static void gprs(struct stackov *s, const uint64_t *r, uint64_t g[16])
{
	static const char * const names[16] = {
		"ax", "cx", "dx", "bx", "sp", "bp", "si", "di",
		"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	};
	int i;

	for (i = 0; i < 16; i++) {
		long off = so_moff(s, "pt_regs", names[i]);

		g[i] = off >= 0 ? r[off / 8] : 0;
	}
}

static void oops(struct stackov *s, struct so_crash *c, const uint64_t *w, long i)
{
	const uint64_t *r = w + i;
	uint64_t g[16], start;
	uint8_t code[16];

	c->kind = SO_CRASH_OOPS;
	c->regs = c->lo + 8 * i;
	c->ip = r[so_moff(s, "pt_regs", "ip") / 8];
	c->sp = r[so_moff(s, "pt_regs", "sp") / 8];
	c->have_walk = 1;
	c->walk_ip = c->ip;
	c->w.sp = c->sp;
	c->walk_bp = r[so_moff(s, "pt_regs", "bp") / 8];
	sym_hex(s, c->ip, 0, c->func, sizeof(c->func));
	/* the entry code's call of the handler returns just below the frame */
	if (i > 0 && so_name(s, w[i - 1], c->entry, sizeof(c->entry), &start))
		c->entry[0] = '\0';
	if (so_read(s, c->ip, code, sizeof(code)))
		return;
	if (code[0] == 0x0f && code[1] == 0x0b) {
		c->kind = SO_CRASH_BUG;
		return;
	}
	gprs(s, r, g);
	c->have_fault = !so_insn_mem(code, sizeof(code), g, c->ip, &c->fault, c->fault_how,
				     sizeof(c->fault_how));
	if (!c->have_fault)
		return;
	c->where_kind = so_where(s, c->fault, c->where, sizeof(c->where));
	if (c->where_kind == SO_AT_CACHED || c->where_kind == SO_AT_UNMAPPED)
		c->kind = SO_CRASH_FREED;
	else if (c->fault < NULL_PAGE)
		c->where_kind = SO_AT_NULL;
}

/*
 * What the crash of @k (the panic task, on @cpu) was, when it was no
 * overflow: @c filled in. 0, or -1 when its stack cannot be read.
 */
int so_crash(struct stackov *s, const struct so_task *k, int cpu, struct so_crash *c)
{
	long n, words = so_size(s, "pt_regs") / 8, i;
	uint64_t *w;

	memset(c, 0, sizeof(*c));
	c->task = *k;
	c->cpu = cpu;
	c->lo = k->stack;
	c->hi = k->stack + so_thread_size(s);
	c->magic = so_magic(s, k, &c->magic_word);
	n = (long)(c->hi - c->lo) / 8;
	w = malloc(c->hi - c->lo);
	if (!k->stack || !w || so_read(s, c->lo, w, c->hi - c->lo)) {
		free(w);
		return -1;
	}
	c->left = so_stack_left(s, c->lo, c->hi, 1);
	so_deepest_code(s, c->lo + c->left, c->hi, c->deepest, sizeof(c->deepest));
	i = stack_chk_fail(s, w, n);
	if (i >= 0) {
		canary(s, c, w, i);
		goto out;
	}
	if (c->magic_word != SO_END_MAGIC) {
		c->kind = SO_CRASH_END;
		goto out;
	}
	i = exception_frame(s, w, n, words, c->lo);
	if (i >= 0) {
		oops(s, c, w, i);
		goto out;
	}
	c->kind = SO_CRASH_PANIC;
out:
	/* No frame of its own: from the call of panic() */
	i = c->have_walk ? -1 : ret_from(s, w, n, "panic", 0);
	if (i >= 0) {
		uint64_t p;

		sym_hex(s, w[i], 1, c->func, sizeof(c->func));
		c->have_walk = 1;
		c->w.ret_start = 1;
		c->walk_ip = w[i];
		c->w.sp = c->lo + 8 * (i + 1);
		if (i >= 1 && !so_sym(s, "panic", &p) && pushes_rbp(s, p))
			c->walk_bp = w[i - 1];
	}
	free(w);
	c->nregions = so_regions(s, cpu, k->stack, c->regions, SO_MAX_REGIONS);
	if (c->have_walk)
		so_walk(s, c->regions, c->nregions, c->walk_ip, c->w.sp, c->walk_bp, &c->w);
	/* A canary's frame without %rbp: up to the CFA the unwind found */
	if (c->kind == SO_CRASH_CANARY && !c->frame_hi && c->w.n && c->w.frames[0].fp)
		c->frame_hi = c->w.frames[0].fp + 16;
	/* The buffer below the slot, as the function's DWARF names it */
	if (c->kind == SO_CRASH_CANARY && c->have_slot && c->frame_hi && c->slot > c->frame_lo &&
	    so_frame_local(s, c->func_name, (long)(c->frame_lo - c->frame_hi),
			   (long)(c->slot - c->frame_hi), c->local, sizeof(c->local), &c->local_at,
			   &c->local_size))
		c->local[0] = '\0';
	so_near_miss(s, k->addr, c->near, sizeof(c->near), c->near_in, sizeof(c->near_in), &c->near_left);
	return 0;
}
