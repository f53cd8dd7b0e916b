# SPDX-License-Identifier: GPL-2.0
#
# stackov-lab: what a reader gives the rules. A reader (gdb-scripts/stackov_gdb/
# mem.py for gdb, drgn-scripts/stackov_drgn.py for drgn) subclasses Target:
# memory, the kernel's symbols and types; the rest of rules/stackov/ works
# out what crash's extension (crash-scripts/*.c) works out, by the same
# rules, and says it in the same words. This package imports neither gdb
# nor drgn.

from stackov import symbols

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

    def version(self):
        """(major, minor) of the dump's kernel, from init_uts_ns's
        release, or (0, 0) where it cannot be read."""
        try:
            a = self.sym("init_uts_ns")
            o = self.off("uts_namespace", "name.release")
            rel = self.cstr(a + o, 65) if a is not None and o is not None else ""
            major, minor = rel.split(".")[:2]
            return int(major), int(minor.split("-")[0])
        except (Unreadable, ValueError):
            return 0, 0

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

    def list_entries(self, head, member_off):
        """The containers of a list_head's entries (not the head itself)."""
        out, node = [], self.u64(head)
        while node != head and node and len(out) < 100000:
            out.append(node - member_off)
            node = self.u64(node)
        return out

    def member_type(self, struct, member):
        return None

    def has_member(self, struct, member):
        """Whether @struct has @member (a bit field's too)."""
        return self.offsetof(struct, member) is not None

    def per_cpu(self, name, cpu):
        """A per-CPU variable's address on @cpu. Its symbol is an offset in
        .data..percpu, linked at 0 (__per_cpu_start) and not moved by
        KASLR, which a reader may have added to it anyway: the offset is
        taken from __per_cpu_start, as the kernel takes it."""
        base = self.sym(name)
        start = self.sym("__per_cpu_start") or 0
        offs = self.sym("__per_cpu_offset")
        if base is None or offs is None:
            return None
        return base - start + self.u64(offs + 8 * cpu)

    def per_cpu_hot(self, name, cpu, member=None):
        """current_task, hardirq_stack_ptr, __preempt_count: a per-CPU
        variable of its own up to 6.1, a member (@member, else @name) of
        the per-CPU struct pcpu_hot from 6.2 (asm/current.h)."""
        addr = self.per_cpu(name, cpu)
        if addr is not None:
            return addr
        hot = self.per_cpu("pcpu_hot", cpu)
        off = self.offsetof("pcpu_hot", member or name)
        if hot is None or off is None:
            return None
        return hot + off

    def nr_cpus(self):
        n = self.sym("nr_cpu_ids")
        return self.u32(n) if n is not None else 1

    def thread_size(self):
        # The linker script's end of init_stack: __end_init_task up to
        # 6.2, __end_init_stack from 6.3.
        end = self.sym("__end_init_task")
        if end is None:
            end = self.sym("__end_init_stack")
        return end - self.sym("init_stack")

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
                self._ksyms = symbols.TextSymbols(self.vmlinux())
                self._ksyms.relocate(self.sym("_stext"))
            hit = self._ksyms.lookup(pc)
            if hit[0] is None:
                if "_mods" not in self.__dict__:
                    try:
                        self._mods = symbols.module_text_symbols(self)
                    except Unreadable:
                        self._mods = []
                hit = symbols.lookup_module_symbol(self._mods, pc)
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
