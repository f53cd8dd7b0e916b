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
# unwinder say (readers_agree in tests/lib.sh); on orc and stock (no frame
# pointer), also that crash's
# bt and drgn's stack_trace find the same frames (peers_agree). Writes
# out/catalogue-VARIANT.txt: one line per scenario, its outcome.

catalogue() {
	cv=$1 col=${3:-$1}
	cn=$(line_name "$cv")
	table=$LAB_OUT/catalogue-$cn.txt
	: >"$table"
	: >"$LAB_OUT/kerneloffset-$cn.txt"
	: >"$LAB_OUT/kstack-$cn.txt"
	klog() { kernel_log "$log"; }
	in_log() { klog | grep -Eq -- "$1"; }
	outcome() { record_outcome "$table" 8 "$s"; }

	# fatal: the checks a kdump run gets beyond its outcome.
	fatal() {
		fn=$(scenario_field "$s" function)
		# The values for the alternative of the outcome that held ($alt).
		stack=$(per_alt "$(scenario_field "$s" stack)" "$alt")
		thread=$(per_alt "$(scenario_field "$s" thread)" "$alt")
		check "$s: kdump captured a vmcore" [ -s "$run/vmcore" ]
		check "$s: the kernel's report names $fn" in_log "$fn(\\.cold)?\\+0x"
		kind=$(klog | sed -n 's/.*BUG: \([A-Z]*\) stack guard page was hit at.*/\1/p' | head -1)
		[ -n "$kind" ] && check "$s: the BUG line names the $stack stack (it says $kind)" [ "$kind" = "$stack" ]
		sed -n '/^===== drgn on vmcore/,/^=====/p' "$run/report.txt" >"$run/drgn.txt" 2>/dev/null || true
		check "$s: drgn: the crashed thread is $thread" grep -Eq "^crashed thread: ($thread)" "$run/drgn.txt"
		said=$(klog | sed -n 's/.*recursing in [^:]*: comm \([^ ]*\) .*/\1/p' | head -1)
		[ -n "$said" ] && check "$s: drgn's crashed thread is the task the module said it ran in ($said)" \
			grep -q "^crashed thread: $said pid " "$run/drgn.txt"
		# The preempt_count the module printed as it began to recurse is
		# the one stackov gives for the fault (what the oops path added
		# since, taken off: the double fault's NMI level, 6.11's printk
		# emergency section).
		mpc=$(klog | sed -n 's/.*recursing in [^:]*: comm .* preempt_count \(0x[0-9a-f]*\|0\)$/\1/p' | head -1)
		spc=$(sed -n 's/^  atomic: .*; preempt_count \(0x[0-9a-f]*\).*/\1/p' "$run/report.txt" | head -1)
		[ -n "$mpc" ] && check "$s: stackov's preempt_count is the one the module printed ($mpc; stackov: ${spc:-none})" \
			sh -c "[ -n '$spc' ] && [ \$(($mpc)) = \$(($spc)) ]"
		at=' at [^ ]+'
		check "$s: drgn: its stack trace has $fn" grep -Eq " $fn$at( |\$)" "$run/drgn.txt"
		want="$stack|$stack-GUARD"
		[ "$stack" = - ] && want='\?'
		check "$s: drgn: $fn's frames are on the $stack stack" \
			grep -Eq " $fn$at.* \\[($want)\\]\$" "$run/drgn.txt"
		readers_agree "$s" "$run" "$fn"
		explain_agrees "$s" "$run"
		# Every error of a reader is one: crash's own limitations are
		# named as such, and a refusal the readers share is the verdict.
		check "$s: the summary lists no reader errors (crash's own limitations named apart)" \
			sh -c "! grep -q '^reader errors' '$LAB_OUT/demo-$cn-$s.out'"
		if grep -q '^stackov: ' "$run/agree-vmcore.crash.json" 2>/dev/null; then
			check "$s: the refusal is the report's verdict, under its own heading" \
				grep -q '^===== verdict: no stack overflow' "$run/report.txt"
			check "$s: and the summary's" grep -q '^verdict: no stack overflow in this dump; stackov: ' "$LAB_OUT/demo-$cn-$s.out"
		fi
		# The offset KASLR drew for this boot (0 without), from the
		# dump's VMCOREINFO (either format has it, uncompressed).
		for d in vmcore.elf vmcore; do
			[ -f "$run/$d" ] || continue
			grep -a -m1 -o 'KERNELOFFSET=[0-9a-f]*' "$run/$d" | head -1 |
				sed "s/^/$s /" >>"$LAB_OUT/kerneloffset-$cn.txt"
			break
		done
		case $cv in orc | stock) peers_agree "$s" "$run" ;; esac
		# The random stack offset stackov read for the syscall, beside
		# do_syscall_64's frame bytes (kstack_offsets checks them).
		for d in vmcore qemu-vmcore; do
			ko=$(sed -n 's/.*"kstack_offset":\([0-9]*\),.*/\1/p' "$run/agree-$d.crash.json" 2>/dev/null)
			fb=$(sed -n "/^===== crash on $d =====\$/,/^=====/p" "$run/report.txt" |
				awk '$1 ~ /^#[0-9]+$/ && $3 == "do_syscall_64" && $5 == "bytes" { print $4; exit }')
			[ -n "$ko" ] && [ -n "$fb" ] && echo "$s $d $ko $fb" >>"$LAB_OUT/kstack-$cn.txt"
		done
		[ "${KEEP:-0}" = 1 ] || rm -f "$run/qemu-dump/qemu-vmcore.elf"
		# A recursion's folded run of frames is on the stack itself, not its guard.
		if grep -Eq " $fn$at.*\(x[0-9]+\) \[" "$run/drgn.txt"; then
			check "$s: drgn: the recursion's run of $fn frames is on the $stack stack itself" \
				grep -Eq " $fn$at.*\(x[0-9]+\) \[$stack\]\$" "$run/drgn.txt"
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
		if [ ! -f "$run/result" ]; then
			fail "$s: make overflow-demo left no run (status $rc; see $LAB_OUT/demo-$cn-$s.out)"
			continue
		fi
		r=$(cat "$run/result")
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
	check "MODULE=mutual_recursion on $1: the run was on $3" [ "$(run_env "$mrun" kernel_name)" = "$2" ]
	check "MODULE=mutual_recursion on $1: the cycle is folded" \
		grep -Eq '^  cycle: +mr_[a-z]+ -> mr_[a-z]+ -> mr_[a-z]+ x[0-9]+ ' "$mrun/report.txt"
	readers_agree mutual_recursion "$mrun" mr_expr vmcore
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
