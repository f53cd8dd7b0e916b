# SPDX-License-Identifier: GPL-2.0
#
# stackov-lab gdb helpers: which task crashed, on which stack, and what gdb
# can unwind of it. Works on an ELF vmcore (makedumpfile -E) and on a live
# guest through QEMU's gdbstub. Load with: source gdb-scripts/stackov.py

import gdb

PANIC_CPU_INVALID = -1


def thread_size():
    # init_stack is declared as unsigned long[THREAD_SIZE / sizeof(long)].
    return int(gdb.parse_and_eval("sizeof(init_stack)"))


def current_task(cpu):
    off = int(gdb.parse_and_eval("__per_cpu_offset[%d]" % cpu))
    base = int(gdb.parse_and_eval("(unsigned long)&current_task"))
    ptr = gdb.parse_and_eval("*(struct task_struct **)%#x" % (base + off))
    return ptr.dereference()


def readable(addr):
    try:
        gdb.selected_inferior().read_memory(addr, 8)
        return True
    except gdb.MemoryError:
        return False


def where(addr, lo, hi):
    if addr < lo:
        return "%d bytes below the stack" % (lo - addr)
    if addr >= hi:
        return "%d bytes above the stack" % (addr - hi)
    return "stack + %#x" % (addr - lo)


class LabPanic(gdb.Command):
    """Show the crashed task, its stack bounds and the frames gdb recovers.

lab-panic reads panic_cpu, takes that CPU's current task, switches to the
thread (the vmcore's per-CPU register note) of that task, and walks its
frames until gdb cannot go further, saying why."""

    def __init__(self):
        super(LabPanic, self).__init__("lab-panic", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        cpu = int(gdb.parse_and_eval("panic_cpu.counter"))
        if cpu == PANIC_CPU_INVALID:
            raise gdb.GdbError("lab-panic: panic_cpu is unset: no CPU crashed")
        task = current_task(cpu)
        pid = int(task["pid"])
        comm = task["comm"].string()
        lo = int(task["stack"].cast(gdb.lookup_type("unsigned long")))
        hi = lo + thread_size()
        print("panic cpu:  %d" % cpu)
        print("task:       %s pid %d (task_struct %#x)" % (comm, pid, int(task.address)))
        print("stack:      %#x..%#x (THREAD_SIZE %d)" % (lo, hi, hi - lo))
        if readable(lo + (hi - lo) // 2):
            print("stack memory in this dump: readable")
        else:
            print("stack memory in this dump: NOT readable (the stack is in vmalloc "
                  "space; this core maps only what its program headers list)")

        thread = None
        for t in gdb.selected_inferior().threads():
            if t.ptid[1] == pid:
                thread = t
        if thread is None:
            raise gdb.GdbError("lab-panic: no thread with LWP %d in this core" % pid)
        thread.switch()
        frame = gdb.newest_frame()
        rsp = int(frame.read_register("rsp").cast(gdb.lookup_type("unsigned long")))
        print("rip:        %s" % str(frame.read_register("rip")))
        print("rsp:        %#x (%s)" % (rsp, where(rsp, lo, hi)))
        print("frames:")
        n = 0
        while True:
            sal = frame.find_sal()
            loc = ""
            if sal.symtab is not None:
                loc = " at %s:%d" % (sal.symtab.filename.split("/")[-1], sal.line)
            print("  #%-3d %#x %s%s" % (n, frame.pc(), frame.name() or "??", loc))
            n += 1
            try:
                older = frame.older()
            except gdb.error as e:
                print("  unwinding stopped: %s" % e)
                break
            if older is None:
                print("  unwinding stopped: %s" %
                      gdb.frame_stop_reason_string(frame.unwind_stop_reason()))
                break
            frame = older


LabPanic()
