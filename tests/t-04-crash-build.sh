#!/bin/sh
# crash's build (vm/builders/crash.sh): its bundled gdb was configured with the
# lab's flags (no gdbserver, no libctf, gdb itself without debug info), a
# crash call that must not build (CRASH_NO_BUILD=1, as in the demo after
# vm/builders/prepare.sh's build beside the kernel failed) says so at once instead of
# building it all again, and vm/builders/prepare.sh refuses what it cannot parse.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

s=$(mktemp -d "$LAB_OUT/test-crashbuild-XXXX")
crash=$("$LAB_ROOT/vm/builders/crash.sh")
case $crash in
"$STACKOV_CACHE"/crash-*/crash)
	g=$(dirname "$crash")/gdb-10.2
	check "crash's gdb was configured in $g" [ -f "$g/config.status" ]
	check "and its gdb/Makefile is there" [ -f "$g/gdb/Makefile" ]
	check "without gdbserver" [ ! -e "$g/gdbserver/config.status" ]
	check "without libctf" [ ! -e "$g/libctf/config.status" ]
	check "gdb compiled without debug info (CXXFLAGS = -O2)" grep -qx 'CXXFLAGS = -O2' "$g/gdb/Makefile"
	check "the build records its flags" [ -s "$(dirname "$crash")/lab-gdb-flags" ]

	d=$s/nocrash
	mkdir "$d"
	rc=0
	CRASH_NO_BUILD=1 CRASH_BUILD_DIR=$d timeout 60 "$LAB_ROOT/vm/builders/crash.sh" >"$s/nobuild.out" 2>&1 || rc=$?
	sed 's/^/    /' "$s/nobuild.out"
	check "CRASH_NO_BUILD=1 with no crash built: refused" refused $rc 'is not built: its build beside the kernel failed' "$s/nobuild.out"
	check "and nothing fetched or built" [ -z "$(ls -A "$d")" ]
	;;
*)
	check "crash is the installed package, nothing built: $crash" [ -x "$crash" ]
	;;
esac

rc=0
timeout 20 "$LAB_ROOT/vm/builders/prepare.sh" vmap vm/demo.sh >"$s/usage.out" 2>&1 || rc=$?
check "prepare.sh VARIANT COMMAND without -- is refused" refused $rc 'usage: prepare.sh' "$s/usage.out"
rc=0
timeout 20 "$LAB_ROOT/vm/builders/prepare.sh" nosuch >"$s/variant.out" 2>&1 || rc=$?
check "prepare.sh with an unknown variant is refused" refused $rc "unknown VARIANT 'nosuch'" "$s/variant.out"
rm -rf "$s"
finish
