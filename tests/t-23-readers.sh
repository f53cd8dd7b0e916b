#!/bin/sh
# The readers of each suite (vm/builders/readers.sh), on t-20's RECURSE_TASK
# dumps (kdump's and QEMU's): each suite's crash, gdb and drgn are the
# versions of the packages its root was unpacked from, and run; crash's
# extension is built against that root's defs.h; sid's readers (crash
# 9.0.2, gdb 18.1, drgn 0.3.0) give, reader for reader and dump for dump,
# the verdict trixie's give, byte for byte; the limitation lines follow
# what each crash actually printed (8.0.6's IST error on QEMU's dump, and
# none from 9.0.2, which has no such error); READERS=host (Debian 12's gdb
# and drgn) gives the same verdicts too, its crash when it is built
# (x-04 builds it); prepare.sh refuses what it cannot parse.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

good=$LAB_OUT/t-20-run
[ -f "$good/stackov-crash-vmcore.json" ] || { fail "no verdict in $good (t-20 makes it)"; finish; }
s=$(mktemp -d "$LAB_OUT/test-readers-XXXX")
main=$(jq -r .suite "$good/readers.json")
check "t-20's report names its readers' suite ($main, READERS=$READERS) and versions" \
	jq_true --arg s "$READERS" '.suite == $s and (.versions | has("crash") and has("gdb") and has("drgn"))' "$good/readers.json"

# Each suite's versions, the tools' own word (--version), against the
# packages its root was unpacked from (lab-packages, from the .deb files
# debootstrap fetched): a source that shares nothing with the tools.
for suite in trixie sid; do
	v=$(READERS=$suite "$LAB_ROOT/vm/builders/readers.sh" 2>"$s/$suite.err") || true
	root=$STACKOV_CACHE/readers-$suite
	for p in crash gdb python3-drgn; do
		t=${p#python3-}
		pkg=$(awk -v p="$p" '$1 == p { print $2 }' "$root/lab-packages" 2>/dev/null | sed 's/^[0-9]*://; s/[-+~].*//')
		got=$(printf '%s\n' "$v" | sed -n "s/^$t //p")
		check "$suite: $t $got, the version of the $p package its root was unpacked from (${pkg:-none})" \
			sh -c "[ -n '$got' ] && [ '$got' = '$pkg' ]"
	done
done
# No reader is installed on this machine by it: the roots are in the cache.
check "trixie's crash runs from its root in the cache" \
	sh -c "case \"\$(READERS=trixie '$LAB_ROOT/vm/builders/readers.sh' crash)\" in '$STACKOV_CACHE'/readers-trixie/*) ;; *) exit 1 ;; esac"
ext=$(READERS=sid "$LAB_ROOT/vm/builders/crash-ext.sh" 2>"$s/ext.err") || true
check "sid's crash extension is its own, built against sid's defs.h ($ext)" \
	sh -c "[ '$ext' = '$STACKOV_CACHE/crash-ext/sid/stackov.so' ] && [ -f '$ext' ] &&
		[ -f '$STACKOV_CACHE/readers-sid/usr/include/crash/defs.h' ]"

# report_as SUITE DIR: t-20's run, its dumps hard-linked, read again by
# SUITE's readers.
report_as() {
	rm -rf "$2"
	cp -al "$good" "$2"
	READERS=$1 "$LAB_ROOT/vm/read/report.sh" "$2" >"$2.out" 2>&1 || true
}
# same_verdicts NAME DIR READER...: each READER's verdict on each dump in
# DIR is t-20's, byte for byte.
same_verdicts() {
	sv_name=$1 sv_dir=$2
	shift 2
	for d in vmcore qemu-vmcore; do
		for r in "$@"; do
			check "$sv_name: $r on $d gives $main's verdict, byte for byte" \
				cmp "$good/stackov-$r-$d.json" "$sv_dir/stackov-$r-$d.json"
			check "$sv_name: and its text too" cmp "$good/stackov-$r-$d.txt" "$sv_dir/stackov-$r-$d.txt"
		done
	done
}

report_as sid "$s/sid"
check "sid: readers.json names sid's crash 9, gdb and drgn ($(jq -c .versions "$s/sid/readers.json" 2>/dev/null))" \
	jq_true '.suite == "sid" and (.versions.crash | startswith("9.")) and .versions.gdb and .versions.drgn' "$s/sid/readers.json"
check "sid: the report's first lines name them" grep -q "^readers: Debian sid's: crash 9\." "$s/sid.out"
same_verdicts sid "$s/sid" crash gdb drgn
check "sid: the 3 readers agree on both dumps" \
	jq_true '[.agreement[] | .agree] == [true, true]' "$s/sid/readers.json"
# The IST limitation is a line only where that crash printed the error.
ist="bt: invalid size request: 0 .*stack contents"
for suite in "$main:$good" "sid:$s/sid"; do
	sn=${suite%%:*} dir=${suite#*:}
	v=$(jq -r .versions.crash "$dir/readers.json")
	if grep -Eq "$ist" "$dir/reader-crash-qemu-vmcore.out"; then
		check "$sn: crash $v printed the IST error on qemu-vmcore, and readers.json names it as crash $v's" \
			jq_true --arg v "crash $v reads an IST stack no IDT gate uses" \
			'[.readers[] | select(.reader == "crash" and .dump == "qemu-vmcore") | .limitations[] | startswith($v)] | any' \
			"$dir/readers.json"
	else
		check "$sn: crash $v printed no IST error on qemu-vmcore, and readers.json names no IST limitation" \
			jq_true '[.readers[] | .limitations[] | contains("reads an IST stack")] | any | not' "$dir/readers.json"
	fi
done
# What Debian's crash 8.0.6 and 9.0.2 did on this dump, measured once
# (vm/lib.sh's crash_limitation says it): 8.0.6 prints the error, 9.0.2 not.
case $(jq -r .versions.crash "$good/readers.json") in
8.*) check "trixie: crash 8.0.6 prints the IST error on QEMU's dump" grep -Eq "$ist" "$good/reader-crash-qemu-vmcore.out" ;;
*) skip "trixie: crash 8.0.6's IST error" "t-20 read the dump with crash $(jq -r .versions.crash "$good/readers.json")" ;;
esac
check "sid: crash 9.0.2 prints no IST error on QEMU's dump" sh -c "! grep -Eq '$ist' '$s/sid/reader-crash-qemu-vmcore.out'"
# The peers name their versions.
check "sid: the peers name crash 9 and drgn 0.3's versions" \
	jq_true '[.[] | select(.dump == "vmcore") | .peers[]] as $p |
		([$p[] | select(.peer == "crash") | .line | test("^on vmcore, crash 9[.0-9]*.s bt ")] | any) and
		([$p[] | select(.peer == "drgn") | .line | test("^on vmcore, drgn 0[.]3[.0-9]*.s stack_trace ")] | any)' \
	"$s/sid/peers.json"

# READERS=host: Debian 12's gdb and drgn; its crash only where built
# (CRASH_NO_BUILD=now: nothing waits for or starts its build here).
hostgdb=$(gdb --version | sed -n '1s/.* //p')
hostdrgn=$(dpkg-query -W -f='${Version}' python3-drgn 2>/dev/null | sed 's/-.*//')
CRASH_NO_BUILD=now report_as host "$s/host"
check "host: readers.json names this machine's gdb $hostgdb and drgn $hostdrgn" \
	jq_true --arg g "$hostgdb" --arg d "$hostdrgn" '.suite == "host" and .versions.gdb == $g and .versions.drgn == $d' \
	"$s/host/readers.json"
same_verdicts host "$s/host" gdb drgn
if CRASH_NO_BUILD=now "$LAB_ROOT/vm/builders/crash.sh" >/dev/null 2>&1; then
	same_verdicts host "$s/host" crash
else
	skip "host: crash's verdicts" "READERS=host's crash is built from source (about 13 minutes), not on make test's path; make test-full builds it (x-04 checks it)"
fi

rc=0
timeout 20 "$LAB_ROOT/vm/builders/prepare.sh" vmap vm/demo.sh >"$s/usage.out" 2>&1 || rc=$?
check "prepare.sh VARIANT COMMAND without -- is refused" refused $rc 'usage: prepare.sh' "$s/usage.out"
rc=0
timeout 20 "$LAB_ROOT/vm/builders/prepare.sh" nosuch >"$s/variant.out" 2>&1 || rc=$?
check "prepare.sh with an unknown variant is refused" refused $rc "unknown VARIANT 'nosuch'" "$s/variant.out"
rc=0
READERS=bookworm timeout 20 "$LAB_ROOT/vm/builders/readers.sh" >"$s/suite.out" 2>&1 || rc=$?
check "an unknown READERS is refused, naming the valid ones" refused $rc "unknown READERS 'bookworm' (valid: trixie sid host)" "$s/suite.out"
# drgn's target on a bit field (tests/drgn-bitfield.py): the byte it
# starts in, as crash and gdb give it. drgn's own .offset refuses one;
# the engine then took 6.3's ORC entries for the old format, and on
# Debian's 6.12 drgn's unwind stopped at its first frame (x-34 found it).
for suite in trixie sid; do
	bf() {
		py=$(READERS=$suite "$LAB_ROOT/vm/builders/readers.sh" python3 "$(kernel_vmlinux vmap)") &&
			[ "$("$py" "$LAB_ROOT/tests/drgn-bitfield.py")" = "5 2" ]
	}
	check "$suite's drgn: orc_entry's bit field 'signal' (bit 43) is at byte 5, as crash and gdb say" bf
done
[ "$failed" = 0 ] && rm -rf "$s"
finish
