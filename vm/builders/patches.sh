#!/bin/sh
# vm/builders/patches.sh TREE PATCHDIR - put TREE (a git tree with a 'pristine' tag)
# in the state "pristine + every patch of PATCHDIR/series, in order".
# Does nothing when that exact series is already applied. Files the series
# does not touch keep their timestamps, so kbuild rebuilds only what changed.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

tree=${1:?usage: patches.sh TREE PATCHDIR}
pdir=${2:?usage: patches.sh TREE PATCHDIR}
series=$pdir/series
[ -f "$series" ] || die "no series file: $series"

# The series, comments and blank lines removed.
list=$(series_patches "$pdir")
for p in $list; do
	[ -f "$pdir/$p" ] || die "$series names '$p', which does not exist"
done

# shellcheck disable=SC2086
# The patches in order, names and contents: a comment in series rebuilds nothing.
key=$(cd "$pdir" && hash_files $list)
stamp=$tree/.git/lab-series
# On the branch lab, as it was left: a bisection stopped half-way (a
# detached HEAD at lab~N) is not the series.
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ] &&
	[ "$(git -C "$tree" symbolic-ref -q HEAD)" = refs/heads/lab ] &&
	git -C "$tree" diff --quiet HEAD; then
	exit 0
fi

g() { git -C "$tree" -c user.name=stackov-lab -c user.email=lab@localhost "$@"; }
rm -f "$stamp"
[ -d "$tree/.git/rebase-apply" ] && g am --abort
# Remember what the old series made of each file it touched, and when:
# a file the new series leaves the same gets its old timestamp back, so
# changing one patch rebuilds only what that patch touches.
memo=$tree/.git/lab-mtimes
: >"$memo"
if g rev-parse -q --verify lab >/dev/null; then
	g diff --name-only pristine lab | while read -r f; do
		[ -f "$tree/$f" ] && echo "$(g rev-parse "lab:$f") $(stat -c %Y "$tree/$f") $f"
	done >"$memo" || true
fi
g checkout -q -B lab pristine
g reset -q --hard pristine
n=0
for p in $list; do
	n=$((n + 1))
	if ! g am -q --keep-cr "$pdir/$p" >"$tree/.git/lab-am.log" 2>&1; then
		cat "$tree/.git/lab-am.log" >&2
		g am --abort || true
		g reset -q --hard pristine
		die "patch $n of the series, $p, does not apply to $(basename "$tree")"
	fi
	say "applied $p"
done
while read -r blob mtime f; do
	if [ "$(g rev-parse "HEAD:$f" 2>/dev/null)" = "$blob" ]; then
		touch -d "@$mtime" "$tree/$f"
	fi
done <"$memo"
echo "$key" >"$stamp"
