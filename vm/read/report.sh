#!/bin/sh
# vm/read/report.sh RUN_DIR - the post-mortem of one run, from three readers:
# crash (batch, crash-scripts/postmortem.crash with the stackov extension),
# gdb (on the ELF vmcore, gdb-scripts/stackov_gdb/) and drgn
# (drgn-scripts/postmortem.py and stackov_drgn.py), on kdump's dump and on
# QEMU's. Each reader's whole output is RUN/reader-READER-DUMP.out and its
# stackov verdict RUN/stackov-READER-DUMP.json (stackov -j's line, or
# {"refusal": its one line}) with the text beside it (.txt); how each
# reader went, which dumps were read and whether the verdicts agree is
# RUN/readers.json; stackov's frames beside crash's bt and drgn's
# stack_trace is RUN/peers.json (peers.sh); stackov-log on the run's log
# is RUN/explain.json. report.txt and the summary printed here are
# rendered from those files (render.sh), and nothing reads report.txt.
# A reader that fails or times out is named, and the others still run;
# the exit status is 1 when any produced nothing. crash's errors that come
# from crash's own code (crash_limitation in vm/lib.sh) are named as its
# limitations. A dump that is not as it was at capture (size, CRC from the
# record, structure) is not read; a run with no dump gets one line and
# status 1.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

run=${1:?usage: report.sh RUN_DIR}
# A lab run, or a user's dump set up by vm/postmortem.sh (no console).
if ! rec_has "$run" || { [ ! -f "$run/console.log" ] && [ -z "$(rec_get "$run" .postmortem.vmcore.path)" ]; }; then
	die "$run is not a run directory (no console.log and run.json)"
fi
run=$(CDPATH='' cd -- "$run" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stackov-report.XXXXXX")
remove_on_exit "$tmp"
READER_TIMEOUT=${READER_TIMEOUT:-300}
t0=$(date +%s.%N)
# The readers (READERS: vm/builders/readers.sh) may still be in the making
# beside the boots (vm/builders/prepare.sh): wait for them here, where the
# wait says so on the terminal, not inside a reader, whose stderr is its
# evidence. If they cannot be had, each reader says so. Their versions go
# into readers.json.
"$LAB_ROOT/vm/builders/readers.sh" >"$tmp/versions" || true
# What an earlier report of this run left goes: every file below is new.
rm -f "$run"/reader-*.out "$run"/stackov-*.json "$run"/stackov-*.txt "$run"/headroom-*.json "$run/stack.svg" "$run/stack.why" "$run/readers.json" \
	"$run/peers.json" "$run/explain.json" "$run/explain.txt" "$run/report.txt" "$run"/replay-*.gz
# The modules' objects (the run's *.ko), where the engine finds the DWARF
# that names a smashed canary's buffer (libstackov/dwarf.c).
STACKOV_MODULES=$run
export STACKOV_MODULES
# The engine every reader runs on: crash's extension has it built in; gdb
# and drgn load its shared library (libstackov/stackov.py).
STACKOV_LIB=$("$LAB_ROOT/vm/builders/host-tools.sh" libstackov) || die "libstackov does not build"
export STACKOV_LIB

# No dump at all: one line, and nothing for the readers to do.
if [ -z "$(rec_get "$run" '.dumps[] | select(.captured) | .name')" ]; then
	why=$(rec_get "$run" '.boots[0] | .kdump_error // (select(.outcome == "error" or .outcome == "timeout") | .reason)')
	line="no dump in $(basename "$run"): the guest ended by $(run_outcome "$run")${why:+ ($why)}; nothing for the readers to read"
	{
		echo "stackov-lab post-mortem of $(basename "$run")"
		echo
		echo "$line"
	} >"$run/report.txt"
	echo "$line"
	exit 1
fi

# ---- The dumps: each is read only if it is whole: the size and CRC the
# record took at capture, and the structure vmcore-check reads now. A dump
# that is not, and its other format (vmcore.elf beside vmcore), are left
# out: its family is not read.
check=$("$LAB_ROOT/vm/builders/host-tools.sh" vmcore-check)
: >"$tmp/dumps.jsonl"
for d in $(rec_get "$run" '.dumps[] | select(.captured) | .name'); do
	f=$run/$(rec_get "$run" '.dumps[] | select(.name == $n) | .path' --arg n "$d")
	want=$(rec_get "$run" '.dumps[] | select(.name == $n) | .size' --arg n "$d")
	crc=$(rec_get "$run" '.dumps[] | select(.name == $n) | .cksum' --arg n "$d")
	why=''
	size=$(stat -L -c %s "$f" 2>/dev/null || echo 0)
	if [ ! -e "$f" ]; then
		why="$d is gone: it was written at capture, and $f is not there"
	elif [ -n "$want" ] && [ "$size" != "$want" ]; then
		why="$d is $size bytes, $want were written at capture: cut short or changed since"
		[ "$size" -lt "$want" ] && why="$d is truncated: $size bytes of the $want written at capture"
	elif ! w=$("$check" "$f" 2>&1); then
		why="$d is damaged ($size bytes, as at capture): ${w#"$f": }"
	elif [ -n "$crc" ] && [ "$(cksum <"$f" | cut -d' ' -f1)" != "$crc" ]; then
		why="$d is damaged: its CRC (cksum) is not the one taken at capture, at the same size ($size bytes)"
	fi
	jq -nc --arg n "$d" --arg why "$why" '{name: $n, whole: ($why == ""), why: (if $why == "" then null else $why end)}' \
		>>"$tmp/dumps.jsonl"
done
# family DUMP: vmcore or qemu-vmcore.
family() { case $1 in qemu-*) echo qemu-vmcore ;; *) echo vmcore ;; esac; }
# readable DUMP: DUMP was captured, and neither it nor its other format is bad.
readable() {
	jq -e --arg n "$1" --arg fam "$(family "$1")" -s '
		any(.[]; .name == $n) and
		all(.[] | select(.name == $fam or .name == ($fam + ".elf")); .whole)' "$tmp/dumps.jsonl" >/dev/null
}

# ---- The readers. step READER DUMP FILE RESULT CMD...: run one reader
# on FILE (of dump family DUMP) under READER_TIMEOUT, its output into
# RUN/reader-READER-DUMP.out. Its output has a line matching the ERE
# RESULT when it got as far as reading the dump. A non-zero exit with that
# line is an error of the reader, without it a failure; crash's errors
# that are its own known limitations (crash_limitation) are named as
# such. Its status goes into $tmp/readers.jsonl, its verdict into
# RUN/stackov-READER-DUMP.json and .txt.
: >"$tmp/readers.jsonl"
step() {
	r=$1 d=$2 file=$3 result=$4
	shift 4
	out=$run/reader-$r-$d.out
	rc=0
	"$@" >"$out" 2>&1 </dev/null || rc=$?
	status=ok why='' lims=''
	if [ "$rc" != 0 ]; then
		why="exit status $rc"
		[ "$rc" = 124 ] && why="timed out after ${READER_TIMEOUT}s"
		status=failed
		if [ "$rc" != 124 ] && grep -Eq -- "$result" "$out"; then
			status=error
			err=$(grep -a -m1 -E '^[a-z]+: |[Ee]rror' "$out" | grep -a -v -- "$result" | cut -c1-100 || true)
			why=${err:-$why}
		fi
	fi
	if [ "$status" = error ] && [ "$r" = crash ]; then
		json=$(grep -a -m1 '^{"stack":' "$out" || true)
		grep -a -E '^(sys|bt|task|mod): ' "$out" >"$tmp/crash.err" || true
		unnamed=''
		while IFS= read -r l; do
			lim=$(crash_limitation "$l" "$json" "$out" "$(sed -n 's/^crash //p' "$tmp/versions")")
			if [ -n "$lim" ]; then
				printf '%s\n' "$lim" >>"$tmp/lims"
			else
				unnamed=$l
			fi
		done <"$tmp/crash.err"
		if [ -s "$tmp/lims" ] && [ -z "$unnamed" ]; then
			status=limited
			why="crash's own limitations"
		fi
		lims=$(sort -u "$tmp/lims" 2>/dev/null || true)
		rm -f "$tmp/lims"
	fi
	# The verdict: stackov -j's line (an overflow's, or a crash's that
	# was none: {"kind": ...}), or its one-line refusal.
	v=$run/stackov-$r-$d
	line=$(grep -a -m1 -E '^\{"stack":|^\{"kind":|^stackov: ' "$out" || true)
	case $line in
	'{'*) printf '%s\n' "$line" | jq -c . >"$v.json" 2>/dev/null ||
		{ rm -f "$v.json"; status=error; why="its stackov -j line is not JSON"; } ;;
	stackov:*) jq -nc --arg l "$line" '{refusal: $l}' >"$v.json" ;;
	esac
	verdict_text "$out" >"$v.txt"
	[ -s "$v.txt" ] || rm -f "$v.txt"
	# Every stack's headroom (stackov -u -j): RUN/headroom-READER-DUMP.json.
	h=$run/headroom-$r-$d.json
	rm -f "$h"
	line=$(grep -a -m1 '^{"near":' "$out" || true)
	[ -z "$line" ] || printf '%s\n' "$line" | jq -c . >"$h" 2>/dev/null || rm -f "$h"
	jq -nc --arg r "$r" --arg d "$d" --arg f "$file" --arg s "$status" --arg why "$why" --arg rc "$rc" \
		--arg lims "$lims" --arg v "$([ -f "$v.json" ] && echo "${v##*/}.json")" '
		{reader: $r, dump: $d, file: $f, status: $s, exit: ($rc | tonumber),
		 why: (if $why == "" then null else $why end),
		 limitations: ($lims | split("\n") | map(select(. != ""))),
		 output: ("reader-" + $r + "-" + $d + ".out"),
		 verdict: (if $v == "" then null else $v end)}' >>"$tmp/readers.jsonl"
}

# crash on a dump: the post-mortem commands, then q (without it, crash
# ends at EOF with status 1 whatever happened). A command that failed
# says so on a line of its own ("bt: cannot transition ..."): status 3.
# Every answer crash gave the engine is recorded (RUN/replay-DUMP.gz,
# gzip'd once crash is done): stackov-replay runs the engine again on it,
# with no dump.
crash_on() {
	{
		cat "$LAB_ROOT/crash-scripts/postmortem.crash"
		echo q
	} >"$tmp/postmortem.crash"
	STACKOV_RECORD=$tmp/replay-$(family "$1") CRASH_ARGS="-s -i $tmp/postmortem.crash" CRASH_TIMEOUT=$READER_TIMEOUT \
		"$LAB_ROOT/vm/read/crash-open.sh" "$run/$1" >"$tmp/crash.o" 2>&1 || { cat "$tmp/crash.o"; return 3; }
	cat "$tmp/crash.o"
	! grep -Eq '^(sys|bt|task|mod): ' "$tmp/crash.o" || return 3
}

# gdb on the ELF dump, each module's symbols at the address it had: the
# guest's own word (the record's module_text) for lkdtm_ext, crash's mod
# list otherwise. gdb's own bt stops where the ELF vmcore maps no stack;
# the stackov helpers (gdb-scripts/stackov_gdb/) read the stack through
# the page tables.
gdb_on_elf() {
	elf=$1 d=$2
	# The helpers first: on a KASLR kernel they move vmlinux's symbols by
	# the dump's KERNELOFFSET, which would drop symbols added before.
	set -- -q -batch -nx "$run/vmlinux" "$elf" -x "$LAB_ROOT/gdb-scripts/stackov-gdb.py"
	boot=$(rec_get "$run" '.dumps[] | select(.name == $n) | .boot' --arg n "$d")
	for ko in "$run"/*.ko; do
		[ -f "$ko" ] || continue
		m=$(basename "$ko" .ko | tr - _)
		at=''
		[ "$m" = lkdtm_ext ] && at=$(rec_get "$run" '.boots[] | select(.name == $b) | .module_text' --arg b "$boot")
		[ -n "$at" ] || at=$(sed -n "s/^[0-9a-f]\{16\}  *$m  *\([0-9a-f]\{16\}\) .*/0x\1/p" \
			"$run/reader-crash-$d.out" 2>/dev/null | head -1)
		[ -n "$at" ] && set -- "$@" -ex "add-symbol-file $ko -s .text $at"
	done
	gdb=$("$LAB_ROOT/vm/builders/readers.sh" gdb) || return 1
	grc=0
	timeout -k 5 "$READER_TIMEOUT" "$gdb" "$@" \
		-ex stackov-select -ex 'echo gdb bt:\n' -ex 'bt 12' -ex stackov -ex 'stackov -j' -ex 'stackov -u -j' \
		>"$tmp/gdb.raw" 2>&1 || grc=$?
	sed -n '/^gdb bt:/,$p' "$tmp/gdb.raw" | grep -a . || {
		echo "gdb printed no post-mortem:"
		tail -5 "$tmp/gdb.raw"
		return 1
	}
	# gdb goes on without a core it cannot read, on vmlinux's own data.
	# (Its own word on the dump file, not a source file it cannot show.)
	if grep -a -E 'is not a core dump|not in executable format' "$tmp/gdb.raw" >"$tmp/gdb.err" ||
		grep -a -F "$elf: No such file or directory" "$tmp/gdb.raw" >"$tmp/gdb.err"; then
		sed 's/^/gdb could not read the dump: /' "$tmp/gdb.err"
		return 1
	fi
	# In batch, gdb's status is the last command's: a refusal of stackov
	# ("stackov: ... no stack overflow to explain") is an answer.
	[ "$grc" = 0 ] || { [ "$grc" != 124 ] && grep -q '^stackov: ' "$tmp/gdb.raw"; } || return "$grc"
}

# drgn: its own unwinder's trace (postmortem.py), then the stackov verdict
# (stackov_drgn.py), text and JSON.
drgn_on() {
	set -- "$1" "$run/vmlinux" "$run"/*.ko
	# READERS's drgn (with READERS=host, the one that reads this kernel).
	py=$("$LAB_ROOT/vm/builders/readers.sh" python3 "$run/vmlinux") || return $?
	timeout -k 5 "$READER_TIMEOUT" "$py" "$LAB_ROOT/drgn-scripts/postmortem.py" "$@" || return $?
	echo
	# A refusal ("stackov: ... no stack overflow to explain") is an answer.
	for o in '' -j; do
		# shellcheck disable=SC2086
		timeout -k 5 "$READER_TIMEOUT" "$py" "$LAB_ROOT/drgn-scripts/stackov_drgn.py" $o "$@" >"$tmp/drgn.v" 2>&1 ||
			grep -q '^stackov: ' "$tmp/drgn.v" || { cat "$tmp/drgn.v"; return 1; }
		cat "$tmp/drgn.v"
		grep -q '^stackov: ' "$tmp/drgn.v" && break
	done
	# Every stack's headroom, whatever the verdict.
	timeout -k 5 "$READER_TIMEOUT" "$py" "$LAB_ROOT/drgn-scripts/stackov_drgn.py" -u -j "$@"
}

# lane D: the three readers on dump family D, one after the other (gdb
# after crash: it may take a module's address from crash's mod list),
# with a temporary directory of its own. drgn reads kdump's compressed
# dump, and QEMU's ELF one (its libkdumpfile rejects QEMU's kdump header).
lane() {
	d=$1
	mkdir -p "$tmp/lane-$d"
	cp "$tmp/dumps.jsonl" "$tmp/versions" "$tmp/lane-$d/"
	tmp=$tmp/lane-$d
	: >"$tmp/readers.jsonl"
	if readable "$d"; then
		step crash "$d" "$d" '^PID: .*COMMAND: ' crash_on "$d"
		[ ! -s "$tmp/replay-$d" ] || gzip -9n <"$tmp/replay-$d" >"$run/replay-$d.gz"
	fi
	if readable "$d.elf"; then
		step gdb "$d" "$d.elf" '^#0 ' gdb_on_elf "$run/$d.elf" "$d"
	elif readable "$d" && [ "$(rec_get "$run" '.dumps[] | select(.name == $n) | .format' --arg n "$d")" = kdump ] &&
		[ -n "$(rec_get "$run" .postmortem.vmcore.path)" ]; then
		# A user's kdump-compressed dump: gdb reads ELF cores only, and
		# makedumpfile turns no kdump file into one (-E is for /proc/vmcore).
		why="gdb reads ELF dumps only, and this one is kdump-compressed"
		echo "gdb skipped: $why" >"$run/reader-gdb-$d.out"
		jq -nc --arg d "$d" --arg why "$why" '{reader: "gdb", dump: $d, file: $d, status: "skipped", exit: 0,
			why: $why, limitations: [],
			output: ("reader-gdb-" + $d + ".out"), verdict: null}' >>"$tmp/readers.jsonl"
	fi
	f=$d
	[ "$d" = vmcore ] || f=$d.elf
	if readable "$f"; then
		step drgn "$d" "$f" '^crashed thread:' drgn_on "$run/$f"
	fi
}
# The two dumps' lanes side by side (READER_LANES=1: one after the other).
if [ "${READER_LANES:-2}" = 1 ]; then
	(lane vmcore)
	(lane qemu-vmcore)
else
	(lane vmcore) &
	lane_pid=$!
	(lane qemu-vmcore)
	wait "$lane_pid" || true
fi
# Their statuses, in the report's order: crash, gdb, drgn; kdump's dump first.
cat "$tmp/lane-vmcore/readers.jsonl" "$tmp/lane-qemu-vmcore/readers.jsonl" 2>/dev/null |
	jq -s 'sort_by(({crash: 0, gdb: 1, drgn: 2}[.reader]), (if .dump == "vmcore" then 0 else 1 end))' \
		>"$tmp/readers.json"

# ---- Do the verdicts agree? Per dump read: how many of the three
# readers gave one, and whether those are the same (agree.sh).
dumps=''
for d in vmcore qemu-vmcore; do
	{ readable "$d" || readable "$d.elf"; } && dumps="$dumps $d"
done
# shellcheck disable=SC2086 # one word a dump
"$LAB_ROOT/vm/read/agree.sh" "$run" $dumps >"$tmp/agreement.json"
jq -s '.' "$tmp/dumps.jsonl" >"$tmp/dumps.json"
# drgn's own word on its version, where it ran (READERS=host reads 6.4 and
# later with trixie's drgn: vm/builders/drgn.sh).
dv=$(sed -n 's/^drgn version: *//p' "$run"/reader-drgn-*.out 2>/dev/null | head -1)
[ -z "$dv" ] || { grep -v '^drgn ' "$tmp/versions" || true; echo "drgn $dv"; } >"$tmp/versions.d"
[ -z "$dv" ] || mv "$tmp/versions.d" "$tmp/versions"
jq -n --slurpfile r "$tmp/readers.json" --slurpfile a "$tmp/agreement.json" --slurpfile d "$tmp/dumps.json" \
	--arg suite "$READERS" --rawfile v "$tmp/versions" '
	{suite: $suite,
	 versions: ($v | split("\n") | map(select(. != "") | split(" ") | {(.[0]): .[1]}) | add // {}),
	 dumps: $d[0], readers: $r[0], agreement: $a[0]}' >"$run/readers.json"

# ---- stackov's frames beside crash's bt and drgn's stack_trace, on each
# dump stackov gave a verdict on.
: >"$tmp/peers.jsonl"
for d in vmcore qemu-vmcore; do
	[ -f "$run/reader-crash-$d.out" ] || continue
	"$LAB_ROOT/vm/read/peers.sh" "$run" "$d" >>"$tmp/peers.jsonl" 2>"$tmp/peers.err" ||
		jq -nc --arg d "$d" --arg e "$(head -3 "$tmp/peers.err")" '{dump: $d, error: $e}' >>"$tmp/peers.jsonl"
done
jq -s '.' "$tmp/peers.jsonl" >"$run/peers.json"

# ---- The stack drawn (stack.svg): the engine on crash's recording of
# kdump's dump, else of QEMU's; no reader runs again. The overflowed
# stack, or, with no overflow, the panic task's with the crash's marks
# (the canary's slot, the exception frame, the stack's end word).
replay=$(dirname "$STACKOV_LIB")/stackov-replay
for d in vmcore qemu-vmcore; do
	[ -f "$run/replay-$d.gz" ] || continue
	if "$replay" "$run/replay-$d.gz" stackov -m -s >"$tmp/stack.svg" 2>"$tmp/stack.err"; then
		mv "$tmp/stack.svg" "$run/stack.svg"
		rm -f "$run/stack.why"
		break
	fi
	# No stack to draw (a double fault below no stack the engine knows):
	# the engine's one line says why, on the first dump tried (kdump's).
	[ -s "$run/stack.why" ] ||
		{ grep -a -m1 '^stackov: ' "$tmp/stack.svg" || head -1 "$tmp/stack.err"; } >"$run/stack.why" || true
done

# ---- The log alone, as a user with no dump has it: stackov-log on the
# console, with vmlinux; the dump's own log when the console has no
# report, or stops inside it (with kdump, the capture kernel starts
# before the console has it; on 6.12, QEMU's pvpanic pause may come
# before the console has it all).
explain=$("$LAB_ROOT/vm/builders/host-tools.sh" stackov-log 2>/dev/null || true)
cut='' chosen='' erc=0
for f in console.log vmcore.dmesg qemu-dump/console.log qemu-dump/qemu-vmcore.dmesg; do
	{ [ -n "$explain" ] && [ -f "$run/$f" ]; } || continue
	erc=0
	timeout -k 5 "$READER_TIMEOUT" "$explain" -v "$run/vmlinux" -m "$run" "$run/$f" >"$tmp/explain.out" 2>&1 || erc=$?
	[ "$erc" = 1 ] && continue
	# A console cut inside the report, and its boot's dump has the log.
	case $f in
	console.log) dl=vmcore.dmesg ;;
	qemu-dump/console.log) dl=qemu-dump/qemu-vmcore.dmesg ;;
	*) dl= ;;
	esac
	if [ -n "$dl" ] && [ -f "$run/$dl" ] &&
		grep -q '; the log ends before the trace does$' "$tmp/explain.out"; then
		[ -n "$cut" ] || { cut=$f; mv "$tmp/explain.out" "$tmp/explain.cut"; }
		continue
	fi
	chosen=$f
	mv "$tmp/explain.out" "$run/explain.txt"
	break
done
if [ -z "$chosen" ] && [ -n "$cut" ]; then
	chosen=$cut erc=0
	mv "$tmp/explain.cut" "$run/explain.txt"
fi
ejson=null
if [ -n "$chosen" ]; then
	ejson=$("$explain" -j -v "$run/vmlinux" -m "$run" "$run/$chosen" 2>/dev/null | head -1 | jq -c . 2>/dev/null) ||
		ejson=null
fi
jq -n --arg log "$chosen" --arg cut "$cut" --arg rc "$erc" --argjson v "${ejson:-null}" --arg bin "$explain" '
	{log: (if $log == "" then null else $log end),
	 cut: (if $cut == "" then null else $cut end),
	 status: ($rc | tonumber), built: ($bin != ""),
	 text: (if $log == "" then null else "explain.txt" end), verdict: $v}' >"$run/explain.json"

rec_set "$run" '.timings.report_s = ($s | tonumber)' --arg s "$(echo "$(date +%s.%N) - $t0" | bc)"
# ---- report.txt and the summary, from the files above.
exec "$LAB_ROOT/vm/read/render.sh" "$run"
