# SPDX-License-Identifier: GPL-2.0
#
# Each CPU's cached stacks (kernel/fork.c's cached_stacks[]), and every
# task's stack high-water mark (the engine's stackov -c and -a).

import gdb

from stackov_gdb import mem


class StackovCache(gdb.Command):
    """Each CPU's cached stacks: bounds, how deep each was used, and its
vm_struct (crash's stackov -c). A cached stack that is still some task's
stack is said so.

stackov-cache"""

    def __init__(self):
        super(StackovCache, self).__init__("stackov-cache", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        mem.show("stackov -c")


class StackovUsage(gdb.Command):
    """Every task's stack high-water mark, deepest first (crash's stackov -a).

stackov-usage"""

    def __init__(self):
        super(StackovUsage, self).__init__("stackov-usage", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        mem.show("stackov -a")


StackovCache()
StackovUsage()
