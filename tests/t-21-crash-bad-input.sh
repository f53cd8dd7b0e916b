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
mkdir "$s/half"
ln "$good/vmlinux" "$s/half/vmlinux"
cp "$good/vmcore" "$good/vmcore.size" "$s/half/"
truncate -s $(($(stat -c %s "$good/vmcore") / 2)) "$s/half/vmcore"
try truncated "$s/half" "vmcore is truncated"
# The same without the size recorded at capture: the structure tells.
rm "$s/half/vmcore.size"
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

# The report with a reader that cannot run, on a sound dump: a gdb first
# on PATH that dies as a broken install would. (A vmcore.elf that is not
# an ELF file is a bad dump, t-39's, not a reader failure.) gdb is named
# as failed; crash and drgn still run.
r=$s/report-run
mkdir "$r" "$s/bin"
for f in console.log run.env vmcore vmcore.size vmcore.cksum vmcore.elf vmcore.elf.size \
	vmcore.elf.cksum vmcore.dmesg vmlinux lkdtm_ext.ko; do
	! [ -e "$good/$f" ] || ln "$good/$f" "$r/$f"
done
printf '#!/bin/sh\necho "gdb: error while loading shared libraries: libpython3.11.so.1.0" >&2\nexit 127\n' >"$s/bin/gdb"
chmod +x "$s/bin/gdb"
rc=0
PATH=$s/bin:$PATH "$LAB_ROOT/vm/read/report.sh" "$r" >"$s/report.out" 2>&1 || rc=$?
sed 's/^/    /' "$s/report.out" | tail -4
check "report.sh with a reader that fails exits 1" [ $rc = 1 ]
check "the summary names the failed reader" grep -q '^FAILED readers: gdb on vmcore.elf' "$s/report.out"
check "report.txt says so at the end of its section" grep -q '^!!! gdb on vmcore.elf FAILED' "$r/report.txt"
check "crash still ran after it" grep -q '^PID: .*COMMAND: "labtrig"' "$r/report.txt"
check "drgn still ran after it" grep -q '^crashed thread: labtrig' "$r/report.txt"
rm -rf "$s"
finish
