# SPDX-License-Identifier: GPL-2.0
"""libstackov's Python binding, with ctypes and nothing else: a reader
(gdb-scripts/stackov_gdb, drgn-scripts/stackov_drgn.py) subclasses Target
with its own view of the kernel, and the engine, libstackov.so, does the
rest and says it in its words, the same as crash's extension.

The library is $STACKOV_LIB, else libstackov.so beside this file, else
where the stackov-tools package installs it, else in the lab's cache
($STACKOV_CACHE/bin, ~/.cache/stackov-lab/bin), which
vm/builders/host-tools.sh libstackov builds.
"""
import ctypes
import os

_c = ctypes
READ = _c.CFUNCTYPE(_c.c_int, _c.c_void_p, _c.c_uint64, _c.c_void_p, _c.c_size_t)
SYMBOL = _c.CFUNCTYPE(_c.c_int, _c.c_void_p, _c.c_char_p, _c.POINTER(_c.c_uint64))
SIZE = _c.CFUNCTYPE(_c.c_long, _c.c_void_p, _c.c_char_p)
MEMBER = _c.CFUNCTYPE(_c.c_long, _c.c_void_p, _c.c_char_p, _c.c_char_p)
INFO = _c.CFUNCTYPE(_c.c_int, _c.c_void_p, _c.c_char_p, _c.c_void_p, _c.c_size_t)
CPU = _c.CFUNCTYPE(_c.c_int, _c.c_void_p)
REGS = _c.CFUNCTYPE(_c.c_int, _c.c_void_p, _c.c_int, _c.POINTER(_c.c_uint64),
                    _c.POINTER(_c.c_uint64), _c.POINTER(_c.c_uint64))


class _Target(_c.Structure):
    _fields_ = [("ctx", _c.c_void_p), ("read", READ), ("symbol", SYMBOL),
                ("struct_size", SIZE), ("member_offset", MEMBER), ("member_size", MEMBER),
                ("array_len", SIZE), ("vmcoreinfo", INFO), ("crashed_cpu", CPU),
                ("cpu_regs", REGS), ("walk_on_fault", _c.c_int), ("vmlinux", _c.c_char_p)]


# Where the stackov-tools package puts it (debian/stackov-tools.install).
INSTALLED = "/usr/lib/stackov-tools/libstackov.so"


def library_path():
    env = os.environ.get("STACKOV_LIB")
    if env:
        return env
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libstackov.so")
    if os.path.exists(here):
        return here
    if os.path.exists(INSTALLED):
        return INSTALLED
    cache = os.environ.get("STACKOV_CACHE") or os.path.join(
        os.environ.get("HOME", "/root"), ".cache", "stackov-lab")
    return os.path.join(cache, "bin", "libstackov.so")


_lib = None


def lib():
    global _lib
    if _lib is None:
        path = library_path()
        try:
            _lib = _c.CDLL(path)
        except OSError as e:
            raise Refusal("cannot load libstackov (%s): %s; vm/builders/host-tools.sh "
                          "libstackov builds it" % (path, e))
        _lib.stackov_open.restype = _c.c_void_p
        _lib.stackov_open.argtypes = [_c.POINTER(_Target), _c.c_char_p, _c.c_size_t]
        _lib.stackov_close.argtypes = [_c.c_void_p]
        _lib.stackov_command_line.restype = _c.c_int
        _lib.stackov_command_line.argtypes = [_c.c_void_p, _c.c_char_p,
                                              _c.POINTER(_c.c_void_p)]
        _lib.stackov_free.argtypes = [_c.c_void_p]
        _lib.stackov_record.argtypes = [_c.c_void_p, _c.c_char_p]
        _lib.stackov_dump_mismatch.argtypes = [_c.c_char_p, _c.c_char_p, _c.c_char_p,
                                               _c.c_size_t]
        _lib.stackov_dump_info.argtypes = [_c.c_char_p, _c.c_char_p, _c.c_char_p, _c.c_size_t]
        _lib.stackov_text_string.argtypes = [_c.c_char_p, _c.c_char_p, _c.c_size_t]
    return _lib


class Refusal(Exception):
    """The one line a reader prints when there is nothing to explain."""


class Target(object):
    """What a reader gives the engine. Each returns None when it has no
    answer; read() returns the bytes. walk_on_fault: a read that fails is
    done again through the kernel's page tables (an ELF vmcore that maps
    no vmalloc)."""
    walk_on_fault = False

    def __init__(self, vmlinux):
        self.vmlinux = vmlinux

    def read(self, addr, n):
        return None

    def symbol(self, name):
        return None

    def struct_size(self, name):
        return None

    def member_offset(self, struct, member):
        return None

    def member_size(self, struct, member):
        return None

    def array_len(self, name):
        return None

    def vmcoreinfo(self, key):
        return None

    def crashed_cpu(self):
        return None

    def cpu_regs(self, cpu):
        """(ip, sp, bp) of a running CPU, or None."""
        return None


def _guard(default):
    """A callback never lets an exception into C: it answers 'no answer'."""
    def wrap(fn):
        def inner(*args):
            try:
                return fn(*args)
            except Exception:
                return default
        return inner
    return wrap


class Engine(object):
    """libstackov on a Target: command() runs what the readers run."""

    def __init__(self, target, record=None):
        t = target
        self.target = t

        @_guard(-1)
        def read(ctx, addr, buf, n):
            data = t.read(addr, n)
            if data is None or len(data) != n:
                return -1
            _c.memmove(buf, data, n)
            return 0

        @_guard(-1)
        def symbol(ctx, name, out):
            a = t.symbol(name.decode())
            if a is None:
                return -1
            out[0] = a & 0xffffffffffffffff
            return 0

        def num(fn):
            @_guard(-1)
            def inner(ctx, *names):
                v = fn(*[n.decode() for n in names])
                return -1 if v is None else v
            return inner

        @_guard(-1)
        def info(ctx, key, buf, n):
            v = t.vmcoreinfo(key.decode())
            if v is None:
                return -1
            data = v.encode()[:n - 1] + b"\0"
            _c.memmove(buf, data, len(data))
            return 0

        @_guard(-1)
        def crashed(ctx):
            c = t.crashed_cpu()
            return -1 if c is None else c

        @_guard(-1)
        def regs(ctx, cpu, ip, sp, bp):
            r = t.cpu_regs(cpu)
            if r is None:
                return -1
            ip[0], sp[0], bp[0] = r
            return 0

        # Kept: ctypes frees a callback whose Python object goes.
        self._cb = (READ(read), SYMBOL(symbol), SIZE(num(t.struct_size)),
                    MEMBER(num(t.member_offset)), MEMBER(num(t.member_size)),
                    SIZE(num(t.array_len)), INFO(info), CPU(crashed), REGS(regs))
        self._vmlinux = (t.vmlinux or "").encode()
        self._t = _Target(None, *self._cb, int(bool(t.walk_on_fault)),
                          self._vmlinux or None)
        err = _c.create_string_buffer(256)
        self._s = lib().stackov_open(_c.byref(self._t), err, len(err))
        if not self._s:
            raise Refusal(err.value.decode())
        if record:
            lib().stackov_record(self._s, record.encode())

    def command(self, line):
        """(status, text): 0 and the output, 1 and the refusal's line, 2 a
        usage error."""
        out = _c.c_void_p()
        r = lib().stackov_command_line(self._s, line.encode(), _c.byref(out))
        text = _c.string_at(out.value).decode("utf-8", "backslashreplace") if out.value else ""
        lib().stackov_free(out)
        return r, text

    def close(self):
        if self._s:
            lib().stackov_close(self._s)
            self._s = None


def dump_mismatch(dump, vmlinux):
    """One line when @vmlinux is not the kernel that wrote @dump, else None."""
    why = _c.create_string_buffer(1024)
    if lib().stackov_dump_mismatch(dump.encode(), vmlinux.encode(), why, len(why)):
        return why.value.decode("utf-8", "backslashreplace")
    return None


def dump_info(dump, key):
    """VMCOREINFO's @key of the dump file, or None."""
    buf = _c.create_string_buffer(256)
    if lib().stackov_dump_info(dump.encode(), key.encode(), buf, len(buf)):
        return None
    return buf.value.decode()


def text_string(raw):
    """@raw (bytes: a comm) as the verdict's text words it: every byte
    below 0x20 or above 0x7e as \\xNN."""
    buf = _c.create_string_buffer(4 * len(raw) + 1)
    lib().stackov_text_string(raw, buf, len(buf))
    return buf.value.decode("ascii")
