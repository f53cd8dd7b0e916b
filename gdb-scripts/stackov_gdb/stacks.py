# SPDX-License-Identifier: GPL-2.0
#
# The stacks: a task's or a CPU's stacks with bounds and guard pages, and
# where an address lies (the engine's stackov-stacks, -where, -kind).

import gdb

from stackov_gdb import mem


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
        mem.show(" ".join(["stackov-stacks"] + gdb.string_to_argv(arg)))


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
        mem.show("stackov-where %#x" % addr)


class StackovKind(gdb.Function):
    """$stackov_kind(ADDR [, CPU]): the stack ADDR is on, as a string:
TASK, TASK-GUARD (of the CPU's current task), IRQ, IRQ-GUARD, DF, NMI...,
or "?". CPU defaults to the panic CPU (live: the selected one)."""

    def __init__(self):
        super(StackovKind, self).__init__("stackov_kind")

    def invoke(self, addr, cpu=None):
        line = "stackov-kind %#x" % int(addr)
        if cpu is not None:
            line += " %d" % int(cpu)
        status, text = mem.command(line)
        if status:
            raise gdb.GdbError(text.strip())
        return text.strip()


class StackovTask(gdb.Function):
    """$stackov_task([CPU]): the task_struct running on CPU (default: the
panic CPU, live: the selected one)."""

    def __init__(self):
        super(StackovTask, self).__init__("stackov_task")

    def invoke(self, cpu=None):
        k = mem.current(int(cpu) if cpu is not None else None)
        ptr = int(k["task"], 16)
        return gdb.Value(ptr).cast(gdb.lookup_type("struct task_struct").pointer()).dereference()


StackovStacks()
StackovWhere()
StackovKind()
StackovTask()
