# SPDX-License-Identifier: GPL-2.0
#
# stackov-lab: tasks: one task_struct's facts, the task on a CPU, every
# thread, a task named by pid or address, and where a sleeping one resumes.

from stackov.target import Refusal

class Task(object):
    def __init__(self, t, addr):
        self.addr = addr
        self.pid = t.u32(addr + t.offsetof("task_struct", "pid"))
        self.comm = t.cstr(addr + t.offsetof("task_struct", "comm"), 16)
        self.flags = t.u32(addr + t.offsetof("task_struct", "flags"))
        self.stack = t.u64(addr + t.offsetof("task_struct", "stack"))
        off = t.offsetof("task_struct", "stack_vm_area")
        self.vm = t.u64(addr + off) if off is not None else 0
        off = t.off("task_struct", "thread_info.cpu")
        if off is None:
            off = t.offsetof("task_struct", "cpu")
        self.cpu = t.u32(addr + off) if off is not None else 0


def current_task(t, cpu):
    return t.u64(t.per_cpu_hot("current_task", cpu))


def all_tasks(t):
    """Every thread: init_task's list of processes, each one's threads."""
    init = t.sym("init_task")
    tasks_off = t.offsetof("task_struct", "tasks")
    sig_off = t.offsetof("task_struct", "signal")
    head_off = t.offsetof("signal_struct", "thread_head")
    node_off = t.offsetof("task_struct", "thread_node")
    out = []
    for leader in [init] + t.list_entries(init + tasks_off, tasks_off):
        sig = t.u64(leader + sig_off)
        threads = t.list_entries(sig + head_off, node_off) if sig else []
        out.extend(threads or [leader])
    return out


def find_task(t, arg):
    """A pid (decimal) or a task_struct address (hex), as crash takes them."""
    tasks = all_tasks(t)
    if arg.isdigit():
        for addr in tasks:
            if Task(t, addr).pid == int(arg):
                return Task(t, addr)
    try:
        n = int(arg, 16)
    except ValueError:
        n = None
    if n in tasks:
        return Task(t, n)
    raise Refusal("no task or pid %s in this dump" % arg)


def sleeping_regs(t, k):
    """Where a task that is not running resumes: the inactive_task_frame
    that __switch_to_asm left at thread.sp: (ip, sp, bp)."""
    sp = t.u64(k.addr + t.off("task_struct", "thread.sp"))
    ret = sp + t.offsetof("inactive_task_frame", "ret_addr")
    return t.u64(ret), ret, t.u64(sp + t.offsetof("inactive_task_frame", "bp"))
