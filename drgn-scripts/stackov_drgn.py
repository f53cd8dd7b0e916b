# SPDX-License-Identifier: GPL-2.0
"""stackov-lab: a stack overflow explained by drgn, in crash's stackov words.

usage: python3 drgn-scripts/stackov_drgn.py [-j | -a | -c | -i | -u [-j] [-n BYTES] | -m [-s]]
           VMCORE VMLINUX [MODULE.ko...] [-- PID | TASK]

drgn answers libstackov's questions (its memory, symbols and types) and
the engine (libstackov/, through its ctypes binding) decides and words
the verdict, as it does in crash and gdb:

    -j  the verdict as one JSON object on one line
    -a  every task's stack high-water mark, deepest first
    -c  each CPU's cached stacks, with their vm_structs
    -i  every CPU's IRQ and exception stacks, with their guards
    -u  every stack's headroom, deepest first, and the near misses
        (under BYTES left, 2048 unless -n); with -j, as JSON
    -m  the overflowed stack drawn, top first; with -s, as SVG
A dump with no overflow to explain gets one line, "stackov: ...", and
exit status 1. STACKOV_RECORD=FILE records every answer drgn gave.

Inside drgn's own command line, on the program drgn opened, with the same
options (stackov-tools installs it as /usr/bin/stackov-drgn too):

    drgn -c VMCORE -s VMLINUX stackov_drgn.py [OPTIONS] [-- PID | TASK]
"""
import os
import sys

import drgn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "libstackov"))
import stackov  # noqa: E402


class DrgnTarget(stackov.Target):
    def __init__(self, prog, vmlinux, vmcore=None):
        stackov.Target.__init__(self, vmlinux)
        self.prog = prog
        self.vmcore = vmcore
        self._types = {}

    def read(self, addr, n):
        try:
            return self.prog.read(addr, n)
        except drgn.FaultError:
            return None

    def symbol(self, name):
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

    def struct_size(self, struct):
        t = self.type(struct)
        return t.size if t is not None else None

    def _member(self, struct, member):
        t = self.type(struct)
        try:
            return t.member(member) if t is not None else None
        except LookupError:
            return None

    def member_offset(self, struct, member):
        # A bit field's is the byte it starts in, as crash and gdb give it
        # (drgn's .offset raises ValueError there: orc_entry's "signal",
        # by which the engine tells 6.3's ORC format from the old one).
        m = self._member(struct, member)
        return m.bit_offset // 8 if m is not None else None

    def member_size(self, struct, member):
        m = self._member(struct, member)
        return drgn.sizeof(m.type) if m is not None else None

    def array_len(self, name):
        try:
            return self.prog[name].type_.length
        except (LookupError, AttributeError):
            return None

    def vmcoreinfo(self, key):
        return stackov.dump_info(self.vmcore, key) if self.vmcore else None


def open_dump(vmcore, debug):
    """drgn's Program on the dump; a vmlinux of another kernel gives a wrong
    report, never an error: refused, in one line naming both build ids."""
    try:
        bad = stackov.dump_mismatch(vmcore, debug[0])
    except stackov.Refusal as e:
        sys.exit("drgn: %s" % e)
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


def engine(prog, vmlinux, vmcore=None):
    """libstackov on drgn's view of the dump."""
    return stackov.Engine(DrgnTarget(prog, vmlinux, vmcore),
                          record=os.environ.get("STACKOV_RECORD") or None)


def parse(args):
    """The options, the files and the task of a command line; None if it
    is not one."""
    near = []
    if "-n" in args and "-u" in args:
        i = args.index("-n")
        near, args = args[i:i + 2], args[:i] + args[i + 2:]
    opts = [a for a in args if a in ("-j", "-a", "-c", "-i", "-u", "-m", "-s")]
    rest = [a for a in args if a not in opts]
    who = ""
    if "--" in rest:
        who = " ".join(rest[rest.index("--") + 1:][:1])
        rest = rest[:rest.index("--")]
    if len(opts) > 1 and sorted(opts) not in (["-j", "-u"], ["-m", "-s"]):
        return None
    return opts + near, rest, who


def run(prog, vmlinux, vmcore, opts, who):
    try:
        e = engine(prog, vmlinux, vmcore)
        status, text = e.command(" ".join(["stackov"] + opts + ([who] if who else [])))
        e.close()
    except stackov.Refusal as err:
        print("stackov: %s" % err)
        return 1
    sys.stdout.write(text)
    return 1 if status else 0


def main(argv):
    p = parse(argv[1:])
    if p is None or len(p[1]) < 2:
        sys.exit(__doc__.strip())
    opts, rest, who = p
    return run(open_dump(rest[0], rest[1:]), rest[1], rest[0], opts, who)


def main_in_drgn(prog, argv):
    """drgn -c VMCORE -s VMLINUX stackov_drgn.py: drgn's program, its
    vmlinux (the main module's debug file) and its core."""
    p = parse(argv[1:])
    if p is None or p[1]:
        sys.exit(__doc__.strip())
    try:
        vmlinux = prog.main_module().debug_file_path
    except (AttributeError, LookupError):
        vmlinux = None
    if not vmlinux:
        print("stackov: drgn has no vmlinux for this kernel (drgn -s VMLINUX)")
        return 1
    return run(prog, vmlinux, None, p[0], p[2])


if __name__ == "__main__":
    if "prog" in globals():  # run by drgn's command line, on its program
        sys.exit(main_in_drgn(globals()["prog"], sys.argv))
    sys.exit(main(sys.argv))
