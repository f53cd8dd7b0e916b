#!/bin/sh
# bench/record.sh NAME CMD... - run one measurement (what make NAME runs),
# show its output as it comes, and keep it in out/bench/NAME.txt under one
# line that says when and on what it ran, for make bench-doc. A measurement
# that fails keeps nothing, and the last good record stays.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

name=${1:?usage: record.sh NAME CMD...}
shift
[ $# -gt 0 ] || die "usage: record.sh NAME CMD..."
case $name in
*[!a-z0-9-]*) die "record.sh: NAME '$name' is not a target name" ;;
esac
# Another kernel's measurement is a record of its own (bench-boot-debian-6.1).
[ "$LAB_KERNEL" = lab-6.1 ] || name=$name-$LAB_KERNEL
# So is another variant's (bench-soak-orc).
[ -z "${VARIANT:-}" ] || [ "$VARIANT" = "$DEFAULT_VARIANT" ] || name=$name-$VARIANT
mkdir -p "$LAB_OUT/bench"
rec=$LAB_OUT/bench/$name.txt
remove_on_exit "$rec.tmp.$$" "$rec.rc.$$"
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
printf 'make %s, %s, on %s CPUs (%s), %s GiB, %s, kernel %s\n' "$name" \
	"$(date -u '+%Y-%m-%d %H:%M UTC')" "$(nproc)" "${cpu:-unknown CPU}" \
	"$(awk '/^MemTotal:/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)" \
	"$(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-unknown OS}")" "$LAB_KERNEL" >"$rec.tmp.$$"
# The measurement's status, through the pipe that shows its output.
{
	rc=0
	"$@" || rc=$?
	echo "$rc" >"$rec.rc.$$"
} | tee -a "$rec.tmp.$$"
rc=$(cat "$rec.rc.$$")
# 3: the measurement refused, and said why (vm/lib.sh: needs_series).
[ "$rc" = 3 ] && exit 3
[ "$rc" = 0 ] || die "make $name failed (status $rc); out/bench/$name.txt left as it was"
mv "$rec.tmp.$$" "$rec"
say "kept in $rec (make bench-doc puts it in bench/README.md)"
