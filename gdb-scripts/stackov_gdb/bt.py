# SPDX-License-Identifier: GPL-2.0
#
# A task's frames, with the bytes each uses and recursion folded into a
# cycle, as crash's stackov prints frames (the engine's stackov-bt): it
# reads the stack itself (through the page tables on an ELF vmcore), so it
# recovers every frame where gdb's own bt stops at the first one. And the
# thread of the task that crashed, selected for gdb's own bt.

import gdb

from stackov_gdb import mem


class StackovBt(gdb.Command):
    """Walk a task's stack: each frame, the bytes it uses and the stack it
is on, with recursion folded into a cycle: the panic task from the
registers its double fault saved, a running one (live) from its CPU's,
a sleeping one from its switch frame.

stackov-bt [PID | TASK]   default: the panic task (live: the selected CPU's)"""

    def __init__(self):
        super(StackovBt, self).__init__("stackov-bt", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        mem.show(" ".join(["stackov-bt"] + gdb.string_to_argv(arg)))


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
        k = mem.current(int(arg) if arg.strip() else None)
        threads = gdb.selected_inferior().threads()
        for want in (k["pid"], k["cpu"] + 1):
            for th in threads:
                if th.ptid[1] == want:
                    th.switch()
                    print('stackov-select: thread %d (LWP %d): cpu %d, pid %d "%s"'
                          % (th.num, want, k["cpu"], k["pid"], k["comm"]))
                    return
        raise gdb.GdbError("stackov: no thread for pid %d or cpu %d" % (k["pid"], k["cpu"]))


StackovBt()
StackovSelect()
