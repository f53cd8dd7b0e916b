# SPDX-License-Identifier: GPL-2.0
#
# Load stackov-lab's gdb helpers (gdb-scripts/stackov/), next to the
# kernel's own vmlinux-gdb.py: source gdb-scripts/stackov-gdb.py
# make gdb and the report load it. "help user-defined" does not list
# them; "apropos stackov" does.

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import stackov.stacks  # noqa: E402,F401
import stackov.bt  # noqa: E402,F401
import stackov.cache  # noqa: E402,F401
import stackov.overflow  # noqa: E402,F401
