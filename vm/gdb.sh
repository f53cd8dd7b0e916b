#!/bin/sh
# vm/gdb.sh - attach gdb to the gdbstub of a running guest (RUN_DIR, or
# out/latest) with its vmlinux, the kernel's vmlinux-gdb.py and this lab's
# helpers (gdb-scripts/stackov-gdb.py) loaded. The helpers name a module's
# functions from the kernel's copy of its symbols; for gdb's own bt of a
# module, run lx-symbols once the guest is up.
#   GDB_CMDS=file   run the gdb commands in file, in batch, then quit
#                   (gdb exits when the guest does)
#   GDB_ARGS=...    more arguments for gdb, as they are
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/lib.sh"

RUN_DIR=${RUN_DIR:-$LAB_OUT/latest}
[ -f "$RUN_DIR/gdb.port" ] ||
	die "no gdbstub in $RUN_DIR (start the guest with make vm first)"
port=$(cat "$RUN_DIR/gdb.port")
vmlinux=$(rec_get "$RUN_DIR" .kernel.vmlinux 2>/dev/null || true)
[ -n "$vmlinux" ] || die "the guest of $RUN_DIR has not started yet (no vmlinux in its run.json)"
[ -f "$vmlinux" ] || die "vmlinux of that run is gone: $vmlinux"
kdir=$(dirname "$vmlinux")
[ -f "$kdir/vmlinux-gdb.py" ] || die "no vmlinux-gdb.py in $kdir (CONFIG_GDB_SCRIPTS)"
# READERS's gdb (vm/builders/readers.sh). The helpers load the engine,
# libstackov (libstackov/stackov.py).
gdb=$("$LAB_ROOT/vm/builders/readers.sh" gdb) || die "no gdb of READERS=$READERS"
STACKOV_LIB=$("$LAB_ROOT/vm/builders/host-tools.sh" libstackov) || die "libstackov does not build"
export STACKOV_LIB
set -- -q -iex "add-auto-load-safe-path $kdir:$KERNEL_TREE" \
	-ex "target remote 127.0.0.1:$port" -x "$LAB_ROOT/gdb-scripts/stackov-gdb.py"
if [ -n "${GDB_CMDS:-}" ]; then
	[ -f "$GDB_CMDS" ] || die "GDB_CMDS: no such file: $GDB_CMDS"
	set -- -batch "$@" -x "$GDB_CMDS"
fi
# shellcheck disable=SC2086
exec "$gdb" "$@" ${GDB_ARGS:-} "$vmlinux"
