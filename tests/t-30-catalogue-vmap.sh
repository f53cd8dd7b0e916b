#!/bin/sh
# Every scenario of make list, each through make overflow-demo on the vmap
# kernel (kdump armed; QEMU_DUMP=0), checked against its line in
# tests/scenarios.tsv: the outcome (how the run ended, what the kernel's
# log says: on a kdump run the log read from the dump) and, for a fatal
# one, that the kernel's report and drgn's stack trace both name the
# function, that drgn's crashed thread is the expected one, and that
# drgn puts that function's frames on the stack the table names (for a
# guard-page hit, also the one the kernel's BUG line names), and that
# crash's stackov extension agrees with the BUG line and drgn.
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
	stackov_agrees
	# A recursion's folded run of frames is on the stack itself, not its guard.
	if grep -Eq " $fn at .*\(x[0-9]+\) \[" "$run/drgn.txt"; then
		check "$s: drgn: the recursion's run of $fn frames is on the $stack stack itself" \
			grep -Eq " $fn at .*\(x[0-9]+\) \[$stack\]\$" "$run/drgn.txt"
	fi
}

# stackov_agrees: crash's stackov extension on the same dump (-j) says
# what the kernel's BUG line says (stack kind, fault address, bounds) and
# what drgn says (the task, how many frames of the recursion); where there
# was no guard-page hit it refuses in one line.
j() { /usr/bin/python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())[sys.argv[1]])' "$1" <"$run/stackov.json"; }
stackov_agrees() {
	crash_batch "$run/stackov.out" "$run" "stackov -j"
	grep -m1 '^{' "$run/stackov.out" >"$run/stackov.json" || true
	bug=$(klog | sed -n 's/.*BUG: \([A-Z]*\) stack guard page was hit at \([0-9a-f]*\) (stack is \([0-9a-f]*\)\.\.\([0-9a-f]*\))$/\1 \2 \3 \4/p' | head -1)
	if [ -z "$bug" ]; then
		check "$s: stackov: no guard-page hit, and it says so in one line" sh -c \
			"[ ! -s '$run/stackov.json' ] && [ \$(grep -c '^stackov: ' '$run/stackov.out') = 1 ]"
		return 0
	fi
	bkind=$(echo "$bug" | cut -d' ' -f1) bfault=$(echo "$bug" | cut -d' ' -f2)
	blo=$(echo "$bug" | cut -d' ' -f3) bhi=$(echo "$bug" | cut -d' ' -f4)
	check "$s: stackov: gave a verdict" [ -s "$run/stackov.json" ]
	[ -s "$run/stackov.json" ] || return 0
	check "$s: stackov: the $(j stack) stack, as the BUG line says ($bkind)" [ "$(j stack)" = "$bkind" ]
	check "$s: stackov: fault at $(j fault), as the BUG line says ($bfault)" [ "$(j fault)" = "$bfault" ]
	check "$s: stackov: bounds $(j lo)..$(j hi), as the BUG line says" [ "$(j lo)..$(j hi)" = "$blo..$bhi" ]
	check "$s: stackov: the task is drgn's crashed thread ($(j comm) pid $(j pid))" \
		grep -q "^crashed thread: $(j comm) pid $(j pid) " "$run/drgn.txt"
	n=$(awk -v f=" $fn at " 'index($0, f) { n += match($0, /\(x[0-9]+\)/) ? substr($0, RSTART + 2, RLENGTH - 3) : 1 } END { print n + 0 }' "$run/drgn.txt")
	if [ "$n" -ge 3 ]; then
		check "$s: stackov: the cycle folds $fn ($(j cycle_function))" [ "$(j cycle_function)" = "$fn" ]
		check "$s: stackov: $(j cycle_reps) times, as many $fn frames as drgn unwinds ($n)" [ "$(j cycle_reps)" = "$n" ]
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
	make -s -C "$LAB_ROOT" overflow-demo SCENARIO="$s" VARIANT=vmap QEMU_DUMP=0 LAB_SHOW=0 \
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
