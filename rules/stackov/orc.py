# SPDX-License-Identifier: GPL-2.0
#
# stackov-lab: the kernel's ORC tables, read from the dump as the kernel's
# own unwinder reads them (arch/x86/kernel/unwind_orc.c): vmlinux's
# __start_orc_unwind_ip.. and each module's mod->arch tables. For each
# address, an entry says where the caller's stack pointer was (the CFA: a
# register plus an offset) and where %rbp was saved. crash-scripts/orc.c.

import bisect
import struct

from stackov.symbols import module_text_ranges
from stackov.target import Unreadable

# arch/x86/include/asm/orc_types.h (6.1)
REG_UNDEFINED, REG_PREV_SP, REG_BP, REG_SP = 0, 1, 4, 5
REG_BP_INDIRECT, REG_SP_INDIRECT = 8, 9
# include/linux/objtool.h (6.1): UNWIND_HINT_TYPE_*
TYPE_CALL = 0
# What the 6.1 entry has no type for (6.4's ORC_TYPE_UNDEFINED and
# ORC_TYPE_END_OF_STACK): no frame to unwind to.
TYPE_NONE = 0xff


def new_format(t):
    """6.4 on: type:3 (0 undefined, 1 end of stack, 2 call, 3 regs, 4
    partial regs) and signal:1, where 6.1 has type:2 (0 call, 1 regs, 2
    partial regs) and end:1 (x86/unwind/orc: Add 'signal' field)."""
    return t.has_member("orc_entry", "signal")


class Entry(object):
    """An entry in 6.1's terms, whichever format the kernel wrote."""

    def __init__(self, raw, new=False):
        self.sp_offset, self.bp_offset, bits = struct.unpack("<hhH", raw)
        self.sp_reg = bits & 0xf
        self.bp_reg = (bits >> 4) & 0xf
        if new:
            kind = (bits >> 8) & 7
            self.type = kind - 2 if kind >= 2 else TYPE_NONE
            self.end = 1 if kind == 1 else 0
        else:
            self.type = (bits >> 8) & 3
            self.end = (bits >> 10) & 1


class Table(object):
    """One object's tables: int ip[] (each relative to itself) and struct
    orc_entry (6 bytes) u[], sorted by ip, for the text in @ranges."""

    def __init__(self, t, ranges, ip_table, u_table, num, new=False):
        self.new = new
        raw = t.read(ip_table, 4 * num)
        self.ips = [ip_table + 4 * i + d
                    for i, d in enumerate(struct.unpack("<%di" % num, raw))]
        self.u = t.read(u_table, 6 * num)
        self.ranges = ranges

    def covers(self, ip):
        return any(lo <= ip < hi for lo, hi in self.ranges)

    def find(self, ip):
        """The rightmost entry at or below ip (__orc_find())."""
        i = bisect.bisect_right(self.ips, ip) - 1
        return Entry(self.u[6 * i:6 * i + 6], self.new) if i >= 0 else None


def module_tables(t, new):
    """Each module's ORC tables (mod->arch), for its core and init text;
    @new: the kernel writes 6.4's entries (new_format())."""
    head, list_off = t.sym("modules"), t.offsetof("module", "list")
    arch = t.offsetof("module", "arch")
    if head is None or list_off is None or arch is None:
        return []
    num_off = t.offsetof("mod_arch_specific", "num_orcs")
    ip_off = t.offsetof("mod_arch_specific", "orc_unwind_ip")
    u_off = t.offsetof("mod_arch_specific", "orc_unwind")
    out = []
    for mod in t.list_entries(head, list_off):
        num = t.u32(mod + arch + num_off)
        if not num or num > 1 << 20:
            continue
        ranges = module_text_ranges(t, mod)
        out.append(Table(t, ranges, t.u64(mod + arch + ip_off),
                         t.u64(mod + arch + u_off), num, new))
    return out


class Orc(object):
    """The ORC entries of vmlinux and of every loaded module."""

    def __init__(self, t):
        start, stop = t.sym("__start_orc_unwind_ip"), t.sym("__stop_orc_unwind_ip")
        num = (stop - start) // 4
        new = new_format(t)
        kernel = Table(t, [], start, t.sym("__start_orc_unwind"), num, new)
        # The table covers vmlinux's text, up to its last (terminating) entry.
        kernel.ranges = [(kernel.ips[0], kernel.ips[-1] + 1)]
        self.tables = [kernel]
        try:
            self.tables += module_tables(t, new)
        except Unreadable:
            pass

    def find(self, ip):
        for table in self.tables:
            if table.covers(ip):
                return table.find(ip)
        return None


def has_orc(t):
    """Whether the kernel was built with the ORC unwinder."""
    return t.sym("__start_orc_unwind_ip") is not None
