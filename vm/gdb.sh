#!/bin/sh
# vm/gdb.sh - attach gdb to the gdbstub of a running guest (RUN_DIR, or
# out/latest) with its vmlinux and the kernel's vmlinux-gdb.py loaded.
# GDB_ARGS are passed to gdb (for a batch run: GDB_ARGS="-batch -ex lx-ps").
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/lib.sh"

RUN_DIR=${RUN_DIR:-$LAB_OUT/latest}
[ -f "$RUN_DIR/gdb.port" ] ||
	die "no gdbstub in $RUN_DIR (start the guest with make vm first)"
port=$(cat "$RUN_DIR/gdb.port")
vmlinux=$(sed -n 's/^vmlinux=//p' "$RUN_DIR/run.env")
[ -f "$vmlinux" ] || die "vmlinux of that run is gone: $vmlinux"
kdir=$(dirname "$vmlinux")
[ -f "$kdir/vmlinux-gdb.py" ] || die "no vmlinux-gdb.py in $kdir (CONFIG_GDB_SCRIPTS)"
# shellcheck disable=SC2086
exec gdb -q -iex "add-auto-load-safe-path $kdir:$LAB_TREE" \
	-ex "target remote 127.0.0.1:$port" ${GDB_ARGS:-} "$vmlinux"
