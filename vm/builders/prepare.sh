#!/bin/sh
# vm/builders/prepare.sh [VARIANT] [-- COMMAND...] - everything the first demo needs,
# made once: the kernel, the module and the initramfs of VARIANT, and the
# dump readers of READERS (vm/builders/readers.sh: Debian's crash, gdb and
# drgn in a root of their own, or, for READERS=host, crash built from
# source). Debian's readers are made once the kernel is, beside the
# module, the initramfs and the boots; host's crash beside the kernel, at
# a lower priority (nice 10). Without COMMAND, waits for both. With
# COMMAND (make overflow-demo: vm/demo.sh), runs it as soon as the kernel
# side is ready: the boots overlap the readers' making, and the first
# reader in COMMAND waits for it (CRASH_NO_BUILD=1: it waits, it never
# builds again).
# Nothing else: the other variant and the bisect build only when asked.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

variant=${VARIANT:-$DEFAULT_VARIANT}
if [ $# -gt 0 ] && [ "$1" != -- ]; then
	variant=$1
	shift
fi
if [ $# -gt 0 ]; then
	if [ "$1" != -- ] || [ $# -lt 2 ]; then
		die "usage: prepare.sh [VARIANT] [-- COMMAND...]"
	fi
	shift
fi
check_variant "$variant"
# Kernel parameters the series adds: refused before anything is built.
check_series_args "${APPEND:-}"

# readers.sh says what it does on stderr, whole lines, beside the kernel's.
# Debian's readers (half a minute, most of it writing files) are made once
# the kernel is: made beside its unpacking they took that from 12 s to
# 37 s (the disk, which nice and ionice do not share out here), and they
# are ready by the time the boots are done. READERS=host's crash (13
# minutes) is built beside the kernel, at a lower priority.
readers_pid=''
start_readers() {
	nice -n "$1" "$LAB_ROOT/vm/builders/readers.sh" >/dev/null &
	readers_pid=$!
}
[ "$READERS" != host ] || start_readers 10
rc=0
"$LAB_ROOT/vm/builders/kernel.sh" "$variant" || rc=$?
[ -n "$readers_pid" ] || start_readers 19
if [ "$rc" = 0 ]; then
	{ "$LAB_ROOT/vm/builders/module.sh" "$variant" && "$LAB_ROOT/vm/builders/initramfs.sh" "$variant"; } || rc=$?
fi
if [ "$rc" = 0 ] && [ $# -gt 0 ]; then
	VARIANT=$variant CRASH_NO_BUILD=1 "$@" || rc=$?
fi
crc=0
if kill -0 "$readers_pid" 2>/dev/null; then
	say "waiting for $READERS's readers to be made"
fi
wait "$readers_pid" || crc=$?
[ "$crc" = 0 ] || die "$READERS's readers could not be made (status $crc)"
exit "$rc"
