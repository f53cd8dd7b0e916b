# SPDX-License-Identifier: GPL-2.0
"""stackov-lab: the crashed thread of a kdump vmcore, read with drgn.

usage: /usr/bin/python3 drgn-scripts/postmortem.py VMCORE VMLINUX [MODULE.ko...]

Prints the crashed task, its stack bounds, and drgn's stack trace of it
(drgn's own unwinder, not stackov's frame-pointer walk), each frame with
the stack its stack pointer is on: TASK (the task's own stack), TASK-GUARD
(the page below it), IRQ and IRQ-GUARD (the CPU's hardirq stack and the
page below it), an exception stack (DF, NMI, DB, MCE, VC...), or ? (none
of those), and drgn's own stack pointer for it (sp, of a run's first
frame). The stacks are rules/stackov/regions.py's, as stackov's; a test
that checks where a frame is reads the sp, not the name.
"""
import sys

from drgn import Object
from drgn.helpers.linux.sched import task_cpu

from stackov_drgn import DrgnTarget, open_dump  # puts rules/ on the path
from stackov.regions import region_of, regions_of  # noqa: E402
from stackov.target import Unreadable  # noqa: E402
from stackov.tasks import current_task  # noqa: E402


def stack_kind(stacks, sp):
    r = region_of(stacks, sp)
    return r.name if r else "?"


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__.strip())
    vmcore, debug = argv[1], argv[2:]
    prog = open_dump(vmcore, debug)

    thread = prog.crashed_thread()
    task = thread.object
    # drgn takes QEMU's dump's first CPU for the crashed one: the task that
    # panicked is the one on panic_cpu, as crash and stackov take it.
    target = DrgnTarget(prog, debug[0])
    cpu = None
    try:
        cpu = target.panic_cpu()
        panic = current_task(target, cpu) if cpu is not None else None
    except Unreadable:
        panic = None
    regs = None
    if panic and panic != task.value_():
        # Its registers are where its double fault saved them, at the top
        # of the CPU's DF stack; drgn unwinds from a struct pt_regs.
        task = Object(prog, "struct task_struct *", value=panic)
        df = [r for r in regions_of(target, cpu, 0) if r.name == "DF"]
        if df:
            regs = Object(prog, "struct pt_regs *", value=df[0].hi - target.sizeof("pt_regs"))
        print("drgn's crashed thread is pid %d on cpu %d; the task on panic_cpu %d is"
              " pid %d, unwound from the registers its double fault saved"
              % (thread.object.pid.value_(), task_cpu(thread.object), cpu, task.pid.value_()))
    thread_size = target.thread_size()
    lo = task.stack.value_()
    print("crashed thread: %s pid %d (task_struct %#x)" % (
        task.comm.string_().decode(), task.pid.value_(), task.value_()))
    print("cpu:            %d" % task_cpu(task))
    print("stack:          %#x..%#x (THREAD_SIZE %d)" % (lo, lo + thread_size, thread_size))
    try:
        trace = prog.stack_trace(regs) if regs is not None else thread.stack_trace()
        # drgn 0.0.31 takes a QEMU dump's registers as the CPU held them
        # when QEMU paused it: in panic(), on the DF stack. The overflow is
        # in the registers the double fault saved at the top of that stack.
        if regs is None and cpu is not None and len(trace):
            df = [r for r in regions_of(target, cpu, 0) if r.name == "DF"]
            if df and df[0].lo <= trace[0].sp < df[0].hi:
                regs = Object(prog, "struct pt_regs *", value=df[0].hi - target.sizeof("pt_regs"))
                print("drgn's registers for pid %d are panic()'s, on the DF stack; unwound from"
                      " the registers its double fault saved" % task.pid.value_())
                trace = prog.stack_trace(regs)
    except Exception as e:
        print("stack trace:    drgn could not unwind: %s" % e)
        return
    try:
        rsp = trace[0].register("rsp")
        if rsp < lo:
            rel = "%d bytes below the stack" % (lo - rsp)
        else:
            rel = "stack + %#x" % (rsp - lo)
        print("rsp:            %#x (%s)" % (rsp, rel))
    except (LookupError, IndexError):
        pass
    stacks = regions_of(target, task_cpu(task), lo)
    # One function inlined within an inlined instance of itself (6.12's
    # __run_timer_base, as addr2line -i shows it too) is two of drgn's
    # frames with the same pc, name and stack pointer: one call, one frame.
    frames = []
    for frame in trace:
        prev = frames[-1] if frames else None
        if (prev is not None and frame.name and frame.name == prev.name and
                pc_of(frame) == pc_of(prev) and frame.sp == prev.sp):
            continue
        frames.append(frame)
    trace = frames
    print("stack trace (%d frames; a run of identical frames is shown once;"
          " [the stack each is on]):" % len(trace))
    i = 0
    while i < len(trace):
        frame = trace[i]
        pc = pc_of(frame)
        if pc is None:
            # drgn 0.0.22 after it switched stacks on an ORC entry it could
            # not follow: it says so, and its trace ends here.
            print("  #%-8d drgn: program counter is not known; its unwind stops here" % i)
            break
        j = i
        kind = stack_kind(stacks, frame.sp)
        while (j + 1 < len(trace) and pc_of(trace[j + 1]) == pc and
               trace[j + 1].name == frame.name and
               stack_kind(stacks, trace[j + 1].sp) == kind):
            j += 1
        # A frame with no debug info, or in assembly (the entry code), by
        # its symbol, as kallsyms and the kernel's trace name it: drgn
        # 0.0.31 has entry_64.S's lines and names the function around the
        # label (entry_SYSCALL_64, not entry_SYSCALL_64_after_hwframe).
        try:
            src = " at %s:%d" % (frame.source()[0].split("/")[-1], frame.source()[1])
        except LookupError:
            src = ""
        if src == "" or src.split(":")[0].endswith(".S"):
            name = target.func_name(pc) or frame.name or "??"
        else:
            name = frame.name or target.func_name(pc) or "??"
        span = "#%d" % i if i == j else "#%d-#%d" % (i, j)
        times = "" if i == j else " (x%d)" % (j - i + 1)
        print("  %-9s %#x %s%s%s [%s] sp %#x" % (span, pc, name, src, times, kind, frame.sp))
        i = j + 1


def pc_of(frame):
    try:
        return frame.pc
    except LookupError:
        return None


if __name__ == "__main__":
    main(sys.argv)
