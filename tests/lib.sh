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
# skip WHAT WHY: a check that does not apply here, and why: counted apart
# by tests/run.sh, never as a pass.
skip() { echo "SKIP $T: $1: $2"; }
# check WHAT CMD... : one check, passes when CMD succeeds. A comparison
# with an empty side fails, naming that side: "[ A = B ]", "[ A -lt B ]"
# and the like, and "cmp [-s] A B" of a file that is missing or empty.
check() {
	_cw=$1
	shift
	if _ce=$(empty_operand "$@"); then
		fail "$_cw: $_ce"
	elif "$@"; then
		pass "$_cw"
	else
		fail "$_cw"
	fi
}
# empty_operand CMD...: which side of the comparison CMD is empty, if one is.
empty_operand() {
	case $1 in
	'[' | test)
		[ $# -ge 4 ] || return 1
		case $3 in
		= | == | != | -eq | -ne | -lt | -le | -gt | -ge) ;;
		*) return 1 ;;
		esac
		if [ -z "$2" ]; then
			echo "the left side of '$3' is empty (the right: '$4')"
		elif [ -z "$4" ]; then
			echo "the right side of '$3' is empty (the left: '$2')"
		else
			return 1
		fi ;;
	cmp)
		shift
		while [ $# -gt 0 ]; do
			case $1 in
			-*) ;;
			*) [ -s "$1" ] || { echo "cmp: $1 is empty or missing"; return 0; } ;;
			esac
			shift
		done
		return 1 ;;
	*) return 1 ;;
	esac
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
# set $run to it, and $boot_rc to vm/boot/qemu.sh's status. The settings
# are passed to vm/boot/qemu.sh's environment.
# shellcheck disable=SC2034 # boot_rc is read by the callers
boot() {
	run=$(mktemp -d "$LAB_OUT/test-$1-XXXX")
	rmdir "$run"
	shift
	boot_rc=0
	env RUN_DIR="$run" LAB_SHOW=0 GDB=0 INTERACTIVE=0 "$@" \
		"$LAB_ROOT/vm/boot/qemu.sh" 2>"$run.launcher.log" || boot_rc=$?
	mv "$run.launcher.log" "$run/launcher.log" 2>/dev/null || true
}
# copy_run FROM TO FILE...: a run directory TO of hard links to FROM's
# FILEs (those FROM has), with FROM's record, its dumps narrowed to those
# copied. Prints TO.
copy_run() {
	cr_from=$1 cr_to=$2
	shift 2
	mkdir -p "$cr_to"
	for f in "$@"; do
		[ -e "$cr_from/$f" ] && ln "$cr_from/$f" "$cr_to/$f"
	done
	jq --arg have " $* " '.dumps |= map(select(.path as $p | $have | contains(" " + $p + " ")))' \
		"$cr_from/run.json" >"$cr_to/run.json"
	echo "$cr_to"
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
# until_true SECONDS CMD...: until CMD succeeds (status 1 if it did not
# in SECONDS): a wait for an event, never a guess at how long it takes.
until_true() {
	ut_i=0 ut_n=$(($1 * 10))
	shift
	until "$@"; do
		ut_i=$((ut_i + 1))
		[ "$ut_i" -le "$ut_n" ] || return 1
		sleep 0.1
	done
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
# result_is OUTCOME: the run's (first) boot ended by OUTCOME, as its record says.
result_is() { [ "$(run_outcome "$run" 2>/dev/null)" = "$1" ]; }
# record_outcome TABLE WIDTH NAME [PATTERN]: append a line for NAME: the
# run's result and the first two lines of what the kernel reported (read
# with the test's own klog), PATTERN widening what counts as a report.
record_outcome() {
	pat='BUG: |Kernel panic|kernel BUG|PANIC:|FAIL:|XFAIL:|: result '
	[ -n "${4:-}" ] && pat="$pat|$4"
	o=$(klog | grep -E "$pat" | head -2 | cut -c1-100 | sed 's/^lkdtm_ext: //' |
		paste -sd'|' | sed 's/|/ | /')
	printf "%-20s %-${2}s %s\n" "$3" "$(run_outcome "$run" 2>/dev/null || echo none)" "${o:-(nothing on the console)}" >>"$1"
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

# is_refusal JSONFILE: a stackov verdict file that holds a refusal.
is_refusal() { jq -e .refusal "$1" >/dev/null 2>&1; }
# jfield JSONFILE KEY: one value of a JSON object; a missing file or key
# is an error, said on stderr and in the status, never an empty value.
jfield() {
	jq -ner --arg k "$2" 'input | if has($k) then .[$k] | tostring else error("no key \($k)") end' "$1" ||
		{ echo "jfield: no '$2' in ${1##*/}" >&2; return 1; }
}
# jq_true FILTER FILE [JQ ARGS...]: FILTER on FILE's JSON is true (jq -e),
# quietly.
jq_true() { jq -e "$@" >/dev/null; }
in_range() { [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }
# su_bytes RUN FN: FN's static frame size as the compiler gave it
# (-fstack-usage: RUN/frames.su), or nothing.
su_bytes() {
	awk -F '\t' -v f="$2" '{ n = split($1, a, ":") } a[n] == f && $3 == "static" { print $2; exit }' \
		"$1/frames.su" 2>/dev/null
}
# su_cycle JSONFILE RUN: the sum of the compiler's frame sizes of the
# functions of stackov's cycle, or nothing if one is unknown. On x86-64
# gcc's static size counts the return address and the saved registers
# with the locals: from the CFA of the callee to the frame's own, what
# stackov measures.
su_cycle() {
	total=0
	for f in $(jq -r '.cycle | sub(" x[0-9]+.*$"; "") | split(" -> ") | .[]' "$1"); do
		b=$(su_bytes "$2" "$f")
		[ -n "$b" ] || return 0
		total=$((total + b))
	done
	echo "$total"
}
# su_of FILE FN: FN's static frame size as the compiler gave it, from a
# frames.su or a facts file's "su: FN BYTES" lines, gcc's clone numbers
# aside (.su says copy_name.constprop.isra for copy_name.constprop.0.isra.0).
su_of() {
	[ -f "$1" ] || return 0
	awk -F '\t' -v f="$2" 'function norm(s) { gsub(/\.[0-9]+/, "", s); return s }
		/^su: / { split($0, w, " "); if (norm(w[2]) == norm(f)) { print w[3]; exit } next }
		{ n = split($1, a, ":") } norm(a[n]) == norm(f) && $3 == "static" { print $2; exit }' "$1"
}

# hex_minus A B: A - B of two hex words (no 0x), in decimal: bc, for
# words past the shell's signed 64 bits. hex_plus A N: A + N, in hex.
hex_minus() { echo "ibase=16; $(echo "$1" | tr a-f A-F) - $(echo "$2" | tr a-f A-F)" | bc; }
hex_plus() { echo "obase=16; ibase=16; $(echo "$1" | tr a-f A-F) + $(printf '%X' "$2")" | bc | tr A-F a-f; }

# same_place A B: two "func+0xoff" the same, or A the module's init by
# the alias module_init() gives it (init_module, which the engine, drgn
# and gdb name; kallsyms the function's own name) at B's offset.
same_place() {
	[ "$1" = "$2" ] || { [ "${1%%+*}" = init_module ] && [ "${1#*+}" = "${2#*+}" ]; }
}

# crash_agrees NAME JSON LOG [SU]: stackov's verdict on a crash that was
# no stack overflow (JSON: {"kind": ...}) against the kernel's own report
# of that crash (LOG: the kernel's lines, their times taken off, or a
# tests/replay facts file): its task, the function the stack protector
# names, the stack end it found overwritten, the BUG() or the faulting
# RIP, the fault's address (CR2, which the dump does not keep: stackov
# decodes the faulting instruction); and the compiler's frame size of the
# function whose canary was smashed (SU: a frames.su or the facts file).
crash_agrees() {
	c_name=$1 c_j=$2 c_log=$3 c_su=${4:-}
	if ! jq -e .kind "$c_j" >/dev/null 2>&1; then
		# A double fault no guard page explains (a frame that jumped
		# the guard, on ORC): the engine refuses, naming it.
		if grep -Eq 'PANIC: double fault|kernel stack overflow \(double-fault\)' "$c_log"; then
			check "$c_name: a double fault and no guard-page hit in the kernel's log: refused, naming the double fault ($(jq -r .refusal "$c_j" | cut -c1-90))" \
				jq_true '.refusal | test("^stackov: the double fault at ")' "$c_j"
		else
			fail "$c_name: no guard-page hit, and stackov gave no verdict on the crash: $(head -c 160 "$c_j")"
		fi
		return
	fi
	c_kind=$(jfield "$c_j" kind) c_at=$(jfield "$c_j" at)
	c_oops=$(LC_ALL=C sed -n 's/^CPU: [0-9]* \(UID: [0-9]* \)\{0,1\}PID: \([0-9]*\) Comm: \([^ ]*\) .*/\2 \3/p' "$c_log" | head -1)
	check "$c_name: the crash's task ($(jfield "$c_j" pid) $(jfield "$c_j" comm)) is the kernel's ($c_oops)" \
		[ "$(jfield "$c_j" pid) $(jfield "$c_j" comm)" = "$c_oops" ]
	c_rip=$(sed -n 's/^RIP: 0010:\([^ /]*\)\/.*/\1/p' "$c_log" | head -1)
	c_canary=$(sed -n 's/.*Kernel stack is corrupted in: \([^ /]*\)\/.*/\1/p' "$c_log" | head -1)
	c_addr=$(sed -n 's/^BUG: unable to handle page fault for address: \([0-9a-f]*\)$/\1/p
		s/^BUG: kernel NULL pointer dereference, address: \([0-9a-f]*\)$/\1/p' "$c_log" | head -1 |
		sed 's/^0*\(.\)/\1/')
	if [ -n "$c_canary" ]; then
		check "$c_name: the stack protector names $c_canary; stackov: a $c_kind at $c_at" [ "$c_kind $c_at" = "canary $c_canary" ]
		check "$c_name: the canary's slot $(jfield "$c_j" slot) holds $(jfield "$c_j" slot_value), not the task's canary $(jfield "$c_j" canary)" \
			jq_true '.slot != "" and .canary != "" and .slot_value != .canary' "$c_j"
		c_fn=$(jfield "$c_j" function) c_b=$(su_of "$c_su" "$(jfield "$c_j" function)")
		c_fb=''
		[ -z "$(jfield "$c_j" frame_hi)" ] || c_fb=$(hex_minus "$(jfield "$c_j" frame_hi)" "$(jfield "$c_j" frame_lo)")
		if [ -z "$c_b" ]; then
			skip "$c_name: $c_fn's frame beside the compiler's frame size" "no -fstack-usage size of $c_fn in ${c_su:-nothing}"
		else
			check "$c_name: $c_fn's frame, ${c_fb:-unknown} bytes, is the compiler's (-fstack-usage: $c_b)" [ "$c_fb" = "$c_b" ]
		fi
	elif grep -Eq 'corrupted stack end detected|Thread overran stack, or stack corrupted' "$c_log"; then
		check "$c_name: the kernel found the stack's end overwritten; stackov: $c_kind, STACK_END_MAGIC $(jfield "$c_j" end_magic) ($(jfield "$c_j" end_word))" \
			[ "$c_kind $(jfield "$c_j" end_magic)" = "end-magic overwritten" ]
	elif grep -q '^kernel BUG at ' "$c_log"; then
		check "$c_name: kernel BUG: stackov says a BUG() ($c_kind)" [ "$c_kind" = bug ]
		check "$c_name: at the kernel's RIP $c_rip: stackov's at $c_at" same_place "$c_at" "$c_rip"
	elif [ -n "$c_addr" ]; then
		check "$c_name: the kernel's fault address $c_addr is stackov's ($(jfield "$c_j" fault), from $(jfield "$c_j" fault_how))" \
			[ "$(jfield "$c_j" fault)" = "$c_addr" ]
		check "$c_name: the faulting RIP $c_rip is stackov's $c_kind at $c_at" same_place "$c_at" "$c_rip"
		case $c_kind in
		oops | freed-stack) pass "$c_name: a fault that is no overflow: stackov's $c_kind" ;;
		*) fail "$c_name: a fault, and stackov says $c_kind" ;;
		esac
	else
		check "$c_name: no canary, stack end, BUG() or fault in the kernel's log: stackov says a panic ($c_kind)" [ "$c_kind" = panic ]
	fi
}

# crash_known NAME WHAT JSON LOG: what a scenario or test module (WHAT)
# is known to do to its stack, in stackov's verdict on its crash.
crash_known() {
	c_name=$1 c_what=$2 c_j=$3 c_log=$4
	case $c_what in
	CANARY_SMASH)
		# canary_victim() memsets 24 bytes of 'A' over buf[16] and the canary
		check "$c_name: the slot holds the 'A's canary_victim() wrote over it ($(jfield "$c_j" slot_value))" \
			[ "$(jfield "$c_j" slot_value)" = 4141414141414141 ]
		# its source: char buf[16], right below the canary
		check "$c_name: the buffer below the slot is canary_victim()'s buf[16], by its DWARF ($(jfield "$c_j" buffer), $(jfield "$c_j" buffer_bytes) bytes at $(jfield "$c_j" buffer_lo))" \
			[ "$(jfield "$c_j" buffer) $(jfield "$c_j" buffer_bytes) $(hex_plus "$(jfield "$c_j" buffer_lo)" 16)" = "buf 16 $(jfield "$c_j" slot)" ] ;;
	STACK_END_SMASH)
		# it writes 0 into the end word, then schedules: no overflow
		check "$c_name: the end word holds the 0 the scenario wrote ($(jfield "$c_j" end_word))" [ "$(jfield "$c_j" end_word)" = 0 ]
		check "$c_name: the stack was used $(jfield "$c_j" left) bytes short of its end: a stray write, said so" \
			sh -c "[ $(jfield "$c_j" left) -gt 0 ] && grep -q 'a stray write, not an overflow' '${c_j%.json}.txt'" ;;
	STACK_USE_AFTER_EXIT)
		check "$c_name: the fault is on a freed stack, in vmalloc space no area holds ($(jfield "$c_j" kind), $(jfield "$c_j" where))" \
			[ "$(jfield "$c_j" kind) $(jfield "$c_j" where)" = "freed-stack unmapped" ] ;;
	STACK_SG)
		check "$c_name: DEBUG_SG's BUG_ON, a BUG() ($(jfield "$c_j" kind))" [ "$(jfield "$c_j" kind)" = bug ] ;;
	NEAR_MISS | near_miss)
		# its kthread dived and slept (what it said), then init oopsed
		c_said=$(sed -n "s/.*near_miss: [0-9]* frames of near_miss_dive, the deepest \([0-9]*\) bytes above the stack's end$/\1/p" "$c_log" | head -1)
		check "$c_name: an oops in init, in the NULL page ($(jfield "$c_j" kind) $(jfield "$c_j" where))" \
			[ "$(jfield "$c_j" kind) $(jfield "$c_j" where)" = "oops null" ]
		check "$c_name: the near miss elsewhere: the near_miss kthread, ${c_said:-?} bytes left as it said, in near_miss_dive ($(jfield "$c_j" near), $(jfield "$c_j" near_left), $(jfield "$c_j" near_in))" \
			jq_true --arg n "${c_said:-x}" '(.near | endswith("\"near_miss\"")) and (.near_left | tostring) == $n and .near_in == "near_miss_dive"' "$c_j" ;;
	init_oops | INIT_OOPS)
		check "$c_name: a write through NULL: the fault in the NULL page ($(jfield "$c_j" fault) $(jfield "$c_j" where))" \
			[ "$(jfield "$c_j" kind) $(jfield "$c_j" fault) $(jfield "$c_j" where)" = "oops 0 null" ] ;;
	canary_copy | CANARY_COPY)
		# "canary_copy: copying 23 bytes into the 16-byte buffer at X":
		# the slot is the word above the buffer; bytes 16..22 of
		# "labtrig-canary-copy-22" and its NUL went into its low 7.
		c_buf=$(sed -n 's/.*canary_copy: copying 23 bytes into the 16-byte buffer at \([0-9a-f]*\)$/\1/p' "$c_log" | head -1)
		check "$c_name: the slot is the word above the module's buffer at ${c_buf:-?} ($(jfield "$c_j" slot))" \
			[ "$(jfield "$c_j" slot)" = "$(hex_plus "${c_buf:-0}" 16)" ]
		check "$c_name: the buffer by its DWARF is copy_name()'s buf[16], where the module printed it ($(jfield "$c_j" buffer), $(jfield "$c_j" buffer_bytes) bytes at $(jfield "$c_j" buffer_lo))" \
			[ "$(jfield "$c_j" buffer) $(jfield "$c_j" buffer_bytes) $(jfield "$c_j" buffer_lo)" = "buf 16 ${c_buf:-?}" ]
		check "$c_name: its low 7 bytes are the name's last 6 and its NUL, its top byte the canary's ($(jfield "$c_j" slot_value))" \
			[ "$(jfield "$c_j" slot_value)" = "$(jfield "$c_j" canary | cut -c1-2)0032322d79706f" ] ;;
	*) skip "$c_name: what $c_what is known to do to its stack" "nothing known of $c_what beyond its log" ;;
	esac
}

# qemu_boot_survived NAME RUN: the second boot (QEMU's dump) of scenario
# NAME ended by an outcome its vmap column allows that leaves no dump (a
# frame that lands in mapped memory in one boot and in a hole in another),
# or the module said it could not set the scenario up in that boot.
qemu_boot_survived() {
	qres=$(run_outcome "$2" qemu-dump 2>/dev/null) || return 1
	[ -n "$qres" ] || return 1
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
# vmlinux, says what crash's stackov says on that boot's dump
# (RUN/stackov-crash-DUMP.json): on the kdump boot, its console (in which
# the oops never appears: printk from the #DF handler is deferred, and the
# capture kernel starts first) else the log read from vmcore; on QEMU's
# boot, its console, else (6.12's console may stop inside the report) the
# log read from QEMU's dump: the stack, the task, the entry, the cycle's
# functions and its bytes, and each frame's bytes, for each function in
# both (the first frame of it after the faulting one, in crash's frame
# list). A dump with no guard-page hit: none in the log either (a canary,
# an overwritten STACK_END_MAGIC is said as such, no overflow).
# svg_agrees NAME RUN: RUN/stack.svg, the overflowed stack drawn, is
# well-formed and draws the verdict's stack, frames and bytes (on the dump
# whose recording the report drew it from: kdump's, else QEMU's).
svg_agrees() {
	d=vmcore
	[ -f "$2/replay-vmcore.gz" ] || d=qemu-vmcore
	j=$2/stackov-crash-$d.json
	if is_refusal "$j"; then
		# No stack the engine knows (a double fault below them all): no
		# picture, and the report says why, in the refusal's words.
		check "$1: no stack.svg on $d, and the report says why ($(head -c 80 "$2/stack.why" 2>/dev/null))" \
			sh -c "[ ! -f '$2/stack.svg' ] && [ \"\$(cat '$2/stack.why')\" = \"\$(jq -r .refusal '$j')\" ]"
		return
	fi
	if ! jq -e '.stack or .kind' "$j" >/dev/null 2>&1; then
		fail "$1: stack.svg: stackov gave no verdict on $d to draw: $(head -c 120 "$j" 2>/dev/null || echo nothing)"
		return
	fi
	so=$(python3 "$LAB_ROOT/tests/svg-check.py" "$2/stack.svg" "$j" "$2/stackov-crash-$d.txt" 2>&1) && src=0 || src=$?
	check "$1: stack.svg draws the verdict on $d: $(printf '%s\n' "$so" | head -3 | paste -sd';' -)" [ "$src" = 0 ]
}
explain_agrees() {
	for d in vmcore qemu-vmcore; do
		if [ ! -s "$2/stackov-crash-$d.json" ]; then
			skip "$1: the log alone beside crash's stackov on $d" \
				"crash's stackov gave nothing on $d (readers_agree says why, or the boot left no $d)"
			continue
		fi
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
	j=$erun/stackov-crash-$dump.json e=$erun/explain-$dump.json
	bin=$("$LAB_ROOT/vm/builders/host-tools.sh" stackov-log) || { fail "$name: stackov-log does not build"; return; }
	got='' cut='' tried=''
	for f in "$@"; do
		[ -f "$erun/$f" ] || continue
		tried="$tried $f"
		"$bin" -j -v "$erun/vmlinux" -m "$erun" "$erun/$f" >"$e.try" 2>&1 ||
			{ [ -n "$got" ] || mv "$e.try" "$e"; continue; }
		got=$f
		mv "$e.try" "$e"
		grep -q '"ended":true' "$e" && break
		cut="$cut$f, "
	done
	rm -f "$e.try"
	if [ -z "$tried" ]; then
		fail "$name: none of the logs ($*) is in the run"
		return
	fi
	f=${got:-${tried##* }}${cut:+; cut short in ${cut%, }}
	if jq -e '.refusal or .kind' "$j" >/dev/null; then
		# No overflow in the dump: none in the log alone either, and the
		# crash's kind where the log names one (a canary, a stack end, a
		# fault on an unmapped vmalloc address: a freed stack's).
		lk=$(jfield "$e" kind 2>/dev/null || true) dk=$(jq -r '.kind // "refusal"' "$j")
		check "$name: no guard-page hit in the dump, none in the log alone (${lk:-$(head -1 "$e")})" \
			sh -c "grep -q '^no stack overflow in this log' '$e' || grep -Eq '^\{\"kind\":\"(canary|end-magic|double-fault|freed-stack)\"' '$e'"
		case $dk in
		canary | end-magic | freed-stack)
			check "$name: the log alone names the dump's crash: $dk (the log's: ${lk:-none})" [ "$lk" = "$dk" ] ;;
		*) skip "$name: the log alone names the dump's crash" "a crash the log explainer has no kind for ($dk)" ;;
		esac
		return
	fi
	check "$name: stackov-log finds the overflow in the log ($f)" grep -q '^{' "$e"
	for k in stack pid comm cpu entry; do
		check "$name: the log alone says the dump's $k ($(jfield "$j" $k))" [ "$(jfield "$e" $k)" = "$(jfield "$j" $k)" ]
	done
	dc=$(jfield "$j" cycle) lc=$(jfield "$e" cycle)
	if [ "$(jfield "$j" cycle_reps)" = 0 ]; then
		check "$name: no cycle in the dump, and none in the log alone ($(jfield "$e" cycle_reps) turns)" \
			[ "$(jfield "$e" cycle_reps)" = 0 ]
	else
		check "$name: the log alone finds the dump's cycle (${dc% x*})" [ "$(rot "${lc% x*}")" = "$(rot "${dc% x*}")" ]
	fi
	case $dc in
	*'bytes per cycle'*)
		check "$name: and its bytes (${dc##*\(})" [ "${lc##*\(}" = "${dc##*\(}" ] ;;
	*) skip "$name: the cycle's bytes in the log alone" "the dump's cycle has no bytes per cycle ($dc)" ;;
	esac
	sed -n '/^  frames: /,/^[^ ]/p' "$erun/stackov-crash-$dump.txt" >"$erun/explain.crash-frames"
	/usr/bin/python3 - "$e" "$erun/explain.crash-frames" "$erun/vmlinux" >"$erun/explain.bytes" <<'PY'
import functools, json, re, subprocess, sys
log = json.loads(open(sys.argv[1]).readline())
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

# drgn_count RUN DUMP FN: how many FN frames drgn's own unwinder lists on
# DUMP (its stack_trace in reader-drgn-DUMP.out, "(xN)" a run of N); status
# 1 when drgn listed no stack trace at all.
drgn_count() {
	o=$1/reader-drgn-$2.out
	grep -q '^stack trace (' "$o" 2>/dev/null || return 1
	sed -n '/^stack trace (/,/^$/p' "$o" | awk -v f=" $3 at " \
		'index($0, f) { n += match($0, /\(x[0-9]+\)/) ? substr($0, RSTART + 2, RLENGTH - 3) : 1 } END { print n + 0 }'
}

# readers_agree NAME RUN FN RECURSES [DUMPS]: on each dump of RUN (kdump's:
# crash on vmcore, gdb on vmcore.elf, drgn on vmcore; QEMU's: crash on
# qemu-vmcore, gdb and drgn on qemu-vmcore.elf, its ELF dump with paging),
# the readers' verdicts (RUN/stackov-READER-DUMP.json and .txt) are the
# same word for word, JSON and text, and agree with that dump's own kernel
# log: the BUG line's stack kind, fault address and bounds, the oops's
# task; and, when the scenario recurses (RECURSES is yes), the folded
# cycle holds FN as many times as drgn's own unwinder finds FN frames.
# Without a guard-page hit, the crash's verdict agrees with the kernel's
# report of it (crash_agrees).
# DUMPS (default "vmcore qemu-vmcore") narrows it.
readers_agree() {
	name=$1 arun=$2 afn=$3 recurses=$4
	for d in ${5:-vmcore qemu-vmcore}; do
		if ! dump_path "$arun" "$d" >/dev/null; then
			if [ "$d" = qemu-vmcore ] && qemu_boot_survived "$name" "$arun"; then
				pass "$name: QEMU's own boot left no dump, for a reason the table or the module gives (ended by $qres)"
			else
				fail "$name: no $d to read ($(rec_get "$arun" '.dumps[] | select(.name == $n) | .reason' --arg n "$d" 2>/dev/null || echo "the run's record names none"))"
			fi
			continue
		fi
		for r in crash gdb drgn; do
			v=$arun/stackov-$r-$d
			check "$name: on $d, $r's stackov gave a verdict or a refusal" [ -s "$v.json" ]
			[ "$r" = crash ] && continue
			check "$name: on $d, $r's stackov -j is crash's, word for word" cmp -s "$arun/stackov-crash-$d.json" "$v.json"
			if jq -e .refusal "$arun/stackov-crash-$d.json" >/dev/null 2>&1; then
				skip "$name: on $d, $r's stackov text beside crash's" "a refusal is one line, compared above"
			else
				check "$name: on $d, $r's stackov verdict text is crash's, line for line" cmp -s "$arun/stackov-crash-$d.txt" "$v.txt"
			fi
		done
		# Every stack's headroom (stackov -u -j), whatever the verdict.
		for r in crash gdb drgn; do
			h=$arun/headroom-$r-$d.json
			check "$name: on $d, $r's stackov -u gave every stack's headroom" jq -e '.stacks | length > 0' "$h"
			[ "$r" = crash ] && continue
			check "$name: on $d, $r's headroom of every stack is crash's, word for word" \
				cmp -s "$arun/headroom-crash-$d.json" "$h"
		done
		j=$arun/stackov-crash-$d.json
		dmesg=$arun/$(rec_get "$arun" '.dumps[] | select(.name == $n) | .dmesg' --arg n "$d")
		if [ ! -f "$dmesg" ]; then
			fail "$name: on $d, no kernel log was read from the dump to check stackov against"
			continue
		fi
		bug=$(kernel_log "$dmesg" | sed -n 's/.*BUG: \([A-Z]*\) stack guard page was hit at \([0-9a-f]*\) (stack is \([0-9a-f]*\)\.\.\([0-9a-f]*\))$/\1 \2 \3..\4/p' | head -1)
		if [ -z "$bug" ]; then
			kernel_log "$dmesg" >"$arun/$d.klog"
			crash_agrees "$name: on $d" "$j" "$arun/$d.klog" "$arun/frames.su"
			continue
		fi
		if ! jq -e .stack "$j" >/dev/null 2>&1; then
			fail "$name: on $d stackov gave no verdict for: BUG: $bug"
			continue
		fi
		check "$name: on $d, stackov's stack, fault and bounds are the BUG line's ($bug)" \
			[ "$(jfield "$j" stack) $(jfield "$j" fault) $(jfield "$j" lo)..$(jfield "$j" hi)" = "$bug" ]
		# The oops prints a comm's bytes as they are (makedumpfile's
		# dmesg escapes them: \xNN, sign-extended past 0x7f to
		# \xffffffNN; perl decodes both); the readers' JSON gives each
		# byte past ASCII as the code point of its value (\u00e9 for
		# 0xe9): Latin-1, read back to UTF-8 to compare.
		oops=$(kernel_log "$dmesg" | LC_ALL=C sed -n 's/^CPU: [0-9]* \(UID: [0-9]* \)\{0,1\}PID: \([0-9]*\) Comm: \([^ ]*\) .*/\2 \3/p' |
			head -1 | perl -pe 's/\\x(?:ffffff)?([0-9a-f]{2})/chr(hex($1))/ge' | iconv -f latin1 -t utf-8)
		check "$name: on $d, stackov's task ($(jfield "$j" pid) $(jfield "$j" comm)) is the oops's ($oops)" \
			[ "$(jfield "$j" pid) $(jfield "$j" comm)" = "$oops" ]
		cyc=$(jfield "$j" cycle)
		h=$arun/headroom-crash-$d.json
		if [ "$recurses" != yes ]; then
			check "$name: on $d, no recursion to fold: no turns of a cycle (cycle '$cyc')" [ "$(jfield "$j" cycle_reps)" = 0 ]
			skip "$name: on $d, stackov -u's deepest stack beside the BUG line's" \
				"no recursion: a frame the CPU reserved and never wrote leaves the stack's words zero, and stacks are measured by the words written"
			continue
		fi
		# A recursion writes every turn: the deepest stack of the dump is
		# the one the BUG line names.
		deep=$(jq -r '.stacks[0] | .stack + " " + .lo + ".." + .hi' "$h" 2>/dev/null || true)
		check "$name: on $d, stackov -u's deepest stack ($deep) is the BUG line's (${bug%% *} ${bug##* })" \
			[ "$deep" = "${bug%% *} ${bug##* }" ]
		if ! n=$(drgn_count "$arun" "$d" "$afn"); then
			fail "$name: on $d, drgn's own unwinder gave no stack trace to count $afn frames in"
			continue
		fi
		reps=$(jfield "$j" cycle_reps)
		check "$name: on $d, the folded cycle ($cyc) has $afn" cycle_has "$cyc" "$afn"
		# The recursion's last whole turn is within one turn of the end.
		cb=$(printf '%s\n' "$cyc" | sed -n 's/.*(\([0-9]*\) bytes per cycle)$/\1/p')
		left=$(jq -r '.stacks[0].left' "$h" 2>/dev/null || true)
		check "$name: on $d, the recursion came within a turn (${cb:-?} bytes) of its stack's end: ${left:-?} bytes never used" \
			in_range "$left" 0 "$cb"
		# One function's cycle: every frame of it is a turn. A longer
		# one may end inside a turn: one frame of $afn more.
		case $cyc in
		*' -> '*) check "$name: on $d, $reps turns; drgn's own unwinder finds $n $afn frames" \
			in_range "$n" "$reps" $((reps + 1)) ;;
		*) check "$name: on $d, $reps turns, as many $afn frames as drgn's own unwinder finds ($n)" \
			[ "$reps" = "$n" ] ;;
		esac
	done
}

# frames_of OUT KIND: the functions of a reader's frames, in order, gcc's
# .cold/.isra suffixes dropped and runs of one function counted once:
# KIND stackov (a stackov verdict text's frames), drgn (drgn's own
# stack_trace in its reader output) or crash (crash's bt, from its PID:
# line on, which starts in the panic path on the DF stack).
frames_of() {
	case $2 in
	stackov) sed -n '/^  frames: /,/^[^ ]/p' "$1" | awk '$1 ~ /^#[0-9]+$/ { print $3 }' ;;
	drgn) sed -n '/^stack trace/,/^$/p' "$1" | awk '$1 ~ /^#[0-9]/ { print $3 }' ;;
	crash) sed -n '/^PID: .*COMMAND: /,/^PID: /p' "$1" | awk '$1 ~ /^#[0-9]/ { print $3 }' ;;
	esac | sed 's/\..*//' | uniq
}

# gdb_frames_in RUN DUMP OTHER: the functions of gdb's stackov frames on
# DUMP, in order, are among the frames OTHER lists on the same dump: drgn
# (drgn's own unwinder, which also lists inlined frames) or crash (its bt).
gdb_frames_in() {
	frames_of "$1/stackov-gdb-$2.txt" stackov >"$1/gdbframes-$2"
	frames_of "$1/reader-$3-$2.out" "$3" >"$1/otherframes-$3-$2"
	[ -s "$1/gdbframes-$2" ] || return 1
	awk 'NR == FNR { g[++n] = $0; next } i < n && $0 == g[i + 1] { i++ } END { exit i < n }' \
		"$1/gdbframes-$2" "$1/otherframes-$3-$2"
}

# peers_agree NAME RUN: on each dump of RUN where stackov gave a verdict,
# stackov's frames beside crash's bt and drgn's stack_trace (peers.json,
# vm/read/peers.sh): as many frames from the fault to the entry, the same
# functions in the same order. A peer that stopped short passes only when
# the reason is a limitation of that peer the lab has traced (crash's code,
# drgn's frame limit) and every frame it gave is stackov's, in order; one
# that differs, only when peers.sh traced the difference (crash counting
# the push a fault came at in the interrupted frame). drgn's StackKind (drgn 0.1.0 and
# later; a SKIP before) agrees with stackov's stack, or differs as its
# source says it must (an sp in a guard page is in no range: UNKNOWN).
peers_agree() {
	name=$1 prun=$2
	for d in vmcore qemu-vmcore; do
		if ! jq -e '.stack or (.kind and .frames > 0)' "$prun/stackov-crash-$d.json" >/dev/null 2>&1; then
			skip "$name: stackov's frames beside its peers' on $d" \
				"stackov gave no frames on $d: $(head -c 100 "$prun/stackov-crash-$d.json" 2>/dev/null || echo 'no verdict')"
			continue
		fi
		if ! jq -e --arg d "$d" 'any(.[]; .dump == $d and .peers)' "$prun/peers.json" >/dev/null 2>&1; then
			fail "$name: on $d, peers.json compares no peer: $(jq -r --arg d "$d" '.[] | select(.dump == $d) | .error // .line' "$prun/peers.json" 2>/dev/null)"
			continue
		fi
		for p in crash drgn drgn-stackkind; do
			jq -c --arg d "$d" --arg p "$p" '.[] | select(.dump == $d) | .peers[] | select(.peer == $p)' \
				"$prun/peers.json" >"$prun/peer-$p-$d.json"
			[ -s "$prun/peer-$p-$d.json" ] || { fail "$name: on $d, peers.json has no $p"; continue; }
			st=$(jfield "$prun/peer-$p-$d.json" status) line=$(jfield "$prun/peer-$p-$d.json" line)
			known=$(jq -r '.known // empty' "$prun/peer-$p-$d.json")
			case $st in
			agrees | agrees-but-init) pass "$name: $line" ;;
			none) skip "$name: on $d, drgn's StackKind beside stackov's stack" "$line" ;;
			differs)
				# A difference the lab has traced (peers.sh names it
				# from the dump's facts) is an answer; any other fails.
				if [ -n "$known" ]; then
					pass "$name: $line"
				else
					fail "$name: $line: a difference the lab has not traced"
				fi ;;
			stopped)
				same=$(jq -r '.prefix_same' "$prun/peer-$p-$d.json")
				if [ -z "$known" ]; then
					fail "$name: $line: the reason it stopped is no limitation the lab has traced"
				elif [ "$same" != true ]; then
					fail "$name: $line: the frames it gave are not stackov's, frame for frame"
				else
					pass "$name: as far as it goes, $line; each of its frames is stackov's ($known)"
				fi ;;
			*) fail "$name: $line" ;;
			esac
		done
	done
}
