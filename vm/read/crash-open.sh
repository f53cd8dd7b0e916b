#!/bin/sh
# vm/read/crash-open.sh [DUMP] - open crash on a lab dump: DUMP is a run
# directory (its vmcore) or a dump file in one (e.g. RUN/qemu-vmcore); the
# default is out/latest. The run's own vmlinux is used and the symbols of
# every module in the run directory are loaded (mod -s). CRASH_ARGS go to crash as they are, e.g.
# CRASH_ARGS="-s -i crash-scripts/postmortem.crash" for a batch run.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

dump=${1:-$LAB_OUT/latest}
[ -n "$dump" ] || die "DUMP is empty; give a run directory or a vmcore"
if [ -d "$dump" ]; then
	dir=$dump vmcore=$dump/vmcore
elif [ -e "$dump" ]; then
	vmcore=$(readlink -f "$dump")
	dir=$(dirname "$vmcore")
	# A link to a dump from elsewhere (make postmortem): the run
	# directory, with its vmlinux and modules, is the link's.
	[ -f "$dir/vmlinux" ] || dir=$(dirname "$dump")
else
	die "no dump at '$dump' (no such file or directory)"
fi
[ -e "$vmcore" ] || die "no vmcore in $dir (was the run made with kdump?)"
# The size written at capture, from the run's record (run.json, in the
# dump's directory or, for QEMU's dump, the one above it).
rec=$dir
rec_has "$rec" || rec=$(dirname "$dir")
want=''
rec_has "$rec" && want=$(rec_get "$rec" '.dumps[] | select(.name == $n) | .size' --arg n "${vmcore##*/}" 2>/dev/null)
size=$(stat -c %s "$vmcore")
if [ -n "$want" ] && [ "$size" -gt 0 ] && [ "$size" != "$want" ]; then
	die "$vmcore is truncated: $size bytes of the $want written at capture"
fi
# Structural check (vm/read/vmcore-check.c): crash on a cut dump prints
# a screenful of read errors; say in one line what is wrong instead.
check=$("$LAB_ROOT/vm/builders/host-tools.sh" vmcore-check)
why=$("$check" "$vmcore") || die "$why"
[ -f "$dir/vmlinux" ] || die "no vmlinux in $dir"
# And that the run's vmlinux is the kernel that wrote it (build ids): crash
# says only "do not match".
why=$("$check" "$vmcore" "$dir/vmlinux") || die "$why"

crash=$("$LAB_ROOT/vm/builders/readers.sh" crash)
rc=$(mktemp -d "${TMPDIR:-/tmp}/stackov-crashrc.XXXXXX")
remove_on_exit "$rc"
ext=$("$LAB_ROOT/vm/builders/crash-ext.sh")
# crash reads $HOME/.crashrc before any -i file: load the modules and the
# stackov extension there.
{
	for ko in "$dir"/*.ko; do
		[ -f "$ko" ] && echo "mod -s $(basename "$ko" .ko | tr - _) $ko"
	done
	echo "extend $ext"
} >"$rc/.crashrc"
# shellcheck disable=SC2086
HOME=$rc timeout --foreground "${CRASH_TIMEOUT:-3600}" \
	"$crash" ${CRASH_ARGS:-} "$dir/vmlinux" "$vmcore"
