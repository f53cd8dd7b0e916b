#!/bin/sh
# READERS=host's crash, built from source (vm/builders/crash.sh; about 13
# minutes, so in make test-full): its bundled gdb was configured with the
# lab's flags (no gdbserver, no libctf, gdb itself without debug info), a
# crash call that must not build (CRASH_NO_BUILD=1, as in the demo after
# vm/builders/prepare.sh's build beside the kernel failed) says so at once
# instead of building it all again; and READERS=host's report on t-20's
# dumps gives, with this crash, the verdicts the default readers gave.
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

good=$LAB_OUT/t-20-run
if [ -f "$good/stackov-crash-vmcore.json" ]; then
	cp -al "$good" "$s/host"
	READERS=host "$LAB_ROOT/vm/read/report.sh" "$s/host" >"$s/host.out" 2>&1 || true
	v=$("$crash" --version 2>/dev/null | sed -n 's/^crash \([0-9][0-9.]*\).*/\1/p' | head -1)
	check "READERS=host: readers.json names this crash ($v)" \
		jq_true --arg v "$v" '.suite == "host" and .versions.crash == $v' "$s/host/readers.json"
	for d in vmcore qemu-vmcore; do
		for r in crash gdb drgn; do
			check "READERS=host: $r on $d gives the default readers' verdict, byte for byte" \
				cmp "$good/stackov-$r-$d.json" "$s/host/stackov-$r-$d.json"
		done
	done
	check "READERS=host: the 3 readers agree on both dumps" \
		jq_true '[.agreement[] | .agree] == [true, true]' "$s/host/readers.json"
else
	fail "no verdict in $good (t-20 makes it)"
fi
[ "$failed" = 0 ] && rm -rf "$s"
finish
