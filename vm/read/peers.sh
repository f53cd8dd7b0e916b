#!/bin/sh
# vm/read/peers.sh REPORT DUMP - stackov's frames on DUMP (vmcore or
# qemu-vmcore) beside its peers' own unwinders, from the sections of
# REPORT (report.sh's): crash's bt (crash on DUMP) and drgn's
# stack_trace() (drgn on vmcore, drgn on qemu-vmcore.elf). One line per
# peer: the same frames (how many, and the functions in the order they
# first appear, from the fault to the entry, recursion folded), or where
# it differs, and why when the peer stopped for a reason of its own
# (drgn's limit of 1024 frames, crash's "cannot transition" between
# stacks). stackov's frames stay in the report as they are.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"
rep=${1:?usage: peers.sh REPORT DUMP}
d=${2:?usage: peers.sh REPORT DUMP}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stackov-peers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

section() { sed -n "/^===== $1 =====\$/,/^=====/p" "$rep"; }
# A function's name as the three name it: no gcc suffix (.cold, .isra.0).
plain() { sed 's/\..*//'; }

# stackov's frames (crash's stackov, the verdict every reader shares):
# "N name" per frame line, "... R" for the folded cycle's line.
section "crash on $d" | sed -n '/^  frames: /,/^[^ ]/p' |
	awk '$1 ~ /^#[0-9]+$/ { print substr($1, 2), $3 }' >"$tmp/ours"
total=$(section "crash on $d" | sed -n 's/^  frames: *\([0-9]*\) .*/\1/p' | head -1)
if [ ! -s "$tmp/ours" ] || [ -z "$total" ]; then
	echo "on $d: stackov listed no frames to compare"
	exit 0
fi
first=$(head -1 "$tmp/ours" | cut -d' ' -f2 | plain)
last=$(tail -1 "$tmp/ours" | cut -d' ' -f2 | plain)
cut -d' ' -f2 "$tmp/ours" | plain | awk '!seen[$0]++' >"$tmp/ours.fn"

# crash's bt of the panic task: "N name" from the line of stackov's first
# function (on the task's side of the exception stack) on.
section "crash on $d" | sed -n '/^PID: .*COMMAND: /,/^PID: /p' |
	awk '/^--- </ { side = 1 } $1 ~ /^#[0-9]+$/ && $2 ~ /^\[/ { print side + 0, substr($1, 2), $3 }' \
		>"$tmp/crash.all"
if grep -q '^1 ' "$tmp/crash.all"; then
	sed -n 's/^1 //p' "$tmp/crash.all"
else
	sed 's/^0 //' "$tmp/crash.all"
fi >"$tmp/crash.raw"
# Why crash's bt of the panic task stopped: its own error, not one of
# crash's start-up (which runs bt on every CPU), unless that is all.
section "crash on $d" >"$tmp/crash.section"
crash_why=$(sed -n '/^PID: .*COMMAND: /,$p' "$tmp/crash.section" | grep -m1 -E '^bt: ' || true)
crash_start=$(sed '/^PID: .*COMMAND: /,$d' "$tmp/crash.section" | grep -m1 -E '^bt: ' || true)
crash_json=$(grep -m1 '^{"stack":' "$tmp/crash.section" || true)

# drgn's stack_trace(): "#A[-#B] 0xPC name at ..."; lines with one pc are
# one frame (the last is the function, the others inlined in it); #A-#B
# is a run of B-A+1 identical frames.
dsec="drgn on $d.elf"
[ "$d" = vmcore ] && dsec="drgn on vmcore"
section "$dsec" | sed -n '/^stack trace/,/^$/p' | awk '
	$1 ~ /^#[0-9]+(-#[0-9]+)?$/ && $2 != "drgn:" {
		split(substr($1, 2), r, "-#"); n = (2 in r) ? r[2] - r[1] + 1 : 1
		# As strings: awk would compare two hex numbers as doubles.
		if ($2 "" == pc && n == 1) { name = $3; next }
		if (pc != "") print k, name, cnt
		pc = $2 ""; name = $3; cnt = n; k = r[1]
	}
	END { if (pc != "") print k, name, cnt }' >"$tmp/drgn.groups"
# As "N name" lines, one per frame, numbered from 0.
awk '{ for (i = 0; i < $3; i++) print n++, $2 }' "$tmp/drgn.groups" >"$tmp/drgn.raw"
drgn_all=$(section "$dsec" | sed -n 's/^stack trace (\([0-9]*\) frames.*/\1/p' | head -1)
drgn_why=$(section "$dsec" | sed -n 's/^ *#[0-9]* *drgn: \(.*\); its unwind stops here$/\1/p' | head -1)

# compare PEER RAW WHY: the peer's frames from stackov's first function to
# its last, counted and named as stackov's.
compare() {
	peer=$1 raw=$2 why=$3
	awk -v f="$first" '{ n = $2; sub(/\..*/, "", n) } n == f { on = 1 } on' "$raw" >"$tmp/from"
	if [ ! -s "$tmp/from" ]; then
		echo "on $d, $peer DIFFERS: it has no $first frame${why:+ ($why)}"
		return
	fi
	# Up to its last frame of stackov's last function (the entry).
	stop=$(awk -v l="$last" '{ n = $2; sub(/\..*/, "", n) } n == l { e = NR } END { print e }' "$tmp/from")
	if [ -n "$stop" ]; then
		head -n "$stop" "$tmp/from" >"$tmp/span"
	else
		cp "$tmp/from" "$tmp/span"
	fi
	# Frames by number: a run crash's report folded is all there.
	n=$(($(tail -1 "$tmp/span" | cut -d' ' -f1) - $(head -1 "$tmp/span" | cut -d' ' -f1) + 1))
	cut -d' ' -f2 "$tmp/span" | plain | awk '!seen[$0]++' >"$tmp/span.fn"
	fns=$(wc -l <"$tmp/ours.fn")
	if [ -n "$stop" ] && [ "$n" = "$total" ] && cmp -s "$tmp/ours.fn" "$tmp/span.fn"; then
		echo "on $d, $peer agrees: the same $n frames, $fns functions from $first to $last"
		return
	fi
	# A module's init function (init_module, in the module's init text,
	# which the kernel frees once init returns): crash's bt leaves its
	# frame out, drgn's unwind ends in it.
	if [ -n "$stop" ] && [ "$n" = $((total - 1)) ] && grep -qx init_module "$tmp/ours.fn" &&
		grep -vx init_module "$tmp/ours.fn" | cmp -s - "$tmp/span.fn"; then
		echo "on $d, $peer agrees but for init_module: the same $n frames, bar the one in the module's init code, which it leaves out"
		return
	fi
	if [ -z "$stop" ] && [ -z "$why" ] && [ "$(tail -1 "$tmp/span" | cut -d' ' -f2)" = init_module ]; then
		why="its unwind ends in init_module, the module's init code"
	fi
	if [ -z "$stop" ]; then
		# Stopped short: its functions are compared with as many of ours.
		head -n "$(wc -l <"$tmp/span.fn")" "$tmp/ours.fn" >"$tmp/ours.part"
		mv "$tmp/ours.part" "$tmp/ours.cmp"
	else
		cp "$tmp/ours.fn" "$tmp/ours.cmp"
	fi
	diff=$(diff "$tmp/ours.cmp" "$tmp/span.fn" | grep -m2 '^[<>]' | tr '\n' ' ' | sed 's/ $//')
	if [ -z "$stop" ]; then
		echo "on $d, $peer STOPPED after $n frames, before $last${why:+ ($why)}${diff:+; its functions differ: $diff}"
	else
		echo "on $d, $peer DIFFERS: $n frames from $first to $last, stackov $total${diff:+; functions: $diff}"
	fi
}

compare "crash's bt" "$tmp/crash.raw" "$crash_why"
lim=$(crash_limitation "$crash_why" "$crash_json" "$tmp/crash.section")
[ -n "$lim" ] && echo "on $d, crash's bt met a limitation of crash's: $lim"
lim=$(crash_limitation "$crash_start" "$crash_json" "$tmp/crash.section")
[ -n "$lim" ] && echo "on $d, crash's start-up met a limitation of crash's (\"$crash_start\"): $lim"
dwhy=${drgn_why:+drgn: $drgn_why}
[ "${drgn_all:-0}" -ge 1024 ] && dwhy="drgn's limit of 1024 frames"
compare "drgn's stack_trace" "$tmp/drgn.raw" "$dwhy"
