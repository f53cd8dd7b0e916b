#!/bin/sh
# vm/prepare.sh [VARIANT] - everything the first demo needs, built once:
# the kernel, the module and the initramfs of VARIANT, and crash 8.0.6,
# crash beside the kernel (its build is mostly one job, the kernel's two;
# one after the other they took 14 min 39 s on a fresh 2-core machine).
# Nothing else: the other variant and the bisect build only when asked.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/lib.sh"

variant=${1:-${VARIANT:-vmap}}
# crash.sh says what it does on stderr, whole lines, beside the kernel's.
"$LAB_ROOT/vm/crash.sh" >/dev/null &
crash_pid=$!
rc=0
{ "$LAB_ROOT/vm/kernel.sh" "$variant" && "$LAB_ROOT/vm/module.sh" "$variant" &&
	"$LAB_ROOT/vm/initramfs.sh" "$variant"; } || rc=$?
crc=0
if kill -0 "$crash_pid" 2>/dev/null; then
	say "waiting for the crash build to finish"
fi
wait "$crash_pid" || crc=$?
[ "$crc" = 0 ] || die "crash did not build (status $crc)"
exit "$rc"
