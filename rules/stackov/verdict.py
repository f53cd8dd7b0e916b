# SPDX-License-Identifier: GPL-2.0
#
# stackov-lab: the verdict on one overflow: the stack the fault hit and its
# bounds, the guard page, the fault address, the task and its context
# (crash-scripts/context.c), the entry path, STACK_END_MAGIC, the frames
# and the folded cycle; as text, line for line crash's, and as JSON.

import json

from stackov.fold import fold_cycle
from stackov.regions import region_of, regions_of, stack_above
from stackov.tasks import Task, current_task
from stackov.target import PF_IDLE, PF_KTHREAD, PF_WQ_WORKER, STACK_END_MAGIC, Refusal, Unreadable
from stackov.text import frame_lines, vm_struct_lines
from stackov.unwind import walk

class Verdict(object):
    """The overflow of @task (default: the task on the crashed CPU)."""

    def __init__(self, t, task=None, cpu=None):
        self.t = t
        if cpu is None:
            cpu = t.panic_cpu()
        if cpu is None or cpu < 0:
            raise Refusal("this dump has no panic task; name a pid or task")
        panic = Task(t, current_task(t, cpu))
        self.task = task or panic
        self.cpu = cpu if task is None else self.task.cpu
        self.regions = regions_of(t, self.cpu, self.task.stack)
        if self.task.addr != panic.addr:
            raise Refusal('pid %d "%s" is not the panic task: it did not overflow its stack'
                          % (self.task.pid, self.task.comm))
        self.read_df_regs()
        self.fault = (self.sp & ~15) - 8
        self.fault_how = "the CPU's push of the page fault's frame"
        self.hit = region_of(self.regions, self.fault)
        self.stack = stack_above(self.regions, self.hit)
        if (self.stack is None or self.hit is None or
                (not self.hit.guard and self.hit is self.stack and
                 self.fault >= self.stack.lo)):
            raise Refusal("the double fault at %x (rsp %x) is not below a known stack: %s"
                          % (self.ip, self.sp, "inside a stack" if self.hit else
                             "outside every stack of cpu (a frame that skipped the guard?)"))
        self.walk_frames()
        self.context = self.find_context()
        self.entry = self.find_entry()

    def read_df_regs(self):
        """The registers the CPU pushed at the top of this CPU's DF stack."""
        t = self.t
        df = [r for r in self.regions if r.name == "DF"]
        size = t.sizeof("pt_regs")
        ok = False
        if df and size:
            regs = df[0].hi - size
            try:
                self.ip = t.u64(regs + t.offsetof("pt_regs", "ip"))
                self.sp = t.u64(regs + t.offsetof("pt_regs", "sp"))
                self.bp = t.u64(regs + t.offsetof("pt_regs", "bp"))
                self.flags = t.u64(regs + t.offsetof("pt_regs", "flags"))
                cs = t.u64(regs + t.offsetof("pt_regs", "cs"))
                ok = cs & 3 == 0 and t.func_name(self.ip) is not None
            except Unreadable:
                ok = False
        if not ok:
            raise Refusal("cpu %d took no double fault: no stack overflow to explain (see bt)"
                          % self.cpu)

    def walk_frames(self):
        self.frames = walk(self.t, self.regions, self.ip, self.sp, self.bp)
        (self.cyc_start, self.cyc_period, self.cyc_reps,
         self.cyc_bytes) = fold_cycle(self.frames)

    def cycle(self):
        if not self.cyc_reps:
            return ""
        names = [self.frames[self.cyc_start + i].name for i in range(self.cyc_period)]
        s = " -> ".join(reversed(names)) + " x%d" % self.cyc_reps
        if self.cyc_bytes > 0:
            s += " (%d bytes per cycle)" % self.cyc_bytes
        return s

    def find_context(self):
        t, k = self.t, self.task
        ptr = t.per_cpu_hot("__preempt_count", self.cpu, "preempt_count")
        pc = t.u32(ptr) if ptr is not None else 0
        # The double-fault handler's nmi_enter() added one hardirq level.
        hardirq = ((pc >> 16) & 0xf) - (1 if pc & 0x00f00000 else 0)
        # And one NMI level (and the hardirq level, when it is still
        # counted); bit 31 is x86's inverted PREEMPT_NEED_RESCHED.
        self.preempt = pc & 0x7fffffff
        if self.preempt & 0x00f00000:
            self.preempt -= 0x00100000
            if self.preempt & 0x000f0000:
                self.preempt -= 0x00010000
        # From 6.11, oops_enter() opens a printk emergency section
        # (nbcon_cpu_emergency_enter(): preempt_disable()), still open when
        # kdump saves the CPU: its levels are the oops', not the code's.
        nest = t.per_cpu("nbcon_pcpu_emergency_nesting", self.cpu)
        try:
            n = t.u32(nest) if nest is not None else 0
        except Unreadable:
            n = 0
        if 0 < n <= self.preempt & 0xff:
            self.preempt -= n
        who = 'pid %d "%s"' % (k.pid, k.comm)
        if self.stack.name == "IRQ":
            if hardirq > 0:
                return "hardirq (on the IRQ stack, interrupting %s)" % who
            if pc & 0x100:
                return "softirq (from irq_exit() on the IRQ stack, interrupting %s)" % who
            return "IRQ stack (preempt_count %#x)" % pc
        if pc & 0x100:
            return "softirq (on the stack of %s)" % who
        if not k.flags & PF_KTHREAD:
            return "task (%s)" % who
        if not k.flags & PF_WQ_WORKER:
            return "kthread (%s)" % who
        fn = self.worker_func()
        return "kworker (%s, work function %s)" % (who, fn or "unknown")

    def panic_ran(self):
        """Whether panic() ran on this CPU before the dump (QEMU's dump on
        pvpanic; kdump's comes from oops_end(), before it): a return
        address into panic() on the DF stack. panic() and its notifiers
        then hold preempt_count, which no longer says what the fault's was."""
        t = self.t
        for r in self.regions:
            if r.name != "DF":
                continue
            try:
                data = t.read(r.lo, r.hi - r.lo)
            except Unreadable:
                return False
            for i in range(0, len(data), 8):
                w = int.from_bytes(data[i:i + 8], "little")
                if w >> 47 and t.func_name(w) == "panic" and w != t.func_start(w):
                    return True
        return False

    def atomic(self):
        """Whether the code ran atomic when it overflowed: its preempt_count
        (less what the double fault's nmi_enter() added), part by part, and
        whether interrupts were off (the interrupted frame's EFLAGS.IF).
        (True, False or None for unknown, and the words.)"""
        irqs_off = not self.flags & 0x200
        irqs = "interrupts %s" % ("off" if irqs_off else "on")
        if self.panic_ran():
            return (True if irqs_off else None), "%s: %s; preempt_count unknown: panic() ran since" % (
                "yes" if irqs_off else "unknown", irqs)
        atomic = bool(self.preempt & 0x00ffffff) or irqs_off
        parts = [what for mask, what in ((0x000000ff, "preemption off"), (0x0000ff00, "softirq"),
                                         (0x000f0000, "hardirq"), (0x00f00000, "NMI"))
                 if self.preempt & mask]
        return atomic, "%s: %s; preempt_count 0x%x%s" % (
            "yes" if atomic else "no", irqs, self.preempt,
            " (%s)" % ", ".join(parts) if parts else "")

    def kthread_struct(self):
        off = self.t.offsetof("task_struct", "worker_private")
        return self.t.u64(self.task.addr + off) if off is not None else 0

    def worker_func(self):
        t, kt = self.t, self.kthread_struct()
        try:
            worker = t.u64(kt + t.offsetof("kthread", "data")) if kt else 0
            fn = t.u64(worker + t.offsetof("worker", "current_func")) if worker else 0
        except Unreadable:
            return None
        return t.func_name(fn) if fn else None

    def find_entry(self):
        """How the task came into the kernel: its syscall, its kthread function."""
        t, k = self.t, self.task
        if k.flags & PF_IDLE:
            return "the idle loop"
        if k.flags & PF_KTHREAD:
            kt = self.kthread_struct()
            off = t.offsetof("kthread", "threadfn")
            fn = t.u64(kt + off) if kt and off is not None else 0
            return "kthread function %s" % (t.func_name(fn) or "unknown")
        regs = k.stack + t.thread_size() - t.sizeof("pt_regs")
        nr = t.u64(regs + t.offsetof("pt_regs", "orig_ax"))
        nr = nr - (1 << 64) if nr >= 1 << 63 else nr
        table = t.sym("sys_call_table")
        name = None
        if table is not None and 0 <= nr < 1024:
            name = t.func_name(t.u64(table + 8 * nr))
        return "syscall %d (%s)" % (nr, name or "?")

    def kstack_offset(self):
        """With CONFIG_RANDOMIZE_KSTACK_OFFSET on, each syscall's entry puts
        KSTACK_OFFSET_MAX(task->kstack_offset) bytes (chosen at the task's
        last syscall exit) below its registers: how much of the stack that
        took. KSTACK_OFFSET_MAX is & 0x3ff up to 6.8, & 0x3f0 from 6.9
        (randomize_kstack: improve entropy diffusion). None where there is none: no syscall, the static key off, or
        no such member (a kernel that kept it per CPU)."""
        t = self.t
        if not self.entry.startswith("syscall "):
            return None
        key = t.sym("randomize_kstack_offset")
        off = t.offsetof("task_struct", "kstack_offset")
        # A static key's first member: struct static_key's atomic_t enabled.
        if key is None or off is None or not t.u32(key):
            return None
        return t.u32(self.task.addr + off) & (0x3F0 if t.version() >= (6, 9) else 0x3FF)

    def magic(self):
        try:
            word = self.t.u64(self.task.stack)
        except Unreadable:
            return "unreadable", 0
        return ("intact" if word == STACK_END_MAGIC else "overwritten"), word

    def as_dict(self):
        return {
            "stack": self.stack.name, "lo": "%x" % self.stack.lo, "hi": "%x" % self.stack.hi,
            "guard_hit": bool(self.hit and self.hit.guard),
            "fault": "%x" % self.fault, "below": self.stack.lo - self.fault,
            "rsp": "%x" % self.sp, "rip": "%x" % self.ip,
            "pid": self.task.pid, "comm": self.task.comm, "task": "%x" % self.task.addr,
            "cpu": self.cpu, "context": self.context,
            "atomic": self.atomic()[0],
            "preempt_count": "" if self.panic_ran() else "%x" % self.preempt,
            "irqs_off": not self.flags & 0x200, "entry": self.entry,
            "kstack_offset": self.kstack_offset(),
            "end_magic": self.magic()[0], "frames": len(self.frames),
            "cycle": self.cycle(),
            "cycle_function": self.frames[self.cyc_start].name if self.cyc_reps else "",
            "cycle_reps": self.cyc_reps,
        }

    def json(self):
        return json.dumps(self.as_dict(), separators=(",", ":"))

    def text(self):
        """The verdict as crash's stackov prints it, line for line."""
        k, st = self.task, self.stack
        magic, word = self.magic()
        out = ['stack overflow: %s stack, pid %d "%s" (task %x) on cpu %d'
               % (st.name, k.pid, k.comm, k.addr, self.cpu),
               "  context:   %s" % self.context,
               "  atomic:    %s" % self.atomic()[1],
               "  entry:     %s" % self.entry]
        koff = self.kstack_offset()
        if koff is not None:
            out.append("  offset:    %d bytes, the random stack offset the syscall's entry "
                       "put below its registers (kstack_offset)" % koff)
        out.append("  stack:     %x..%x (%d bytes)" % (st.lo, st.hi, st.hi - st.lo))
        if self.hit and self.hit.guard:
            out.append("  guard:     %x..%x, hit" % (self.hit.lo, self.hit.hi))
        out.append("  fault:     %x, %d bytes below the stack (%s; rsp %x, rip %x)"
                   % (self.fault, st.lo - self.fault, self.fault_how, self.sp, self.ip))
        out.append("  task stack: %x..%x, STACK_END_MAGIC %s (%x)"
                   % (k.stack, k.stack + self.t.thread_size(), magic, word))
        out.extend(vm_struct_lines(self.t, "  ", k.vm))
        out.append("  cycle:     %s" % (self.cycle() or "none"))
        out.extend(frame_lines(self.frames, self.regions, self.sp, self.cyc_start,
                               self.cyc_period, self.cyc_reps))
        return "\n".join(out)
