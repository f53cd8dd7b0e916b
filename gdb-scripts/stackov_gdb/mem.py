# SPDX-License-Identifier: GPL-2.0
#
# gdb's view of the kernel for libstackov: memory, symbols and types, on a
# live guest (QEMU's gdbstub) and on an ELF vmcore. The engine decides
# and words everything; this only answers its questions.
#
# An ELF vmcore (makedumpfile -E) maps only the direct map and the kernel
# image in its program headers: vmalloc'd stacks, and the cpu_entry_area
# with the exception stacks, are not there. The engine does a read that
# gdb cannot do again through the kernel's page tables (walk_on_fault).

import bisect
import json
import os
import re
import struct

import gdb

import stackov

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
    REFUSAL = stackov.dump_mismatch(core, vmlinux)
    if REFUSAL:
        raise stackov.Refusal(REFUSAL)
    off = int(stackov.dump_info(core, "KERNELOFFSET") or "0", 16)
    if off:
        gdb.execute("symbol-file -o %#x %s" % (off, vmlinux), to_string=True)
        print("stackov: vmlinux's symbols moved by KERNELOFFSET=%x, from the dump's VMCOREINFO"
              % off)


def core_loads(path):
    """The [start, end) virtual ranges an ELF core's PT_LOAD segments map
    (their memsz: past filesz, zeros), or None if it is no ELF64 core."""
    try:
        with open(path, "rb") as f:
            eh = f.read(64)
            if eh[:5] != b"\x7fELF\x02":
                return None
            phoff, shoff = struct.unpack_from("<QQ", eh, 0x20)
            phentsize, phnum = struct.unpack_from("<HH", eh, 0x36)
            if phnum == 0xffff:
                # PN_XNUM (QEMU's paging dump: a PT_LOAD per mapping):
                # the count is section header 0's sh_info.
                f.seek(shoff + 44)
                phnum, = struct.unpack("<I", f.read(4))
            f.seek(phoff)
            ph = f.read(phentsize * phnum)
    except OSError:
        return None
    loads = []
    for i in range(phnum):
        p_type, = struct.unpack_from("<I", ph, i * phentsize)
        vaddr, = struct.unpack_from("<Q", ph, i * phentsize + 16)
        memsz, = struct.unpack_from("<Q", ph, i * phentsize + 40)
        if p_type == 1 and memsz:
            loads.append((vaddr, vaddr + memsz))
    return sorted(loads)


def live():
    try:
        return gdb.selected_inferior().connection.type == "remote"
    except AttributeError:
        return "remote" in gdb.execute("info target", to_string=True).lower()


def selected_cpu():
    """The CPU of gdb's selected thread: QEMU numbers its threads from 1."""
    th = gdb.selected_thread()
    return (th.ptid[1] or th.num) - 1


class GdbTarget(stackov.Target):
    walk_on_fault = True

    def __init__(self):
        if REFUSAL:
            raise stackov.Refusal(REFUSAL)
        stackov.Target.__init__(self, gdb.current_progspace().filename)
        self.inf = gdb.selected_inferior()
        self.core = core_file()
        self.live = live()
        # What the dump holds. gdb answers a read the core does not map
        # from the files it has loaded: a module's .text added with
        # add-symbol-file, as the .ko has it, its calls not relocated.
        # Such a read fails here, and the engine reads the dump again
        # through the kernel's page tables (walk_on_fault).
        self.loads = core_loads(self.core) if self.core and not self.live else None
        self.starts = [lo for lo, _ in self.loads or []]

    def in_core(self, addr, n):
        i = bisect.bisect_right(self.starts, addr) - 1
        return i >= 0 and addr + n <= self.loads[i][1]

    def read(self, addr, n):
        if self.loads is not None and not self.in_core(addr, n):
            return None
        try:
            return bytes(self.inf.read_memory(addr, n))
        except gdb.MemoryError:
            return None

    def symbol(self, name):
        try:
            return int(gdb.parse_and_eval("(unsigned long)&%s" % name))
        except gdb.error:
            return None

    def _type(self, struct):
        try:
            return gdb.lookup_type("struct " + struct)
        except gdb.error:
            return None

    def struct_size(self, struct):
        t = self._type(struct)
        return t.sizeof if t is not None else None

    def _field(self, struct, member):
        t = self._type(struct)
        return _find_field(t, member, 0) if t is not None else None

    def member_offset(self, struct, member):
        f = self._field(struct, member)
        return f.bitpos // 8 if f is not None else None

    def member_size(self, struct, member):
        f = self._field(struct, member)
        return f.type.sizeof if f is not None else None

    def array_len(self, name):
        try:
            lo, hi = gdb.parse_and_eval(name).type.range()
            return hi - lo + 1
        except gdb.error:
            return None

    def vmcoreinfo(self, key):
        return stackov.dump_info(self.core, key) if self.core else None

    def crashed_cpu(self):
        return selected_cpu() if self.live else None

    def cpu_regs(self, cpu):
        """A running CPU's registers: live, QEMU's thread of the CPU."""
        if not self.live:
            return None
        for th in gdb.selected_inferior().threads():
            if (th.ptid[1] or th.num) == cpu + 1:
                old = gdb.selected_thread()
                th.switch()
                try:
                    f = gdb.newest_frame()
                    ulong = gdb.lookup_type("unsigned long")
                    return tuple(int(f.read_register(r).cast(ulong)) for r in ("rip", "rsp", "rbp"))
                finally:
                    old.switch()
        return None


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


def command(line):
    """Run one engine command on gdb's target: (status, text)."""
    e = stackov.Engine(GdbTarget(), record=os.environ.get("STACKOV_RECORD") or None)
    try:
        return e.command(line)
    finally:
        e.close()


def show(line):
    """Print what the engine says; its refusal (status != 0) as gdb's error."""
    try:
        status, text = command(line)
    except stackov.Refusal as e:
        raise gdb.GdbError("stackov: %s" % e)
    if status:
        raise gdb.GdbError(text.strip())
    gdb.write(text)


def current(cpu=None):
    """The task on @cpu (the crashed one): a dict, or a GdbError."""
    status, text = command("stackov-current" + ("" if cpu is None else " %d" % cpu))
    if status:
        raise gdb.GdbError(text.strip())
    return json.loads(text)


def run(fn):
    """Run a command body; a refusal is one line."""
    try:
        fn()
    except stackov.Refusal as e:
        raise gdb.GdbError("stackov: %s" % e)
