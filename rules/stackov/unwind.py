# SPDX-License-Identifier: GPL-2.0
#
# stackov-lab: the frames from the registers the double-fault handler
# saved, each named and measured: on the kernel's ORC tables when it has
# them (orc.py), else on the frame-pointer chain. crash-scripts/unwind.c.

from stackov import orc
from stackov.regions import region_of, stack_above
from stackov.target import MAX_FRAMES, Unreadable

FP_WORDS = "on the frame-pointer chain"
ORC_WORDS = "on the ORC unwind"


class Frame(object):
    """A frame: its pc, its name, the bytes it uses, and fp: where its
    frame pointer is or would be (its CFA less 16), 0 if unknown."""

    def __init__(self, pc, fp, name):
        self.pc, self.fp, self.name, self.bytes = pc, fp, name, -1


class Frames(list):
    """The frames, deepest first; how says which unwinder found them."""
    how = FP_WORDS


def walk(t, regions, ip, sp, bp):
    """The frames from ip, sp and bp: ORC's when the kernel has ORC."""
    if orc.has_orc(t):
        frames = walk_orc(t, regions, ip, sp, bp)
    else:
        frames = walk_fp(t, regions, ip, sp, bp)
    frame_bytes(frames, regions, sp)
    return frames


def walk_orc(t, regions, ip, sp, bp):
    """The kernel's own ORC unwind (unwind_next_frame()) from ip, sp and
    bp: each frame's CFA from the entry for its pc (for a return address,
    the call before it); the caller's return address is the word below the
    CFA. Ends where the kernel's ends, at an entry's pt_regs (an interrupt,
    an exception, a syscall) or the end of a kthread's stack, or where no
    entry is found or the stack would go the wrong way."""
    if "_orc" not in t.__dict__:
        t._orc = orc.Orc(t)
    frames = Frames()
    frames.how = ORC_WORDS
    signal = True
    while len(frames) < MAX_FRAMES:
        name = t.func_name(ip)
        f = Frame(ip, 0, name or "??")
        frames.append(f)
        e = t._orc.find(ip if signal else ip - 1) if name else None
        if e is None or e.sp_reg == orc.REG_UNDEFINED or e.type != orc.TYPE_CALL:
            break
        try:
            if e.sp_reg == orc.REG_SP:
                cfa = sp + e.sp_offset
            elif e.sp_reg == orc.REG_BP:
                cfa = bp + e.sp_offset
            elif e.sp_reg == orc.REG_SP_INDIRECT:
                cfa = t.u64(sp) + e.sp_offset
            elif e.sp_reg == orc.REG_BP_INDIRECT:
                cfa = t.u64(bp + e.sp_offset)
            else:
                break
            ret = t.u64(cfa - 8)
            if e.bp_reg == orc.REG_PREV_SP:
                bp = t.u64(cfa + e.bp_offset)
            elif e.bp_reg == orc.REG_BP:
                bp = t.u64(bp + e.bp_offset)
        except Unreadable:
            break
        if cfa <= sp and region_of(regions, cfa) is region_of(regions, sp):
            break
        f.fp = cfa - 16
        ip, sp, signal = ret, cfa, False
    return frames


def walk_fp(t, regions, ip, sp, bp):
    """The frame-pointer chain from ip, sp and bp, while the frame pointer
    stays on one of @regions. Before a function's "push %rbp" the caller is
    the word at the stack pointer and %rbp is still the caller's frame.
    Each frame's bytes: from where its callee's frame ended (sp, for the
    deepest) up to its return address, above its saved frame pointer."""
    name = t.func_name(ip)
    start = t.func_start(ip) if name else None
    frames = Frames([Frame(ip, 0, name or "??")])
    try:
        op = t.u8(ip)
    except Unreadable:
        op = 0
    ret = None
    if start == ip or op == 0x55:
        try:
            ret = t.u64(sp)
        except Unreadable:
            ret = None
    if ret is not None:
        frames.append(Frame(ret, bp, t.func_name(ret) or "??"))
    else:
        frames[0].fp = bp
    fp = bp
    while len(frames) < MAX_FRAMES and region_of(regions, fp):
        try:
            nxt, ret = t.u64(fp), t.u64(fp + 8)
        except Unreadable:
            break
        if t.func_name(ret) is None:
            break
        # An entry stub's frame pointer has bit 0 set: it marks the
        # pt_regs of an interrupt or exception; the chain ends there.
        frames.append(Frame(ret, 0 if nxt & 1 else nxt, t.func_name(ret)))
        if nxt & 1 or nxt <= fp:
            break
        fp = nxt
    return frames


def frame_bytes(frames, regions, sp):
    """Each frame's bytes: from where its callee's frame ended (sp, for the
    deepest) up to its CFA, the word above its return address."""
    low = sp
    for i, f in enumerate(frames):
        # A guard page counts as its stack's: the deepest frame is often there.
        if f.fp and (stack_above(regions, region_of(regions, f.fp)) is not
                     stack_above(regions, region_of(regions, low))):
            low = f.fp + 16     # a switch of stacks: its size is unknown
        elif f.fp and f.fp + 16 > low:
            f.bytes = f.fp + 16 - low
            low = f.fp + 16
        elif i == 0:
            f.bytes = 8
            low = sp + 8
