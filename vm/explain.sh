#!/bin/sh
# vm/explain.sh - make explain LOG=file [VMLINUX=path] [MODULES=dir]
# [EXPLAIN=json|facts]: the stack overflows of a kernel log explained by
# stackov-log (stackov-log/), as the dump readers explain a dump. Without
# VMLINUX it says everything but the frames' sizes. MODULES is where the
# modules' .ko are (searched 6 levels deep); by default, VMLINUX's
# directory, which in a run directory holds lkdtm_ext.ko.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/lib.sh"

log=${LOG:-}
[ -n "$log" ] || die "usage: make explain LOG=file [VMLINUX=path] [MODULES=dir]"
[ -e "$log" ] || die "LOG=$log: no such file"
[ -f "$log" ] || die "LOG=$log: not a file"
[ -r "$log" ] || die "LOG=$log: not readable"
bin=$("$LAB_ROOT/vm/builders/host-tools.sh" stackov-log)
case ${EXPLAIN:-text} in
text) set -- ;;
json) set -- -j ;;
facts) set -- -f ;;
*) die "EXPLAIN=$EXPLAIN: text, json or facts" ;;
esac
if [ -n "${VMLINUX:-}" ]; then
	[ -f "$VMLINUX" ] || die "VMLINUX=$VMLINUX: no such file"
	set -- "$@" -v "$VMLINUX" -m "${MODULES:-$(dirname -- "$VMLINUX")}"
elif [ -n "${MODULES:-}" ]; then
	die "MODULES=$MODULES needs VMLINUX= too: the sizes come from both"
fi
rc=0
"$bin" "$@" "$log" || rc=$?
# A run's console with kdump armed stops before the oops: printk from the
# double-fault handler is deferred, and the capture kernel starts first.
d=$(dirname -- "$log")
if [ "$rc" = 1 ] && [ "$(basename -- "$log")" = console.log ] && [ -f "$d/vmcore.dmesg" ]; then
	echo "(with kdump armed, the oops never reaches this console: the same boot's log is $d/vmcore.dmesg, and QEMU's boot's console is $d/qemu-dump/console.log)"
fi
exit "$rc"
