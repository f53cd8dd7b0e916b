#!/bin/sh
# vm/read/report.sh RUN_DIR - the post-mortem of one run, from three readers:
# crash (batch, crash-scripts/postmortem.crash with the stackov extension),
# gdb (on the ELF vmcore, gdb-scripts/stackov_gdb/) and drgn
# (drgn-scripts/postmortem.py and stackov_drgn.py), on kdump's dump and on
# QEMU's; the verdicts of the three stackovs are set side by side, and
# stackov's frames beside crash's bt and drgn's stack_trace (peers.sh). Writes
# RUN_DIR/report.txt and prints a short summary. A reader that fails or
# times out is named in both, and the others still run; the exit status
# is 1 when any produced nothing. One that ran but reported an error is
# named with the error, in both too; crash's errors that come from crash's
# own code (crash_limitation in vm/lib.sh) are named as its limitations. A
# refusal the readers share ("no stack overflow to explain") is the
# verdict. A dump that is not as it was at capture (size, CRC, structure)
# is not read, and the first line says why; a run with no dump gets one
# line and status 1.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

run=${1:?usage: report.sh RUN_DIR}
{ [ -f "$run/console.log" ] && [ -f "$run/run.env" ]; } || die "$run is not a run directory"
rep=$run/report.txt
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stackov-report.XXXXXX")
remove_on_exit "$tmp"
READER_TIMEOUT=${READER_TIMEOUT:-300}
failed='' errors='' limits=''
# crash may still be building beside the boots (vm/builders/prepare.sh): wait for it
# here, where the wait says so on the terminal, not inside crash's reader,
# whose stderr is its evidence. If it cannot be had, crash's reader says so.
"$LAB_ROOT/vm/builders/crash.sh" >/dev/null || true

klog() {
	kernel_log "$1" |
		grep -E 'BUG: .*guard page|stack guard page: |Kernel panic|^CPU: .* PID: |^RIP: |lkdtm_ext: Performing' | head -8
}
section() { printf '\n===== %s =====\n' "$*"; }

# Fold a run of identical frames in crash's bt into one line.
fold_bt() {
	awk '/^ *#[0-9]+ / { k = $0; sub(/^ *#[0-9]+ +/, "", k); sub(/\[[0-9a-f]+\] /, "", k);
		if (k == last) { n++; next } if (n) print "      ... the frame above " n " more times"; n = 0; last = k }
		{ print } END { if (n) print "      ... the frame above " n " more times" }'
}

# step NAME RESULT CMD...: run one reader (each runs under READER_TIMEOUT),
# its output into the report. Its output has a line matching the ERE
# RESULT when it got as far as reading the dump. A non-zero exit with that
# line is an error of the reader, without it a failure; both are said at
# the end of the section and remembered.
step() {
	name=$1 result=$2
	shift 2
	section "$name"
	rc=0
	"$@" >"$tmp/out" 2>&1 </dev/null || rc=$?
	fold_bt <"$tmp/out"
	cp "$tmp/out" "$tmp/$(echo "$name" | tr ' ' _).out"
	[ "$rc" = 0 ] && return 0
	why="exit status $rc"
	[ "$rc" = 124 ] && why="timed out after ${READER_TIMEOUT}s"
	# crash's errors that are its own known limitations (crash_limitation)
	# are named as such, not counted as errors of the lab's readers.
	if [ "$rc" != 124 ] && [ "${name%% *}" = crash ] && grep -Eq -- "$result" "$tmp/out"; then
		json=$(grep -m1 '^{"stack":' "$tmp/out" || true)
		grep -E '^(sys|bt|task|mod): ' "$tmp/out" >"$tmp/crash.err" || true
		named='' unnamed=''
		while IFS= read -r l; do
			lim=$(crash_limitation "$l" "$json" "$tmp/out")
			if [ -n "$lim" ]; then
				case $named in *"$lim"*) ;; *) named="$named${named:+; }$name: $lim" ;; esac
			else
				unnamed=$l
			fi
		done <"$tmp/crash.err"
		if [ -n "$named" ] && [ -z "$unnamed" ]; then
			echo "!!! $name met crash's own limitations (see the end of the report)"
			limits="$limits${limits:+; }$named"
			return 0
		fi
	fi
	if [ "$rc" != 124 ] && grep -Eq -- "$result" "$tmp/out"; then
		err=$(grep -m1 -E '^[a-z]+: |[Ee]rror' "$tmp/out" | grep -v "$result" | cut -c1-100)
		echo "!!! $name reported an error ($why${err:+: $err})"
		errors="$errors${errors:+; }$name: ${err:-$why}"
	else
		echo "!!! $name FAILED ($why)"
		failed="$failed${failed:+; }$name ($why)"
	fi
}

# crash on a dump: the post-mortem commands, then q (without it, crash
# ends at EOF with status 1 whatever happened). A command that failed
# says so on a line of its own ("bt: cannot transition ..."): status 3.
crash_on() {
	{
		cat "$LAB_ROOT/crash-scripts/postmortem.crash"
		echo q
	} >"$tmp/postmortem.crash"
	CRASH_ARGS="-s -i $tmp/postmortem.crash" CRASH_TIMEOUT=$READER_TIMEOUT \
		"$LAB_ROOT/vm/read/crash-open.sh" "$1" || return $?
	! grep -Eq '^(sys|bt|task|mod): ' "$tmp/out"
}

# gdb on the ELF dump, each module's symbols at the address it had: the
# guest's own word (run.env) for lkdtm_ext, crash's mod list otherwise.
# gdb's own bt stops where the ELF vmcore maps no stack; the stackov
# helpers (gdb-scripts/stackov_gdb/) read the stack through the page tables.
gdb_on_elf() {
	elf=$1 dir=$(dirname "$(readlink -f "$1")") d=$(basename "$1" .elf)
	# The helpers first: on a KASLR kernel they move vmlinux's symbols by
	# the dump's KERNELOFFSET, which would drop symbols added before.
	set -- -q -batch -nx "$run/vmlinux" "$elf" -x "$LAB_ROOT/gdb-scripts/stackov-gdb.py"
	for ko in "$run"/*.ko; do
		[ -f "$ko" ] || continue
		m=$(basename "$ko" .ko | tr - _)
		at=''
		[ "$m" = lkdtm_ext ] && at=$(run_env "$dir" module_text)
		[ -n "$at" ] || at=$(sed -n "s/^[0-9a-f]\{16\}  *$m  *\([0-9a-f]\{16\}\) .*/0x\1/p" \
			"$tmp/crash_on_$d.out" 2>/dev/null | head -1)
		[ -n "$at" ] && set -- "$@" -ex "add-symbol-file $ko -s .text $at"
	done
	grc=0
	timeout -k 5 "$READER_TIMEOUT" gdb "$@" \
		-ex stackov-select -ex 'echo gdb bt:\n' -ex 'bt 12' -ex stackov -ex 'stackov -j' >"$tmp/gdb.raw" 2>&1 || grc=$?
	sed -n '/^gdb bt:/,$p' "$tmp/gdb.raw" | grep . || {
		echo "gdb printed no post-mortem:"
		tail -5 "$tmp/gdb.raw"
		return 1
	}
	# gdb goes on without a core it cannot read, on vmlinux's own data.
	# (Its own word on the dump file, not a source file it cannot show.)
	if grep -E 'is not a core dump|not in executable format' "$tmp/gdb.raw" >"$tmp/gdb.err" ||
		grep -F "$elf: No such file or directory" "$tmp/gdb.raw" >"$tmp/gdb.err"; then
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
	# The drgn that reads this kernel (Debian 12's, or trixie's from 6.4 on).
	py=$("$LAB_ROOT/vm/builders/drgn.sh" "$run/vmlinux") || return $?
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
	return 0
}

# The readers' verdicts (stackov -j in crash, gdb and drgn), each the same
# line when they agree: on kdump's dump (vmcore, vmcore.elf), and on QEMU's
# (qemu-vmcore, qemu-vmcore.elf), a boot of its own.
agreement() {
	for dump in vmcore qemu-vmcore; do
		: >"$tmp/verdicts"
		for f in "$tmp"/*_on_"$dump".out "$tmp"/*_on_"$dump".elf.out; do
			[ -f "$f" ] || continue
			v=$(grep -m1 -E '^\{"stack":|^stackov: ' "$f" || echo '(no verdict)')
			printf '%s: %s\n' "$(basename "$f" .out | tr _ ' ')" "$v" >>"$tmp/verdicts"
		done
		[ -s "$tmp/verdicts" ] || continue
		n=$(cut -d: -f2- "$tmp/verdicts" | sort -u | wc -l)
		if [ "$n" = 1 ]; then
			echo "on $dump: the $(wc -l <"$tmp/verdicts") readers agree, word for word:"
			head -1 "$tmp/verdicts" | cut -d: -f2- | cut -c2-
		else
			echo "on $dump: the readers DISAGREE:"
			cat "$tmp/verdicts"
		fi
	done
}

{
	echo "stackov-lab post-mortem of $(basename "$run")"
	sed -n 's/^\(variant\|accel\|cmdline\)=/\1: /p' "$run/run.env"
} >"$tmp/head"

# No dump at all: one line, and nothing for the readers to do.
if [ ! -e "$run/vmcore" ] && [ ! -e "$run/qemu-vmcore" ] && [ ! -e "$run/qemu-vmcore.elf" ]; then
	why=$(run_env "$run" error)
	[ -n "$why" ] || why=$(run_env "$run" kdump_error)
	line="no dump in $(basename "$run"): the guest ended by $(cat "$run/result" 2>/dev/null || echo '(no result)')${why:+ ($why)}; nothing for the readers to read"
	{ cat "$tmp/head"; echo; echo "$line"; } >"$rep"
	echo "$line"
	exit 1
fi

# Each dump is read only if it is whole: the size written at capture
# (collect.sh's DUMP.size) and the structure vmcore-check reads. A dump
# that is not, and its other format (vmcore.elf beside vmcore), are left
# out, and the report's first line says why.
check=$("$LAB_ROOT/vm/builders/host-tools.sh" vmcore-check)
: >"$tmp/unsound"
for d in vmcore vmcore.elf qemu-vmcore qemu-vmcore.elf; do
	[ -e "$run/$d" ] || continue
	f=$(readlink -f "$run/$d")
	why=''
	size=$(stat -c %s "$f" 2>/dev/null || echo 0)
	if [ -f "$f.size" ] && [ "$size" != "$(cat "$f.size")" ]; then
		why="$d is $size bytes, $(cat "$f.size") were written at capture: cut short or changed since"
		[ "$size" -lt "$(cat "$f.size")" ] && why="$d is truncated: $size bytes of the $(cat "$f.size") written at capture"
	elif ! w=$("$check" "$f" 2>&1); then
		why="$d is damaged ($size bytes, as at capture): ${w#"$f": }"
	elif [ -f "$f.cksum" ] && [ "$(cksum <"$f" | cut -d' ' -f1)" != "$(cat "$f.cksum")" ]; then
		why="$d is damaged: its CRC (cksum) is not the one taken at capture, at the same size ($size bytes)"
	fi
	[ -n "$why" ] && echo "$why" >>"$tmp/unsound"
done
# skip DUMP: whether DUMP's family (vmcore, or qemu-vmcore) is left out.
skip() {
	case $1 in qemu-*) fam=qemu-vmcore ;; *) fam=vmcore ;; esac
	grep -q "^${fam}[ .]" "$tmp/unsound"
}
if [ -s "$tmp/unsound" ]; then
	while IFS= read -r l; do
		case $l in qemu-*) fam=qemu-vmcore ;; *) fam=vmcore ;; esac
		echo "BAD DUMP: $l; neither $fam nor $fam.elf was read"
	done <"$tmp/unsound" >"$tmp/unsound.lines"
	cat "$tmp/unsound.lines" >>"$tmp/head"
fi
{
	for f in vmcore.dmesg qemu-dump/qemu-vmcore.dmesg; do
		[ -f "$run/$f" ] || continue
		section "the kernel's log, read from ${f%.dmesg}"
		klog "$run/$f"
	done
	section "console.log (with kdump the oops never reaches the console)"
	klog "$run/console.log"

	for d in vmcore qemu-vmcore; do
		{ [ -f "$run/$d" ] && ! skip "$d"; } || continue
		step "crash on $d" '^PID: .*COMMAND: ' crash_on "$run/$d"
	done
	for d in vmcore.elf qemu-vmcore.elf; do
		{ [ -f "$run/$d" ] && ! skip "$d"; } || continue
		step "gdb on $d" '^#0 ' gdb_on_elf "$run/$d"
	done
	if [ -f "$run/vmcore" ] && ! skip vmcore; then
		step "drgn on vmcore" '^crashed thread:' drgn_on "$run/vmcore"
	fi
	if [ -f "$run/qemu-vmcore.elf" ] && ! skip qemu-vmcore.elf; then
		step "drgn on qemu-vmcore.elf" '^crashed thread:' drgn_on "$run/qemu-vmcore.elf"
	fi
	section "stackov's verdict, from each reader (stackov -j)"
	agreement | tee "$tmp/agree"
	if [ -n "$failed$errors" ]; then
		section "readers that failed or reported errors"
		[ -n "$failed" ] && echo "failed: $failed"
		[ -n "$errors" ] && echo "errors: $errors"
	fi
	if [ -n "$limits" ]; then
		section "crash's own limitations met (crash 8.0.6's code, not the lab's readers)"
		echo "$limits" | tr ';' '\n' | sed 's/^ *//'
	fi
	echo "$failed" >"$tmp/failed"
	echo "$errors" >"$tmp/errors"
	echo "$limits" >"$tmp/limits"
} >"$tmp/body"
# stackov's frames beside crash's bt and drgn's stack_trace, on each dump.
{
	section "stackov's frames beside its peers' unwinders (crash's bt, drgn's stack_trace)"
	for d in vmcore qemu-vmcore; do
		[ -f "$run/$d" ] && ! skip "$d" && "$LAB_ROOT/vm/read/peers.sh" "$tmp/body" "$d"
	done
} >"$tmp/peers" 2>&1 || true
cat "$tmp/peers" >>"$tmp/body"
# The log alone, as a user with no dump has it: stackov-log on the console,
# with vmlinux; the dump's own log when the console has no report, or stops
# inside it (with kdump, the capture kernel starts before the console has
# it; on 6.12, QEMU's pvpanic pause may come before the console has it all).
explain=$("$LAB_ROOT/vm/builders/host-tools.sh" stackov-log 2>/dev/null || true)
: >"$tmp/explain"
cut='' cutfor=''
show_explain() {
	{
		section "the log alone: stackov-log on $1 (make explain LOG=$run/$1 VMLINUX=$run/vmlinux)"
		[ "$1" != "$cutfor" ] || echo "($cut stops inside the report: this is the same boot's log, read from its dump)"
		cat "$2"
		[ "$3" = 0 ] || echo "!!! stackov-log FAILED (status $3)"
	} >>"$tmp/body"
	sed -n '/^stack \(overflow\|corruption\): /{s/^/log alone ('"${1##*/}"'): /p;q}' "$2" >"$tmp/explain"
	sed -n 's/^  \(cycle\|verdict\): *\(.*\)/log alone: \1 \2/p' "$2" | head -2 >>"$tmp/explain"
}
shown=
for f in console.log vmcore.dmesg qemu-dump/console.log qemu-dump/qemu-vmcore.dmesg; do
	{ [ -n "$explain" ] && [ -f "$run/$f" ]; } || continue
	erc=0
	timeout -k 5 "$READER_TIMEOUT" "$explain" -v "$run/vmlinux" -m "$run" "$run/$f" >"$tmp/explain.out" 2>&1 || erc=$?
	[ "$erc" = 1 ] && continue
	# A console cut inside the report, and its boot's dump has the log.
	case $f in
	console.log) d=vmcore.dmesg ;;
	qemu-dump/console.log) d=qemu-dump/qemu-vmcore.dmesg ;;
	*) d= ;;
	esac
	if [ -n "$d" ] && [ -f "$run/$d" ] &&
		grep -q '; the log ends before the trace does$' "$tmp/explain.out"; then
		cut=$f cutfor=$d
		mv "$tmp/explain.out" "$tmp/explain.cut"
		continue
	fi
	show_explain "$f" "$tmp/explain.out" "$erc"
	shown=1
	break
done
if [ -z "$shown" ] && [ -n "$cut" ]; then
	show_explain "$cut" "$tmp/explain.cut" 0
fi
[ -s "$tmp/explain" ] || echo "log alone: no stack overflow in the run's console.log or the dump's log" >"$tmp/explain"
# The report leads with the stackov extension's verdict (crash on the kdump
# vmcore, else on QEMU's dump): what happened, before the evidence.
for d in vmcore qemu-vmcore; do
	f=$tmp/crash_on_$d.out
	[ -f "$f" ] || continue
	sed -n '/^stack overflow: /,/^  frames: /p' "$f" | sed '$d' >"$tmp/verdict"
	[ -s "$tmp/verdict" ] || grep -m1 '^stackov: ' "$f" >"$tmp/verdict" || true
	[ -s "$tmp/verdict" ] && break
done
# A refusal ("stackov: ... no stack overflow to explain") the readers
# share is the verdict: the dump holds no overflow, and that is an answer.
refusal=0
grep -q '^stackov: ' "$tmp/verdict" 2>/dev/null && refusal=1
{
	cat "$tmp/head"
	if [ "$refusal" = 1 ]; then
		section "verdict: no stack overflow (crash's stackov extension)"
		cat "$tmp/verdict"
	elif [ -s "$tmp/verdict" ]; then
		section "verdict (crash's stackov extension)"
		cat "$tmp/verdict"
	fi
	cat "$tmp/body"
} >"$rep"
failed=$(cat "$tmp/failed")
errors=$(cat "$tmp/errors")
limits=$(cat "$tmp/limits")

echo
echo "== post-mortem of $(basename "$run") =="
[ -s "$tmp/unsound" ] && cat "$tmp/unsound.lines"
for f in "$run/vmcore.dmesg" "$run/console.log"; do
	[ -f "$f" ] || continue
	line=$(kernel_log "$f" | grep -m1 -E 'BUG: .*guard page|Kernel panic|stack-protector|kernel BUG' || true)
	[ -n "$line" ] && { echo "kernel log (${f##*/}): $line"; break; }
done
if [ "$refusal" = 1 ]; then
	echo "verdict: no stack overflow in this dump; $(cat "$tmp/verdict")"
elif [ -s "$tmp/verdict" ]; then
	cat "$tmp/verdict"
fi
grep '^on .*: the ' "$tmp/agree" | sed 's/^/stackov in crash, gdb and drgn, /; s/:$//' || true
grep -E '^on .*, (crash|drgn).* (agrees|DIFFERS|STOPPED)' "$tmp/peers" | sed 's/^/peers: /' || true
cat "$tmp/explain"
grep -m1 'PID:.*COMMAND:' "$rep" | sed 's/^/crash: /' || true
grep -m1 '^crashed thread:' "$rep" | sed 's/^/drgn: /' || true
bt=$(sed -n '/^===== drgn on vmcore/,/^=====/p' "$rep" | sed -n '/^stack trace/,/^=====/p' | sed '1d; /^=====/d; /^!!!/d' | head -12)
if [ -n "$bt" ]; then
	echo "backtrace recovered by drgn from the kdump vmcore:"
	echo "$bt"
fi
echo "full report (crash on both dumps, gdb, drgn): $rep"
[ -n "$limits" ] && echo "$limits" | tr ';' '\n' | sed "s/^ */crash's own limitation (not the lab's readers), /"
[ -n "$errors" ] && echo "reader errors: $errors"
if [ -n "$failed" ]; then
	echo "FAILED readers: $failed"
	exit 1
fi
if [ -s "$tmp/unsound" ] && ! grep -q '^on .*: the ' "$tmp/agree"; then
	echo "no dump of this run is whole: nothing was read"
	exit 1
fi
