#!/bin/sh
# vm/builders/host-tools.sh NAME [asan] - print the path of the host tool
# NAME, built into the cache when missing or older than its source: from
# vm/read/NAME.c (the readers' one-file tools), or from the directory
# NAME/ with its own Makefile (stackov-log), or from libstackov/ (the
# engine: libstackov, its shared library; stackov-replay). "asan": the
# build with AddressSanitizer and UBSan, for the tests that feed it bad
# input.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

name=${1:?usage: host-tools.sh NAME [asan]}
san=${2:-}
dir=$LAB_ROOT/$name
out=$name
case $name in
libstackov) dir=$LAB_ROOT/libstackov out=libstackov.so ;;
stackov-replay) dir=$LAB_ROOT/libstackov ;;
esac
src=$LAB_ROOT/vm/read/$name.c
mkdir -p "$STACKOV_CACHE/bin"
if [ -f "$dir/Makefile" ]; then
	bin=$STACKOV_CACHE/bin/${out%.so}${san:+-asan}
	case $out in *.so) bin=$bin.so ;; esac
	# What it is built from: its own sources and, for a program on the
	# engine, libstackov's. One key for all that one make builds (for
	# libstackov/: the library, its archive and stackov-replay): a make
	# for one of them remakes the others, and a key of each one's own
	# would go on naming sources they were no longer built from. The
	# make is -B: the key, not the files' times, says what changed (a
	# file put back, another clone on the same cache). One make at a
	# time: the readers' two lanes and two clones share the cache.
	kf=$STACKOV_CACHE/bin/.${dir##*/}${san:+-asan}.key
	key=$(hash_files "$dir"/Makefile "$dir"/*.c "$dir"/*.h "$LAB_ROOT"/libstackov/*.[ch] "$LAB_ROOT"/libstackov/Makefile)
	exec 9>>"$STACKOV_CACHE/bin/.make.lock"
	flock 9
	if [ ! -x "$bin" ] || [ "$(cat "$kf" 2>/dev/null)" != "$key" ]; then
		rm -f "$bin" "$kf"
		make -s -B -C "$dir" O="$STACKOV_CACHE/bin" ${san:+SAN=1} >&2 ||
			die "host tool $name failed to build (is libdw-dev installed? make deps)"
		echo "$key" >"$kf"
	fi
	exec 9>&-
	echo "$bin"
	exit 0
fi
[ -f "$src" ] || die "no host tool '$name' ($src, or $dir/Makefile)"
bin=$STACKOV_CACHE/bin/$name
key=$(hash_files "$src")
if [ ! -x "$bin" ] || [ "$(cat "$bin.key" 2>/dev/null)" != "$key" ]; then
	remove_on_exit "$bin.tmp"
	gcc -O2 -Wall -Wextra -Werror -o "$bin.tmp" "$src" || die "host tool $name failed to build"
	mv "$bin.tmp" "$bin"
	echo "$key" >"$bin.key"
fi
echo "$bin"
