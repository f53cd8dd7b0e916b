#!/bin/sh
# make soak's table (vm/read/soak-table.sh) from rows written here by
# hand: a run that differs is named, a per-CPU thread on another CPU and a
# cycle with another count are alike, runs whose readers did not all give
# a verdict are not alike with those whose did; no rows and N=0 are
# refused in one line. (t-36 runs the soak itself.)
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

out=$(mktemp -d "$LAB_OUT/test-soak-table-XXXX")
# The table from rows written by hand: run 3 of A differs (a poweroff),
# B's runs differ only in the CPU of swapper/N and the cycle's count.
t=$out/rows-by-hand.tsv
printf '%s\n' \
	'A	1	kdump	TASK	labtrig	f (x70)	yes	10' \
	'A	2	kdump	TASK	labtrig	f (x71)	yes	11' \
	'A	3	poweroff	?	-	-	-	9' \
	'B	1	kdump	IRQ	swapper/0	g (x55)	yes	12' \
	'B	2	kdump	IRQ	swapper/1	g (x54)	yes	12' \
	'C	1	kdump	TASK	labtrig	h (x9)	yes	10' \
	'C	2	kdump	TASK	labtrig	h (x9)	2 of 3	10' >"$t"
"$LAB_ROOT/vm/read/soak-table.sh" "$t" "by hand" >"$t.md"
sed 's/^/    /' "$t.md" | tail -4
check "by hand: A is 2 of 3 alike, run 3 named" grep -q '^| A | 2 of 3 | kdump, TASK, labtrig, f, yes | run 3 |$' "$t.md"
check "by hand: B is 2 of 2 (swapper/0 and /1, x55 and x54 alike)" grep -q '^| B | 2 of 2 | kdump, IRQ, swapper/, g, yes | - |$' "$t.md"
check "by hand: C's run whose readers gave 2 verdicts of 3 is not alike" grep -q '^| C | 1 of 2 | kdump, TASK, labtrig, h, yes | run 2 |$' "$t.md"
check "by hand: a row per run" [ "$(grep -c '^| [ABC] | [0-9] | ' "$t.md")" = 7 ]
: >"$t"
rc=0
"$LAB_ROOT/vm/read/soak-table.sh" "$t" "empty" >/dev/null 2>"$t.err" || rc=$?
check "no rows: one line of error" sh -c "[ $rc != 0 ] && [ \$(wc -l <'$t.err') = 1 ]"
rc=0
N=0 "$LAB_ROOT/vm/soak.sh" >/dev/null 2>"$t.err" || rc=$?
check "N=0: refused in one line ($(cat "$t.err"))" sh -c "[ $rc != 0 ] && grep -q 'is not a count of runs' '$t.err'"
[ "$failed" = 0 ] && rm -rf "$out"
finish
