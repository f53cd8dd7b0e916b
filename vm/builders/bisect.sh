#!/bin/sh
# vm/builders/bisect.sh - check that every patch of the kernel's series builds on its own:
# in a worktree of the kernel tree, apply the patches one at a time and
# build vmlinux after each (the first variant's config), in a build
# directory of its own, so only the first build is a full one. A series
# that has passed is not built again.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

pdir=$KERNEL_PATCHES
variant=$DEFAULT_VARIANT
list=$(series_patches "$pdir")
[ -n "$list" ] || { echo "bisect: the series is empty"; exit 0; }
key=$(bisect_key)
dir=$KERNEL_HOME/bisect
tree=$dir/linux o=$dir/build
if [ -f "$dir/passed" ] && [ "$(cat "$dir/passed")" = "$key" ]; then
	cat "$dir/report"
	exit 0
fi
cfg=$(kbuild_dir "$variant")/.config
[ -f "$cfg" ] || die "build the $variant kernel first (make kernel)"
mkdir -p "$dir" "$o"
if [ ! -d "$tree" ]; then
	git -C "$KERNEL_TREE" worktree prune
	git -C "$KERNEL_TREE" worktree add -q --detach "$tree" pristine
fi
g() { git -C "$tree" -c user.name=stackov-lab -c user.email=lab@localhost "$@"; }
[ -d "$(g rev-parse --git-path rebase-apply)" ] && g am --abort
g checkout -q --detach pristine
cp "$cfg" "$o/.config"
: >"$dir/report"
n=0
for p in $list; do
	n=$((n + 1))
	g am -q "$pdir/$p" || { g am --abort; die "patch $n, $p, does not apply"; }
	start=$(date +%s)
	if ! env -u MAKEFLAGS -u MAKELEVEL make -C "$tree" O="$o" -j"$LAB_JOBS" olddefconfig vmlinux >"$dir/build-$n.log" 2>&1; then
		grep -E 'error' "$dir/build-$n.log" | head -10 >&2
		die "the tree with patches 1..$n ($p) does not build; see $dir/build-$n.log"
	fi
	echo "patch $n builds: $p ($(($(date +%s) - start)) s)" | tee -a "$dir/report"
done
echo "$key" >"$dir/passed"
