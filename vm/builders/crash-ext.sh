#!/bin/sh
# vm/builders/crash-ext.sh - print the path of the stackov crash extension
# (crash-scripts/*.c, one .so), built into the cache against the defs.h of
# the crash that vm/builders/crash.sh provides, with -Wall -Wextra -Werror; rebuilt
# when the source or that crash changes.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

src=$LAB_ROOT/crash-scripts
crash=$("$LAB_ROOT/vm/builders/crash.sh")
inc=$(crash_include "$crash")
so=$STACKOV_CACHE/crash-ext/stackov.so
key=$(hash_files "$src"/*.c "$src"/*.h "$inc/defs.h" "$crash")
if [ ! -f "$so" ] || [ "$(cat "$so.key" 2>/dev/null)" != "$key" ]; then
	mkdir -p "$(dirname "$so")"
	remove_on_exit "$so.tmp.$$"
	gcc -Wall -Wextra -Werror -O2 -shared -fPIC -fvisibility=hidden -nostartfiles \
		-DX86_64 -I "$inc" -o "$so.tmp.$$" "$src"/*.c || die "the stackov extension failed to build"
	mv "$so.tmp.$$" "$so"
	echo "$key" >"$so.key"
fi
echo "$so"
