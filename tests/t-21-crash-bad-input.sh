#!/bin/sh
# make crash on bad input: a missing directory, an empty vmcore and one
# truncated to half its size each give one line naming the problem, not a
# hang (60 s) and not a traceback. A good dump opens in batch mode. (How
# fast the refusals come is measured by make bench-latency, not here.)
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
good=$LAB_OUT/t-20-run
[ -f "$good/vmcore" ] || { fail "no vmcore in $good (t-20 makes one)"; finish; }
s=$(mktemp -d "$LAB_OUT/test-badcrash-XXXX")

refused_not_hung() { [ "$1" != 0 ] && [ "$1" != 124 ]; }
# try NAME DUMP PATTERN: make crash fails, fast, with one line matching PATTERN
try() {
	rc=0
	timeout 60 make -s crash DUMP="$2" CRASH_ARGS="-s" </dev/null >"$s/$1.out" 2>&1 || rc=$?
	grep -vE '^make(\[[0-9]+\])?: \*\*\*' "$s/$1.out" >"$s/$1.msg" || true
	sed 's/^/    /' "$s/$1.msg"
	check "$1: make crash fails (status $rc, not a timeout)" refused_not_hung $rc
	check "$1: one line of error" [ "$(wc -l <"$s/$1.msg")" = 1 ]
	check "$1: it names the problem" grep -q -- "$3" "$s/$1.msg"
	check "$1: no traceback" sh -c "! grep -q Traceback '$s/$1.msg'"
}

try missing "$s/no-such-run" "no dump at '$s/no-such-run'"
mkdir "$s/empty"
ln "$good/vmlinux" "$s/empty/vmlinux"
: >"$s/empty/vmcore"
try empty "$s/empty" "vmcore: is empty (0 bytes)"
copy_run "$good" "$s/half" vmlinux >/dev/null
cp "$good/vmcore" "$s/half/"
jq '.dumps |= map(select(.name == "vmcore"))' "$good/run.json" >"$s/half/run.json"
truncate -s $(($(stat -c %s "$good/vmcore") / 2)) "$s/half/vmcore"
try truncated "$s/half" "vmcore is truncated: [0-9]* bytes of the $(stat -c %s "$good/vmcore") written at capture"
# The same without the size recorded at capture: the structure tells.
rm "$s/half/run.json"
try cut "$s/half" "vmcore: truncated: [0-9]* bytes, its page data ends at"
cp "$good/vmcore.elf" "$s/half/vmcore"
truncate -s $(($(stat -c %s "$good/vmcore.elf") - 4096)) "$s/half/vmcore"
try cut-elf "$s/half" "vmcore: truncated: [0-9]* bytes, a segment ends at"
printf 'not a dump at all\n' >"$s/empty/vmcore"
try garbage "$s/empty" "is not a kdump-compressed or ELF dump"

printf 'bt\nq\n' >"$s/cmds.crash"
rc=0
timeout 300 make -s crash DUMP="$good" CRASH_ARGS="-s -i $s/cmds.crash" </dev/null >"$s/good.out" 2>&1 || rc=$?
check "make crash on a good dump with CRASH_ARGS batch file runs" [ $rc = 0 ]
check "and its bt names the recursive function" grep -q 'recurse_task_frame at .* \[lkdtm_ext\]' "$s/good.out"

# The report with a reader that cannot run, on a sound dump: a gdb that
# dies as a broken install would (READERS_BIN: vm/builders/readers.sh). (A vmcore.elf that is not
# an ELF file is a bad dump, t-39's, not a reader failure.) gdb is named
# as failed; crash and drgn still run.
r=$s/report-run
mkdir "$r" "$s/bin"
copy_run "$good" "$r" console.log vmcore vmcore.elf vmcore.dmesg vmlinux lkdtm_ext.ko >/dev/null
printf '#!/bin/sh\necho "gdb: error while loading shared libraries: libpython3.11.so.1.0" >&2\nexit 127\n' >"$s/bin/gdb"
chmod +x "$s/bin/gdb"
rc=0
READERS_BIN=$s/bin "$LAB_ROOT/vm/read/report.sh" "$r" >"$s/report.out" 2>&1 || rc=$?
sed 's/^/    /' "$s/report.out" | tail -4
check "report.sh with a reader that fails exits 1" [ $rc = 1 ]
check "the summary names the failed reader" grep -q '^FAILED readers: gdb on vmcore.elf' "$s/report.out"
gdb_status() { jq -r '.readers[] | select(.reader == "gdb" and .dump == "vmcore") | .status + ": " + .why' "$r/readers.json"; }
check "readers.json says gdb failed, and why ($(gdb_status))" [ "$(gdb_status)" = "failed: exit status 1" ]
check "crash still ran after it" grep -q '^PID: .*COMMAND: "labtrig"' "$r/reader-crash-vmcore.out"
check "drgn still ran after it" grep -q '^crashed thread: labtrig' "$r/reader-drgn-vmcore.out"
check "and the readers that ran agree: 2 of 3 verdicts, not called the 3" \
	[ "$(jq -c '.agreement[] | select(.dump == "vmcore") | [.verdicts, .same, .agree]' "$r/readers.json")" = '[2,true,false]' ]
check "the summary says only 2 of the 3 gave a verdict" \
	grep -q '^stackov in crash, gdb and drgn, on vmcore: only 2 of the 3 readers gave a verdict (crash drgn); those agree' "$s/report.out"
rm -rf "$s"
finish
