# SPDX-License-Identifier: GPL-2.0
#
# stackov-lab: the facts of a kernel stack overflow, for any reader.
#
# This module imports neither gdb nor drgn. A reader (gdb-scripts/stackov/
# mem.py for gdb, drgn-scripts/stackov_drgn.py for drgn) hands it a Target
# that reads memory and knows the kernel's symbols and types; it works out
# what crash's extension (crash-scripts/stackov.c) works out, by the same
# rules, and says it in the same words:
#
#   the stack the fault hit (TASK, IRQ, an exception stack) and its bounds,
#   the guard page, the fault address, the task and its context, the entry
#   path, STACK_END_MAGIC, the frame-pointer chain with the bytes of each
#   frame, and recursion folded into a cycle of up to 8 functions.

import json

PAGE_SIZE = 4096
STACK_END_MAGIC = 0x57AC6E9D           # include/uapi/linux/magic.h
PF_IDLE = 0x00000002                   # include/linux/sched.h
PF_WQ_WORKER = 0x00000020
PF_KTHREAD = 0x00200000
MAX_FRAMES = 1024
MAX_PERIOD = 8
IST_STACKS = ("DF", "NMI", "DB", "MCE", "VC", "VC2")
START_KERNEL_MAP = 0xffffffff80000000
PAGE_OFFSET_DEFAULT = 0xffff888000000000
PTE_PFN_MASK = 0x000ffffffffff000
PRESENT, LARGE = 0x1, 0x80


class Unreadable(Exception):
    """An address the dump or the guest cannot give."""


class Refusal(Exception):
    """No overflow to explain: the one line every reader prints."""


class Target(object):
    """What a reader provides. Each lookup returns None when it has no answer.

    u64(addr), read(addr, n): memory (raise Unreadable);
    sym(name): a symbol's address; sizeof(struct), offsetof(struct, member),
    member_size(struct, member), array_len(symbol);
    vmlinux(): the path of the kernel's vmlinux (its text symbols);
    panic_cpu(): the CPU that crashed (live: the one stopped)."""

    def u32(self, addr):
        return int.from_bytes(self.read(addr, 4), "little")

    def u8(self, addr):
        return self.read(addr, 1)[0]

    def cstr(self, addr, n):
        return self.read(addr, n).split(b"\0")[0].decode("ascii", "replace")

    def off(self, struct, path):
        """offsetof(struct, a.b.c) through nested members, or None."""
        total = 0
        for member in path.split("."):
            o = self.offsetof(struct, member)
            if o is None:
                return None
            total += o
            struct = self.member_type(struct, member)
        return total

    def member_type(self, struct, member):
        return None

    def per_cpu(self, name, cpu):
        base = self.sym(name)
        offs = self.sym("__per_cpu_offset")
        if base is None or offs is None:
            return None
        return base + self.u64(offs + 8 * cpu)

    def nr_cpus(self):
        n = self.sym("nr_cpu_ids")
        return self.u32(n) if n is not None else 1

    def thread_size(self):
        return self.sym("__end_init_task") - self.sym("init_stack")

    # The kernel's page tables, for readers that see only physical memory.
    def page_offset(self):
        p = self.sym("page_offset_base")
        return self.u64(p) if p is not None else PAGE_OFFSET_DEFAULT

    def virt_to_phys(self, addr):
        """Walk init_top_pgt (4 levels) for @addr: its physical address."""
        table = self.sym("init_top_pgt")
        if table is None:
            raise Unreadable("no init_top_pgt")
        po = self.page_offset()
        entry = self.u64(table + 8 * ((addr >> 39) & 511))
        for shift in (30, 21, 12):
            if not entry & PRESENT:
                raise Unreadable("%#x is not mapped" % addr)
            entry = self.u64(po + (entry & PTE_PFN_MASK) + 8 * ((addr >> shift) & 511))
            if shift != 12 and entry & PRESENT and entry & LARGE:
                mask = (1 << shift) - 1
                return (entry & PTE_PFN_MASK & ~mask) | (addr & mask)
        if not entry & PRESENT:
            raise Unreadable("%#x is not mapped" % addr)
        return (entry & PTE_PFN_MASK) | (addr & 0xfff)

    def text_symbol(self, pc):
        """(name, start) of the text symbol at or below pc: the kernel's
        (vmlinux's .symtab), else a module's (its kallsyms in memory)."""
        cache = self.__dict__.setdefault("_text_cache", {})
        if pc not in cache:
            if "_ksyms" not in self.__dict__:
                self._ksyms = TextSymbols(self.vmlinux())
            hit = self._ksyms.lookup(pc)
            if hit[0] is None:
                if "_mods" not in self.__dict__:
                    try:
                        self._mods = module_text_symbols(self)
                    except Unreadable:
                        self._mods = []
                hit = lookup_module_symbol(self._mods, pc)
            cache[pc] = hit
        return cache[pc]

    def func_name(self, pc):
        return self.text_symbol(pc)[0]

    def func_start(self, pc):
        return self.text_symbol(pc)[1]

    def func_sym(self, pc):
        """pc as crash's value_to_symstr() says it: name, or name+offset."""
        name = self.func_name(pc)
        if name is None:
            return "%x" % pc
        off = pc - self.func_start(pc)
        return name if off == 0 else "%s+%d" % (name, off)


class Region(object):
    def __init__(self, name, lo, hi, guard):
        self.name, self.lo, self.hi, self.guard = name, lo, hi, guard


class Frame(object):
    def __init__(self, pc, fp, name):
        self.pc, self.fp, self.name, self.bytes = pc, fp, name, -1


def regions_of(t, cpu, task_stack):
    """The task's stack, this CPU's IRQ stack and exception stacks, with guards."""
    size = t.thread_size()
    out = []
    if task_stack:
        out.append(Region("TASK", task_stack, task_stack + size, False))
        out.append(Region("TASK-GUARD", task_stack - PAGE_SIZE, task_stack, True))
    ptr = t.per_cpu("hardirq_stack_ptr", cpu)
    irq_size = t.sizeof("irq_stack")
    if ptr is not None and irq_size:
        top = t.u64(ptr)
        if top:
            top += 8        # hardirq_stack_ptr is the top word
            out.append(Region("IRQ", top - irq_size, top, False))
            out.append(Region("IRQ-GUARD", top - irq_size - PAGE_SIZE, top - irq_size, True))
    ptr = t.per_cpu("cea_exception_stacks", cpu)
    cea = t.u64(ptr) if ptr is not None else 0
    for name in IST_STACKS if cea else ():
        off = t.offsetof("cea_exception_stacks", name + "_stack")
        size = t.member_size("cea_exception_stacks", name + "_stack")
        if off is None or not size:
            continue
        out.append(Region(name, cea + off, cea + off + size, False))
        goff = t.offsetof("cea_exception_stacks", name + "_stack_guard")
        gsize = t.member_size("cea_exception_stacks", name + "_stack_guard")
        if goff is not None and gsize:
            out.append(Region(name + "-GUARD", cea + goff, cea + goff + gsize, True))
    return out


def region_of(regions, addr):
    for r in regions:
        if r.lo <= addr < r.hi:
            return r
    return None


def stack_above(regions, g):
    """The stack a guard page belongs to: the region just above it."""
    if g is None or not g.guard:
        return g
    for r in regions:
        if not r.guard and r.lo == g.hi:
            return r
    return None


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
    return t.u64(t.per_cpu("current_task", cpu))


def list_entries(t, head, member_off):
    """The containers of a list_head's entries (not the head itself)."""
    out, node = [], t.u64(head)
    while node != head and node and len(out) < 100000:
        out.append(node - member_off)
        node = t.u64(node)
    return out


def all_tasks(t):
    """Every thread: init_task's list of processes, each one's threads."""
    init = t.sym("init_task")
    tasks_off = t.offsetof("task_struct", "tasks")
    sig_off = t.offsetof("task_struct", "signal")
    head_off = t.offsetof("signal_struct", "thread_head")
    node_off = t.offsetof("task_struct", "thread_node")
    out = []
    for leader in [init] + list_entries(t, init + tasks_off, tasks_off):
        sig = t.u64(leader + sig_off)
        threads = list_entries(t, sig + head_off, node_off) if sig else []
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
        pc = t.u32(t.per_cpu("__preempt_count", self.cpu)) if t.sym("__preempt_count") else 0
        # The double-fault handler's nmi_enter() added one hardirq level.
        hardirq = ((pc >> 16) & 0xf) - (1 if pc & 0x00f00000 else 0)
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
            "cpu": self.cpu, "context": self.context, "entry": self.entry,
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
               "  entry:     %s" % self.entry,
               "  stack:     %x..%x (%d bytes)" % (st.lo, st.hi, st.hi - st.lo)]
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


def walk(t, regions, ip, sp, bp):
    """The frame-pointer chain from ip, sp and bp, while the frame pointer
    stays on one of @regions. Before a function's "push %rbp" the caller is
    the word at the stack pointer and %rbp is still the caller's frame.
    Each frame's bytes: from where its callee's frame ended (sp, for the
    deepest) up to its return address, above its saved frame pointer."""
    name = t.func_name(ip)
    start = t.func_start(ip) if name else None
    frames = [Frame(ip, 0, name or "??")]
    try:
        op = t.u8(ip)
    except Unreadable:
        op = 0
    ret = None
    if start == ip or op == 0x55:
        try:
            ret = t.u64(sp)
        except Unreadable:
            ret = None
    if ret is not None:
        frames.append(Frame(ret, bp, t.func_name(ret) or "??"))
    else:
        frames[0].fp = bp
    fp = bp
    while len(frames) < MAX_FRAMES and region_of(regions, fp):
        try:
            nxt, ret = t.u64(fp), t.u64(fp + 8)
        except Unreadable:
            break
        if t.func_name(ret) is None:
            break
        # An entry stub's frame pointer has bit 0 set: it marks the
        # pt_regs of an interrupt or exception; the chain ends there.
        frames.append(Frame(ret, 0 if nxt & 1 else nxt, t.func_name(ret)))
        if nxt & 1 or nxt <= fp:
            break
        fp = nxt
    low = sp
    for i, f in enumerate(frames):
        # A guard page counts as its stack's: the deepest frame is often there.
        if f.fp and (stack_above(regions, region_of(regions, f.fp)) is not
                     stack_above(regions, region_of(regions, low))):
            low = f.fp + 16     # a switch of stacks: its size is unknown
        elif f.fp and f.fp + 16 > low:
            f.bytes = f.fp + 16 - low
            low = f.fp + 16
        elif i == 0:
            f.bytes = 8
            low = sp + 8
    return frames


def fold_cycle(fr):
    """The longest run of frames that repeats with a period of 1..8 names:
    (start, period, repetitions, bytes per turn or -1)."""
    best = start = period = reps = 0
    for p in range(1, MAX_PERIOD + 1):
        i = 0
        while i + p < len(fr):
            j = i
            while j + p < len(fr) and fr[j].name == fr[j + p].name:
                j += 1
            if (j - i + p) // p >= 3 and j - i + p > best:
                best = j - i + p
                start, period, reps = i, p, best // p
            if j > i:
                i = j - 1
            i += 1
    nbytes = 0
    for i in range(period if reps else 0):
        f = fr[start + period + i]
        if f.bytes < 0:
            return start, period, reps, -1
        nbytes += f.bytes
    return start, period, reps, nbytes


def frame_lines(frames, regions, sp, start=0, period=0, reps=0):
    """The frames, one turn of a cycle shown, then the last frame of its run."""
    out = ["  frames:    %d on the frame-pointer chain" % len(frames)]
    r = None
    for i, f in enumerate(frames):
        # A frame with no frame pointer of its own: the deepest (at the
        # stack pointer) or the last (where its caller's frame was).
        if f.fp or not i:
            r = region_of(regions, f.fp or sp)
        if reps and start + period <= i < start + period * reps - 1:
            if i == start + period:
                out.append("    ... the cycle above, %d times in all" % reps)
            continue
        size = "%5d bytes" % f.bytes if f.bytes >= 0 else "      ?    "
        out.append("    #%-3d %x %-32s %s [%s]" % (i, f.pc, f.name, size, r.name if r else "?"))
    return out


def vm_struct_lines(t, indent, vm):
    """A stack's vm_struct: address, size, pages and their PFNs, caller."""
    try:
        if not vm:
            raise Unreadable()
        addr = t.u64(vm + t.offsetof("vm_struct", "addr"))
        size = t.u64(vm + t.offsetof("vm_struct", "size"))
    except Unreadable:
        return ["%svm_struct: none (not a vmalloc'd stack)" % indent]
    caller = t.u64(vm + t.offsetof("vm_struct", "caller"))
    nr = t.u32(vm + t.offsetof("vm_struct", "nr_pages"))
    pfns = []
    for i in range(min(nr, 16)):
        try:
            pfns.append("%x" % (t.virt_to_phys(addr + i * PAGE_SIZE) >> 12))
        except Unreadable:
            pfns.append("0")
    return ["%svm_struct: %x, area %x..%x (%d bytes, a guard page included), %d pages, caller %s"
            % (indent, vm, addr, addr + size, size, nr, t.func_sym(caller) if caller else "?"),
            "%spfns:     %s" % (indent, " ".join(pfns))]


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


def cpu_stack_lines(t, cpus=None):
    """Every CPU's IRQ and exception stacks, with their guards."""
    out = []
    for cpu in cpus if cpus is not None else range(t.nr_cpus()):
        for r in regions_of(t, cpu, 0):
            out.append("cpu %d  %-10s %x..%x %6d bytes" % (cpu, r.name, r.lo, r.hi, r.hi - r.lo))
    return out


def sleeping_regs(t, k):
    """Where a task that is not running resumes: the inactive_task_frame
    that __switch_to_asm left at thread.sp: (ip, sp, bp)."""
    sp = t.u64(k.addr + t.off("task_struct", "thread.sp"))
    ret = sp + t.offsetof("inactive_task_frame", "ret_addr")
    return t.u64(ret), ret, t.u64(sp + t.offsetof("inactive_task_frame", "bp"))


def module_text_symbols(t):
    """Each module's text and symbols, from the kernel's own copy of its
    symbol table (mod->kallsyms), as crash reads them: [(text start, text
    end, [addresses], [names])], each list sorted."""
    head = t.sym("modules")
    list_off = t.offsetof("module", "list")
    ks_off = t.offsetof("module", "kallsyms")
    layout = t.offsetof("module", "core_layout")
    if head is None or None in (list_off, ks_off, layout):
        return []
    init = t.offsetof("module", "init_layout")
    out = []
    for mod in list_entries(t, head, list_off):
        ks = t.u64(mod + ks_off)
        if not ks:
            continue
        symtab = t.u64(ks + t.offsetof("mod_kallsyms", "symtab"))
        num = min(t.u32(ks + t.offsetof("mod_kallsyms", "num_symtab")), 100000)
        strtab = t.u64(ks + t.offsetof("mod_kallsyms", "strtab"))
        data = t.read(symtab, 24 * num)
        # Its core text, and its init text while the init function runs.
        for lay in (layout, init) if init is not None else (layout,):
            base = t.u64(mod + lay + t.offsetof("module_layout", "base"))
            text = t.u32(mod + lay + t.offsetof("module_layout", "text_size"))
            if not base:
                continue
            syms = []
            for i in range(1, num):
                e = data[24 * i:24 * i + 24]
                value = int.from_bytes(e[8:16], "little")
                if base <= value < base + text:
                    syms.append((value, t.cstr(strtab + int.from_bytes(e[0:4], "little"), 128)))
            syms.sort(key=lambda v: v[0])
            out.append((base, base + text, [a for a, _ in syms], [n for _, n in syms]))
    return out


def lookup_module_symbol(mods, pc):
    """(name, start) of the nearest module symbol at or below pc."""
    import bisect
    for lo, hi, addrs, names in mods:
        if lo <= pc < hi:
            i = bisect.bisect_right(addrs, pc) - 1
            if i >= 0:
                return names[i], addrs[i]
    return None, None


class TextSymbols(object):
    """The kernel's text symbols as kallsyms has them, read from vmlinux's
    .symtab: functions and the labels inside them (an address is named by
    the nearest symbol at or below it, as the kernel's oops and crash name
    it: entry_SYSCALL_64_after_hwframe, not entry_SYSCALL_64)."""

    def __init__(self, path):
        import struct
        with open(path, "rb") as f:
            elf = f.read()
        if elf[:4] != b"\x7fELF" or elf[4] != 2:
            raise ValueError("%s is not a 64-bit ELF file" % path)
        shoff, = struct.unpack_from("<Q", elf, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3a)
        secs = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize)
                for i in range(shnum)]
        text = set(i for i, s in enumerate(secs) if s[2] & 0x4)     # SHF_EXECINSTR
        self.ranges = [(secs[i][3], secs[i][3] + secs[i][5]) for i in text]
        syms = []
        for s in secs:
            if s[1] != 2:       # SHT_SYMTAB
                continue
            strtab = secs[s[6]]
            for off in range(s[4], s[4] + s[5], 24):
                name, info, _, shndx, value, _ = struct.unpack_from("<IBBHQQ", elf, off)
                if shndx not in text or info & 0xf not in (0, 2) or not name:
                    continue
                start = strtab[4] + name
                n = elf[start:elf.index(b"\0", start)].decode()
                if not n.startswith((".L", "$")):
                    syms.append((value, n))
        syms.sort(key=lambda v: v[0])
        self.addrs = [a for a, _ in syms]
        self.names = [n for _, n in syms]

    def is_text(self, pc):
        return any(lo <= pc < hi for lo, hi in self.ranges)

    def lookup(self, pc):
        """(name, start) of the nearest symbol at or below pc, in text."""
        import bisect
        if not self.is_text(pc):
            return None, None
        i = bisect.bisect_right(self.addrs, pc) - 1
        return (self.names[i], self.addrs[i]) if i >= 0 else (None, None)
