#!/bin/sh
# vm/read/render.sh RUN_DIR - report.txt and the post-mortem's summary,
# rendered from what report.sh left in the run: the record (run.json),
# readers.json, the readers' outputs and verdicts (reader-*.out,
# stackov-*.json and .txt), peers.json and explain.json. It decides
# nothing: every fact here was decided where those files were written.
# Exit status: 1 when a reader failed, or no dump of the run was read.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

run=${1:?usage: render.sh RUN_DIR}
[ -f "$run/readers.json" ] || die "$run has no readers.json (vm/read/report.sh writes it)"
rep=$run/report.txt
R=$run/readers.json
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stackov-render.XXXXXX")
remove_on_exit "$tmp"

section() { printf '\n===== %s =====\n' "$*"; }
klog() {
	kernel_log "$1" |
		grep -a -E 'BUG: .*guard page|stack guard page: |Kernel panic|^CPU: .* PID: |^RIP: |lkdtm_ext: Performing' | head -8
}
# Fold a run of identical frames in crash's bt into one line.
fold_bt() {
	awk '/^ *#[0-9]+ / { k = $0; sub(/^ *#[0-9]+ +/, "", k); sub(/\[[0-9a-f]+\] /, "", k);
		if (k == last) { n++; next } if (n) print "      ... the frame above " n " more times"; n = 0; last = k }
		{ print } END { if (n) print "      ... the frame above " n " more times" }'
}
# label READER FILE: how the report names a reader's run ("gdb on vmcore.elf").
label() { echo "$1 on $2"; }

# BAD DUMP lines: a dump not read, and why.
jq -r '.dumps[] | select(.whole | not) | .name + "\t" + .why' "$R" | while IFS='	' read -r n why; do
	case $n in qemu-*) fam=qemu-vmcore ;; *) fam=vmcore ;; esac
	echo "BAD DUMP: $why; neither $fam nor $fam.elf was read"
done >"$tmp/bad"

# The verdict: crash's stackov on kdump's dump, else on QEMU's.
: >"$tmp/verdict"
refusal=0 overflow=0
for d in vmcore qemu-vmcore; do
	v=$run/stackov-crash-$d
	if [ -f "$v.txt" ]; then
		sed '/^  frames: /,$d' "$v.txt" >"$tmp/verdict"
		jq -e .stack "$v.json" >/dev/null 2>&1 && overflow=1
		break
	elif [ -f "$v.json" ] && jq -e .refusal "$v.json" >/dev/null; then
		jq -r .refusal "$v.json" >"$tmp/verdict"
		refusal=1
		break
	fi
done

# The agreement of the three stackovs, per dump.
agreement() {
	jq -r '.agreement[] | [.dump, (.verdicts | tostring), (.same | tostring), (.readers | join(" "))] | @tsv' "$R" |
		while IFS='	' read -r d n same who; do
			first=${who%% *}
			if [ "$n" = 3 ] && [ "$same" = true ]; then
				echo "on $d: the 3 readers agree, word for word:"
				cat "$run/stackov-$first-$d.json"
			elif [ "$n" = 0 ]; then
				echo "on $d: none of the 3 readers gave a verdict"
			elif [ "$same" = true ]; then
				echo "on $d: only $n of the 3 readers gave a verdict ($who); those agree, word for word:"
				cat "$run/stackov-$first-$d.json"
			else
				echo "on $d: the readers DISAGREE:"
				for r in $who; do
					printf '%s on %s: %s\n' "$r" "$d" "$(cat "$run/stackov-$r-$d.json")"
				done
			fi
		done
}
agreement >"$tmp/agree"

# Readers by status: "crash on vmcore (why)".
by_status() {
	jq -r --arg s "$1" '.readers[] | select(.status == $s) |
		.reader + " on " + .file + (if .why then " (" + .why + ")" else "" end)' "$R" | paste -sd';' | sed 's/;/; /g'
}
failed=$(by_status failed)
errors=$(by_status error)
limits=$(jq -r '.readers[] | select(.status == "limited") | .limitations[] as $l | .reader + " on " + .file + ": " + $l' "$R")

# The peers' lines, and the log alone's.
jq -r '.[] | (.line // empty), ((.peers // [])[] | .line), (.limitations // [])[]' "$run/peers.json" \
	2>/dev/null >"$tmp/peers" || true
jq -r '.[] | select(.error) | "on " + .dump + ": peers could not be compared: " + .error' "$run/peers.json" \
	>>"$tmp/peers" 2>/dev/null || true
E=$run/explain.json
elog=$(jq -r '.log // empty' "$E" 2>/dev/null || true)
ecut=$(jq -r '.cut // empty' "$E" 2>/dev/null || true)
: >"$tmp/explain"
if [ -n "$elog" ] && [ -f "$run/explain.txt" ]; then
	sed -n '/^stack \(overflow\|corruption\|use after free\): /{s/^/log alone ('"${elog##*/}"'): /p;q}' "$run/explain.txt" >"$tmp/explain"
	sed -n 's/^  \(cycle\|verdict\): *\(.*\)/log alone: \1 \2/p' "$run/explain.txt" | head -2 >>"$tmp/explain"
fi
[ -s "$tmp/explain" ] || echo "log alone: no stack overflow in the run's console.log or the dump's log" >"$tmp/explain"

# Which readers read the dump: their suite and versions.
readers=$(jq -r '(if .suite == "host" then "this machine'"'"'s" else "Debian " + (.suite // "?") + "'"'"'s" end) + ": " +
	([(.versions // {}) | to_entries[] | .key + " " + .value] | join(", "))' "$R")
crashv=$(jq -r '.versions.crash // "?"' "$R")

# ---- report.txt
{
	echo "stackov-lab post-mortem of $(basename "$run")"
	jq -r 'if .postmortem then .postmortem as $p |
		"dump: " + $p.vmcore.path + " (" + $p.vmcore.format + ", " + $p.vmcore.from + ")",
		"kernel: " + .kernel.release + " " + .kernel.version + " (build id " + .kernel.build_id + ")",
		"vmlinux: " + $p.vmlinux.path + " (" + $p.vmlinux.from + ")",
		"modules: " + (if $p.modules.dir then $p.modules.dir + " (" + $p.modules.from + "): " +
			([$p.modules.linked[].name] | join(" ")) else "none given" end),
		"log: " + (if $p.log.path then $p.log.path + " (" + $p.log.from + ")" else $p.log.from end)
	else "variant: " + .kernel.variant, "accel: " + .accel, "cmdline: " + (.boots[0].cmdline // "") end' "$run/run.json"
	cat "$tmp/bad"
	echo "readers: $readers"
	if [ "$refusal" = 1 ] || { [ -s "$tmp/verdict" ] && [ "$overflow" = 0 ]; }; then
		section "verdict: no stack overflow (crash's stackov extension)"
		cat "$tmp/verdict"
	elif [ -s "$tmp/verdict" ]; then
		section "verdict (crash's stackov extension)"
		cat "$tmp/verdict"
	fi
	if [ -f "$run/stack.svg" ]; then
		section "the stack drawn"
		echo "stack.svg (stackov -m -s; stackov -m in crash below gives it as text)"
	elif [ -s "$run/stack.why" ]; then
		section "the stack drawn"
		echo "no stack.svg: $(cat "$run/stack.why")"
	fi
	for dm in $(rec_get "$run" '.dumps[] | select(.dmesg) | .dmesg'); do
		[ -f "$run/$dm" ] || continue
		section "the kernel's log, read from ${dm%.dmesg}"
		klog "$run/$dm"
	done
	if [ -f "$run/console.log" ]; then
		section "console.log (with kdump the oops never reaches the console)"
		klog "$run/console.log"
	fi
	jq -r '.readers[] | [.reader, .file, .status, .output, (.why // "")] | @tsv' "$R" |
		while IFS='	' read -r r f s out why; do
			section "$(label "$r" "$f")"
			fold_bt <"$run/$out"
			case $s in
			limited) echo "!!! $(label "$r" "$f") met crash's own limitations (see the end of the report)" ;;
			error) echo "!!! $(label "$r" "$f") reported an error ($why)" ;;
			failed) echo "!!! $(label "$r" "$f") FAILED ($why)" ;;
			skipped) echo "--- $(label "$r" "$f") skipped ($why)" ;;
			esac
		done
	section "stackov's verdict, from each reader (stackov -j)"
	cat "$tmp/agree"
	if [ -n "$failed$errors" ]; then
		section "readers that failed or reported errors"
		[ -n "$failed" ] && echo "failed: $failed"
		[ -n "$errors" ] && echo "errors: $errors"
	fi
	if [ -n "$limits" ]; then
		section "crash's own limitations met (crash $crashv's code, not the lab's readers)"
		echo "$limits"
	fi
	section "stackov's frames beside its peers' unwinders (crash's bt, drgn's stack_trace and StackKind)"
	cat "$tmp/peers"
	if [ -n "$elog" ]; then
		section "the log alone: stackov-log on $elog (make explain LOG=$run/$elog VMLINUX=$run/vmlinux)"
		[ -z "$ecut" ] || [ "$ecut" = "$elog" ] || echo "($ecut stops inside the report: this is the same boot's log, read from its dump)"
		cat "$run/explain.txt"
		st=$(jq -r .status "$E")
		[ "$st" = 0 ] || echo "!!! stackov-log FAILED (status $st)"
	fi
} >"$rep"

# ---- The summary.
echo
echo "== post-mortem of $(basename "$run") =="
# A bad dump first: it is why what follows says less.
cat "$tmp/bad"
echo "readers: $readers"
for f in $(rec_get "$run" '.dumps[] | select(.name == "vmcore") | .dmesg') console.log; do
	[ -f "$run/$f" ] || continue
	line=$(kernel_log "$run/$f" | grep -a -m1 -E 'BUG: .*guard page|Kernel panic|stack-protector|kernel BUG' || true)
	[ -n "$line" ] && { echo "kernel log (${f##*/}): $line"; break; }
done
if [ "$refusal" = 1 ]; then
	echo "verdict: no stack overflow in this dump; $(cat "$tmp/verdict")"
elif [ -s "$tmp/verdict" ]; then
	cat "$tmp/verdict"
fi
grep '^on .*: \(the \|only \|none \)' "$tmp/agree" | sed 's/^/stackov in crash, gdb and drgn, /; s/:$//' || true
grep -E '^on .*, (crash|drgn).* (agrees|DIFFERS|STOPPED)' "$tmp/peers" | sed 's/^/peers: /' || true
cat "$tmp/explain"
# The deepest stack of the dump (crash's stackov -u), and, when there was
# no overflow, each stack that came near its end.
for d in vmcore qemu-vmcore; do
	h=$run/headroom-crash-$d.json
	[ -f "$h" ] || continue
	jq -r --arg d "$d" '.stacks[0] | "deepest stack by the words written (on " + $d + "): " +
		(if .pid then "TASK of pid \(.pid) \"\(.comm)\"" else .stack + " of cpu \(.cpu)" end) +
		", \(.left) bytes never used, in " + .deepest' "$h"
	[ "$overflow" = 0 ] && jq -r '.near as $n | .stacks[] | select(.left >= 0 and .left < $n) |
		"near miss: no stack overflow; " +
		(if .pid then "pid \(.pid) \"\(.comm)\"" else .stack + " stack of cpu \(.cpu)" end) +
		" came within \(.left) bytes of its end, in " + .deepest' "$h"
	break
done
for d in vmcore qemu-vmcore; do
	o=$run/reader-crash-$d.out
	[ -f "$o" ] && grep -a -m1 'PID:.*COMMAND:' "$o" | sed 's/^/crash: /' && break
done
for d in vmcore qemu-vmcore; do
	o=$run/reader-drgn-$d.out
	[ -f "$o" ] && grep -a -m1 '^crashed thread:' "$o" | sed 's/^/drgn: /' && break
done
if [ -f "$run/reader-drgn-vmcore.out" ]; then
	bt=$(sed -n '/^stack trace/,/^$/p' "$run/reader-drgn-vmcore.out" | sed '1d; /^$/d' | head -12)
	if [ -n "$bt" ]; then
		echo "backtrace recovered by drgn from the kdump vmcore:"
		echo "$bt"
	fi
fi
if [ -f "$run/stack.svg" ]; then
	echo "the stack drawn (stackov -m -s): $run/stack.svg"
elif [ -s "$run/stack.why" ]; then
	echo "no stack drawn: $(cat "$run/stack.why")"
fi
echo "full report (crash on both dumps, gdb, drgn): $rep"
[ -n "$limits" ] && echo "$limits" | sed "s/^/crash's own limitation (not the lab's readers), /"
[ -n "$errors" ] && echo "reader errors: $errors"
skipped=$(by_status skipped)
[ -n "$skipped" ] && echo "readers skipped: $skipped"
if [ -n "$failed" ]; then
	echo "FAILED readers: $failed"
	exit 1
fi
if [ "$(jq '[.readers[]] | length' "$R")" = 0 ]; then
	echo "no dump of this run is whole: nothing was read"
	exit 1
fi
exit 0
