#!/bin/sh
# Every walkthrough in walkthroughs/: each command in its sh blocks runs
# (tests/walkthrough.sh), and the output each text block shows is still
# what it prints, after tests/normalise.sh. The README links every one.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

n=0
for md in "$LAB_ROOT"/walkthroughs/*.md; do
	[ -f "$md" ] || continue
	n=$((n + 1))
	b=$(basename "$md")
	check "README links walkthroughs/$b" grep -q "(walkthroughs/$b)" "$LAB_ROOT/README.md"
	"$LAB_ROOT/tests/walkthrough.sh" "$md" 2>&1 | sed "s/^\(PASS\|FAIL\) [^:]*:/\1 $T: $b:/" >"$LAB_OUT/walk-$b.out" || true
	cat "$LAB_OUT/walk-$b.out"
	grep -q '^FAIL ' "$LAB_OUT/walk-$b.out" && failed=1
done
check "nine walkthroughs ($n)" [ "$n" = 9 ]
finish
