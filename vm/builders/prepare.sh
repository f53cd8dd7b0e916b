#!/bin/sh
# vm/builders/prepare.sh [VARIANT] [-- COMMAND...] - everything the first demo needs,
# made once: the kernel, the module and the initramfs of VARIANT, and the
# dump readers of READERS (vm/builders/readers.sh: Debian's crash, gdb and
# drgn in a root of their own, or, for READERS=host, crash built from
# source). The readers are made beside the kernel, at the lowest priority
# (nice 19, idle I/O), so the kernel, which the first boot waits for, gets
# the CPUs and the disk first. Without COMMAND, waits for both. With COMMAND (make overflow-demo:
# vm/demo.sh), runs it as soon as the kernel side is ready: the boots
# overlap the readers' making, and the first reader in COMMAND waits for
# it (CRASH_NO_BUILD=1: it waits, it never builds again).
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

# readers.sh says what it does on stderr, whole lines, beside the kernel's;
# at the lowest CPU and I/O priority: the kernel's unpacking is one thread
# and its link is one, and the readers take the other CPU then.
nice -n 19 ionice -c 3 "$LAB_ROOT/vm/builders/readers.sh" >/dev/null &
crash_pid=$!
rc=0
{ "$LAB_ROOT/vm/builders/kernel.sh" "$variant" && "$LAB_ROOT/vm/builders/module.sh" "$variant" &&
	"$LAB_ROOT/vm/builders/initramfs.sh" "$variant"; } || rc=$?
if [ "$rc" = 0 ] && [ $# -gt 0 ]; then
	VARIANT=$variant CRASH_NO_BUILD=1 "$@" || rc=$?
fi
crc=0
if kill -0 "$crash_pid" 2>/dev/null; then
	say "waiting for $READERS's readers to be made"
fi
wait "$crash_pid" || crc=$?
[ "$crc" = 0 ] || die "$READERS's readers could not be made (status $crc)"
exit "$rc"
