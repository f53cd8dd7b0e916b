#!/bin/sh
# shellcheck disable=SC2154 # alt and failed are set by tests/lib.sh
# tests/catalogue.sh: sourced by tests/t-30-catalogue-vmap.sh,
# tests/t-33-catalogue-orc.sh, t-34 and t-35, after tests/lib.sh.
#
# catalogue VARIANT "SCENARIO..." [COLUMN]: each scenario through make
# overflow-demo on VARIANT's kernel (kdump armed; a fatal one also booted
# for QEMU's dump), checked against its line in tests/scenarios.tsv, in
# COLUMN (default VARIANT): the outcome (how the run ended, what the
# kernel's log says: on a kdump run the log read from the dump) and, for a
# fatal one, that the kernel's report and drgn's stack trace both name the
# function, that drgn's crashed thread is the expected one, and that drgn
# puts that function's frames on the stack the table names (for a
# guard-page hit, also the one the kernel's BUG line names), and that the
# three stackovs (crash, gdb, drgn) say the same, word for word, on kdump's
# dump and on QEMU's, and what each dump's BUG line, oops and drgn's own
# unwinder say (readers_agree in tests/lib.sh); that crash's bt and drgn's
# stack_trace find the same frames, and drgn's StackKind stackov's stack,
# or differ only as the lab has traced (peers_agree); on vmap and orc, for
# a subset, that the other suite's readers (sid's, READERS) give the same
# verdicts (other_agrees). Writes out/catalogue-VARIANT.txt: one line per
# scenario, its outcome; out/peers-VARIANT.tsv: every peer's status.

# alt_conditions NAME COLUMN ALT: the conditions of alternative ALT of
# NAME's outcome in COLUMN, one a line.
alt_conditions() {
	scenario_field "$1" "$2" | awk -v n="$3" '{ k = split($0, a, / \|\| /); if (n <= k) print a[n] }' |
		sed 's/ && /\n/g'
}
# expects_guard_hit NAME COLUMN ALT: that alternative has the kernel's
# guard-page BUG line (a condition, not its negation).
expects_guard_hit() { alt_conditions "$1" "$2" "$3" | grep -v '^!' | grep -q 'stack guard page was hit'; }
# What lkdtm-ext's recursion scenarios print as they begin (recurse.c):
# says_comm NAME: "recursing in CTX: comm COMM ..." (all but hardirq's);
# says_preempt NAME: with the preempt_count (say_where()'s callers).
says_comm() { case $1 in RECURSE_TASK | RECURSE_KTHREAD | RECURSE_WORKQUEUE | RECURSE_LOCKED | RECURSE_SOFTIRQ) ;; *) return 1 ;; esac; }
says_preempt() { case $1 in RECURSE_TASK | RECURSE_KTHREAD | RECURSE_WORKQUEUE | RECURSE_LOCKED) ;; *) return 1 ;; esac; }
recurses() { case $1 in RECURSE_*) echo yes ;; *) echo no ;; esac; }
# num VALUE: a number given in hex (0x1f) or decimal, in decimal; nothing
# for anything else (an empty value stays empty).
num() { case $1 in 0x[0-9a-fA-F]* | [0-9]*) echo $(($1)) ;; esac; }
has_dump() { dump_path "$1" "$2" >/dev/null; }
# su_agrees NAME RUN: a recursion's bytes per cycle, as stackov measured
# them on the stack, are the compiler's own frame sizes of the cycle's
# functions (-fstack-usage), a truth that shares no code with the engine.
su_agrees() {
	if [ "$(recurses "$1")" != yes ]; then
		skip "$1: the cycle's bytes beside the compiler's frame sizes" "$1 does not recurse"
		return
	fi
	for d in vmcore qemu-vmcore; do
		j=$2/stackov-crash-$d.json
		jq -e .stack "$j" >/dev/null 2>&1 || continue
		got=$(jq -r .cycle "$j" | sed -n 's/.*(\([0-9]*\) bytes per cycle)$/\1/p')
		check "$1: on $d, the bytes per cycle (${got:-none}) are the compiler's frame sizes of its functions (-fstack-usage: $(su_cycle "$j" "$2"))" \
			[ "$got" = "$(su_cycle "$j" "$2")" ]
	done
}
keep_replay() { "$LAB_ROOT/tests/replay/keep.sh" "$1" "$2" "$LAB_OUT/replay-kept" >/dev/null; }

# The other suite's readers on the same dumps: sid's (the newest crash,
# gdb and drgn), or trixie's when the catalogue ran on sid's. On vmap and
# orc, for OTHER_SCENARIOS (default RECURSE_TASK and RECURSE_HARDIRQ, a
# task's overflow and an IRQ stack's; "all": every fatal one).
other_suite() { if [ "$READERS" = sid ]; then echo trixie; else echo sid; fi; }
other_reads() {
	case $cn in vmap | orc) ;; *) return 1 ;; esac
	case " ${OTHER_SCENARIOS:-RECURSE_TASK RECURSE_HARDIRQ} " in
	" all " | *" $1 "*) return 0 ;;
	esac
	return 1
}
# other_agrees NAME RUN: the other suite's report on a copy of RUN (its
# dumps hard-linked): its readers are that suite's, and each reader's
# stackov verdict is byte for byte the one the catalogue's readers gave;
# its peers as peers_agree has them.
other_agrees() {
	os=$(other_suite)
	orun=$2-$os
	rm -rf "$orun"
	cp -al "$2" "$orun"
	READERS=$os "$LAB_ROOT/vm/read/report.sh" "$orun" >"$orun.out" 2>&1 || true
	check "$1: $os's readers read it ($(jq -c .versions "$orun/readers.json" 2>/dev/null))" \
		jq_true --arg s "$os" '.suite == $s and (.versions | has("crash") and has("gdb") and has("drgn"))' "$orun/readers.json"
	for d in vmcore qemu-vmcore; do
		[ -f "$2/stackov-crash-$d.json" ] || continue
		for r in crash gdb drgn; do
			check "$1: on $d, $os's $r gives stackov's verdict byte for byte as $READERS's" \
				cmp "$2/stackov-$r-$d.json" "$orun/stackov-$r-$d.json"
		done
	done
	peers_agree "$1 ($os)" "$orun"
	# For the note's table of peers: every peer's line, by suite.
	for rr in "$2" "$orun"; do
		jq -r --arg s "$1" --arg cn "$cn" '.[] | .dump as $d | (.peers // [])[] |
			[$cn, $s, $d, .peer, (.version // "-"), .status, (.known // "-")] | @tsv' "$rr/peers.json" 2>/dev/null
	done >>"$LAB_OUT/peers-$cn.tsv"
	[ "${KEEP:-0}" = 1 ] || rm -f "$orun/qemu-dump/qemu-vmcore.elf"
}

# hex16 HEX: HEX as 16 lowercase digits, no 0x. hex_sub HEX N: HEX - N
# (N hex), as 16 digits (bc: shell arithmetic stops at 2^63).
hex16() { echo "${1#0x}" | tr 'A-F' 'a-f' | awk '{ printf "%16s\n", $0 }' | tr ' ' 0; }
hex_sub() { hex16 "$(echo "obase=16; ibase=16; $(hex16 "$1" | tr a-f A-F) - $(echo "${2#0x}" | tr a-f A-F)" | bc)"; }
hex_add() { hex16 "$(echo "obase=16; ibase=16; $(hex16 "$1" | tr a-f A-F) + $(echo "${2#0x}" | tr a-f A-F)" | bc)"; }
# in_bounds LO HI ADDR...: each ADDR (16 hex digits) in [LO, HI); at
# least one ADDR.
in_bounds() {
	ib_lo=$1 ib_hi=$2
	shift 2
	[ $# -ge 1 ] || return 1
	for a in "$@"; do
		[ "$(expr "$a" \>= "$ib_lo")" = 1 ] && [ "$(expr "$a" \< "$ib_hi")" = 1 ] || return 1
	done
}
# fn_sps DRGN_OUT FN: the stack pointers drgn's own unwinder gives FN's
# frames (the "sp" of each line of its trace), 16 hex digits each.
fn_sps() {
	sed -n '/^stack trace (/,/^$/p' "$1" | awk -v f=" $2 at " 'index($0, f) && $(NF - 1) == "sp" { print $NF }' |
		while read -r a; do hex16 "$a"; done
}

catalogue() {
	cv=$1 col=${3:-$1}
	cn=$(line_name "$cv")
	table=$LAB_OUT/catalogue-$cn.txt
	: >"$table"
	: >"$LAB_OUT/kerneloffset-$cn.txt"
	: >"$LAB_OUT/kstack-$cn.txt"
	: >"$LAB_OUT/peers-$cn.tsv"
	klog() { kernel_log "$log"; }
	in_log() { klog | grep -Eq -- "$1"; }
	outcome() { record_outcome "$table" 8 "$s"; }

	# fatal: the checks a kdump run gets beyond its outcome.
	fatal() {
		fn=$(scenario_field "$s" function)
		# The values for the alternative of the outcome that held ($alt).
		stack=$(per_alt "$(scenario_field "$s" stack)" "$alt")
		thread=$(per_alt "$(scenario_field "$s" thread)" "$alt")
		drgn=$run/reader-drgn-vmcore.out
		check "$s: kdump captured a vmcore (the run's record)" has_dump "$run" vmcore
		check "$s: the kernel's report names $fn" in_log "$fn(\\.cold)?\\+0x"
		bug=$(klog | sed -n 's/.*BUG: \([A-Z]*\) stack guard page was hit at [0-9a-f]* (stack is \([0-9a-f]*\)\.\.\([0-9a-f]*\))$/\1 \2 \3/p' | head -1)
		# shellcheck disable=SC2086 # three words
		set -- $bug
		kind=${1:-} blo=${2:-} bhi=${3:-}
		if expects_guard_hit "$s" "$col" "$alt"; then
			check "$s: the BUG line names the $stack stack (it says ${kind:-nothing})" [ "$kind" = "$stack" ]
		else
			skip "$s: the BUG line's stack" "the outcome that held (alternative $alt) has no guard-page BUG line"
		fi
		check "$s: drgn: the crashed thread is $thread" grep -Eq "^crashed thread: ($thread)" "$drgn"
		if says_comm "$s"; then
			said=$(klog | sed -n 's/.*recursing in [^:]*: comm \([^ ]*\) .*/\1/p' | head -1)
			dcomm=$(sed -n 's/^crashed thread: \([^ ]*\) pid .*/\1/p' "$drgn")
			check "$s: drgn's crashed thread ($dcomm) is the task the module said it ran in ($said)" [ "$dcomm" = "$said" ]
		else
			skip "$s: the task the module said it ran in" "its scenario names no task as it begins (recurse.c)"
		fi
		# The preempt_count the module printed as it began to recurse is
		# the one stackov gives for the fault (what the oops path added
		# since, taken off: the double fault's NMI level, 6.11's printk
		# emergency section).
		if says_preempt "$s"; then
			mpc=$(klog | sed -n 's/.*recursing in [^:]*: comm .* preempt_count \(0x[0-9a-f]*\|0\)$/\1/p' | head -1)
			spc=$(sed -n 's/^  atomic: .*; preempt_count \(0x[0-9a-f]*\).*/\1/p' "$run/stackov-crash-vmcore.txt" 2>/dev/null | head -1)
			check "$s: stackov's preempt_count is the one the module printed (${mpc:-none}; stackov: ${spc:-none})" \
				[ "$(num "$mpc")" = "$(num "$spc")" ]
		else
			skip "$s: the preempt_count the module printed" "its scenario prints none (recurse.c's say_where())"
		fi
		at=' at [^ ]+'
		check "$s: drgn: its stack trace has $fn" grep -Eq " $fn$at( |\$)" "$drgn"
		# Where drgn's own unwinder puts $fn's frames: on the stack the
		# kernel's BUG line bounds (its guard page below counted: a
		# faulting frame's stack pointer may be there), or, with no BUG
		# line, drgn's own task->stack and x86_64's THREAD_SIZE (16 KiB);
		# a frame that jumped the guard is below both.
		sps=$(fn_sps "$drgn" "$fn" | tr '\n' ' ')
		dlo=$(sed -n 's/^stack: *\(0x[0-9a-f]*\)\.\..*/\1/p' "$drgn")
		if [ -n "$blo" ]; then
			lo=$(hex_sub "$blo" 1000) hi=$bhi from="the BUG line's $blo..$bhi and the guard page below"
		elif [ -n "$dlo" ]; then
			lo=$(hex_sub "$dlo" 1000) hi=$(hex_add "$dlo" 4000) from="drgn's task stack $dlo + 16 KiB and the guard page below"
		else
			lo='' hi='' from="no bounds: no BUG line, and drgn gave no task stack"
		fi
		if [ "$stack" = - ]; then
			# shellcheck disable=SC2086 # one word an address
			check "$s: drgn: $fn's frames are on no stack of the task's (below $from: ${sps:-none})" \
				in_bounds 0000000000000000 "${lo:-0}" $sps
		else
			# shellcheck disable=SC2086 # one word an address
			check "$s: drgn: $fn's frames are on the $stack stack ($from: ${sps:-none})" \
				in_bounds "${lo:-0}" "${hi:-0}" $sps
		fi
		readers_agree "$s" "$run" "$fn" "$(recurses "$s")"
		su_agrees "$s" "$run"
		svg_agrees "$s" "$run"
		explain_agrees "$s" "$run"
		# Every error of a reader is one: crash's own limitations are
		# named as such, and a refusal the readers share is the verdict.
		check "$s: the summary lists no reader errors (crash's own limitations named apart)" \
			sh -c "! grep -q '^reader errors' '$LAB_OUT/demo-$cn-$s.out'"
		if expects_guard_hit "$s" "$col" "$alt"; then
			skip "$s: the crash's verdict, no overflow, in the summary" "a guard-page hit: the overflow's verdict"
		else
			if is_refusal "$run/stackov-crash-vmcore.json" || is_refusal "$run/stackov-crash-qemu-vmcore.json"; then
				# A double fault below no stack the engine knows (GUARD_JUMP).
				check "$s: with no guard-page hit, the refusal the readers share is the summary's verdict" \
					grep -q '^verdict: no stack overflow in this dump; stackov: ' "$LAB_OUT/demo-$cn-$s.out"
			else
				check "$s: with no guard-page hit, the summary's verdict is the crash's: no stack overflow" \
					grep -q '^no stack overflow: ' "$LAB_OUT/demo-$cn-$s.out"
			fi
			for d in vmcore qemu-vmcore; do
				[ -f "$run/stackov-crash-$d.json" ] || continue
				kernel_log "$run/$(rec_get "$run" '.dumps[] | select(.name == $n) | .dmesg' --arg n "$d")" >"$run/$d.klog" 2>/dev/null || true
				crash_known "$s: on $d" "$s" "$run/stackov-crash-$d.json" "$run/$d.klog"
			done
		fi
		# The offset KASLR drew for this boot (0 without), from the
		# dump's VMCOREINFO (either format has it, uncompressed).
		kof=$(grep -a -m1 -o 'KERNELOFFSET=[0-9a-f]*' "$run/vmcore.elf" "$run/vmcore" 2>/dev/null | head -1 | sed 's/^[^:]*://')
		check "$s: the dump's VMCOREINFO has KERNELOFFSET (${kof:-none})" [ -n "$kof" ]
		[ -n "$kof" ] && echo "$s $kof" >>"$LAB_OUT/kerneloffset-$cn.txt"
		peers_agree "$s" "$run"
		# The random stack offset stackov read for the syscall, beside
		# do_syscall_64's frame bytes (kstack_offsets checks them): every
		# dump entered by a syscall has both.
		for d in vmcore qemu-vmcore; do
			j=$run/stackov-crash-$d.json
			if ! jq_true '.entry | startswith("syscall")' "$j" >/dev/null 2>&1; then
				skip "$s: the random stack offset on $d" "no syscall entry in stackov's verdict on $d"
				continue
			fi
			# do_syscall_64's frame is on the task's stack: the frames of
			# an overflow of another stack (an interrupt's) end before it.
			if ! jq_true '.stack == "TASK"' "$j" >/dev/null 2>&1; then
				skip "$s: the random stack offset on $d beside do_syscall_64's frame" \
					"the overflowed stack is $(jq -r .stack "$j"), whose frames end before the task's do_syscall_64"
				continue
			fi
			ko=$(jq -r '.kstack_offset // empty' "$j")
			fb=$(awk '$1 ~ /^#[0-9]+$/ && $3 == "do_syscall_64" && $5 == "bytes" { print $4; exit }' \
				"$run/stackov-crash-$d.txt" 2>/dev/null)
			case $cv in
			orc | stock)
				check "$s: on $d, stackov read the random stack offset (${ko:-none}) and do_syscall_64's bytes (${fb:-none})" \
					sh -c "[ -n '$ko' ] && [ -n '$fb' ]"
				[ -n "$ko" ] && [ -n "$fb" ] && echo "$s $d $ko $fb" >>"$LAB_OUT/kstack-$cn.txt" ;;
			*)
				check "$s: on $d, no random stack offset on $cv (RANDOMIZE_KSTACK_OFFSET is off): stackov says none" \
					[ "$(jq -r .kstack_offset "$j")" = null ] ;;
			esac
		done
		# The recording of crash's answers, for make check's replay
		# (tests/c-20-replay.sh; copied into tests/replay/ to keep).
		check "$s: crash's answers to the engine were recorded, and kept in $LAB_OUT/replay-kept" \
			keep_replay "$run" "$(line_name "$cv" | sed 's/^\([a-z]*\)-\(.*\)$/\2-\1/; /-/!s/^/6.1-/')-$s"
		if other_reads "$s"; then
			other_agrees "$s" "$run"
		else
			skip "$s: $(other_suite)'s readers on the same dumps" \
				"a subset: RECURSE_TASK and RECURSE_HARDIRQ on vmap and orc (OTHER_SCENARIOS=all: every fatal one)"
		fi
		[ "${KEEP:-0}" = 1 ] || rm -f "$run/qemu-dump/qemu-vmcore.elf"
		if [ "$(recurses "$s")" = yes ]; then
			rsps=$(sed -n '/^stack trace (/,/^$/p' "$drgn" | awk -v f=" $fn at " \
				'index($0, f) && / \(x[0-9]+\) / && $(NF - 1) == "sp" { print $NF }' | while read -r a; do hex16 "$a"; done | tr '\n' ' ')
			# shellcheck disable=SC2086 # one word an address
			check "$s: drgn: the recursion's run of $fn frames is on the $stack stack itself (${rsps:-no run})" \
				in_bounds "$(hex_add "${lo:-0}" 1000)" "${hi:-0}" $rsps
		else
			skip "$s: the recursion's run of frames" "$s does not recurse"
		fi
	}

	runs=''
	# ONLY="NAME..." runs just those scenarios.
	for s in $2; do
		scenario_field "$s" "$col" >/dev/null || { fail "$s: tests/scenarios.tsv has no line for it"; continue; }
		run=$LAB_OUT/test-catalogue-$cn-$s
		rm -rf "$run"
		runs="$runs $run"
		rc=0
		# A fatal one is booted twice: kdump's dump, then QEMU's.
		qd=0
		case $(scenario_field "$s" "$col") in *result=kdump*) qd=1 ;; esac
		# Its memory as the kdump boot's, for the same layout (a 1 GiB ELF
		# dump, removed once read unless KEEP=1).
		make -s -C "$LAB_ROOT" overflow-demo SCENARIO="$s" VARIANT="$cv" QEMU_DUMP=$qd QEMU_DUMP_MEM=1G LAB_SHOW=0 \
			RUN_DIR="$run" >"$LAB_OUT/demo-$cn-$s.out" 2>&1 || rc=$?
		r=$(run_outcome "$run" 2>/dev/null || true)
		if [ -z "$r" ]; then
			fail "$s: make overflow-demo left no run record (status $rc; see $LAB_OUT/demo-$cn-$s.out)"
			continue
		fi
		log=$run/console.log
		[ "$r" = kdump ] && [ -f "$run/vmcore.dmesg" ] && log=$run/vmcore.dmesg
		klog >"$run/klog.txt"
		expect_outcome "$s" "$col" "$r" "$run/klog.txt"
		case $r in
		kdump)
			check "$s: make overflow-demo exits 0 and printed the post-mortem" \
				sh -c "[ $rc = 0 ] && grep -q '^== post-mortem of ' '$LAB_OUT/demo-$cn-$s.out'"
			fatal ;;
		*) check "$s: make overflow-demo exits 0" [ "$rc" = 0 ] ;;
		esac
		lifecycle_numbers "$s" "$run/klog.txt"
		outcome
	done
	echo "outcomes (also in $table):"
	cat "$table"
	# All passed: the run directories (vmcores of 12-70 MiB each) can go.
	# shellcheck disable=SC2086
	[ "$failed" = 0 ] && [ "${KEEP:-0}" != 1 ] && rm -rf $runs
}

# module_cycle LABEL KERNEL_NAME WHAT: make overflow-demo with
# MODULE=tests/modules/mutual_recursion (kdump only) on the kernel the
# caller chose; the run was on KERNEL_NAME (said as WHAT), its three-function
# cycle is folded, and the three stackovs agree on its dump. Sets $mrun.
module_cycle() {
	rc=0
	make -s -C "$LAB_ROOT" overflow-demo MODULE="$LAB_ROOT/tests/modules/mutual_recursion" QEMU_DUMP=0 LAB_SHOW=0 \
		>"$LAB_OUT/mod-$1.out" 2>&1 || rc=$?
	check "MODULE=mutual_recursion on $1: make overflow-demo exits 0" [ $rc = 0 ]
	mrun=$LAB_OUT/$(readlink "$LAB_OUT/latest")
	check "MODULE=mutual_recursion on $1: the run was on $3" [ "$(rec_get "$mrun" .kernel.description)" = "$2" ]
	check "MODULE=mutual_recursion on $1: the cycle is folded ($(jfield "$mrun/stackov-crash-vmcore.json" cycle))" \
		sh -c "jq -r .cycle '$mrun/stackov-crash-vmcore.json' | grep -Eq '^mr_[a-z]+ -> mr_[a-z]+ -> mr_[a-z]+ x[0-9]+ '"
	readers_agree mutual_recursion "$mrun" mr_expr yes vmcore
}

# kstack_offsets VARIANT: on a kernel with RANDOMIZE_KSTACK_OFFSET, the
# offset stackov reads (task->kstack_offset & 0x3ff) is what the syscall's
# entry put on the stack: do_syscall_64's frame bytes less its alloca,
# (offset + 15) & ~7 (the kernel's 8-byte stack alignment: and $0x7f8 in
# do_syscall_64), are the same on every dump, and the offset itself
# differs from boot to boot.
kstack_offsets() {
	f=$LAB_OUT/kstack-$(line_name "$1").txt
	echo "the random stack offset of each dump entered by a syscall, and do_syscall_64's frame bytes:"
	sed 's/^/    /' "$f"
	n=$(wc -l <"$f")
	fixed=$(awk '{ print $4 - int(($3 + 15) / 8) * 8 }' "$f" | sort -u | tr '\n' ' ')
	check "$1: on each of $n dumps, do_syscall_64's frame is the offset plus the same fixed part (${fixed% })" \
		sh -c "[ $n -ge 2 ] && [ \$(echo $fixed | wc -w) = 1 ]"
	check "$1: the offset differs from boot to boot" [ "$(cut -d' ' -f3 "$f" | sort -u | wc -l)" -ge 2 ]
}
