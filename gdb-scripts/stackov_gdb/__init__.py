# SPDX-License-Identifier: GPL-2.0
#
# stackov-lab's gdb helpers for kernel stack overflows, laid out like the
# kernel's scripts/gdb/linux: one module per domain, each command a small
# gdb.Command, each value a gdb.Function. gdb-scripts/stackov-gdb.py loads
# them. The rules are not here: they are libstackov's, the engine every
# reader shares; mem.py answers its questions from gdb's view.
