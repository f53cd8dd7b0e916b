#!/bin/sh
# Every patch of the series builds on its own (vm/builders/bisect.sh), and each
# has a commit message in the kernel's form. Under make test (LAB_BISECT=6.1,
# tests/run.sh) t-02 built the vmap kernel patch by patch and bisect.sh
# reads that build's report; without it, bisect.sh builds in a tree of its
# own. The line's series: LINUX=6.12
# (x-41, make test-full) checks patches/6.12/.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
brc=0
out=$("$LAB_ROOT/vm/builders/bisect.sh" 2>&1) || brc=$?
echo "$out"
check "vm/builders/bisect.sh went through the series (status $brc)" [ "$brc" = 0 ]
pd=$KERNEL_PATCHES
list=$(series_patches "$pd")
check "the series of ${LINUX:-6.1} is not empty ($pd)" [ -n "$list" ]
for p in $list; do
	built() { echo "$out" | grep -qF "builds: $p "; }
	check "builds with the patches before it: $p" built
	subj=$(sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$pd/$p")
	area_summary() { echo "$subj" | grep -Eq '^[a-z0-9/_-]+: [a-z]'; }
	check "$p: subject 'area: summary' ($subj)" area_summary
	check "$p: Signed-off-by" grep -q '^Signed-off-by: .* <.*@.*>$' "$pd/$p"
	body=$(sed -n '/^$/,/^---$/p' "$pd/$p" | grep -vc '^\(---\|Signed-off-by:.*\)\?$')
	check "$p: a body that says why ($body lines)" [ "$body" -ge 5 ]
done
finish
