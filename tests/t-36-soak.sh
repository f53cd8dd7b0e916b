#!/bin/sh
# make soak, short: N=3 of RECURSE_SOFTIRQ, GUARD_JUMP and
# STACK_USE_AFTER_EXIT, the scenarios whose path depends on timing or on
# the layout of vmalloc space. Every run is a row of the table; its outcome
# is one tests/scenarios.tsv allows; on every kdump run the three readers
# agree; the runs that differ from their scenario's usual answer keep
# their dumps, the others keep their logs and report only. (The table
# itself, from rows written by hand, is c-36's.)
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
		r=$(run_outcome "$run" 2>/dev/null || echo none)
		log=$run/console.log
		[ "$r" = kdump ] && [ -f "$run/vmcore.dmesg" ] && log=$run/vmcore.dmesg
		kernel_log "$log" >"$run.klog" 2>/dev/null || : >"$run.klog"
		expect_outcome "$s run $k" vmap "$r" "$run.klog"
		row=$(awk -F '\t' -v s="$s" -v k="$k" '$1 == s && $2 == k' "$out/rows.tsv")
		check "$s run $k: its row has its result ($r)" [ "$(echo "$row" | cut -f3)" = "$r" ]
		if [ "$r" = kdump ]; then
			check "$s run $k: the readers agree" [ "$(echo "$row" | cut -f7)" = yes ]
			check "$s run $k: its readers' record is kept" [ -s "$run/readers.json" ]
		fi
		# Kept whole when it differs, else without its dumps.
		if grep -Eq "^$s( .*)? $k( |\$)" "$out/differ.txt"; then
			if [ "$r" = kdump ]; then
				check "$s run $k differs: its dump is kept" [ -s "$run/vmcore" ]
			else
				skip "$s run $k differs: its dump is kept" "it ended by $r: no dump to keep"
			fi
			check "$s run $k differs: the summary names its directory" grep -q "$run " "$LAB_OUT/t-36-soak.out"
		else
			check "$s run $k is alike: its dumps are gone, its console log stays" \
				sh -c "[ ! -e '$run/vmcore' ] && [ ! -e '$run/vmcore.elf' ] && [ -s '$run/console.log' ]"
		fi
		k=$((k + 1))
	done
done

[ "$failed" = 0 ] && rm -rf "$out"
finish
