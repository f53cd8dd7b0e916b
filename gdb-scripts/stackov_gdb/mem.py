# SPDX-License-Identifier: GPL-2.0
#
# gdb's view of the kernel for rules/stackov: memory, symbols and types, on a
# live guest (QEMU's gdbstub) and on an ELF vmcore.
#
# An ELF vmcore (makedumpfile -E) maps only the direct map and the kernel
# image in its program headers: vmalloc'd stacks, and the cpu_entry_area
# with the exception stacks, are not there. A read that gdb cannot do is
# done again through the kernel's page tables (init_top_pgt), walked here,
# at the address's direct-map alias. On a live guest gdb reads them itself.

import re

import gdb

from stackov import vmcoreinfo
from stackov.target import PAGE_SIZE, Refusal, Target, Unreadable


# Why no command can read this dump (set by relocate()), or None.
REFUSAL = None


def core_file():
    """The path of the core gdb has open, or None (live, or no core)."""
    m = re.search(r"Local core dump file:\s*`([^']+)'",
                  gdb.execute("info target", to_string=True))
    return m.group(1) if m else None


def relocate():
    """Move vmlinux's symbols by the KASLR offset the dump's VMCOREINFO
    gives (KERNELOFFSET), as crash and drgn do themselves: gdb reads an ELF
    vmcore at vmlinux's link addresses otherwise. Refuses, in one line, a
    vmlinux that is not the dump's kernel and a dump without VMCOREINFO.
    Done once, before any module's add-symbol-file, which it would drop."""
    core, vmlinux = core_file(), gdb.current_progspace().filename
    if core is None or vmlinux is None:
        return
    global REFUSAL
    REFUSAL = vmcoreinfo.mismatch(core, vmlinux)
    if REFUSAL:
        raise Refusal(REFUSAL)
    off = vmcoreinfo.kaslr_offset(vmcoreinfo.vmcoreinfo(core))
    if off:
        gdb.execute("symbol-file -o %#x %s" % (off, vmlinux), to_string=True)
        print("stackov: vmlinux's symbols moved by KERNELOFFSET=%x, from the dump's VMCOREINFO"
              % off)


class GdbTarget(Target):
    def __init__(self):
        if REFUSAL:
            raise Refusal(REFUSAL)
        self.inf = gdb.selected_inferior()
        self._walking = False
        self._page_offset = None

    def live(self):
        try:
            return self.inf.connection.type == "remote"
        except AttributeError:
            return "remote" in gdb.execute("info target", to_string=True).lower()

    def _raw(self, addr, n):
        try:
            return bytes(self.inf.read_memory(addr, n))
        except gdb.MemoryError as e:
            raise Unreadable(str(e))

    def read(self, addr, n):
        try:
            return self._raw(addr, n)
        except Unreadable:
            if self._walking:
                raise
        out = []
        self._walking = True
        try:
            while n > 0:
                chunk = min(n, PAGE_SIZE - (addr & 0xfff))
                out.append(self._raw(self.page_offset() + self.virt_to_phys(addr), chunk))
                addr += chunk
                n -= chunk
        finally:
            self._walking = False
        return b"".join(out)

    def u64(self, addr):
        return int.from_bytes(self.read(addr, 8), "little")

    def page_offset(self):
        if self._page_offset is None:
            self._page_offset = Target.page_offset(self)
        return self._page_offset

    def sym(self, name):
        try:
            return int(gdb.parse_and_eval("(unsigned long)&%s" % name))
        except gdb.error:
            return None

    def _type(self, struct):
        try:
            return gdb.lookup_type("struct " + struct)
        except gdb.error:
            return None

    def sizeof(self, struct):
        t = self._type(struct)
        return t.sizeof if t is not None else None

    def _field(self, struct, member):
        t = self._type(struct)
        return _find_field(t, member, 0) if t is not None else None

    def offsetof(self, struct, member):
        f = self._field(struct, member)
        return f.bitpos // 8 if f is not None else None

    def has_member(self, struct, member):
        return self._field(struct, member) is not None

    def member_size(self, struct, member):
        f = self._field(struct, member)
        return f.type.sizeof if f is not None else None

    def member_type(self, struct, member):
        f = self._field(struct, member)
        return f.type.strip_typedefs().tag if f is not None else None

    def array_len(self, name):
        try:
            lo, hi = gdb.parse_and_eval(name).type.range()
            return hi - lo + 1
        except gdb.error:
            return None

    def vmlinux(self):
        return gdb.current_progspace().filename

    def selected_cpu(self):
        """The CPU of gdb's selected thread: QEMU numbers its threads from 1."""
        th = gdb.selected_thread()
        return (th.ptid[1] or th.num) - 1

    def panic_cpu(self):
        cpu = self.u32(self.sym("panic_cpu"))
        if cpu < 1 << 31:
            return cpu
        return self.selected_cpu() if self.live() else None


class _Field:
    """A member at its offset in the outer struct (bits)."""

    def __init__(self, bitpos, type_):
        self.bitpos = bitpos
        self.type = type_


def _find_field(t, member, base):
    """@member of struct type @t, looked for also inside its anonymous
    structs and unions (vmap_area's vm, in a union with subtree_max_size),
    with its offset from the start of the outer struct."""
    for f in t.fields():
        if f.name == member:
            return _Field(base + f.bitpos, f.type)
        inner = f.type.strip_typedefs()
        if f.name is None and inner.code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
            found = _find_field(inner, member, base + f.bitpos)
            if found is not None:
                return found
    return None


def target():
    return GdbTarget()


def run(fn):
    """Run a command body; a refusal or an unreadable address is one line."""
    try:
        fn()
    except Refusal as e:
        raise gdb.GdbError("stackov: %s" % e)
    except Unreadable as e:
        raise gdb.GdbError("stackov: cannot read the kernel's memory: %s" % e)
