#!/bin/sh
# Every scenario of make list, each through make overflow-demo on the vmap
# kernel (kdump armed; a fatal one also booted for QEMU's dump), checked against its line in
# tests/scenarios.tsv: the outcome (how the run ended, what the kernel's
# log says: on a kdump run the log read from the dump) and, for a fatal
# one, that the kernel's report and drgn's stack trace both name the
# function, that drgn's crashed thread is the expected one, and that
# drgn puts that function's frames on the stack the table names (for a
# guard-page hit, also the one the kernel's BUG line names), and that
# the three stackovs (crash, gdb, drgn) say the same, word for word, on
# kdump's dump and on QEMU's, and what each dump's BUG line, oops and
# drgn's own unwinder say (readers_agree in tests/lib.sh).
# Writes out/catalogue-vmap.txt: one line per scenario, its outcome.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

table=$LAB_OUT/catalogue-vmap.txt
: >"$table"
klog() { kernel_log "$log"; }
in_log() { klog | grep -Eq -- "$1"; }
outcome() { record_outcome "$table" 8 "$s"; }

names=$("$LAB_ROOT/vm/list.sh" | cut -d' ' -f1)
check "tests/scenarios.tsv has exactly the scenarios of make list, in order" \
	[ "$(scenario_names | tr '\n' ' ')" = "$(echo "$names" | tr '\n' ' ')" ]

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
	check "$s: drgn: its stack trace has $fn" grep -Eq " $fn at " "$run/drgn.txt"
	want="$stack|$stack-GUARD"
	[ "$stack" = - ] && want='\?'
	check "$s: drgn: $fn's frames are on the $stack stack" \
		grep -Eq " $fn at .*\\[($want)\\]\$" "$run/drgn.txt"
	readers_agree "$s" "$run" "$fn"
	[ "${KEEP:-0}" = 1 ] || rm -f "$run/qemu-dump/qemu-vmcore.elf"
	# A recursion's folded run of frames is on the stack itself, not its guard.
	if grep -Eq " $fn at .*\(x[0-9]+\) \[" "$run/drgn.txt"; then
		check "$s: drgn: the recursion's run of $fn frames is on the $stack stack itself" \
			grep -Eq " $fn at .*\(x[0-9]+\) \[$stack\]\$" "$run/drgn.txt"
	fi
}

runs=''
# ONLY="NAME..." runs just those scenarios.
for s in ${ONLY:-$names}; do
	scenario_field "$s" vmap >/dev/null || { fail "$s: tests/scenarios.tsv has no line for it"; continue; }
	run=$LAB_OUT/test-catalogue-$s
	rm -rf "$run"
	runs="$runs $run"
	rc=0
	# A fatal one is booted twice: kdump's dump, then QEMU's.
	qd=0
	case $(scenario_field "$s" vmap) in *result=kdump*) qd=1 ;; esac
	# Its memory as the kdump boot's, for the same layout (a 1 GiB ELF
	# dump, removed once read unless KEEP=1).
	make -s -C "$LAB_ROOT" overflow-demo SCENARIO="$s" VARIANT=vmap QEMU_DUMP=$qd QEMU_DUMP_MEM=1G LAB_SHOW=0 \
		RUN_DIR="$run" >"$LAB_OUT/demo-$s.out" 2>&1 || rc=$?
	if [ ! -f "$run/result" ]; then
		fail "$s: make overflow-demo left no run (status $rc; see $LAB_OUT/demo-$s.out)"
		continue
	fi
	r=$(cat "$run/result")
	log=$run/console.log
	[ "$r" = kdump ] && [ -f "$run/vmcore.dmesg" ] && log=$run/vmcore.dmesg
	klog >"$run/klog.txt"
	expect_outcome "$s" vmap "$r" "$run/klog.txt"
	case $r in
	kdump)
		check "$s: make overflow-demo exits 0 and printed the post-mortem" \
			sh -c "[ $rc = 0 ] && grep -q '^== post-mortem of ' '$LAB_OUT/demo-$s.out'"
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
finish
