#!/bin/sh
# Every walkthrough in walkthroughs/: each command in its sh blocks runs
# (tests/walkthrough.sh), and the output each text block shows is still
# what it prints, after tests/normalise.sh. The README links every one.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

n=0
for md in "$LAB_ROOT"/walkthroughs/[0-9]*.md; do
	[ -f "$md" ] || continue
	n=$((n + 1))
	b=$(basename "$md")
	check "README links walkthroughs/$b" grep -q "(walkthroughs/$b)" "$LAB_ROOT/README.md"
	# The runner's own status, and a line for each of the file's sh
	# blocks (counted here): a runner that dies in the middle leaves
	# blocks without one.
	wrc=0
	"$LAB_ROOT/tests/walkthrough.sh" "$md" >"$LAB_OUT/walk-$b.raw" 2>&1 || wrc=$?
	sed "s/^\(PASS\|FAIL\) [^:]*:/\1 $T: $b:/" "$LAB_OUT/walk-$b.raw" >"$LAB_OUT/walk-$b.out"
	cat "$LAB_OUT/walk-$b.out"
	grep -q '^FAIL ' "$LAB_OUT/walk-$b.out" && failed=1
	blocks=$(grep -c '^```sh$' "$md")
	lines=$(grep -cE "^(PASS|FAIL) $T: $b: block [0-9]+ " "$LAB_OUT/walk-$b.out" || true)
	check "$b: a PASS or FAIL for each of its $blocks sh blocks ($lines)" [ "$lines" = "$blocks" ]
	if [ "$wrc" != 0 ] && ! grep -q '^FAIL ' "$LAB_OUT/walk-$b.out"; then
		fail "$b: tests/walkthrough.sh exited with status $wrc, and no block says why: $(tail -1 "$LAB_OUT/walk-$b.raw")"
	fi
done
check "ten walkthroughs ($n)" [ "$n" = 10 ]
finish
