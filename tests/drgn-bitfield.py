# SPDX-License-Identifier: GPL-2.0
"""t-23: drgn-scripts' target gives a bit field's offset as crash and gdb
do, the byte it starts in: orc_entry's "signal" (6.3 and later), bit 43,
is at byte 5. Prints the offset drgn's target gave."""
import os
import sys

import drgn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "drgn-scripts"))
import stackov_drgn  # noqa: E402

prog = drgn.Program(drgn.host_platform)
s16 = prog.int_type("short", 2, True)
u32 = prog.int_type("unsigned int", 4, False)


def bits(n):
    return drgn.Object(prog, u32, bit_field_size=n)


orc = prog.struct_type("orc_entry", 6, (
    drgn.TypeMember(s16, "sp_offset", 0),
    drgn.TypeMember(s16, "bp_offset", 16),
    drgn.TypeMember(bits(4), "sp_reg", 32),
    drgn.TypeMember(bits(4), "bp_reg", 36),
    drgn.TypeMember(bits(3), "type", 40),
    drgn.TypeMember(bits(1), "signal", 43),
))
t = stackov_drgn.DrgnTarget.__new__(stackov_drgn.DrgnTarget)
t._types = {"orc_entry": orc}
print(t.member_offset("orc_entry", "signal"), t.member_offset("orc_entry", "bp_offset"))
