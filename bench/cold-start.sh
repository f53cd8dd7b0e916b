#!/bin/sh
# bench/cold-start.sh - time the first `make overflow-demo` of a newcomer
# (make bench-cold): a clean clone of REV (default HEAD; commits only, not
# the work tree) with a new, empty STACKOV_CACHE, both in BENCH_DIR
# (${TMPDIR:-/tmp}/stackov-cold), removed afterwards. apt is not timed:
# the packages are installed first (make deps). Prints the wall time, the
# CPU time of everything it ran, the host's steal time over the run (CPU
# taken by other guests of this host: it makes the same work slower), and
# each build's own "built in" line. The log: out/bench/cold-start-REV.log.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

REV=${REV:-HEAD}
work=${BENCH_DIR:-${TMPDIR:-/tmp}/stackov-cold}
rev=$(git -C "$LAB_ROOT" rev-parse --verify -q "$REV^{commit}") ||
	die "REV '$REV' is not a commit of $LAB_ROOT"
short=$(git -C "$LAB_ROOT" rev-parse --short "$rev")
"$LAB_ROOT/vm/builders/deps.sh"
log=$LAB_OUT/bench/cold-start-$short.log
mkdir -p "$LAB_OUT/bench"
rm -rf "$work"
mkdir -p "$work"
remove_on_exit "$work"
git clone -q "$LAB_ROOT" "$work/clone"
git -C "$work/clone" checkout -q "$rev"

# /proc/stat's cpu line: user nice system idle iowait irq softirq steal.
steal() { awk '/^cpu / { print $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }

say "cold make overflow-demo at $short in $work (about 10 minutes; log: $log)"
s0=$(steal)
t0=$(date +%s)
rc=0
(cd "$work/clone" && env STACKOV_CACHE="$work/cache" make overflow-demo) >"$log" 2>&1 || rc=$?
t1=$(date +%s)
s1=$(steal)
times >"$work/times"
# shellcheck disable=SC2046,SC2086
set -- $(cpu_of_times "$work/times") $s0 $s1
[ "$rc" = 0 ] || { tail -20 "$log" >&2; die "make overflow-demo failed (status $rc); log: $log"; }
w=$((t1 - t0))
printf 'cold make overflow-demo at %s: %d min %02d s wall, %d s CPU (user %d, sys %d), host steal %s%%\n' \
	"$short" $((w / 60)) $((w % 60)) $(($1 + $2)) "$1" "$2" \
	"$(echo "$3 $4 $5 $6" | awk '{ d = $4 - $2; printf "%.1f", d ? 100 * ($3 - $1) / d : 0 }')"
grep -E 'built in|accelerator:' "$log" | sed 's/^==> /  /'
# The reference from the same run: the kernel's own build.
k=$(sed -n 's/.*kernel [a-z0-9]* built in \([0-9]*\) s.*/\1/p' "$log" | head -1)
[ -n "$k" ] && [ "$k" -gt 0 ] &&
	echo "  the whole run took $(echo "scale=1; $w / $k" | bc) times this run's kernel build ($w s against $k s)"
grep -E 'readers agree|DISAGREE|FAILED' "$log" | sed 's/^/  /' || true
