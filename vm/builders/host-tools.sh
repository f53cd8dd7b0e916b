#!/bin/sh
# vm/builders/host-tools.sh NAME - print the path of the host tool NAME, built from
# vm/read/NAME.c (the readers' host-side C) into the cache when missing or older than its source.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

name=${1:?usage: host-tools.sh NAME}
src=$LAB_ROOT/vm/read/$name.c
[ -f "$src" ] || die "no host tool '$name' ($src)"
bin=$STACKOV_CACHE/bin/$name
key=$(hash_files "$src")
if [ ! -x "$bin" ] || [ "$(cat "$bin.key" 2>/dev/null)" != "$key" ]; then
	mkdir -p "$STACKOV_CACHE/bin"
	remove_on_exit "$bin.tmp"
	gcc -O2 -Wall -Wextra -Werror -o "$bin.tmp" "$src" || die "host tool $name failed to build"
	mv "$bin.tmp" "$bin"
	echo "$key" >"$bin.key"
fi
echo "$bin"
