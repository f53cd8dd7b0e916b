# SPDX-License-Identifier: GPL-2.0
#
# stackov-lab: stacks over their life: every task's high-water mark and
# each CPU's cached stacks, which should be no one's. crash-scripts/lifecycle.c.

from stackov.tasks import Task, all_tasks
from stackov.target import Refusal, Unreadable
from stackov.text import vm_struct_lines

def stack_used(t, stack):
    """The high-water mark: the stack starts zeroed; the lowest non-zero
    word above STACK_END_MAGIC (the kernel's stack_not_used())."""
    size = t.thread_size()
    try:
        data = t.read(stack, size)
    except Unreadable:
        return -1
    for i in range(8, size, 8):
        if data[i:i + 8] != b"\0" * 8:
            return size - i
    return 0


def usage_lines(t):
    """Every task's stack high-water mark, deepest first."""
    rows = [Task(t, a) for a in all_tasks(t)]
    used = [(stack_used(t, k.stack), k) for k in rows]
    used.sort(key=lambda u: -u[0])
    out = ["%8s  %5s  %-16s  %s" % ("PID", "USED", "COMM", "OF")]
    out += ["%8d  %5d  %-16s  %d" % (k.pid, u, k.comm, t.thread_size()) for u, k in used]
    return out


def cached_lines(t):
    """Each CPU's cached stacks (kernel/fork.c's cached_stacks[])."""
    base = t.sym("cached_stacks")
    if base is None:
        raise Refusal("this kernel has no cached_stacks (no CONFIG_VMAP_STACK)")
    n = t.array_len("cached_stacks") or 2
    owners = dict((k.stack, k.pid) for k in (Task(t, a) for a in all_tasks(t)))
    out = []
    for cpu in range(t.nr_cpus()):
        for i in range(n):
            vm = t.u64(t.per_cpu("cached_stacks", cpu) + 8 * i)
            if not vm:
                continue
            addr = t.u64(vm + t.offsetof("vm_struct", "addr"))
            line = "cpu %d  slot %d  %x..%x  used %d of %d" % (
                cpu, i, addr, addr + t.thread_size(), stack_used(t, addr), t.thread_size())
            if addr in owners:
                line += "  STILL the stack of pid %d" % owners[addr]
            out.append(line)
            out.extend(vm_struct_lines(t, "    ", vm))
    return out
