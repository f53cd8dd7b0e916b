# SPDX-License-Identifier: GPL-2.0
#
# The verdict on a stack overflow (crash's stackov, the same words: the
# engine's), and a catch command that stops a live guest in the
# guard-page path, before die() and the panic.

import gdb

from stackov_gdb import mem

CATCH_AT = "handle_stack_overflow"


class Stackov(gdb.Command):
    """Explain the kernel stack overflow: the stack the fault hit, its bounds
and guard page, the fault address, the task, its context and entry path,
STACK_END_MAGIC, and the frames with recursion folded into a cycle. The
same words as crash's stackov: libstackov's.

stackov [-j] [PID | TASK]   -j: one JSON object on one line
stackov -u [-j] [-n BYTES]  every stack's headroom, deepest first, and
                            those left with under BYTES (2048)
stackov -m [-s]             the overflowed stack drawn, top first; -s: SVG
On a vmcore the task is the panic task; on a live guest stopped by
stackov-catch, the selected CPU's."""

    def __init__(self):
        super(Stackov, self).__init__("stackov", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        argv = gdb.string_to_argv(arg)
        if "-u" in argv or "-m" in argv:
            mem.show(" ".join(["stackov"] + argv))  # the engine checks the rest
            return
        opts = [a for a in argv if a.startswith("-")]
        if len(argv) - len(opts) > 1 or [a for a in opts if a != "-j"]:
            raise gdb.GdbError("usage: stackov [-j] [PID | TASK]")
        mem.show(" ".join(["stackov"] + argv))


class OverflowBreakpoint(gdb.Breakpoint):
    """Stops where the double-fault handler has found a guard-page hit."""

    def stop(self):
        cpu = mem.selected_cpu()
        try:
            cr2 = int(gdb.parse_and_eval("(unsigned long)$rsi"))
            print("stackov-catch: cpu %d hit a guard page at %x; the kernel has not "
                  "reported it yet (continue: the BUG line, the oops, the panic)" % (cpu, cr2))
            status, text = mem.command("stackov -C %d" % cpu)
            gdb.write(text)
        except gdb.error as e:
            print("stackov-catch: stopped in %s, but: %s" % (CATCH_AT, e))
        return True


class StackovCatch(gdb.Command):
    """Stop the guest where the kernel has found a stack overflow, before it
reports it and dies: a breakpoint in the double-fault handler's guard-page
path (handle_stack_overflow). At the stop it prints the verdict, as
stackov does; continue goes on to the BUG line and the panic.

stackov-catch          arm it
stackov-catch off      disarm it"""

    bp = None

    def __init__(self):
        super(StackovCatch, self).__init__("stackov-catch", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, arg, from_tty):
        if StackovCatch.bp is not None and StackovCatch.bp.is_valid():
            StackovCatch.bp.delete()
        StackovCatch.bp = None
        if arg.strip() == "off":
            print("stackov-catch: off")
            return
        if arg.strip():
            raise gdb.GdbError("usage: stackov-catch [off]")
        StackovCatch.bp = OverflowBreakpoint(CATCH_AT)
        print("stackov-catch: armed at %s" % CATCH_AT)


Stackov()
StackovCatch()
