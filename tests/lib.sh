# shellcheck shell=sh
# tests/lib.sh - helpers for the test scripts. Each test script prints one
# "PASS name: what" or "FAIL name: what" line per check; tests/run.sh counts.
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

# A tests/x-* wrapper runs a t-* script under its own name (LAB_TEST).
T=${LAB_TEST:-$(basename "$0" .sh)}
failed=0

pass() { echo "PASS $T: $*"; }
fail() {
	echo "FAIL $T: $*"
	failed=1
}
# check WHAT CMD... : one check, passes when CMD succeeds.
check() {
	what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}
finish() { exit "$failed"; }
# line_test TEST [VARIANT]: make test-full's run of tests/TEST.sh on the
# 6.12 line, under the wrapper's name, with VARIANT's kernel built first
# (make test builds 6.1's in t-02 and t-33).
line_test() {
	if [ -n "${2:-}" ] && ! make -s -C "$LAB_ROOT" build VARIANT="$2" >"$LAB_OUT/build-$2-$LINUX.log" 2>&1; then
		tail -20 "$LAB_OUT/build-$2-$LINUX.log"
		fail "$2: make build LINUX=$LINUX failed (log: $LAB_OUT/build-$2-$LINUX.log)"
		finish
	fi
	LAB_TEST=$T
	export LAB_TEST
	exec sh "$LAB_ROOT/tests/$1.sh"
}
# full_or ALL SMOKE: ALL under make test-full (FULL=1), else SMOKE: a
# catalogue on a kernel beyond the lab's own 6.1 vmap and novmap runs a
# subset in make test, to keep it within its hour, and every scenario in
# make test-full.
full_or() {
	if [ "${FULL:-0}" = 1 ]; then echo "$1"; else echo "$2"; fi
}
# line_name VARIANT: what a catalogue's files are named by: the variant,
# and the line if it is not 6.1 (orc-6.12).
line_name() {
	if [ "${LINUX:-6.1}" = 6.1 ]; then echo "$1"; else echo "$1-$LINUX"; fi
}

# boot NAME [VAR=value...]: boot the guest into a fresh run directory and
# set $run to it. The settings are passed to vm/boot/qemu.sh's environment.
boot() {
	run=$(mktemp -d "$LAB_OUT/test-$1-XXXX")
	rmdir "$run"
	shift
	env RUN_DIR="$run" LAB_SHOW=0 GDB=0 INTERACTIVE=0 "$@" \
		"$LAB_ROOT/vm/boot/qemu.sh" 2>"$run.launcher.log" || true
	mv "$run.launcher.log" "$run/launcher.log" 2>/dev/null || true
}
# wait_for FILE ERE SECONDS: until FILE has a line matching ERE (status 1
# if none came in SECONDS).
wait_for() {
	i=0
	while [ "$i" -lt $(($3 * 20)) ]; do
		tr -d '\r' 2>/dev/null <"$1" | grep -Eq -- "$2" && return 0
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}
# qemu_of RUN: the pid of a QEMU still running for run directory RUN.
# (QEMU itself, not the timeout(1) that runs it: its command line holds
# QEMU's too, and killing it would leave QEMU running.)
qemu_of() {
	for p in $(pgrep -f "qemu-system-x86_64 .*$1/console.log"); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = qemu-system-x86 ] && echo "$p"
	done | head -1 | grep .
}
# crash_batch OUT DUMP CMD...: crash's commands CMD on DUMP (make crash's
# way: modules and the stackov extension loaded), in batch, into OUT.
crash_batch() {
	out=$1 dump=$2
	shift 2
	printf '%s\n' "$@" >"$out.crash"
	CRASH_ARGS="-s -i $out.crash" CRASH_TIMEOUT=120 "$LAB_ROOT/vm/read/crash-open.sh" "$dump" \
		</dev/null >"$out" 2>&1 || true
}
# What the kernel and the guest printed, without printk timestamps.
console() { kernel_log "$run/console.log"; }
# has PATTERN: the console has a line matching the extended regex.
has() { console | grep -Eq -- "$1"; }
lacks() { ! has "$1"; }
# refused RC PATTERN FILE: a command failed (RC != 0) and said PATTERN.
refused() { [ "$1" != 0 ] && grep -q -- "$2" "$3"; }
result_is() { [ "$(cat "$run/result" 2>/dev/null)" = "$1" ]; }
# record_outcome TABLE WIDTH NAME [PATTERN]: append a line for NAME: the
# run's result and the first two lines of what the kernel reported (read
# with the test's own klog), PATTERN widening what counts as a report.
record_outcome() {
	pat='BUG: |Kernel panic|kernel BUG|PANIC:|FAIL:|XFAIL:|: result '
	[ -n "${4:-}" ] && pat="$pat|$4"
	o=$(klog | grep -E "$pat" | head -2 | cut -c1-100 | sed 's/^lkdtm_ext: //' |
		paste -sd'|' | sed 's/|/ | /')
	printf "%-20s %-${2}s %s\n" "$3" "$(cat "$run/result")" "${o:-(nothing on the console)}" >>"$1"
}
mkdir -p "$LAB_OUT"

# The scenario catalogue (tests/scenarios.tsv): one line per scenario,
# columns name, stack, function, thread, vmap, novmap, note.
SCENARIOS=$LAB_ROOT/tests/scenarios.tsv
scenario_names() { awk -F'\t' '!/^#/ && NF { print $1 }' "$SCENARIOS"; }
# scenario_field NAME COLUMN: one field (stack, function, thread, vmap,
# novmap or note) of NAME's line.
scenario_field() {
	awk -F'\t' -v n="$1" -v c="$2" 'BEGIN { split("name stack function thread vmap novmap note", h, " ")
		for (i in h) col[h[i]] = i }
		!/^#/ && $1 == n { print $col[c]; found = 1; exit } END { exit !found }' "$SCENARIOS"
}

# per_alt VALUES N: the Nth of the ";"-separated VALUES, or the only one.
per_alt() { printf '%s\n' "$1" | awk -F';' -v n="$2" '{ print (NF == 1 ? $1 : $n) }'; }

# conditions_hold RESULT LOG COND...: each COND holds for a run that ended
# by RESULT with kernel log file LOG; else $why says which did not.
# shellcheck disable=SC2034 # why and alt are read by the callers
conditions_hold() {
	r=$1 l=$2
	shift 2
	for c in "$@"; do
		case $c in
		result=*)
			case "/${c#result=}/" in
			*"/$r/"*) ;;
			*) why="the run ended by $r, not ${c#result=}"; return 1 ;;
			esac ;;
		!*)
			if grep -Eq -- "${c#!}" "$l"; then
				why="the log has '$(grep -Em1 -- "${c#!}" "$l" | cut -c1-80)'"
				return 1
			fi ;;
		*) grep -Eq -- "$c" "$l" || { why="the log has no line matching '$c'"; return 1; } ;;
		esac
	done
}

# outcome_holds OUTCOME RESULT LOG: one of OUTCOME's alternatives (" || ")
# holds, all its conditions (" && ") true; $alt is its number (1, 2...),
# $why what failed in the last one tried.
outcome_holds() {
	alts=$(printf '%s\n' "$1" | awk '{ n = split($0, a, / \|\| /)
		for (i = 1; i <= n; i++) { gsub(/ && /, "\t", a[i]); print a[i] } }')
	alt=0
	res=$2 logf=$3
	set -f
	while IFS= read -r line; do
		alt=$((alt + 1))
		oldifs=$IFS
		IFS='	'
		# shellcheck disable=SC2086 # split on tabs, globbing off
		set -- $line
		IFS=$oldifs
		if conditions_hold "$res" "$logf" "$@"; then
			set +f
			return 0
		fi
	done <<ALTS
$alts
ALTS
	set +f
	return 1
}

# expect_outcome NAME VARIANT RESULT LOG: the check that NAME's outcome on
# VARIANT, as tests/scenarios.tsv gives it, holds for this run.
expect_outcome() {
	if outcome_holds "$(scenario_field "$1" "$2")" "$3" "$4"; then
		pass "$1: the $2 outcome of tests/scenarios.tsv holds (alternative $alt, ended by $3)"
	else
		fail "$1: the $2 outcome of tests/scenarios.tsv does not hold: $why"
	fi
}

# result_value LOG SCENARIO KEY: KEY=value from SCENARIO's result line.
result_value() {
	sed -n "s/.*$2: result .*[ ]$3=\\([0-9a-z]*\\).*/\\1/p" "$1" | head -1
}

# lifecycle_numbers NAME LOG: what the lifecycle scenarios measured is
# right, from the one measurement the module made (no retries).
lifecycle_numbers() {
	case $1 in
	STACK_ACCOUNTING)
		e=$(result_value "$2" "$1" expected_kb)
		g=$(result_value "$2" "$1" grew_kb)
		f=$(result_value "$2" "$1" fell_kb)
		check "$1: expected 8 threads x 16 KiB ($e KiB)" [ "${e:-x}" = 128 ]
		check "$1: KernelStack grew by that ($g KiB)" [ "${g:-x}" = "${e:-y}" ]
		check "$1: and fell back by as much ($f KiB)" [ "${f:-x}" = "${e:-y}" ] ;;
	STACK_DEPTH)
		u=$(result_value "$2" "$1" used_at_deepest)
		h=$(result_value "$2" "$1" high_water_after)
		check "$1: 16 frames of 256 bytes use at least 4096 bytes ($u)" [ "${u:-0}" -ge 4096 ]
		check "$1: and less than the stack ($u < 16384)" [ "${u:-99999}" -lt 16384 ]
		check "$1: the high-water mark read from the stack covers it ($h >= $u)" \
			[ "${h:-0}" -ge "${u:-1}" ] ;;
	esac
}

# The three stackovs (crash's extension, gdb's and drgn's helpers), as
# report.sh ran them on one run: per reader section of report.txt
# ("crash on vmcore", "gdb on vmcore.elf", "drgn on qemu-vmcore.elf"...).
# verdict_json REPORT SECTION: its stackov -j line, or its one-line refusal.
verdict_json() {
	sed -n "/^===== $2 =====\$/,/^=====/p" "$1" | grep -m1 -E '^\{"stack":|^stackov: '
}
# verdict_text REPORT SECTION: its stackov paragraph, to the last frame.
verdict_text() {
	sed -n "/^===== $2 =====\$/,/^=====/p" "$1" |
		sed -n '/^stack overflow: /,/^[^ ]/p' | sed '/^[^ ]/{/^stack overflow: /!d}'
}
# jfield JSONFILE KEY: one value of a JSON object.
jfield() { /usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2" 2>/dev/null; }

in_range() { [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }
# qemu_boot_survived NAME RUN: the second boot (QEMU's dump) of scenario
# NAME ended by an outcome its vmap column allows that leaves no dump (a
# frame that lands in mapped memory in one boot and in a hole in another),
# or the module said it could not set the scenario up in that boot.
qemu_boot_survived() {
	qres=$(cat "$2/qemu-dump/result" 2>/dev/null) || return 1
	[ "$qres" = panic ] && return 1
	scenario_field "$1" vmap >/dev/null || return 1
	kernel_log "$2/qemu-dump/console.log" >"$2/qemu-dump/klog.txt"
	# The module could not set the scenario up in that boot, and said so
	# (STACK_USE_AFTER_EXIT: the victim's stack went back to a cache).
	if grep -q "$1: cannot run: " "$2/qemu-dump/klog.txt"; then
		qres="$qres; the module: $(grep -m1 -o "$1: cannot run: .*" "$2/qemu-dump/klog.txt" | cut -c1-90)"
		return 0
	fi
	outcome_holds "$(scenario_field "$1" vmap)" "$qres" "$2/qemu-dump/klog.txt"
}
cycle_has() { case " $1 " in *" $2 "*) return 0 ;; esac; return 1; }
# rot CYCLE: "a -> b -> c" turned to start at its smallest name: the same
# cycle, read from wherever a trace starts it, is the same string.
rot() {
	printf '%s\n' "$1" | awk -F ' -> ' '{
		best = ""
		for (i = 1; i <= NF; i++) {
			r = $i
			for (j = 1; j < NF; j++)
				r = r " -> " $((i + j - 1) % NF + 1)
			if (best == "" || r < best)
				best = r
		}
		print best
	}'
}

# explain_agrees NAME RUN: stackov-log on each boot's log alone, given
# vmlinux, says what crash's stackov says on that boot's dump (readers_agree
# leaves it in RUN/agree-DUMP.crash.json): on the kdump boot, its console
# (in which the oops never appears: printk from the #DF handler is
# deferred, and the capture kernel starts first) else the log read from
# vmcore; on QEMU's boot, its console, else (6.12's console may stop inside
# the report) the log read from QEMU's dump:
# the stack, the task, the entry, the cycle's functions and its bytes, and
# each frame's bytes, for each function in both (the first frame of it
# after the faulting one, in crash's frame list of the report). A dump with
# no guard-page hit: none in the log either (a canary, an overwritten
# STACK_END_MAGIC is said as such, no overflow).
explain_agrees() {
	for d in vmcore qemu-vmcore; do
		[ -f "$2/agree-$d.crash.json" ] || continue
		case $d in
		vmcore) explain_agrees_on "$1" "$2" vmcore console.log vmcore.dmesg ;;
		*) explain_agrees_on "$1 (QEMU's boot)" "$2" qemu-vmcore qemu-dump/console.log qemu-dump/qemu-vmcore.dmesg ;;
		esac
	done
}

# explain_agrees_on NAME RUN DUMP LOG...: the first LOG of RUN that has a
# whole report (its end marker seen), else the last that has one, against
# crash's stackov on DUMP (the same boot's). On 6.12 QEMU's boot's console
# may stop inside the report: the pvpanic pause can come before the console
# has printed it all; the dump's log has it all.
explain_agrees_on() {
	name=$1 erun=$2 dump=$3
	shift 3
	j=$erun/agree-$dump.crash.json e=$erun/explain-$dump.json
	bin=$("$LAB_ROOT/vm/builders/host-tools.sh" stackov-log) || { fail "$name: stackov-log does not build"; return; }
	got='' cut=''
	for f in "$@"; do
		[ -f "$erun/$f" ] || continue
		"$bin" -j -v "$erun/vmlinux" -m "$erun" "$erun/$f" >"$e.try" 2>&1 ||
			{ [ -n "$got" ] || mv "$e.try" "$e"; continue; }
		got=$f
		mv "$e.try" "$e"
		grep -q '"ended":true' "$e" && break
		cut="$cut$f, "
	done
	rm -f "$e.try"
	f=${got:-$f}${cut:+; cut short in ${cut%, }}
	if ! grep -q '^{' "$j" 2>/dev/null; then
		check "$name: no guard-page hit in the dump, none in the log alone ($(jfield "$e" kind || head -1 "$e"))" \
			sh -c "grep -q '^no stack overflow in this log' '$e' || grep -Eq '^\{\"kind\":\"(canary|end-magic|double-fault)\"' '$e'"
		return
	fi
	check "$name: stackov-log finds the overflow in the log ($f)" grep -q '^{' "$e"
	for k in stack pid comm cpu entry; do
		check "$name: the log alone says the dump's $k ($(jfield "$j" $k))" [ "$(jfield "$e" $k)" = "$(jfield "$j" $k)" ]
	done
	dc=$(jfield "$j" cycle) lc=$(jfield "$e" cycle)
	check "$name: the log alone finds the dump's cycle (${dc% x*})" [ "$(rot "${lc% x*}")" = "$(rot "${dc% x*}")" ]
	case $dc in *'bytes per cycle'*)
		check "$name: and its bytes (${dc##*\(})" [ "${lc##*\(}" = "${dc##*\(}" ] ;;
	esac
	sed -n "/^===== crash on $dump =====\$/,/^=====/p" "$erun/report.txt" |
		sed -n '/^  frames: /,/^[^ ]/p' >"$erun/explain.crash-frames"
	/usr/bin/python3 - "$e" "$erun/explain.crash-frames" "$erun/vmlinux" >"$erun/explain.bytes" <<'PY'
import functools, json, re, subprocess, sys
log = json.load(open(sys.argv[1]))
dump = {}
for line in open(sys.argv[2]):
    w = line.split()
    if len(w) >= 5 and w[0].startswith('#') and w[0] != '#0' and w[4] == 'bytes':
        dump.setdefault(w[2], int(w[3]))

@functools.lru_cache(maxsize=None)
def realigns(name):
    """objdump's word on it: the function's first instructions align %rsp
    (gcc's dynamic realignment), leaving a pad as %rsp was at the call."""
    out = subprocess.run(["objdump", "-d", "--disassemble=" + name, sys.argv[3]],
                         capture_output=True, text=True).stdout
    ins = [l for l in out.splitlines() if re.match(r"\s*[0-9a-f]+:\t", l)][:4]
    return any("and " in l and ",%rsp" in l for l in ins)

seen = set()
names, sizes = log['names'], log['bytes']
for i in range(1, len(names)):
    name, b = names[i], sizes[i]
    # do_syscall_64's frame holds the syscall's random stack offset (an
    # alloca, RANDOMIZE_KSTACK_OFFSET): no log can know it; unknown is right.
    if b == -1 and name == 'do_syscall_64':
        continue
    # A frame that realigns %rsp, and its caller, whose frame the dump
    # says holds the pad: no log can know the pad; unknown is right.
    if b == -1 and (realigns(name) or realigns(names[i - 1])):
        continue
    if name in dump and name not in seen:
        print(name, b, dump[name])
        seen.add(name)
PY
	check "$name: the frames of both have the dump's bytes in the log alone ($(wc -l <"$erun/explain.bytes") compared; a mismatch: $(awk '$2 != $3' "$erun/explain.bytes" | head -3 | tr '\n' ' '))" \
		sh -c "[ -s '$erun/explain.bytes' ] && awk '\$2 != \$3 { exit 1 }' '$erun/explain.bytes'"
}

# readers_agree NAME RUN FN [DUMPS]: on each dump of RUN (kdump's: crash on vmcore,
# gdb on vmcore.elf, drgn on vmcore; QEMU's: crash on qemu-vmcore, gdb and
# drgn on qemu-vmcore.elf, its ELF dump with paging), the readers' verdicts
# are the same word for word, JSON and text, and agree with that dump's own
# kernel log: the BUG line's stack kind, fault address and bounds, the
# oops's task, and the number of FN frames drgn's own unwinder finds (the
# folded cycle's count). Without a guard-page hit every reader refuses in
# the same one line. DUMPS (default "vmcore qemu-vmcore") narrows it.
readers_agree() {
	name=$1 arun=$2 afn=$3
	rep=$arun/report.txt
	for d in ${4:-vmcore qemu-vmcore}; do
		if [ ! -e "$arun/$d" ] && [ "$d" = qemu-vmcore ] && qemu_boot_survived "$name" "$arun"; then
			pass "$name: QEMU's own boot left no dump, for a reason the table or the module gives (ended by $qres)"
			continue
		fi
		[ -e "$arun/$d" ] || { fail "$name: no $d to read"; continue; }
		first='' out=$arun/agree-$d
		for r in crash gdb drgn; do
			sec="$r on $d.elf"
			[ "$r" = crash ] && sec="crash on $d"
			[ "$r $d" = "drgn vmcore" ] && sec="drgn on vmcore"
			verdict_json "$rep" "$sec" >"$out.$r.json" || true
			verdict_text "$rep" "$sec" >"$out.$r.txt" || true
			check "$name: $sec: stackov gave a verdict or a refusal" [ -s "$out.$r.json" ]
			if [ -z "$first" ]; then first=$r; continue; fi
			check "$name: on $d, $r's stackov -j is crash's, word for word" cmp -s "$out.$first.json" "$out.$r.json"
			check "$name: on $d, $r's stackov verdict text is crash's, line for line" cmp -s "$out.$first.txt" "$out.$r.txt"
		done
		j=$out.crash.json
		dmesg=$(readlink -f "$arun/$d").dmesg
		bug=$(kernel_log "$dmesg" | sed -n 's/.*BUG: \([A-Z]*\) stack guard page was hit at \([0-9a-f]*\) (stack is \([0-9a-f]*\)\.\.\([0-9a-f]*\))$/\1 \2 \3..\4/p' | head -1)
		if [ -z "$bug" ]; then
			check "$name: on $d (no guard-page hit) stackov refuses in one line" grep -q '^stackov: ' "$j"
			continue
		fi
		grep -q '^{' "$j" || { fail "$name: on $d stackov gave no verdict for: BUG: $bug"; continue; }
		check "$name: on $d, stackov's stack, fault and bounds are the BUG line's ($bug)" \
			[ "$(jfield "$j" stack) $(jfield "$j" fault) $(jfield "$j" lo)..$(jfield "$j" hi)" = "$bug" ]
		oops=$(kernel_log "$dmesg" | sed -n 's/^CPU: [0-9]* \(UID: [0-9]* \)\{0,1\}PID: \([0-9]*\) Comm: \([^ ]*\) .*/\2 \3/p' | head -1)
		check "$name: on $d, stackov's task ($(jfield "$j" pid) $(jfield "$j" comm)) is the oops's ($oops)" \
			[ "$(jfield "$j" pid) $(jfield "$j" comm)" = "$oops" ]
		dsec="drgn on $d.elf"
		[ "$d" = vmcore ] && dsec="drgn on vmcore"
		drgn=$(sed -n "/^===== $dsec =====\$/,/^=====/p" "$rep")
		n=$(echo "$drgn" | awk -v f=" $afn at " 'index($0, f) { n += match($0, /\(x[0-9]+\)/) ? substr($0, RSTART + 2, RLENGTH - 3) : 1 } END { print n + 0 }')
		if [ "$n" -ge 3 ]; then
			cyc=$(jfield "$j" cycle) reps=$(jfield "$j" cycle_reps)
			check "$name: on $d, the folded cycle ($cyc) has $afn" cycle_has "$cyc" "$afn"
			# One function's cycle: every frame of it is a turn. A longer
			# one may end inside a turn: one frame of $afn more.
			case $cyc in
			*' -> '*) check "$name: on $d, $reps turns; drgn's own unwinder finds $n $afn frames" \
				in_range "$n" "$reps" $((reps + 1)) ;;
			*) check "$name: on $d, $reps turns, as many $afn frames as drgn's own unwinder finds ($n)" \
				[ "$reps" = "$n" ] ;;
			esac
		fi
	done
}

# gdb_frames_in REPORT GDBSECTION OTHER: the functions of gdb's stackov
# frames (GDBSECTION, e.g. "gdb on vmcore.elf"), in order, are among the
# frames another unwinder lists on the same dump: OTHER is "drgn on vmcore"
# (drgn's own unwinder, which also lists inlined frames) or "crash on
# vmcore" (crash's bt, from its PID: line on, which starts in the panic
# path on the DF stack). gcc's .cold/.isra suffixes are dropped and runs of
# one function counted once.
gdb_frames_in() {
	sec() { sed -n "/^===== $2 =====\$/,/^=====/p" "$1"; }
	sec "$1" "$2" | sed -n '/^  frames: /,/^[^ ]/p' |
		awk '$1 ~ /^#[0-9]+$/ { print $3 }' | sed 's/\..*//' | uniq >"$1.gdbframes"
	case $3 in
	drgn*) sec "$1" "$3" | sed -n '/^stack trace/,/^$/p' ;;
	crash*) sec "$1" "$3" | sed -n '/^PID: .*COMMAND: /,/^PID: /p' ;;
	esac | awk '$1 ~ /^#[0-9]/ { print $3 }' | sed 's/\..*//' | uniq >"$1.otherframes"
	[ -s "$1.gdbframes" ] || return 1
	awk 'NR == FNR { g[++n] = $0; next } i < n && $0 == g[i + 1] { i++ } END { exit i < n }' \
		"$1.gdbframes" "$1.otherframes"
}

# peers_agree NAME RUN: on each dump of RUN where stackov gave a verdict
# (readers_agree, run before, leaves it in RUN/agree-DUMP.crash.json), the
# report's comparison of
# stackov's frames with crash's bt and with drgn's stack_trace
# (vm/read/peers.sh) says they agree: as many frames from the fault to
# the entry, the same functions in the same order. A peer that stopped
# short passes only with its reason named and no function differing.
peers_agree() {
	name=$1 prun=$2
	for d in vmcore qemu-vmcore; do
		[ -e "$prun/$d" ] || continue
		# No overflow to explain (stackov refused, as readers_agree
		# checks): no frames of stackov's to set beside the peers'.
		grep -q '^{' "$prun/agree-$d.crash.json" 2>/dev/null || continue
		sed -n "/^===== stackov's frames beside/,\$p" "$prun/report.txt" |
			grep "^on $d, " >"$prun/peers-$d" || true
		for p in "crash's bt" "drgn's stack_trace"; do
			line=$(grep -F "on $d, $p " "$prun/peers-$d" || echo "on $d, $p: no comparison in the report")
			case $line in
			*" agrees: the same "*) pass "$name: $line" ;;
			*" agrees but for init_module: the same "*) pass "$name: $line" ;;
			*"functions differ"*) fail "$name: $line" ;;
			*" STOPPED after "*" ("*")"*) pass "$name: as far as it goes, $line" ;;
			*) fail "$name: $line" ;;
			esac
		done
	done
}
