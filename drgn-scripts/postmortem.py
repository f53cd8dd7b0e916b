# SPDX-License-Identifier: GPL-2.0
"""stackov-lab: the crashed thread of a kdump vmcore, read with drgn.

usage: /usr/bin/python3 drgn-scripts/postmortem.py VMCORE VMLINUX [MODULE.ko...]

Prints the crashed task, its stack bounds, and drgn's stack trace of it
(drgn's own unwinder, not stackov's frame-pointer walk), each frame with
the stack its stack pointer is on: TASK (the task's own stack), TASK-GUARD
(the page below it), IRQ and IRQ-GUARD (the CPU's hardirq stack and the
page below it), an exception stack (DF, NMI, DB, MCE, VC...), or ? (none
of those), and drgn's own stack pointer for it (sp, of a run's first
frame). The stacks and the crashed task are libstackov's (the engine's
stackov-current and stackov-stacks), as stackov's; a test that checks
where a frame is reads the sp, not the name.

Then drgn's own word on the stacks, where it has one (drgn 0.1.0 and
later: drgn.helpers.linux.stack): kernel_stack_trace()'s segments, each
with the StackKind drgn gives it, its frames and its first frame's sp.
"""
import json
import sys

import drgn

from drgn import Object
from drgn.helpers.linux.sched import task_cpu

from stackov_drgn import engine, open_dump  # puts libstackov/ on the path
import stackov  # noqa: E402


def ask(e, line):
    """An engine command's JSON, or None when it refused."""
    status, text = e.command(line)
    return json.loads(text) if status == 0 else None


class Region(object):
    def __init__(self, d):
        self.name, self.lo, self.hi = d["name"], int(d["lo"], 16), int(d["hi"], 16)


def regions_of(e, task):
    """The stacks of @task (an address): its own, and its CPU's."""
    d = ask(e, "stackov-stacks -j %#x" % task)
    return [Region(r) for r in d["regions"]] if d else []


def stack_kind(stacks, sp):
    for r in stacks:
        if r.lo <= sp < r.hi:
            return r.name
    return "?"


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__.strip())
    vmcore, debug = argv[1], argv[2:]
    prog = open_dump(vmcore, debug)

    thread = prog.crashed_thread()
    task = thread.object
    # drgn takes QEMU's dump's first CPU for the crashed one: the task that
    # panicked is the one on panic_cpu, as crash and stackov take it.
    try:
        e = engine(prog, debug[0], vmcore)
    except stackov.Refusal as err:
        sys.exit("drgn: %s" % err)
    cur = ask(e, "stackov-current")
    cpu = cur["cpu"] if cur else None
    panic = int(cur["task"], 16) if cur else None
    pt_regs = prog.type("struct pt_regs").size
    regs = None
    if panic and panic != task.value_():
        # Its registers are where its double fault saved them, at the top
        # of the CPU's DF stack; drgn unwinds from a struct pt_regs.
        task = Object(prog, "struct task_struct *", value=panic)
        df = [r for r in regions_of(e, panic) if r.name == "DF"]
        if df:
            regs = Object(prog, "struct pt_regs *", value=df[0].hi - pt_regs)
        print("drgn's crashed thread is pid %d on cpu %d; the task on panic_cpu %d is"
              " pid %d, unwound from the registers its double fault saved"
              % (thread.object.pid.value_(), task_cpu(thread.object), cpu, task.pid.value_()))
    thread_size = cur["thread_size"] if cur else 16384
    lo = task.stack.value_()
    print("drgn version:   %s" % drgn.__version__)
    print("crashed thread: %s pid %d (task_struct %#x)" % (
        stackov.text_string(task.comm.string_()), task.pid.value_(), task.value_()))
    print("cpu:            %d" % task_cpu(task))
    print("stack:          %#x..%#x (THREAD_SIZE %d)" % (lo, lo + thread_size, thread_size))
    try:
        trace = prog.stack_trace(regs) if regs is not None else thread.stack_trace()
        # drgn 0.0.31 takes a QEMU dump's registers as the CPU held them
        # when QEMU paused it: in panic(), on the DF stack. The overflow is
        # in the registers the double fault saved at the top of that stack.
        if regs is None and panic is not None and len(trace):
            df = [r for r in regions_of(e, panic) if r.name == "DF"]
            if df and df[0].lo <= trace[0].sp < df[0].hi:
                regs = Object(prog, "struct pt_regs *", value=df[0].hi - pt_regs)
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
    stacks = regions_of(e, task.value_())
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
            name = kallsyms_name(e, pc) or frame.name or "??"
        else:
            name = frame.name or kallsyms_name(e, pc) or "??"
        span = "#%d" % i if i == j else "#%d-#%d" % (i, j)
        times = "" if i == j else " (x%d)" % (j - i + 1)
        print("  %-9s %#x %s%s%s [%s] sp %#x" % (span, pc, name, src, times, kind, frame.sp))
        i = j + 1
    stack_kinds(prog, task)


def stack_kinds(prog, task):
    """drgn's kernel_stack_trace() of @task: a line a segment, "KIND #A-#B
    FIRST sp SP" (FIRST: the segment's first frame's function)."""
    try:
        from drgn.helpers.linux.stack import kernel_stack_trace
    except ImportError:
        print("\ndrgn's stack kinds: none (drgn %s has no drgn.helpers.linux.stack;"
              " 0.1.0 and later have it)" % drgn.__version__)
        return
    try:
        kst = kernel_stack_trace(prog, task)
    except Exception as err:
        print("\ndrgn's stack kinds: kernel_stack_trace() failed: %s" % err)
        return
    print("\ndrgn's stack kinds (kernel_stack_trace(), %d segments):" % len(kst.segments))
    i = 0
    for seg in kst.segments:
        first = seg.frames[0]
        try:
            sp = "%#x" % first.sp
        except LookupError:
            sp = "?"
        # The physical frame's name: the last of those sharing its pc.
        names = [f.name for f in seg.frames if not f.is_inline and f.name]
        print("  %-8s #%d-#%d %s sp %s" % (seg.kind.name, i, i + len(seg.frames) - 1,
                                           names[0] if names else "??", sp))
        i += len(seg.frames)


def kallsyms_name(e, pc):
    """@pc's function as kallsyms (and stackov) names it: the nearest
    symbol at or below it, a label inside the entry code included."""
    status, text = e.command("stackov-name %#x" % pc)
    name = text.strip()
    return name if status == 0 and name != "?" else None


def pc_of(frame):
    try:
        return frame.pc
    except LookupError:
        return None


if __name__ == "__main__":
    main(sys.argv)
