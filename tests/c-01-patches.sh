#!/bin/sh
# The patch mechanism applies real `git format-patch` files in series order,
# skips work when the series is unchanged, leaves untouched files alone, and
# fails loudly (tree back to pristine) on a patch that does not apply.
# It runs on a scratch git tree made from two files of the kernel source.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

s=$(mktemp -d)
trap 'rm -rf "$s"' EXIT
tree=$s/tree pd=$s/patches
mkdir -p "$tree/kernel" "$pd"
# Two real files of the kernel when the tree is unpacked, stand-ins before.
for f in kernel/fork.c Makefile; do
	cp "$KERNEL_TREE/$f" "$tree/kernel/" 2>/dev/null ||
		printf 'line 1 of %s\nline 2\nline 3\n' "$f" >"$tree/kernel/${f##*/}"
done
g() { git -C "$tree" -c user.name=t -c user.email=t@t "$@"; }
g init -q && g add -A && g commit -qm pristine && g tag pristine
# A real patch, made the way the lab's patches are made.
sed -i '1a /* stackov-lab test line */' "$tree/kernel/fork.c"
g commit -qam "fork: add a test line" -m "Why: to test the series." -s
g format-patch -q -1 -o "$pd" >/dev/null
g reset -q --hard pristine
p=$(basename "$pd"/0001-*.patch)
echo "$p" >"$pd/series"
touch -d @1000000000 "$tree/kernel/Makefile"

"$LAB_ROOT/vm/builders/patches.sh" "$tree" "$pd" 2>"$s/err"
check "patch applied" grep -q 'stackov-lab test line' "$tree/kernel/fork.c"
check "applied as a commit on top of pristine" \
	[ "$(g log --format=%s -1)" = "fork: add a test line" ]
check "a file the series does not touch keeps its timestamp" \
	[ "$(stat -c %Y "$tree/kernel/Makefile")" = 1000000000 ]
# An old timestamp on the patched file: a reapply would make it new.
touch -d @1050000000 "$tree/kernel/fork.c"
before=1050000000
"$LAB_ROOT/vm/builders/patches.sh" "$tree" "$pd" 2>"$s/err2"
untouched() { [ "$(stat -c %Y "$tree/kernel/fork.c")" = "$before" ] && [ ! -s "$s/err2" ]; }
check "unchanged series: nothing reapplied" untouched

# Two patches; then only the second changes: the file of the first one
# must keep its timestamp (nothing to rebuild there).
sed -i '1a # second patch' "$tree/kernel/Makefile"
g commit -qam "kbuild: a second test change" -m "Why: to test the series." -s
g format-patch -q -1 -o "$pd" >/dev/null
g reset -q --hard pristine
p2=$(basename "$pd"/0001-kbuild-*.patch)
mv "$pd/$p2" "$pd/0002-$p2"
p2=0002-$p2
printf '%s\n%s\n' "$p" "$p2" >"$pd/series"
"$LAB_ROOT/vm/builders/patches.sh" "$tree" "$pd" 2>/dev/null
check "two patches applied in order" [ "$(g log --format=%s -2 | tr '\n' '|')" = "kbuild: a second test change|fork: add a test line|" ]
# A bisection stopped half-way (kernel-source.sh under LAB_BISECT) leaves
# a detached HEAD at lab~1, clean against itself: not the series.
g checkout -q --detach lab~1
"$LAB_ROOT/vm/builders/patches.sh" "$tree" "$pd" 2>/dev/null
check "a tree left at lab~1 by a bisection gets the whole series again" \
	sh -c "[ \"\$(git -C '$tree' symbolic-ref -q HEAD)\" = refs/heads/lab ] && grep -q '^# second patch' '$tree/kernel/Makefile'"
touch -d @1100000000 "$tree/kernel/fork.c"
sed -i 's/^+# second patch$/+# second patch, changed/' "$pd/$p2"
"$LAB_ROOT/vm/builders/patches.sh" "$tree" "$pd" 2>/dev/null
check "the changed patch is applied again" grep -q '^# second patch, changed' "$tree/kernel/Makefile"
check "a file only the unchanged patch touches keeps its timestamp" \
	[ "$(stat -c %Y "$tree/kernel/fork.c")" = 1100000000 ]
echo "$p" >"$pd/series"
rm "$pd/$p2"
"$LAB_ROOT/vm/builders/patches.sh" "$tree" "$pd" 2>/dev/null

# A patch whose context is not in the tree.
sed -i 's/^ \(.*\)$/ \1 CHANGED CONTEXT/' "$pd/$p"
rc=0
"$LAB_ROOT/vm/builders/patches.sh" "$tree" "$pd" 2>"$s/err3" || rc=$?
check "a broken patch fails the build" [ $rc != 0 ]
check "the error names the patch" grep -q "patch 1 of the series, $p, does not apply" "$s/err3"
check "the tree is left at pristine" [ -z "$(g diff pristine)" ]

echo "missing.patch" >>"$pd/series"
rc=0
"$LAB_ROOT/vm/builders/patches.sh" "$tree" "$pd" 2>"$s/err4" || rc=$?
check "a series naming a missing file is refused" \
	refused $rc "names 'missing.patch', which does not exist" "$s/err4"
finish
