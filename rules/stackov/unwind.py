# SPDX-License-Identifier: GPL-2.0
#
# stackov-lab: the frame-pointer walk from the registers the double-fault
# handler saved, each frame named and measured. crash-scripts/unwind.c.

from stackov.regions import region_of, stack_above
from stackov.target import MAX_FRAMES, Unreadable

class Frame(object):
    def __init__(self, pc, fp, name):
        self.pc, self.fp, self.name, self.bytes = pc, fp, name, -1


def walk(t, regions, ip, sp, bp):
    """The frame-pointer chain from ip, sp and bp, while the frame pointer
    stays on one of @regions. Before a function's "push %rbp" the caller is
    the word at the stack pointer and %rbp is still the caller's frame.
    Each frame's bytes: from where its callee's frame ended (sp, for the
    deepest) up to its return address, above its saved frame pointer."""
    name = t.func_name(ip)
    start = t.func_start(ip) if name else None
    frames = [Frame(ip, 0, name or "??")]
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
    return frames
