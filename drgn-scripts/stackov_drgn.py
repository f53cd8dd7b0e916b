# SPDX-License-Identifier: GPL-2.0
"""stackov-lab: a stack overflow explained by drgn, in crash's stackov words.

usage: /usr/bin/python3 drgn-scripts/stackov_drgn.py [-j | -a | -c | -i]
           VMCORE VMLINUX [MODULE.ko...] [-- PID | TASK]

The same verdict as crash's `stackov` (crash-scripts/): the stack
the fault hit, its bounds and guard page, the fault address, the task, its
context and entry path, and the frame-pointer chain with recursion folded
into a cycle. The rules are rules/stackov/'s, which gdb's
helpers import the same way; this file only gives it drgn's view of the dump.

    -j  the verdict as one JSON object on one line
    -a  every task's stack high-water mark, deepest first
    -c  each CPU's cached stacks, with their vm_structs
    -i  every CPU's IRQ and exception stacks, with their guards
A dump with no overflow to explain gets one line, "stackov: ...", and
exit status 1.
"""
import os
import sys

import drgn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "rules"))
from stackov.lifecycle import cached_lines, usage_lines  # noqa: E402
from stackov.target import Refusal, Target, Unreadable  # noqa: E402
from stackov.tasks import find_task  # noqa: E402
from stackov.text import cpu_stack_lines  # noqa: E402
from stackov.verdict import Verdict  # noqa: E402
from stackov.vmcoreinfo import mismatch  # noqa: E402


class DrgnTarget(Target):
    def __init__(self, prog, vmlinux):
        self.prog = prog
        self.path = vmlinux
        self._types = {}

    def read(self, addr, n):
        try:
            return self.prog.read(addr, n)
        except drgn.FaultError as e:
            raise Unreadable(str(e))

    def u64(self, addr):
        return int.from_bytes(self.read(addr, 8), "little")

    def sym(self, name):
        try:
            return self.prog.symbol(name).address
        except LookupError:
            return None

    def type(self, struct):
        if struct not in self._types:
            try:
                self._types[struct] = self.prog.type("struct " + struct)
            except LookupError:
                self._types[struct] = None
        return self._types[struct]

    def sizeof(self, struct):
        t = self.type(struct)
        return t.size if t is not None else None

    def _member(self, struct, member):
        t = self.type(struct)
        try:
            return t.member(member) if t is not None else None
        except LookupError:
            return None

    def offsetof(self, struct, member):
        m = self._member(struct, member)
        return m.offset if m is not None else None

    def has_member(self, struct, member):
        return self._member(struct, member) is not None

    def member_size(self, struct, member):
        m = self._member(struct, member)
        return drgn.sizeof(m.type) if m is not None else None

    def member_type(self, struct, member):
        m = self._member(struct, member)
        t = m.type if m is not None else None
        return t.tag if t is not None and t.kind == drgn.TypeKind.STRUCT else None

    def array_len(self, name):
        try:
            return self.prog[name].type_.length
        except (LookupError, AttributeError):
            return None

    def vmlinux(self):
        return self.path

    def panic_cpu(self):
        cpu = self.u32(self.sym("panic_cpu"))
        return cpu if cpu < 1 << 31 else None


def open_dump(vmcore, debug):
    # A vmlinux of another kernel gives a wrong report, never an error:
    # refuse it, in one line naming both build ids.
    try:
        bad = mismatch(vmcore, debug[0])
    except (OSError, ValueError) as e:
        sys.exit("drgn: cannot open %s: %s" % (vmcore, e))
    if bad:
        print("stackov: %s" % bad)
        sys.exit(1)
    prog = drgn.Program()
    try:
        prog.set_core_dump(vmcore)
    except Exception as e:  # drgn raises several types for a bad core
        sys.exit("drgn: cannot open %s: %s" % (vmcore, e))
    try:
        prog.load_debug_info(debug)
    except drgn.MissingDebugInfoError as e:
        print("drgn: warning: %s" % e, file=sys.stderr)
    return prog


def main(argv):
    opts = [a for a in argv[1:] if a in ("-j", "-a", "-c", "-i")]
    rest = [a for a in argv[1:] if a not in opts]
    who = None
    if "--" in rest:
        who = rest[rest.index("--") + 1:]
        rest = rest[:rest.index("--")]
        who = who[0] if who else None
    if len(rest) < 2 or len(opts) > 1:
        sys.exit(__doc__.strip())
    t = DrgnTarget(open_dump(rest[0], rest[1:]), rest[1])
    try:
        if opts == ["-a"]:
            print("\n".join(usage_lines(t)))
        elif opts == ["-c"]:
            print("\n".join(cached_lines(t)))
        elif opts == ["-i"]:
            print("\n".join(cpu_stack_lines(t)))
        else:
            task = find_task(t, who) if who else None
            v = Verdict(t, task)
            print(v.json() if opts == ["-j"] else v.text())
    except Refusal as e:
        print("stackov: %s" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
