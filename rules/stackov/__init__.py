# SPDX-License-Identifier: GPL-2.0
#
# stackov-lab: the rules of the stackov verdict, once, in Python, for the
# readers that speak it: gdb-scripts/ and drgn-scripts/ both put rules/ on
# their path and import from here. It imports neither gdb nor drgn; a
# reader subclasses target.Target with its view of the dump. crash-scripts/
# holds the same rules in C, a file for each module here:
#
#   target.py     what a reader gives: memory, symbols, types; the constants
#   symbols.py    frames named as kallsyms names them (vmlinux, modules)
#   regions.py    a CPU's and task's stacks and guard pages   (regions.c)
#   tasks.py      task_structs, every thread, a task by pid or address
#   unwind.py     the frames (ORC, or the frame-pointer chain), each
#                 frame's bytes                                (unwind.c)
#   orc.py        the kernel's ORC tables, vmlinux's and modules' (orc.c)
#   vmcoreinfo.py a dump's VMCOREINFO (KASLR offset, build id) for gdb
#   fold.py       recursion folded into a cycle                (fold.c)
#   verdict.py    the verdict: fault, context, entry; text, JSON (context.c)
#   text.py       the lines the verdict and -i print           (print.c)
#   lifecycle.py  high-water marks and cached stacks (-a, -c)  (lifecycle.c)
