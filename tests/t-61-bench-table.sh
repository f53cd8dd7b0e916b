#!/bin/sh
# make bench's machinery, small (two rows, one boot each, 50 operations):
# it writes a well-formed table (a section per operation and pinning, a
# line per row with min / median / max for each clock, the comparison
# with the series), an SVG plot with a bar per row and operation, and the
# stack high-water table. No number is asserted: make bench measures.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

out=$LAB_OUT/test-bench
rm -rf "$out"
rc=0
BENCH_OUT=$out N=50 RUNS=1 ROWS="novmap vmap" "$LAB_ROOT/bench/stackbench.sh" >"$out.log" 2>&1 || rc=$?
check "bench/stackbench.sh exits 0" [ "$rc" = 0 ]
t=$out/table.md
sections=$(grep -c '^## \(pthread\|fork\|clone\), ' "$t" 2>/dev/null || echo 0)
check "table.md: a section per operation, pinned and not (6: $sections)" [ "$sections" = 6 ]
rows() { grep -cE '^\| (novmap|vmap) \| [0-9]+ / [0-9]+ / [0-9]+ \| [^|]+ \| [0-9]+ / [0-9]+ / [0-9]+ \| ' "$t"; }
check "table.md: each section has both rows, with min / median / max under wall and icount ($(rows) of 12)" [ "$(rows)" = 12 ]
check "table.md: the counters are numbers (the patch series' kstack_cache_* in /proc/vmstat)" \
	grep -qE '^\| vmap \| .*\| [0-9]+ \| [0-9]+ \| [0-9]+ \| [0-9]+ \| [0-9]+ -> [0-9]+ \|$' "$t"
check "table.md: the series' numbers beside ours" grep -q '^| vmap with the cache of 2, against novmap | -0.8 us | ' "$t"
svg_ok() {
	/usr/bin/python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
bars = [r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.find("{http://www.w3.org/2000/svg}title") is not None]
sys.exit(0 if len(bars) == 6 else 1)' "$out/plot.svg"
}
check "plot.svg: well-formed SVG, a bar for each of 2 rows x 3 operations" svg_ok
check "highwater.md: after boot and after the workload" sh -c \
	"grep -qE '^\\| after boot \\| [0-9]+ \\| ' '$out/highwater.md' && grep -qE '^\\| after workload \\| [0-9]+ \\| ' '$out/highwater.md'"
finish
