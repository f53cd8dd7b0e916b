# SPDX-License-Identifier: GPL-2.0
#
# stackov-lab: the lines a verdict and its companions print, as crash's
# stackov prints them: the frames with one turn of a cycle, a stack's
# vm_struct, every CPU's IRQ and exception stacks. crash-scripts/print.c.

from stackov.regions import region_of, regions_of
from stackov.target import PAGE_SIZE, Unreadable
from stackov.unwind import FP_WORDS

def frame_lines(frames, regions, sp, start=0, period=0, reps=0):
    """The frames, one turn of a cycle shown, then the last frame of its run."""
    out = ["  frames:    %d %s" % (len(frames), getattr(frames, "how", FP_WORDS))]
    r = None
    for i, f in enumerate(frames):
        # A frame with no frame pointer of its own: the deepest (at the
        # stack pointer) or the last (where its caller's frame was).
        if f.fp or not i:
            r = region_of(regions, f.fp or sp)
        if reps and start + period <= i < start + period * reps - 1:
            if i == start + period:
                out.append("    ... the cycle above, %d times in all" % reps)
            continue
        size = "%5d bytes" % f.bytes if f.bytes >= 0 else "      ?    "
        out.append("    #%-3d %x %-32s %s [%s]" % (i, f.pc, f.name, size, r.name if r else "?"))
    return out


def vm_struct_lines(t, indent, vm):
    """A stack's vm_struct: address, size, pages and their PFNs, caller."""
    try:
        if not vm:
            raise Unreadable()
        addr = t.u64(vm + t.offsetof("vm_struct", "addr"))
        size = t.u64(vm + t.offsetof("vm_struct", "size"))
    except Unreadable:
        return ["%svm_struct: none (not a vmalloc'd stack)" % indent]
    caller = t.u64(vm + t.offsetof("vm_struct", "caller"))
    nr = t.u32(vm + t.offsetof("vm_struct", "nr_pages"))
    pfns = []
    for i in range(min(nr, 16)):
        try:
            pfns.append("%x" % (t.virt_to_phys(addr + i * PAGE_SIZE) >> 12))
        except Unreadable:
            pfns.append("0")
    return ["%svm_struct: %x, area %x..%x (%d bytes, a guard page included), %d pages, caller %s"
            % (indent, vm, addr, addr + size, size, nr, t.func_sym(caller) if caller else "?"),
            "%spfns:     %s" % (indent, " ".join(pfns))]


def cpu_stack_lines(t, cpus=None):
    """Every CPU's IRQ and exception stacks, with their guards."""
    out = []
    for cpu in cpus if cpus is not None else range(t.nr_cpus()):
        for r in regions_of(t, cpu, 0):
            out.append("cpu %d  %-10s %x..%x %6d bytes" % (cpu, r.name, r.lo, r.hi, r.hi - r.lo))
    return out
