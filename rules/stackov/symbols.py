# SPDX-License-Identifier: GPL-2.0
#
# stackov-lab: frames named as kallsyms names them: the nearest text symbol
# at or below an address, from vmlinux's .symtab (moved by the KASLR offset
# the reader's own _stext gives), and a module's own symbol table in the
# kernel's memory (mod->kallsyms), as the oops and crash name them.

MOD_TEXT, MOD_INIT_TEXT = 0, 4             # enum mod_mem_type, 6.4 on


def module_text_ranges(t, mod):
    """A module's core text and its init text (while its init runs), as
    [(start, end)]: mod->core_layout and init_layout up to 6.3, from 6.4
    mod->mem[MOD_TEXT] and mem[MOD_INIT_TEXT] (include/linux/module.h)."""
    out = []
    layout = t.offsetof("module", "core_layout")
    if layout is not None:
        base_off = t.offsetof("module_layout", "base")
        size_off = t.offsetof("module_layout", "text_size")
        places = [layout, t.offsetof("module", "init_layout")]
    else:
        mem = t.offsetof("module", "mem")
        size = t.sizeof("module_memory")
        if mem is None or not size:
            return out
        base_off = t.offsetof("module_memory", "base")
        size_off = t.offsetof("module_memory", "size")
        places = [mem + MOD_TEXT * size, mem + MOD_INIT_TEXT * size]
    for off in places:
        if off is None:
            continue
        base = t.u64(mod + off + base_off)
        if base:
            out.append((base, base + t.u32(mod + off + size_off)))
    return out


def module_text_symbols(t):
    """Each module's text and symbols, from the kernel's own copy of its
    symbol table (mod->kallsyms), as crash reads them: [(text start, text
    end, [addresses], [names])], each list sorted."""
    head = t.sym("modules")
    list_off = t.offsetof("module", "list")
    ks_off = t.offsetof("module", "kallsyms")
    if head is None or None in (list_off, ks_off):
        return []
    out = []
    for mod in t.list_entries(head, list_off):
        ks = t.u64(mod + ks_off)
        if not ks:
            continue
        symtab = t.u64(ks + t.offsetof("mod_kallsyms", "symtab"))
        num = min(t.u32(ks + t.offsetof("mod_kallsyms", "num_symtab")), 100000)
        strtab = t.u64(ks + t.offsetof("mod_kallsyms", "strtab"))
        data = t.read(symtab, 24 * num)
        # Its core text, and its init text while the init function runs.
        for base, end in module_text_ranges(t, mod):
            text = end - base
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
        self.stext = dict((n, a) for a, n in syms if n == "_stext").get("_stext")
        self.offset = 0

    def relocate(self, stext):
        """The kernel ran moved by KASLR: its _stext was at @stext."""
        if stext is not None and self.stext is not None:
            self.offset = stext - self.stext

    def is_text(self, pc):
        pc -= self.offset
        return any(lo <= pc < hi for lo, hi in self.ranges)

    def lookup(self, pc):
        """(name, start) of the nearest symbol at or below pc, in text."""
        import bisect
        if not self.is_text(pc):
            return None, None
        i = bisect.bisect_right(self.addrs, pc - self.offset) - 1
        return (self.names[i], self.addrs[i] + self.offset) if i >= 0 else (None, None)
