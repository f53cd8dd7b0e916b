# SPDX-License-Identifier: GPL-2.0
#
# stackov-lab: the stacks of a CPU and task (the task's, the IRQ stack, the
# exception stacks), each with its guard page. crash-scripts/regions.c.

from stackov.target import IST_STACKS, PAGE_SIZE

class Region(object):
    def __init__(self, name, lo, hi, guard):
        self.name, self.lo, self.hi, self.guard = name, lo, hi, guard


def regions_of(t, cpu, task_stack):
    """The task's stack, this CPU's IRQ stack and exception stacks, with guards."""
    size = t.thread_size()
    out = []
    if task_stack:
        out.append(Region("TASK", task_stack, task_stack + size, False))
        out.append(Region("TASK-GUARD", task_stack - PAGE_SIZE, task_stack, True))
    ptr = t.per_cpu_hot("hardirq_stack_ptr", cpu)
    irq_size = t.sizeof("irq_stack")
    if ptr is not None and irq_size:
        top = t.u64(ptr)
        if top:
            top += 8        # hardirq_stack_ptr is the top word
            out.append(Region("IRQ", top - irq_size, top, False))
            out.append(Region("IRQ-GUARD", top - irq_size - PAGE_SIZE, top - irq_size, True))
    ptr = t.per_cpu("cea_exception_stacks", cpu)
    cea = t.u64(ptr) if ptr is not None else 0
    for name in IST_STACKS if cea else ():
        off = t.offsetof("cea_exception_stacks", name + "_stack")
        size = t.member_size("cea_exception_stacks", name + "_stack")
        if off is None or not size:
            continue
        out.append(Region(name, cea + off, cea + off + size, False))
        goff = t.offsetof("cea_exception_stacks", name + "_stack_guard")
        gsize = t.member_size("cea_exception_stacks", name + "_stack_guard")
        if goff is not None and gsize:
            out.append(Region(name + "-GUARD", cea + goff, cea + goff + gsize, True))
    return out


def region_of(regions, addr):
    for r in regions:
        if r.lo <= addr < r.hi:
            return r
    return None


def stack_above(regions, g):
    """The stack a guard page belongs to: the region just above it."""
    if g is None or not g.guard:
        return g
    for r in regions:
        if not r.guard and r.lo == g.hi:
            return r
    return None
