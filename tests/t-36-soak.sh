#!/bin/sh
# make soak, short: N=3 of RECURSE_SOFTIRQ, GUARD_JUMP and
# STACK_USE_AFTER_EXIT, the scenarios whose path depends on timing or on
# the layout of vmalloc space. Every run is a row of the table; its outcome
# is one tests/scenarios.tsv allows; on every kdump run the three readers
# agree; the runs that differ from their scenario's usual answer keep
# their dumps, the others keep their logs and report only. Then the table
# itself, from rows written here by hand: a run that differs is named, a
# per-CPU thread on another CPU and a cycle with another count are alike.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
names="RECURSE_SOFTIRQ GUARD_JUMP STACK_USE_AFTER_EXIT"
out=$LAB_OUT/test-soak
rm -rf "$out"
rc=0
make -s soak SCENARIO="$(echo "$names" | tr ' ' ,)" N=3 SOAK_OUT="$out" >"$LAB_OUT/t-36-soak.out" 2>&1 || rc=$?
sed -n '/^# make soak/,$p' "$LAB_OUT/t-36-soak.out" | sed 's/^/    /'
check "make soak N=3 exits 0" [ "$rc" = 0 ]
check "it wrote the table" [ -s "$out/table.md" ]
check "9 runs, 9 rows" [ "$(wc -l <"$out/rows.tsv" 2>/dev/null)" = 9 ]

for s in $names; do
	check "$s: 3 rows in the table" [ "$(grep -c "^| $s | [0-9] | " "$out/table.md")" = 3 ]
	check "$s: a summary line, N of 3 alike" grep -Eq "^\| $s \| [1-3] of 3 \| " "$out/table.md"
	k=1
	while [ "$k" -le 3 ]; do
		run=$out/$s-$k
		r=$(cat "$run/result" 2>/dev/null || echo none)
		log=$run/console.log
		[ "$r" = kdump ] && [ -f "$run/vmcore.dmesg" ] && log=$run/vmcore.dmesg
		kernel_log "$log" >"$run.klog" 2>/dev/null || : >"$run.klog"
		expect_outcome "$s run $k" vmap "$r" "$run.klog"
		row=$(awk -F '\t' -v s="$s" -v k="$k" '$1 == s && $2 == k' "$out/rows.tsv")
		check "$s run $k: its row has its result ($r)" [ "$(echo "$row" | cut -f3)" = "$r" ]
		if [ "$r" = kdump ]; then
			check "$s run $k: the readers agree" [ "$(echo "$row" | cut -f7)" = yes ]
			check "$s run $k: its report is kept" [ -s "$run/report.txt" ]
		fi
		# Kept whole when it differs, else without its dumps.
		if grep -Eq "^$s( .*)? $k( |\$)" "$out/differ.txt"; then
			[ "$r" = kdump ] && check "$s run $k differs: its dump is kept" [ -s "$run/vmcore" ]
			check "$s run $k differs: the summary names its directory" grep -q "$run " "$LAB_OUT/t-36-soak.out"
		else
			check "$s run $k is alike: its dumps are gone, its console log stays" \
				sh -c "[ ! -e '$run/vmcore' ] && [ ! -e '$run/vmcore.elf' ] && [ -s '$run/console.log' ]"
		fi
		k=$((k + 1))
	done
done

# The table from rows written by hand: run 3 of A differs (a poweroff),
# B's runs differ only in the CPU of swapper/N and the cycle's count.
t=$out/rows-by-hand.tsv
printf '%s\n' \
	'A	1	kdump	TASK	labtrig	f (x70)	yes	10' \
	'A	2	kdump	TASK	labtrig	f (x71)	yes	11' \
	'A	3	poweroff	?	-	-	-	9' \
	'B	1	kdump	IRQ	swapper/0	g (x55)	yes	12' \
	'B	2	kdump	IRQ	swapper/1	g (x54)	yes	12' >"$t"
"$LAB_ROOT/vm/read/soak-table.sh" "$t" "by hand" >"$t.md"
sed 's/^/    /' "$t.md" | tail -4
check "by hand: A is 2 of 3 alike, run 3 named" grep -q '^| A | 2 of 3 | kdump, TASK, labtrig, f, yes | run 3 |$' "$t.md"
check "by hand: B is 2 of 2 (swapper/0 and /1, x55 and x54 alike)" grep -q '^| B | 2 of 2 | kdump, IRQ, swapper/, g, yes | - |$' "$t.md"
: >"$t"
rc=0
"$LAB_ROOT/vm/read/soak-table.sh" "$t" "empty" >/dev/null 2>"$t.err" || rc=$?
check "no rows: one line of error" sh -c "[ $rc != 0 ] && [ \$(wc -l <'$t.err') = 1 ]"
rc=0
N=0 "$LAB_ROOT/vm/soak.sh" >/dev/null 2>"$t.err" || rc=$?
check "N=0: refused in one line ($(cat "$t.err"))" sh -c "[ $rc != 0 ] && grep -q 'is not a count of runs' '$t.err'"
[ "$failed" = 0 ] && rm -rf "$out"
finish
