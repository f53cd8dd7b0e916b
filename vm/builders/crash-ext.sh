#!/bin/sh
# vm/builders/crash-ext.sh - print the path of the stackov crash extension
# (crash-scripts/stackov.c, crash's adapter, with libstackov/'s engine, one
# .so), built into the cache against the defs.h of the crash that
# vm/builders/crash.sh provides, with -Wall -Wextra -Werror; rebuilt when
# the source or that crash changes.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

src=$LAB_ROOT/crash-scripts
lib=$LAB_ROOT/libstackov
engine=''
for f in "$lib"/*.c; do
	case $f in */replay-main.c) ;; *) engine="$engine $f" ;; esac
done
crash=$("$LAB_ROOT/vm/builders/crash.sh")
inc=$(crash_include "$crash")
so=$STACKOV_CACHE/crash-ext/stackov.so
# shellcheck disable=SC2086 # one word a file
key=$(hash_files "$src"/*.c $engine "$lib"/*.h "$inc/defs.h" "$crash")
if [ ! -f "$so" ] || [ "$(cat "$so.key" 2>/dev/null)" != "$key" ]; then
	mkdir -p "$(dirname "$so")"
	remove_on_exit "$so.tmp.$$"
	# shellcheck disable=SC2086 # one word a file
	gcc -Wall -Wextra -Werror -O2 -std=gnu11 -shared -fPIC -fvisibility=hidden -nostartfiles \
		-DX86_64 -I "$inc" -I "$lib" -o "$so.tmp.$$" "$src"/*.c $engine -lelf -lz ||
		die "the stackov extension failed to build"
	mv "$so.tmp.$$" "$so"
	echo "$key" >"$so.key"
fi
echo "$so"
