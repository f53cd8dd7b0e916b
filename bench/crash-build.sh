#!/bin/sh
# bench/crash-build.sh - time crash 8.0.6's cold build (make bench-crash)
# the way vm/builders/crash.sh does it, in directories of its own (the lab's cached
# crash is left as it is): once with the lab's flags for the bundled gdb,
# once with crash's stock ones. Prints wall and CPU seconds.
# WHICH="lab stock" chooses the builds; BENCH_DIR ($STACKOV_CACHE-crashbench).
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

WHICH=${WHICH:-"lab stock"}
bench=${BENCH_DIR:-$STACKOV_CACHE-crashbench}

# The lab's own crash.sh fetches the source (and builds the lab's crash)
# once; the tarball is beside the source tree of the crash it prints.
src=$(dirname "$(dirname "$("$LAB_ROOT/vm/builders/crash.sh")")")
tarball=
for f in "$src"/crash_*.orig.tar.gz; do tarball=$f; done
[ -f "$tarball" ] || die "no crash source tarball in $src: the installed crash package is used, nothing to build"

mkdir -p "$bench"
printf '%-6s %8s %8s %8s %8s\n' build wall user sys CPU
for w in $WHICH; do
	# crash.sh's own flags, or none: env's arguments for each.
	case $w in
	lab) set -- -u CRASH_GDB_FLAGS ;;
	stock) set -- CRASH_GDB_FLAGS= ;;
	*) die "WHICH: '$w' is neither lab nor stock" ;;
	esac
	d=$bench/$w
	rm -rf "$d" && mkdir -p "$d"
	cp "$tarball" "$d/"
	say "building crash with the $w gdb flags in $d (about 5 minutes)"
	r=$(
		s=$(date +%s)
		env "$@" CRASH_BUILD_DIR="$d" "$LAB_ROOT/vm/builders/crash.sh" >/dev/null
		e=$(date +%s)
		times >"$bench/times"
		echo "$((e - s)) $(cpu_of_times "$bench/times")"
	)
	# shellcheck disable=SC2086
	set -- $r
	printf '%-6s %7ss %7ss %7ss %7ss\n' "$w" "$1" "$2" "$3" "$(($2 + $3))"
	rm -rf "$d"
done
