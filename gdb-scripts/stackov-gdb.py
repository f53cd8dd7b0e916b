# SPDX-License-Identifier: GPL-2.0
#
# Load stackov-lab's gdb helpers (gdb-scripts/stackov_gdb/), next to the
# kernel's own vmlinux-gdb.py: source gdb-scripts/stackov-gdb.py
# make gdb and the report load it. "help user-defined" does not list
# them; "apropos stackov" does. They answer the questions of libstackov,
# the lab's engine, through its ctypes binding (libstackov/stackov.py),
# which drgn's reader uses the same way: the engine decides and words.

import os
import sys

import gdb

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "libstackov"))

import stackov_gdb.stacks  # noqa: E402,F401
import stackov_gdb.bt  # noqa: E402,F401
import stackov_gdb.cache  # noqa: E402,F401
import stackov_gdb.overflow  # noqa: E402,F401

# A dump of a KASLR kernel: vmlinux's symbols where that kernel had them.
import stackov_gdb.mem  # noqa: E402

try:
    stackov_gdb.mem.run(stackov_gdb.mem.relocate)
except gdb.GdbError as e:
    print(e)
