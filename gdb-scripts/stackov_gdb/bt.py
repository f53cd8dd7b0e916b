# SPDX-License-Identifier: GPL-2.0
#
# A frame-pointer walk of any task's stack, with the bytes each frame uses
# and recursion folded into a cycle, as crash's stackov prints frames. It
# reads the stack itself (through the page tables on an ELF vmcore), so it
# recovers every frame where gdb's own bt stops at the first one.

import gdb

from stackov.fold import fold_cycle
from stackov.regions import regions_of
from stackov.target import Refusal
from stackov.tasks import Task, current_task, sleeping_regs
from stackov.text import frame_lines
from stackov.unwind import walk
from stackov.verdict import Verdict
from stackov_gdb import mem, stacks


def running_regs(t, k):
    """A running task's registers: its CPU's thread (live: QEMU's thread of
    the CPU; a vmcore: the thread of the pid), or None."""
    want = k.cpu + 1 if t.live() else k.pid
    for th in gdb.selected_inferior().threads():
        if (th.ptid[1] or th.num) == want:
            old = gdb.selected_thread()
            th.switch()
            try:
                f = gdb.newest_frame()
                return tuple(int(f.read_register(r).cast(gdb.lookup_type("unsigned long")))
                             for r in ("rip", "rsp", "rbp"))
            finally:
                old.switch()
    return None


def frames_of(t, k):
    """(frames, regions, sp, cycle) of task @k: the panic task from the
    registers the double-fault handler saved, a running one from its CPU's,
    a sleeping one from its switch frame."""
    regions = regions_of(t, k.cpu, k.stack)
    try:
        v = Verdict(t, k)
        return v.frames, v.regions, v.sp, (v.cyc_start, v.cyc_period, v.cyc_reps)
    except Refusal:
        pass
    regs = None
    if current_task(t, k.cpu) == k.addr:
        regs = running_regs(t, k)
    if regs is None:
        regs = sleeping_regs(t, k)
    ip, sp, bp = regs
    frames = walk(t, regions, ip, sp, bp)
    return frames, regions, sp, fold_cycle(frames)[:3]


class StackovBt(gdb.Command):
    """Walk a task's frame-pointer chain: each frame, the bytes it uses and
the stack it is on, with recursion folded into a cycle.

stackov-bt [PID | TASK]   default: the panic task (live: the selected CPU's)"""

    def __init__(self):
        super(StackovBt, self).__init__("stackov-bt", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        mem.run(lambda: self.show(gdb.string_to_argv(arg)))

    def show(self, argv):
        t = mem.target()
        k = stacks.task_arg(t, argv[0] if argv else None)
        frames, regions, sp, (start, period, reps) = frames_of(t, k)
        print('pid %d "%s" (task %x) on cpu %d, stack %x..%x'
              % (k.pid, k.comm, k.addr, k.cpu, k.stack, k.stack + t.thread_size()))
        if reps:
            names = [frames[start + i].name for i in range(period)]
            print("  cycle:     %s x%d" % (" -> ".join(reversed(names)), reps))
        print("\n".join(frame_lines(frames, regions, sp, start, period, reps)))


class StackovSelect(gdb.Command):
    """Select gdb's thread of the task that crashed (or, live, of a CPU), so
that gdb's own bt and frame commands start where the kernel died.

stackov-select [CPU]
A vmcore from makedumpfile names its threads by pid, QEMU's dumps and
its gdbstub by CPU (from 1): the thread of the panic task's pid if there
is one, else the CPU's."""

    def __init__(self):
        super(StackovSelect, self).__init__("stackov-select", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        mem.run(lambda: self.select(arg.strip()))

    def select(self, arg):
        t = mem.target()
        cpu = int(arg) if arg else t.panic_cpu()
        if cpu is None:
            raise Refusal("this dump has no panic task; name a CPU")
        k = Task(t, current_task(t, cpu))
        threads = gdb.selected_inferior().threads()
        for want in (k.pid, cpu + 1):
            for th in threads:
                if th.ptid[1] == want:
                    th.switch()
                    print('stackov-select: thread %d (LWP %d): cpu %d, pid %d "%s"'
                          % (th.num, want, cpu, k.pid, k.comm))
                    return
        raise Refusal("no thread for pid %d or cpu %d" % (k.pid, cpu))


StackovBt()
StackovSelect()
