#!/bin/sh
# vm/builders/crash-ext.sh - print the path of the stackov crash extension
# (crash-scripts/stackov.c, crash's adapter, with libstackov/'s engine, one
# .so), built into the cache against the defs.h of READERS's crash
# (vm/builders/readers.sh: Debian's package ships it, the host's build has
# it in its source) by crash-scripts/Makefile, for that crash's version
# only; one a READERS, rebuilt when the source or that crash changes.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

src=$LAB_ROOT/crash-scripts
lib=$LAB_ROOT/libstackov
engine=$(engine_sources)
crash=$("$LAB_ROOT/vm/builders/readers.sh" crash)
inc=$("$LAB_ROOT/vm/builders/readers.sh" include)
[ -f "$inc/defs.h" ] || die "$READERS's crash has no defs.h in $inc"
so=$STACKOV_CACHE/crash-ext/$READERS/stackov.so
# shellcheck disable=SC2086 # one word a file
key=$(hash_files "$src"/*.c "$src"/Makefile $engine "$lib"/*.h "$inc/defs.h" "$crash")
built() { [ -f "$so" ] && [ "$(cat "$so.key" 2>/dev/null)" = "$key" ]; }
if ! built; then
	mkdir -p "$(dirname "$so")"
	# One build at a time: the report's two lanes, and two clones on one
	# cache, ask for it together.
	exec 8>>"$so.lock"
	flock 8
	if ! built; then
		ver=$("$LAB_ROOT/vm/builders/readers.sh" | sed -n 's/^crash //p')
		make -s -B -C "$src" O="$(dirname "$so")" CRASH_INCLUDE="$inc" CRASH_VERSION="$ver" CFLAGS=-O2 >&2 ||
			die "the stackov extension failed to build"
		echo "$key" >"$so.key"
	fi
	exec 8>&-
fi
echo "$so"
