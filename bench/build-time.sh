#!/bin/sh
# bench/build-time.sh - measure, in a cache of its own (nothing shared with
# the lab's cache), a cold kernel build, a no-op rebuild, and the rebuild
# after a one-file patch is added to the series. Prints a small table.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

VARIANT=${VARIANT:-$DEFAULT_VARIANT}
bench=${BENCH_CACHE:-$STACKOV_CACHE-bench}
rm -rf "$bench"
mkdir -p "$bench"
pd=$bench/patches
mkdir -p "$pd"
cp "$KERNEL_PATCHES"/series "$pd/"
cp "$KERNEL_PATCHES"/*.patch "$pd/" 2>/dev/null || true

t() {
	s=$(date +%s.%N)
	STACKOV_CACHE=$bench LAB_PATCHES=$pd "$LAB_ROOT/vm/builders/kernel.sh" "$VARIANT" >"$bench/$1.log" 2>&1
	e=$(date +%s.%N)
	printf '%-34s %8.1f s\n' "$2" "$(echo "$e - $s" | bc)"
}

echo "kernel build times, variant $VARIANT, $(nproc) CPUs, $(gcc --version | head -1)"
t cold "cold (unpack, git, config, build)"
grep 'built in' "$bench/cold.log" | sed 's/^==> /  /'
t noop "no-op (nothing changed)"

# A one-file patch, made with git format-patch against the pristine tree,
# in a worktree of its own: a checkout in the build's tree would touch
# every file the series changes, and the rebuild would measure that.
tree=$bench/linux wt=$bench/patch-wt
git -C "$tree" worktree add -q --detach "$wt" pristine
sed -i '1a /* bench: a one-line change */' "$wt/kernel/exit.c"
git -C "$wt" -c user.name=bench -c user.email=bench@localhost \
	commit -q -a -m "exit: bench change" -s
git -C "$wt" format-patch -q -1 -o "$pd" >/dev/null
git -C "$tree" worktree remove --force "$wt"
basename "$pd"/*-exit-bench-change.patch >>"$pd/series"
t patch "one-file patch added to the series"
grep 'built in' "$bench/patch.log" | sed 's/^==> /  /'
[ "${BENCH_KEEP:-0}" = 1 ] || rm -rf "$bench"
