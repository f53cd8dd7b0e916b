# SPDX-License-Identifier: GPL-2.0
#
# The stacks: a task's or a CPU's stacks with bounds and guard pages, and
# where an address lies.

import gdb

from stackov.regions import region_of, regions_of
from stackov.target import Refusal
from stackov.tasks import Task, all_tasks, current_task, find_task
from stackov.text import cpu_stack_lines
from stackov_gdb import mem


def task_arg(t, arg):
    """pid or task address; none: the panic task, live: the selected CPU's."""
    if arg:
        return find_task(t, arg)
    cpu = t.panic_cpu()
    if cpu is None:
        raise Refusal("this dump has no panic task; name a pid or task")
    return Task(t, current_task(t, cpu))


class StackovStacks(gdb.Command):
    """The stacks of a task or a CPU, with bounds and guard pages.

stackov-stacks [PID | TASK]   the task's stack, and the IRQ and exception
                              stacks of the CPU it is on
stackov-stacks -c CPU         that CPU's IRQ and exception stacks
stackov-stacks -a             every CPU's (crash's stackov -i)
Without an argument: the panic task (on a live guest, the selected CPU's
current task)."""

    def __init__(self):
        super(StackovStacks, self).__init__("stackov-stacks", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        mem.run(lambda: self.show(gdb.string_to_argv(arg)))

    def show(self, argv):
        t = mem.target()
        if argv[:1] == ["-a"]:
            print("\n".join(cpu_stack_lines(t)))
            return
        if argv[:1] == ["-c"] and len(argv) == 2:
            print("\n".join(cpu_stack_lines(t, [int(argv[1])])))
            return
        k = task_arg(t, argv[0] if argv else None)
        print('pid %d "%s" (task %x) on cpu %d' % (k.pid, k.comm, k.addr, k.cpu))
        for r in regions_of(t, k.cpu, k.stack):
            print("  %-10s %x..%x %6d bytes" % (r.name, r.lo, r.hi, r.hi - r.lo))


def busy_lists(t):
    """The lists of vmalloc's busy areas: vmap_area_list up to 6.8; from
    6.9, each vmap_node's busy.head (mm/vmalloc.c)."""
    head = t.sym("vmap_area_list")
    if head is not None:
        return [head]
    nodes, nr = t.sym("vmap_nodes"), t.sym("nr_vmap_nodes")
    size, busy = t.sizeof("vmap_node"), t.off("vmap_node", "busy.head")
    if None in (nodes, nr, busy) or not size:
        return []
    base = t.u64(nodes)
    return [base + i * size + busy for i in range(min(t.u32(nr), 1024))]


def vmalloc_area(t, addr):
    """The vmap_area holding @addr: (start, end, vm_struct) or None."""
    off = t.offsetof("vmap_area", "list")
    if off is None:
        return None
    for va in (va for head in busy_lists(t) for va in t.list_entries(head, off)):
        lo = t.u64(va + t.offsetof("vmap_area", "va_start"))
        hi = t.u64(va + t.offsetof("vmap_area", "va_end"))
        if lo <= addr < hi:
            return lo, hi, t.u64(va + t.offsetof("vmap_area", "vm"))
    return None


def where(t, addr):
    """One line: which stack or guard page @addr is in, of whom, else which
    vmalloc area."""
    for cpu in range(t.nr_cpus()):
        r = region_of(regions_of(t, cpu, 0), addr)
        if r:
            return "%x: cpu %d's %s %s+%#x" % (addr, cpu, r.name,
                                               "page" if r.guard else "stack", addr - r.lo)
    for a in all_tasks(t):
        k = Task(t, a)
        r = region_of(regions_of(t, k.cpu, k.stack)[:2], addr)
        if r:
            what = ("the guard page below the TASK stack" if r.guard else "the TASK stack")
            return '%x: %s of pid %d "%s", %s+%#x' % (addr, what, k.pid, k.comm,
                                                        "page" if r.guard else "stack", addr - r.lo)
    va = vmalloc_area(t, addr)
    if va:
        lo, hi, vm = va
        caller = t.u64(vm + t.offsetof("vm_struct", "caller")) if vm else 0
        return "%x: vmalloc area %x..%x, caller %s, not a stack" % (
            addr, lo, hi, t.func_sym(caller) if caller else "?")
    return "%x: no stack, guard page or vmalloc area" % addr


class StackovWhere(gdb.Command):
    """Where an address lies: which stack or guard page, of which task or
CPU, else which vmalloc area.

stackov-where ADDRESS"""

    def __init__(self):
        super(StackovWhere, self).__init__("stackov-where", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        if not arg.strip():
            raise gdb.GdbError("usage: stackov-where ADDRESS")
        addr = int(gdb.parse_and_eval(arg).cast(gdb.lookup_type("unsigned long")))
        mem.run(lambda: print(where(mem.target(), addr)))


class StackovKind(gdb.Function):
    """$stackov_kind(ADDR [, CPU]): the stack ADDR is on, as a string:
TASK, TASK-GUARD (of the CPU's current task), IRQ, IRQ-GUARD, DF, NMI...,
or "?". CPU defaults to the panic CPU (live: the selected one)."""

    def __init__(self):
        super(StackovKind, self).__init__("stackov_kind")

    def invoke(self, addr, cpu=None):
        t = mem.target()
        cpu = int(cpu) if cpu is not None else t.panic_cpu()
        k = Task(t, current_task(t, cpu))
        r = region_of(regions_of(t, cpu, k.stack), int(addr))
        return r.name if r else "?"


class StackovTask(gdb.Function):
    """$stackov_task([CPU]): the task_struct running on CPU (default: the
panic CPU, live: the selected one)."""

    def __init__(self):
        super(StackovTask, self).__init__("stackov_task")

    def invoke(self, cpu=None):
        t = mem.target()
        cpu = int(cpu) if cpu is not None else t.panic_cpu()
        ptr = current_task(t, cpu)
        return gdb.Value(ptr).cast(gdb.lookup_type("struct task_struct").pointer()).dereference()


StackovStacks()
StackovWhere()
StackovKind()
StackovTask()
