#!/bin/sh
# vm/read/peers.sh RUN_DIR DUMP - stackov's frames on DUMP (vmcore or
# qemu-vmcore) beside its peers' own unwinders, from the readers' outputs
# report.sh left in RUN_DIR: crash's bt (reader-crash-DUMP.out) and drgn's
# stack_trace() (reader-drgn-DUMP.out), against crash's stackov
# (stackov-crash-DUMP.txt and .json); and the stack drgn's
# kernel_stack_trace() says the overflowed frames are on (its StackKind,
# drgn 0.1.0 and later) against the stack stackov says overflowed. Each
# peer is named with its version (readers.json, drgn's own line). Prints
# one JSON line (peers.json is report.sh's array of them):
#   {"dump", "stackov": {"frames", "first", "last", "stack"},
#    "peers": [{"peer": "crash"|"drgn"|"drgn-stackkind", "version", "status",
#               "frames", "reason", "known", "prefix_same", "diff", "line"}...],
#    "limitations": [sentences], "line": why nothing was compared}
# status: agrees (the same frames, one for one, from stackov's first
# function to its last, the entry), agrees-but-init (all but the frame in
# a module's init code, which crash's bt leaves out), stopped (it ended
# before stackov's last function: "known" names the limitation of that
# peer's code the lab has traced, if it is one, and "prefix_same" says
# whether each frame it gave is stackov's, in order), differs ("diff" says
# which part: the functions, or the one frame of stackov's it lacks;
# "known" why, where the lab has traced it). For drgn-stackkind: agrees
# (its kind is stackov's stack), differs, or none (this drgn has no
# StackKind).
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"
run=${1:?usage: peers.sh RUN_DIR DUMP}
d=${2:?usage: peers.sh RUN_DIR DUMP}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stackov-peers.XXXXXX")
remove_on_exit "$tmp"

# A function's name as the three name it: no gcc suffix (.cold, .isra.0).
plain() { sed 's/\..*//'; }
nothing() {
	jq -nc --arg d "$d" --arg l "on $d: $1" '{dump: $d, line: $l}'
	exit 0
}
[ -f "$run/stackov-crash-$d.txt" ] || nothing "stackov gave no verdict to set beside its peers'"

# stackov's frames, one name a line, the folded cycle filled in: the
# frames the text leaves out (its "... the cycle above" line) are the
# cycle's functions, in turn, from the one before the gap. The cycle is
# written in call order ("a -> b": a calls b), the frames callee first:
# the frame after b's is a's.
cyc=$(jq -r '.cycle // ""' "$run/stackov-crash-$d.json" | sed 's/ x[0-9]* .*//; s/ x[0-9]*$//')
total=$(sed -n 's/^  frames: *\([0-9]*\) .*/\1/p' "$run/stackov-crash-$d.txt" | head -1)
sed -n '/^  frames: /,/^[^ ]/p' "$run/stackov-crash-$d.txt" | awk -v cyc="$cyc" '
	BEGIN { nc = split(cyc, c, / -> /) }
	$1 ~ /^#[0-9]+$/ {
		k = substr($1, 2) + 0; name = $3; sub(/\..*/, "", name)
		for (; n < k; n++) {	# a gap: the cycle, on from the frame before it
			at = 0
			for (i = 1; i <= nc; i++) if (c[i] == prev) at = i
			prev = at ? c[(at - 2 + nc) % nc + 1] : c[nc]
			print n, prev
		}
		print k, name; prev = name; n = k + 1
	}' >"$tmp/ours"
{ [ -s "$tmp/ours" ] && [ -n "$total" ]; } || nothing "stackov listed no frames to compare"
[ "$(wc -l <"$tmp/ours")" = "$total" ] ||
	nothing "stackov's $total frames could not be spelled out from its text ($(wc -l <"$tmp/ours") with the cycle filled in)"
first=$(head -1 "$tmp/ours" | cut -d' ' -f2)
# fault_rip: the exception RIP crash names for stackov's first function,
# FN+OFF ("[exception RIP: FN+OFF]" in its bt of the panic task).
fault_rip() {
	sed -n '/^PID: .*COMMAND: /,$s/^ *\[exception RIP: \(.*\)\]$/\1/p' "$co" |
		awk -v f="$first" '{ n = $0; sub(/\+.*/, "", n); sub(/\..*/, "", n) } n == f { print; exit }'
}
# fault_insn FN+OFF: the instruction there, from the object that holds FN
# (a module of the run, or vmlinux), disassembled by objdump in FN's own
# section.
fault_insn() {
	case $1 in *+[0-9]*) ;; *) return 0 ;; esac
	fn=${1%+*} off=${1##*+}
	for obj in "$run"/*.ko "$run/vmlinux"; do
		[ -f "$obj" ] || continue
		sym=$(objdump -t "$obj" 2>/dev/null | awk -v f="$fn" '$NF == f && $(NF - 2) ~ /^\./ { print $1, $(NF - 2); exit }')
		[ -n "$sym" ] || continue
		a=$((0x${sym%% *} + off))
		# To a+15, an x86 instruction's longest: to a+1, objdump
		# reads "push %r12" (41 54) as a lone "rex.B".
		objdump -d --no-show-raw-insn -j "${sym#* }" --start-address="$a" --stop-address=$((a + 15)) "$obj" 2>/dev/null |
			awk -F '\t' '/^ *[0-9a-f]+:/ { print $2; exit }'
		return 0
	done
}
# Frame #0's bytes, and whether stackov's frames are the frame-pointer chain's.
bytes0=$(awk '$1 == "#0" { print $4; exit }' "$run/stackov-crash-$d.txt")
opc0=$(awk '$1 == "#0" { print $2; exit }' "$run/stackov-crash-$d.txt")
fp=0
grep -q '^  frames: .* on the frame-pointer chain' "$run/stackov-crash-$d.txt" && fp=1
last=$(tail -1 "$tmp/ours" | cut -d' ' -f2)
cut -d' ' -f2 "$tmp/ours" | awk '!seen[$0]++' >"$tmp/ours.fn"

# crash's bt of the panic task: "N name" from the line of stackov's first
# function (on the task's side of the exception stack) on.
cv=$(jq -r '.versions.crash // empty' "$run/readers.json" 2>/dev/null || true)
co=$run/reader-crash-$d.out
# A crash that was no overflow: the function an exception hit is in crash's
# bt as its "[exception RIP: FN+OFF]" line alone (its frame holds no
# return address into it), a frame of its own in stackov's and drgn's.
# (A double fault's RIP is the overflow's recursion, listed again below.)
ins=0
jq -e .kind "$run/stackov-crash-$d.json" >/dev/null 2>&1 && ins=1
sed -n '/^PID: .*COMMAND: /,/^PID: /p' "$co" |
	awk -v ins="$ins" '/^--- </ { side = 1 }
		ins && /^ *\[exception RIP: / { p = $0; sub(/^ *\[exception RIP: /, "", p); sub(/\+.*/, "", p); ppc = ""; next }
		ins && p != "" && $1 == "RIP:" { ppc = $2; next }
		$1 ~ /^#[0-9]+$/ && $2 ~ /^\[/ {
			num = substr($1, 2) + shift
			if (p != "" && $3 != p) { print side + 0, num, p, ppc; shift++; num++ }
			p = ""
			print side + 0, num, $3, $5
		}' >"$tmp/crash.all"
if grep -q '^1 ' "$tmp/crash.all"; then
	sed -n 's/^1 //p' "$tmp/crash.all"
else
	sed 's/^0 //' "$tmp/crash.all"
fi >"$tmp/crash.pcs"
cut -d' ' -f1,2 "$tmp/crash.pcs" | plain >"$tmp/crash.raw"
# The pc of its first frame in stackov's first function.
awk -v f="$first" '{ n = $2; sub(/\..*/, "", n) } n == f { print $3; exit }' "$tmp/crash.pcs" >"$tmp/crash.raw.pc0"
# Why crash's bt of the panic task stopped: its own error, not one of
# crash's start-up (which runs bt on every CPU), unless that is all.
crash_why=$(sed -n '/^PID: .*COMMAND: /,$p' "$co" | grep -a -m1 -E '^bt: ' || true)
crash_start=$(sed '/^PID: .*COMMAND: /,$d' "$co" | grep -a -m1 -E '^bt: ' || true)
crash_json=$(cat "$run/stackov-crash-$d.json")

# drgn's stack_trace(): "#A[-#B] 0xPC name at ..."; lines with one pc are
# one frame (the last is the function, the others inlined in it); #A-#B
# is a run of B-A+1 identical frames. As "N name" lines, numbered from 0.
do=$run/reader-drgn-$d.out
: >"$tmp/drgn.raw"
drgn_all=0 drgn_why=''
if [ -f "$do" ]; then
	sed -n '/^stack trace/,/^$/p' "$do" | awk '
		$1 ~ /^#[0-9]+(-#[0-9]+)?$/ && $2 != "drgn:" {
			split(substr($1, 2), r, "-#"); n = (2 in r) ? r[2] - r[1] + 1 : 1
			# As strings: awk would compare two hex numbers as doubles.
			if ($2 "" == pc && n == 1) { name = $3; next }
			if (pc != "") print name, cnt
			pc = $2 ""; name = $3; cnt = n
		}
		END { if (pc != "") print name, cnt }' | awk '{ for (i = 0; i < $2; i++) print n++, $1 }' |
		plain >"$tmp/drgn.raw"
	sed -n '/^stack trace/,/^$/p' "$do" | awk -v f="$first" '$1 ~ /^#/ { n = $3; sub(/\..*/, "", n) }
		$1 ~ /^#/ && n == f { sub(/^0x/, "", $2); print $2; exit }' >"$tmp/drgn.raw.pc0"
	drgn_all=$(sed -n 's/^stack trace (\([0-9]*\) frames.*/\1/p' "$do" | head -1)
	drgn_why=$(sed -n 's/^ *#[0-9]* *drgn: \(.*\); its unwind stops here$/\1/p' "$do" | head -1)
	drgn_version=$(sed -n 's/^drgn version: *//p' "$do" | head -1)
fi
# The stack stackov's frame N is on ([TASK], [IRQ]...), from its text.
stack_at() {
	sed -n '/^  frames: /,/^[^ ]/p' "$run/stackov-crash-$d.txt" |
		awk -v n="$1" '$1 ~ /^#[0-9]+$/ && substr($1, 2) + 0 <= n { s = $NF; gsub(/[][]/, "", s) } END { print s }'
}

# compare PEER NAME RAW WHY KNOWN: the peer's frames from stackov's first
# function to its last, counted and named frame by frame as stackov's.
# Prints the peer's JSON object.
compare() {
	peer=$1 pname=$2 raw=$3 why=$4 known=$5 pver=$6
	awk -v f="$first" '$2 == f { on = 1 } on' "$raw" >"$tmp/from"
	out() {
		jq -nc --arg p "$peer" --arg s "$1" --arg n "$2" --arg why "$why" --arg known "$known" \
			--argjson same "$3" --arg diff "$4" --arg line "$5" --arg v "$pver" '
			{peer: $p, version: (if $v == "" then null else $v end), status: $s, frames: ($n | tonumber),
			 reason: (if $why == "" then null else $why end),
			 known: (if $known == "" then null else $known end),
			 prefix_same: $same, diff: (if $diff == "" then null else $diff end), line: $line}'
	}
	if [ ! -s "$tmp/from" ]; then
		# drgn unwinds from the registers QEMU's dump holds (the CPU in
		# panic()), and on a frame-pointer kernel does not step through
		# an exception's entry code (asm_exc_*, no frame of its own): the
		# frame after it is made up, an address in no text.
		ent=$(awk '$2 ~ /^asm_exc_/ { e = $2; getline; if ($2 ~ /^0x/) print e " " $2; exit }' "$raw")
		if [ "$peer" = drgn ] && [ "$fp" = 1 ] && [ -n "$ent" ]; then
			known="its unwind from the CPU's registers in panic() does not step through the exception entry ${ent% *} on a frame-pointer kernel: the next frame it gives is made up (${ent#* })"
		fi
		out differs 0 false '' "on $d, $pname DIFFERS: it has no $first frame${why:+ ($why)}${known:+; known: $known}"
		return
	fi
	# Up to its last frame of stackov's last function (the entry).
	stop=$(awk -v l="$last" '$2 == l { e = NR } END { print e }' "$tmp/from")
	extra=0
	if [ -n "$stop" ]; then
		head -n "$stop" "$tmp/from" >"$tmp/span"
	else
		cp "$tmp/from" "$tmp/span"
		# An unwind that reached a module's init function, whose text
		# (and ORC) the kernel freed once init returned, goes no further
		# with sense: what follows it is made up. Its frames end there.
		im=$(awk '$2 == "init_module" { print NR; exit }' "$tmp/span")
		if [ -n "$im" ] && grep -qx init_module "$tmp/ours.fn"; then
			extra=$(($(wc -l <"$tmp/span") - im))
			head -n "$im" "$tmp/from" >"$tmp/span"
		fi
	fi
	# Frames by number: a run the peer numbered is all there.
	n=$(($(tail -1 "$tmp/span" | cut -d' ' -f1) - $(head -1 "$tmp/span" | cut -d' ' -f1) + 1))
	cut -d' ' -f2 "$tmp/span" | awk '!seen[$0]++' >"$tmp/span.fn"
	fns=$(wc -l <"$tmp/ours.fn")
	# Frame for frame: the peer's names against as many of stackov's.
	cut -d' ' -f2 "$tmp/span" >"$tmp/span.names"
	cut -d' ' -f2 "$tmp/ours" | head -n "$(wc -l <"$tmp/span.names")" >"$tmp/ours.names"
	cut -d' ' -f2 "$tmp/ours" >"$tmp/ours.names.all"
	same=false
	cmp -s "$tmp/span.names" "$tmp/ours.names" && same=true
	if [ -n "$stop" ] && [ "$n" = "$total" ] && [ "$same" = true ]; then
		out agrees "$n" true '' "on $d, $pname agrees: the same $n frames, $fns functions from $first to $last"
		return
	fi
	# A module's init function (init_module, in the module's init text,
	# which the kernel frees once init returns): crash's bt leaves its
	# frame out, drgn's unwind ends in it.
	if [ -n "$stop" ] && [ "$n" = $((total - 1)) ] && grep -qx init_module "$tmp/ours.fn" &&
		cut -d' ' -f2 "$tmp/ours" | grep -vx init_module | cmp -s - "$tmp/span.names"; then
		out agrees-but-init "$n" true '' \
			"on $d, $pname agrees but for init_module: the same $n frames, bar the one in the module's init code, which it leaves out"
		return
	fi
	if [ -z "$stop" ] && [ -z "$why" ] && [ "$(tail -1 "$tmp/span" | cut -d' ' -f2)" = init_module ]; then
		why="its unwind ends in init_module, the module's init code"
		[ "$extra" = 0 ] || why="$why (then $extra frame(s) made up from its freed text, left out)"
		known="the kernel frees a module's init text once its init returns, and drgn's unwind ends in it"
	fi
	if [ -z "$stop" ]; then
		head -n "$(wc -l <"$tmp/span.fn")" "$tmp/ours.fn" >"$tmp/ours.cmp"
	else
		cp "$tmp/ours.fn" "$tmp/ours.cmp"
	fi
	diff=$(diff "$tmp/ours.cmp" "$tmp/span.fn" | grep -m2 '^[<>]' | tr '\n' ' ' | sed 's/ $//' || true)
	# One frame fewer, and the same frames otherwise: which of stackov's
	# it lacks (the first that fits, in a run of one function's).
	if [ -n "$stop" ] && [ "$n" = $((total - 1)) ]; then
		miss=$(awk 'NR == FNR { p[NR - 1] = $0; np = NR; next } { o[FNR - 1] = $0; no = FNR }
			END { if (no != np + 1) exit
				for (i = 0; i < no; i++) { k = 0; ok = 1
					for (j = 0; j < no && ok; j++) { if (j == i) continue; if (o[j] != p[k++]) ok = 0 }
					if (ok) { print i, o[i]; exit } } }' "$tmp/span.names" "$tmp/ours.names.all")
		if [ -n "$miss" ]; then
			mi=${miss%% *} mname=${miss#* }
			# In a run of one function's frames, names cannot say
			# which: the run, from #1 when the peer's first frame is
			# stackov's #0 (the same pc).
			re=$(awk -v i="$mi" 'NR - 1 >= i { if ($0 != n && NR - 1 > i) exit; n = $0; e = NR - 1 } END { print e }' \
				"$tmp/ours.names.all")
			pc0=$(cat "$raw.pc0" 2>/dev/null || true)
			[ "$mi" = 0 ] && [ "$re" -gt 0 ] && [ -n "$pc0" ] && [ "$pc0" = "$opc0" ] && mi=1
			if [ "$re" -gt "$mi" ]; then
				diff="it has one $mname frame fewer than stackov's #$mi-#$re"
				[ "$mi" = 1 ] && [ "$pc0" = "$opc0" ] && diff="$diff (its first frame is stackov's #0, pc $opc0)"
			else
				diff="it lacks stackov's frame #$mi ($mname)"
			fi
			# crash sizes the frame of an exception's RIP by its
			# function's pushes up to that RIP, the faulting one
			# included (x86_64_get_framesize(): an exception frame's
			# own instruction counts): 8 bytes too many when the
			# fault was a push, and it steps over the caller.
			if [ "$peer" = crash ] && [ "$mi" = 1 ] && [ "$fp" = 1 ] && [ "$pc0" = "$opc0" ]; then
				fault_at=$(fault_rip)
				ins=$(fault_insn "$fault_at" | tr -s ' ')
				case $ins:$bytes0 in
				push*:[0-9]*) known="the fault was ${first}'s $ins ($fault_at), and $pname sizes an exception frame by the pushes up to its RIP, that faulting one included (crash's x86_64_get_framesize()): 8 bytes more than the $bytes0 the frame holds (stackov's frame #0), so the walk steps over the caller's return address, at the saved rsp + $((bytes0 - 8))" ;;
				esac
			fi
			out differs "$n" false "$diff" \
				"on $d, $pname DIFFERS: $n frames from $first to $last, stackov $total: $diff${known:+; known: $known}"
			return
		fi
	fi
	if [ -z "$stop" ]; then
		out stopped "$n" "$same" "$diff" \
			"on $d, $pname STOPPED after $n frames, before $last${why:+ ($why)}${diff:+; its functions differ: $diff}"
	else
		out differs "$n" "$same" "$diff" "on $d, $pname DIFFERS: $n frames from $first to $last, stackov $total${diff:+; functions: $diff}"
	fi
}

# stack_kind: drgn's StackKind for the segment of its kernel_stack_trace()
# that starts at stackov's first function (postmortem.py's "drgn's stack
# kinds" lines: "KIND #A-#B NAME sp SP"), against the stack stackov says
# overflowed. drgn's helper gives a segment the kind of the range its
# first frame's sp is in (the task's stack, the CPU's IRQ stack, the entry
# area's exception stacks): an sp in a guard page is in none, UNKNOWN.
ostack=$(jq -r '.stack // empty' "$run/stackov-crash-$d.json")
stack_kind() {
	kout() {
		jq -nc --arg s "$1" --arg k "$2" --arg seg "$3" --arg known "$4" --arg line "$5" --arg v "${drgn_version:-}" '
			{peer: "drgn-stackkind", version: (if $v == "" then null else $v end), status: $s,
			 kind: (if $k == "" then null else $k end), segment: (if $seg == "" then null else $seg end),
			 known: (if $known == "" then null else $known end), line: $line}'
	}
	pn="drgn${drgn_version:+ $drgn_version}'s StackKind"
	if grep -q "^drgn's stack kinds: none" "$do"; then
		kout none '' '' '' "on $d, $pn: none, this drgn has no drgn.helpers.linux.stack (0.1.0 and later have it)"
		return
	fi
	sed -n "/^drgn's stack kinds (/,/^\$/p" "$do" | awk 'NR > 1 && NF >= 5 { n = $3; sub(/\..*/, "", n); print $1, $2, n, $5 }' >"$tmp/kinds"
	seg=$(awk -v f="$first" '$3 == f { print; exit }' "$tmp/kinds")
	if [ -z "$seg" ]; then
		kout differs '' '' '' "on $d, $pn DIFFERS: none of its segments starts at stackov's first frame ($first)$(
			[ -s "$tmp/kinds" ] || echo "; it gave no segments: $(grep -a -m1 "^drgn's stack kinds" "$do" || echo 'no kernel_stack_trace() output')")"
		return
	fi
	# shellcheck disable=SC2086 # four words
	set -- $seg
	k=$1 span=$2 sp=${4#0x}
	sp=$(printf '%016x' "0x$sp" 2>/dev/null || echo "$sp")
	lo=$(jq -r '.lo // empty' "$run/stackov-crash-$d.json")
	if [ "$k" = "$ostack" ]; then
		kout agrees "$k" "$span" '' "on $d, $pn agrees: $k for frames $span, from $first (sp $sp), the stack stackov says overflowed"
	elif [ "$k" = UNKNOWN ] && hex_below "$sp" "$lo"; then
		kout differs "$k" "$span" \
			"drgn gives a segment the kind of the range its first frame's sp is in, and this sp is below the $ostack stack ($lo), in its guard page: in no range" \
			"on $d, $pn DIFFERS: UNKNOWN for frames $span, from $first (sp $sp, below the $ostack stack at $lo: in its guard page, which is in none of drgn's ranges); stackov: $ostack"
	else
		kout differs "$k" "$span" '' "on $d, $pn DIFFERS: $k for frames $span, from $first (sp $sp); stackov: $ostack"
	fi
}
lim=$(crash_limitation "$crash_why" "$crash_json" "$co" "$cv")
compare crash "crash${cv:+ $cv}'s bt" "$tmp/crash.raw" "$crash_why" "$lim" "$cv" >"$tmp/peers.jsonl"
: >"$tmp/lims"
[ -n "$lim" ] && echo "on $d, crash's bt met a limitation of crash's: $lim" >>"$tmp/lims"
slim=$(crash_limitation "$crash_start" "$crash_json" "$co" "$cv")
[ -n "$slim" ] && echo "on $d, crash's start-up met a limitation of crash's (\"$crash_start\"): $slim" >>"$tmp/lims"
dwhy=${drgn_why:+drgn: $drgn_why} dknown=''
if [ "${drgn_all:-0}" -ge 1024 ]; then
	dwhy="drgn's limit of 1024 frames"
	dknown="drgn's stack_trace() stops at 1024 frames (libdrgn's limit)"
fi
# drgn before 0.0.23 takes an ORC_REG_SP_INDIRECT CFA (the return into
# the handler that switched to the IRQ stack: the old stack pointer is
# the IRQ stack's top word) from %rbp, not %rsp (drgn commit cff9b618):
# its unwind loses the pc in its last frame, the one stackov's frames
# cross to another stack at.
ndrgn=$(wc -l <"$tmp/drgn.raw")
if [ "$drgn_why" = "program counter is not known" ] && [ -n "${drgn_version:-}" ] &&
	dpkg --compare-versions "$drgn_version" lt 0.0.23 && [ "$ndrgn" -ge 2 ] &&
	[ "$(stack_at $((ndrgn - 2)))" != "$(stack_at $((ndrgn - 1)))" ]; then
	dknown="drgn $drgn_version reads an ORC_REG_SP_INDIRECT CFA from %rbp, not %rsp (fixed in 0.0.23, drgn commit cff9b618): its unwind loses the pc in the frame that switched from the $(stack_at $((ndrgn - 1))) stack to the $(stack_at $((ndrgn - 2))) one"
fi
if [ -f "$do" ]; then
	compare drgn "drgn${drgn_version:+ $drgn_version}'s stack_trace" "$tmp/drgn.raw" "$dwhy" "$dknown" \
		"${drgn_version:-}" >>"$tmp/peers.jsonl"
	stack_kind >>"$tmp/peers.jsonl"
fi
jq -sc --arg d "$d" --arg n "$total" --arg f "$first" --arg l "$last" --arg st "$ostack" --rawfile lims "$tmp/lims" '
	{dump: $d, stackov: {frames: ($n | tonumber), first: $f, last: $l, stack: $st}, peers: .,
	 limitations: ($lims | split("\n") | map(select(. != "")))}' "$tmp/peers.jsonl"
