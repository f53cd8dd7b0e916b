// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: just enough of the x86-64 instruction set to say which
 * address a faulting instruction touched, from its bytes and the
 * registers the exception saved: the memory operand of the common
 * one- and two-byte opcodes (ModRM, SIB, RIP-relative) and the string
 * instructions' %rsi and %rdi. What it cannot decode it says so: the
 * kernel's own report (CR2) is what a test holds it to.
 */
#include <string.h>

#include "internal.h"

/* One-byte opcodes with a ModRM byte, and the bytes of their immediate. */
static int modrm1(uint8_t op, int opsize16, int *imm)
{
	*imm = 0;
	if (op < 0x40 && (op & 7) < 4)
		return 1;		/* add, or, adc, sbb, and, sub, xor, cmp */
	switch (op) {
	case 0x63: case 0x84: case 0x85: case 0x86: case 0x87:
	case 0x88: case 0x89: case 0x8a: case 0x8b: case 0x8d:
	case 0xd0: case 0xd1: case 0xd2: case 0xd3: case 0xfe: case 0xff:
		return 1;
	case 0x80: case 0x82: case 0x83: case 0xc0: case 0xc1: case 0xc6: case 0x6b:
		*imm = 1;
		return 1;
	case 0x81: case 0xc7: case 0x69:
		*imm = opsize16 ? 2 : 4;
		return 1;
	}
	return 0;
}

/* Two-byte (0f xx) opcodes with a ModRM byte that touch memory. */
static int modrm2(uint8_t op, int *imm)
{
	*imm = 0;
	if ((op >= 0x10 && op <= 0x17) || (op >= 0x28 && op <= 0x2f) ||
	    (op >= 0x40 && op <= 0x4f) || op == 0xaf || op == 0xb0 || op == 0xb1 ||
	    op == 0xb6 || op == 0xb7 || op == 0xbe || op == 0xbf || op == 0xc1 ||
	    op == 0xc7 || op == 0xa3 || op == 0xab || op == 0xb3 || op == 0xbb)
		return 1;
	if (op == 0xba) {	/* bt* with an imm8 */
		*imm = 1;
		return 1;
	}
	return 0;
}

static const char * const reg_name[16] = {
	"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};

/*
 * The address the instruction @code (@len bytes, at @rip) reads or writes,
 * with @regs (by x86 number: rax, rcx, ... r15): 0 with it in @ea and how
 * it was formed in @how ("(%rax)", "0x10(%rbp)"), else -1.
 */
int so_insn_mem(const uint8_t *code, size_t len, const uint64_t regs[16], uint64_t rip,
		uint64_t *ea, char *how, size_t hlen)
{
	size_t i = 0;
	int rex = 0, opsize16 = 0, seg = 0, imm, mod, rm, base, index, scale;
	uint8_t op, m;
	int32_t disp = 0;
	int64_t d;

	for (; i < len; i++) {
		op = code[i];
		if (op == 0x66)
			opsize16 = 1;
		else if (op == 0x64 || op == 0x65)
			seg = 1;
		else if (op != 0x67 && op != 0xf0 && op != 0xf2 && op != 0xf3 && op != 0x2e &&
			 op != 0x36 && op != 0x3e && op != 0x26)
			break;
	}
	if (i < len && (code[i] & 0xf0) == 0x40)
		rex = code[i++];
	if (i >= len || seg)
		return -1;	/* %fs/%gs: a per-CPU base the registers do not hold */
	op = code[i++];
	/* movs, cmps, stos, lods, scas: %rsi and %rdi */
	if (op == 0xa4 || op == 0xa5 || op == 0xa6 || op == 0xa7 || op == 0xac || op == 0xad) {
		*ea = regs[6];
		snprintf(how, hlen, "(%%rsi), a string instruction's source");
		return 0;
	}
	if (op == 0xaa || op == 0xab || op == 0xae || op == 0xaf) {
		*ea = regs[7];
		snprintf(how, hlen, "(%%rdi), a string instruction's destination");
		return 0;
	}
	if (op == 0x0f) {
		if (i >= len || !modrm2(code[i++], &imm))
			return -1;
	} else if (!modrm1(op, opsize16, &imm)) {
		return -1;
	}
	if (i >= len)
		return -1;
	m = code[i++];
	mod = m >> 6;
	rm = (m & 7) | (rex & 1 ? 8 : 0);
	if (mod == 3 || op == 0x8d)
		return -1;	/* a register, or lea: no memory touched */
	if ((m & 7) == 4) {	/* SIB */
		uint8_t sib;

		if (i >= len)
			return -1;
		sib = code[i++];
		scale = 1 << (sib >> 6);
		index = ((sib >> 3) & 7) | (rex & 2 ? 8 : 0);
		base = (sib & 7) | (rex & 1 ? 8 : 0);
		d = 0;
		if ((sib & 7) == 5 && mod == 0) {
			if (i + 4 > len)
				return -1;
			memcpy(&disp, code + i, 4);
			i += 4;
			base = -1;
		}
		if (index == 4)
			index = -1;
	} else {
		scale = 1;
		index = -1;
		base = rm;
		if ((m & 7) == 5 && mod == 0) {
			if (i + 4 > len)
				return -1;
			memcpy(&disp, code + i, 4);
			i += 4 + imm;
			*ea = rip + i + (int64_t)disp;
			snprintf(how, hlen, "%#x(%%rip)", disp);
			return 0;
		}
	}
	if (mod == 1) {
		if (i + 1 > len)
			return -1;
		disp = (int8_t)code[i++];
	} else if (mod == 2) {
		if (i + 4 > len)
			return -1;
		memcpy(&disp, code + i, 4);
		i += 4;
	}
	d = disp;
	*ea = (base >= 0 ? regs[base] : 0) + (index >= 0 ? regs[index] * scale : 0) + d;
	if (index >= 0)
		snprintf(how, hlen, "%s%#lx(%s%s,%%%s,%d)", d < 0 ? "-" : "",
			 (unsigned long)(d < 0 ? -d : d), base >= 0 ? "%" : "",
			 base >= 0 ? reg_name[base] : "", reg_name[index], scale);
	else if (base < 0)
		snprintf(how, hlen, "0x%lx, absolute", (unsigned long)d);
	else if (d)
		snprintf(how, hlen, "%s%#lx(%%%s)", d < 0 ? "-" : "", (unsigned long)(d < 0 ? -d : d),
			 reg_name[base]);
	else
		snprintf(how, hlen, "(%%%s)", reg_name[base]);
	return 0;
}
