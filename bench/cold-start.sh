#!/bin/sh
# bench/cold-start.sh - time the first `make overflow-demo` of a newcomer
# (make bench-cold): a clean clone of REV (default HEAD; commits only, not
# the work tree) with a new, empty STACKOV_CACHE, both in BENCH_DIR
# (${TMPDIR:-/tmp}/stackov-cold), removed afterwards. apt is not timed:
# the packages are installed first (make deps). Prints the wall time, the
# CPU time of everything it ran, the host's steal time over the run (CPU
# taken by other guests of this host: it makes the same work slower), and
# each build's own "built in" line, the readers' "ready in" line, the time
# to the post-mortem's first line, and the whole against the reference
# measured first in the same run: make kernel alone, in an empty cache of
# its own (READERS, default trixie: no crash is built). The logs:
# out/bench/cold-start-REV.log and .log.kernel.
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
# quiet: each timed step starts on a quiet disk, with nothing cached: the
# writes of what went before (the reference's build, its cache deleted)
# are flushed first, and the page cache dropped, so neither step pays for
# the other's I/O nor reads what the other left in memory. Measured at
# 4dba1c8 without it: the demo unpacked the kernel's source in 36 s, the
# reference just before it in 9 s.
quiet() {
	sync
	echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || true
}

steal() { awk '/^cpu / { print $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }

# The reference, in this run: the kernel alone (make kernel), from its
# source package to its image, in an empty cache of its own.
say "cold make kernel at $short in $work, the reference (about 6 minutes; log: $log.kernel)"
quiet
k0=$(date +%s)
(cd "$work/clone" && env STACKOV_CACHE="$work/kcache" LAB_SAY_T0="$(date +%s)" make kernel) >"$log.kernel" 2>&1 ||
	{ tail -20 "$log.kernel" >&2; die "make kernel failed; log: $log.kernel"; }
kref=$(($(date +%s) - k0))
rm -rf "$work/kcache"
quiet

say "cold make overflow-demo at $short in $work (about 7 minutes; log: $log)"
s0=$(steal)
t0=$(date +%s)
rc=0
: >"$log"
# The moment the post-mortem's first line is in the log.
(
	while ! grep -q '^== post-mortem of ' "$log" 2>/dev/null; do
		[ -e "$work/done" ] && exit 0
		sleep 0.5
	done
	date +%s >"$work/first"
) &
(cd "$work/clone" && env STACKOV_CACHE="$work/cache" LAB_SAY_T0="$t0" make overflow-demo) >"$log" 2>&1 || rc=$?
t1=$(date +%s)
touch "$work/done"
wait
s1=$(steal)
times >"$work/times"
# shellcheck disable=SC2046,SC2086
set -- $(cpu_of_times "$work/times") $s0 $s1
[ "$rc" = 0 ] || { tail -20 "$log" >&2; die "make overflow-demo failed (status $rc); log: $log"; }
w=$((t1 - t0))
printf 'cold make overflow-demo at %s: %d min %02d s wall, %d s CPU (user %d, sys %d), host steal %s%%\n' \
	"$short" $((w / 60)) $((w % 60)) $(($1 + $2)) "$1" "$2" \
	"$(echo "$3 $4 $5 $6" | awk '{ d = $4 - $2; printf "%.1f", d ? 100 * ($3 - $1) / d : 0 }')"
grep -E 'built in|ready in|accelerator:' "$log" | sed 's/^==> /  /'
grep -q 'crash 8.0.6 built in' "$log" || echo "  no crash was built (READERS=${READERS})"
[ -s "$work/first" ] && echo "  the post-mortem's first line came $(($(cat "$work/first") - t0)) s after the start"
# Against the reference: the kernel's own cold build, alone, before the
# demo (make kernel: its source unpacked, patched and configured, then
# built); and the demo's own kernel step, beside the readers' making.
echo "  the reference, make kernel alone in an empty cache: $kref s"
echo "  the whole demo took $(echo "scale=2; $w / $kref" | bc) times the kernel's own cold build ($w s against $kref s)"
k=$(sed -n 's/.*kernel [a-z0-9]*: \([0-9]*\) s in all, .*/\1/p' "$log" | head -1)
[ -n "$k" ] && echo "  (in the demo, the kernel's step took $k s, the readers' making beside it)"
grep -E 'readers agree|DISAGREE|FAILED' "$log" | sed 's/^/  /' || true
