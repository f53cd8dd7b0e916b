#!/bin/sh
# Every patch of the series builds on its own (vm/builders/bisect.sh), and each
# has a commit message in the kernel's form.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
out=$("$LAB_ROOT/vm/builders/bisect.sh" 2>&1) || true
echo "$out"
list=$(series_patches patches)
check "the series is not empty" [ -n "$list" ]
for p in $list; do
	built() { echo "$out" | grep -qF "builds: $p "; }
	check "builds with the patches before it: $p" built
	subj=$(sed -n 's/^Subject: \[PATCH[^]]*\] //p' "patches/$p")
	area_summary() { echo "$subj" | grep -Eq '^[a-z0-9/_-]+: [a-z]'; }
	check "$p: subject 'area: summary' ($subj)" area_summary
	check "$p: Signed-off-by" grep -q '^Signed-off-by: .* <.*@.*>$' "patches/$p"
	body=$(sed -n '/^$/,/^---$/p' "patches/$p" | grep -vc '^\(---\|Signed-off-by:.*\)\?$')
	check "$p: a body that says why ($body lines)" [ "$body" -ge 5 ]
done
finish
