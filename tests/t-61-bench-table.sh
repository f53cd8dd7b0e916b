#!/bin/sh
# make bench's machinery, small (three rows, one boot each, 50 operations;
# stock is Debian's own kernel):
# it writes a well-formed table (a section per operation and pinning, a
# line per row with min / median / max for each clock, the comparison
# with the series), an SVG plot with a bar per row and operation, and the
# stack high-water table. No number is asserted: make bench measures.
# bench/record.sh keeps a measurement's output with when and where it ran,
# and keeps the old record when the measurement fails; bench/doc.sh puts
# records into bench/README.md's sections; every section there came from
# a record of its own target. A second small run sets the 6.12 line beside
# 6.1 (one row, 6.12's vmap kernel, built by t-35): its side-by-side
# tables, with the boot, build and kdump of each line.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

out=$LAB_OUT/test-bench
rm -rf "$out"
rc=0
BENCH_OUT=$out N=50 RUNS=1 ROWS="novmap vmap stock" BENCH_LINES=6.1 "$LAB_ROOT/bench/stackbench.sh" >"$out.log" 2>&1 || rc=$?
check "bench/stackbench.sh exits 0" [ "$rc" = 0 ]
t=$out/table.md
sections=$(grep -c '^## \(pthread\|fork\|clone\), ' "$t" 2>/dev/null || echo 0)
check "table.md: a section per operation, pinned and not (6: $sections)" [ "$sections" = 6 ]
rows() { grep -cE '^\| (novmap|vmap|stock) \| [0-9]+ / [0-9]+ / [0-9]+ \| [^|]+ \| [0-9]+ / [0-9]+ / [0-9]+ \| ' "$t"; }
check "table.md: each section has the three rows, with min / median / max under wall and icount ($(rows) of 18)" [ "$(rows)" = 18 ]
check "table.md: the counters are numbers (the patch series' kstack_cache_* in /proc/vmstat)" \
	grep -qE '^\| vmap \| .*\| [0-9]+ \| [0-9]+ \| [0-9]+ \| [0-9]+ \| [0-9]+ -> [0-9]+ \|$' "$t"
check "table.md: Debian's stock kernel has no counters (they are patch 0001's)" \
	grep -qE '^\| stock \| .*\| - \| - \| - \| - \| [0-9]+ -> [0-9]+ \|$' "$t"
stock_beside() { [ "$(grep -cE '^\| (pthread|fork|clone) \| (wall|icount) \| [0-9]+ \| [0-9]+ \| [0-9.]+ \|$' "$t")" = 6 ]; }
check "table.md: the stock kernel beside vmap, each operation under each clock" stock_beside
check "table.md: the series' numbers beside ours" grep -q '^| vmap with the cache of 2, against novmap | -0.8 us | ' "$t"
svg_ok() {
	/usr/bin/python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
bars = [r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.find("{http://www.w3.org/2000/svg}title") is not None]
sys.exit(0 if len(bars) == 9 else 1)' "$out/plot.svg"
}
check "plot.svg: well-formed SVG, a bar for each of 3 rows x 3 operations" svg_ok
check "highwater.md: after boot and after the workload" sh -c \
	"grep -qE '^\\| after boot \\| [0-9]+ \\| ' '$out/highwater.md' && grep -qE '^\\| after workload \\| [0-9]+ \\| ' '$out/highwater.md'"
check "table.md: one line, no side-by-side table" sh -c "! grep -q 'side by side' '$t'"

# Both lines, one row.
o2=$LAB_OUT/test-bench-lines
rm -rf "$o2"
rc=0
BENCH_OUT=$o2 N=50 RUNS=1 ROWS=vmap BENCH_LINES="6.1 6.12" "$LAB_ROOT/bench/stackbench.sh" >"$o2.log" 2>&1 || rc=$?
tail -40 "$o2.log"
check "6.1 and 6.12: bench/stackbench.sh exits 0" [ "$rc" = 0 ]
t2=$o2/table.md
check "6.1 and 6.12: a side-by-side section" grep -qx '## 6.1 and 6.12 side by side (-icount, pinned, medians)' "$t2"
ops_beside() { [ "$(grep -cE '^\| vmap \| (pthread|fork|clone) \| [0-9]+ \| [0-9]+ \| [0-9]+\.[0-9]{2} \|$' "$t2")" = 3 ]; }
check "6.1 and 6.12: each operation's icount ns on both lines, and their ratio" ops_beside
check "6.1 and 6.12: the guest's boot to /init on both lines" grep -qE '^\| vmap \| [0-9]+\.[0-9]{3} \| [0-9]+\.[0-9]{3} \|$' "$t2"
for l in 6.1 6.12; do
	check "6.1 and 6.12: $l's build and kdump (its last build in s or not recorded, a vmcore in MiB, its dump level)" \
		grep -qE "^\\| $l \\| $l\\.[0-9]+-stackov[^ ]* \\| ([0-9]+ s, [0-9]+ objects \\([0-9-]+\\)|not recorded) \\| [0-9.]+ MiB \\| -d [0-9]+ \\| [0-9.]+ \\|\$" "$t2"
done
check "6.1 and 6.12: 6.12's rows stay out of 6.1's tables" sh -c "! grep -q '^| vmap@' '$t2'"

# The recorder and the page, on a scratch out/ and a scratch page.
b=$(mktemp -d "$LAB_OUT/test-benchdoc-XXXX")
LAB_OUT=$b "$LAB_ROOT/bench/record.sh" bench-fake sh -c 'echo "took 12 s"' >"$b/rec.out" 2>&1
rec=$b/bench/bench-fake.txt
check "record.sh: the record says which target, when, and on how many CPUs" \
	grep -qE "^make bench-fake, [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]+ UTC, on $(nproc) CPUs " "$rec"
kept_and_shown() { [ "$(sed 1d "$rec")" = 'took 12 s' ] && grep -qx 'took 12 s' "$b/rec.out"; }
check "record.sh: the record holds the output, and shows it" kept_and_shown
rc=0
LAB_OUT=$b "$LAB_ROOT/bench/record.sh" bench-fake sh -c 'echo "half a result"; exit 2' >"$b/fail.out" 2>&1 || rc=$?
failed_kept() {
	[ "$rc" != 0 ] && grep -q 'make bench-fake failed (status 2)' "$b/fail.out" && [ "$(sed 1d "$rec")" = 'took 12 s' ]
}
check "record.sh: a failed measurement fails, says so, and keeps the old record" failed_kept
# Status 3 is a refusal that said why in its own line (needs_series): it
# fails and keeps the old record, with no second line.
rc=0
LAB_OUT=$b "$LAB_ROOT/bench/record.sh" bench-fake sh -c 'echo "x: error: it needs the lab kernel" >&2; exit 3' >"$b/refuse.out" 2>&1 || rc=$?
refused_kept() {
	[ "$rc" = 3 ] && [ "$(grep -c . "$b/refuse.out")" = 1 ] && grep -q 'needs the lab kernel' "$b/refuse.out" &&
		! grep -q 'failed' "$b/refuse.out" && [ "$(sed 1d "$rec")" = 'took 12 s' ]
}
check "record.sh: a refusal (status 3) fails with its own line only, and keeps the old record" refused_kept
LAB_OUT=$b "$LAB_ROOT/bench/record.sh" bench-table printf '# T\n| a | b |\n|---|---|\n| 1 | 2 |\nsee %s/out/x\n' "$LAB_ROOT" >/dev/null 2>&1
printf '%s\n' intro '<!-- bench bench-fake -->' old '<!-- end bench bench-fake -->' \
	'<!-- bench bench-table -->' old '<!-- end bench bench-table -->' \
	'<!-- bench bench-none -->' 'kept as it was' '<!-- end bench bench-none -->' outro >"$b/page.md"
drc=0
LAB_OUT=$b "$LAB_ROOT/bench/doc.sh" "$b/page.md" >"$b/doc.out" 2>&1 || drc=$?
check "doc.sh: a page with a section of no record is still made (status $drc)" [ "$drc" = 0 ]
section() { sed -n "/^<!-- bench $1 -->\$/,/^<!-- end bench $1 -->\$/p" "$b/page.md" | sed '1d;$d'; }
text_in_block() {
	section bench-fake | head -1 | grep -q '^Measured by make bench-fake, ' &&
		[ "$(section bench-fake | sed 1,2d | tr '\n' '|' | tr '`' Q)" = 'QQQ|took 12 s|QQQ|' ]
}
check "doc.sh: a text record goes in a code block under the line that says where it was measured" text_in_block
table_as_is() { section bench-table | grep -qx '| 1 | 2 |' && ! section bench-table | grep -q '```'; }
check "doc.sh: a Markdown table goes in as it is" table_as_is
nested_and_relative() { section bench-table | grep -qx '### T' && section bench-table | grep -qx 'see out/x'; }
check "doc.sh: a record's headings sit under the page's, and a path in the clone is relative to it" nested_and_relative
unrecorded_kept() {
	[ "$(section bench-none)" = 'kept as it was' ] && grep -q 'no record of make bench-none' "$b/doc.out" &&
		[ "$(head -1 "$b/page.md")" = intro ] && [ "$(tail -1 "$b/page.md")" = outro ]
}
check "doc.sh: a section with no record keeps its text, says so, and the page keeps its prose" unrecorded_kept
rm -rf "$b"
# Every section of bench/README.md is a record of its own target.
sections=$(sed -n 's/^<!-- bench \([a-z0-9.-]*\) -->$/\1/p' "$LAB_ROOT/bench/README.md")
unrecorded=''
for name in $sections; do
	sed -n "/^<!-- bench $name -->\$/{n;p;}" "$LAB_ROOT/bench/README.md" | grep -q "^Measured by make $name, " ||
		unrecorded="$unrecorded $name"
done
all_recorded() { [ -n "$sections" ] && [ -z "$unrecorded" ]; }
check "bench/README.md: each of its $(echo "$sections" | wc -w) sections is make bench-doc's, from its target's record${unrecorded:+ (not:$unrecorded)}" \
	all_recorded
finish
