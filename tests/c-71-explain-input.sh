#!/bin/sh
# stackov-log on the formats real logs come in, and on input that is no
# log at all. One real report (tests/logs/) is dressed as the serial
# console, syzbot, journalctl and dmesg dress it: timestamps, caller ids,
# CRLF, syslog prefixes, a second CPU's lines in between, two oopses, a
# cut. Each must give the same facts as the bare report. Empty files,
# binary junk, 100 MB of log, a directory: one clear line, never a crash,
# all of it under AddressSanitizer and UBSan (100 MB without: it is the
# size that is tested, not the sanitizers' speed).
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
bin=$(vm/builders/host-tools.sh stackov-log) || { fail "stackov-log does not build"; finish; }
asan=$(vm/builders/host-tools.sh stackov-log asan) || { fail "stackov-log does not build with ASan"; finish; }
s=$(mktemp -d "$LAB_OUT/test-explain-input-XXXX")
export ASAN_OPTIONS=exitcode=99:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:exitcode=98:print_stacktrace=1

# run NAME FILE [ARGS]: the ASan build on FILE; status in $rc, output in $s/NAME.out
run() {
	n=$1 f=$2
	shift 2
	rc=0
	timeout 120 "$asan" "$@" "$f" >"$s/$n.out" 2>"$s/$n.err" || rc=$?
}
clean() { ! grep -Eq 'ERROR: AddressSanitizer|runtime error|LeakSanitizer' "$s/$1.err"; }

base=tests/logs/syzbot-bond-netdev-features-recursion.log
other=tests/logs/syzbot-batadv-kworker-pagefault-recursion.log
grep -v '^# ' "$base" >"$s/base.log"
"$bin" -f "$s/base.log" >"$s/base.facts"
check "the bare report has facts" grep -q '^cycle: .* -> ' "$s/base.facts"

# same TAG WHAT FILE: FILE gives the bare report's facts, with no sanitizer report.
same() {
	run "$1" "$3" -f
	check "$2: exit 0, no sanitizer report" sh -c "[ $rc = 0 ] && ! grep -Eq 'AddressSanitizer|runtime error' '$s/$1.err'"
	check "$2: the same facts as the bare report" cmp -s "$s/base.facts" "$s/$1.out"
}
awk '{ printf "[%5d.%06d] %s\n", 100 + NR / 1000, NR * 37 % 1000000, $0 }' "$s/base.log" >"$s/ts.log"
same ts timestamps "$s/ts.log"
awk '{ printf "[  %3d.%06d][ T29993] %s\n", 100, NR, $0 }' "$s/base.log" >"$s/caller.log"
same caller "timestamps and caller ids" "$s/caller.log"
sed 's/$/\r/' "$s/ts.log" >"$s/crlf.log"
same crlf CRLF "$s/crlf.log"
sed 's/^/Dec  5 12:00:00 host kernel: /' "$s/base.log" >"$s/syslog.log"
same syslog "journalctl's syslog prefix" "$s/syslog.log"
sed 's/^/<4>/' "$s/base.log" >"$s/level.log"
same level "printk levels" "$s/level.log"
# Another CPU's lines, with their own caller id, between every two lines.
awk '{ printf "[  100.%06d][ T29993] %s\n", NR, $0;
       printf "[  100.%06d][    C0]  other_cpu_work+0x10/0x20\n", NR }' "$s/base.log" >"$s/inter.log"
same inter "a second CPU's lines interleaved" "$s/inter.log"

# Two oopses in one log: two reports, each with its own facts.
{ cat "$s/base.log"; echo 'some line between'; grep -v '^# ' "$other"; } >"$s/two.log"
run two "$s/two.log"
check "two oopses: two reports" sh -c "[ $rc = 0 ] && grep -c '^report [12] of 2, ' '$s/two.out' | grep -qx 2"
"$bin" -f "$s/two.log" >"$s/two.facts"
check "two oopses: the second is the kworker's" sh -c "grep '^context: ' '$s/two.facts' | tr '\n' ' ' | grep -q 'context: unknown context: kworker'"
clean two || fail "two oopses: a sanitizer report"

# Cut mid-trace: a report all the same, saying so, its entry unknown.
head -60 "$s/base.log" >"$s/cut.log"
run cut "$s/cut.log"
check "cut mid-trace: still a report (status $rc)" [ "$rc" = 0 ]
check "cut mid-trace: it says the log ends before the trace" grep -q 'the log ends before the trace does' "$s/cut.out"
check "cut mid-trace: no sanitizer report" clean cut

# A deep chain with no recursion: the subsystems it went through, outermost first.
run chain tests/logs/constructed/storage-chain.log
check "a deep storage chain: no cycle, and its chain is xfs -> iomap -> dm -> md -> nvme" \
	sh -c "[ $rc = 0 ] && grep -q '^  cycle:     none' '$s/chain.out' && grep -q '^  chain:     xfs -> iomap -> dm -> md -> nvme\$' '$s/chain.out'"

# 6.12's kthread() keeps its threadfn on the stack, and a frame-pointer
# trace prints that pointer as the function before it, at its end
# (rescuer_thread+0x540/0x540 for worker_thread): no frame, and no entry.
run threadfn tests/logs/lab/kworker-threadfn-pointer-6.12.log
check "a threadfn pointer in an all-'?' trace: the entry is kthread function worker_thread" \
	sh -c "[ $rc = 0 ] && grep -q '^  entry:     kthread function worker_thread\$' '$s/threadfn.out'"

# A comm with bytes outside printable ASCII, as Debian 12's makedumpfile
# --dump-dmesg writes them (a byte above 0x7f sign-extended: \xffffffe9):
# the task's own bytes, worded as a dump's verdict words them (t-50's
# odd_comm: the engine's text \xNN, its JSON \u00XX).
run oddcomm tests/logs/lab/makedumpfile-odd-comm.log
printf '%s\n' 'pid 59 "odd\xe9\x01comm" on cpu 1' >"$s/oddcomm.want"
check "makedumpfile's sign-extended comm: the text says $(cat "$s/oddcomm.want")" \
	sh -c "[ $rc = 0 ] && grep -qF -f '$s/oddcomm.want' '$s/oddcomm.out'"
run oddcommj tests/logs/lab/makedumpfile-odd-comm.log -j
printf '%s\n' '"comm":"odd\u00e9\u0001comm"' >"$s/oddcommj.want"
check "and -j's comm is the same bytes, $(cat "$s/oddcommj.want")" grep -qF -f "$s/oddcommj.want" "$s/oddcommj.out"

# A console cut inside the report (6.12's QEMU boot, when the pvpanic
# pause comes first): -j says so ("ended":false), and says a whole one
# ended; tests/lib.sh's explain_agrees_on then reads the dump's log.
whole=tests/logs/syzbot-9p-netfs-retry-recursion.log
awk '{ print } / guard page was hit / { getline; print; exit }' "$whole" >"$s/cut.log"
run cutj "$s/cut.log" -j
run wholej "$whole" -j
check "-j on a log cut inside the report says \"ended\":false, on the whole one true" \
	sh -c "[ \$(grep -c '\"ended\":false' '$s/cutj.out') = 1 ] && grep -q '\"ended\":true' '$s/wholej.out'"

# No overflow: one line, status 1.
: >"$s/empty.log"
run empty "$s/empty.log"
check "an empty log: one line, 'no stack overflow in this log', status 1" \
	sh -c "[ $rc = 1 ] && [ \$(wc -l <'$s/empty.out') = 1 ] && grep -q '^no stack overflow in this log' '$s/empty.out' && [ ! -s '$s/empty.err' ]"
head -c 2000000 /dev/urandom >"$s/junk.log"
run junk "$s/junk.log"
check "2 MB of binary junk: one line, status 1, no sanitizer report" \
	sh -c "[ $rc = 1 ] && [ \$(wc -l <'$s/junk.out') = 1 ] && ! grep -Eq 'AddressSanitizer|runtime error' '$s/junk.err'"
printf 'BUG: kernel NULL pointer dereference, address: 0000000000000000\nCall Trace:\n <TASK>\n foo+0x1/0x2\n' >"$s/nullptr.log"
run oops "$s/nullptr.log"
check "an oops that is no overflow: one line, status 1" \
	sh -c "[ $rc = 1 ] && grep -q '^no stack overflow in this log' '$s/oops.out'"
# ... and inside a trace, a function name and a module name of 3000 bytes
# each, longer than any the reports hold, in a line cut at 4095.
awk 'BEGIN { s = "x"; while (length(s) < 100000) s = s s; f = substr(s, 1, 3000)
	print "BUG: TASK stack guard page was hit at " s; print s; print "Call Trace:"
	print " " f "+0x1/0x10 [" f "]"; print " ? " f "+0x1/0x10"; print " " s "+0x1/0x10"
	print " knot+0x1/0x10 [" f "]" }' >"$s/long.log"
run long "$s/long.log"
check "lines of 100000 bytes: no crash, no sanitizer report (status $rc)" sh -c "[ $rc -le 1 ] && ! grep -Eq 'AddressSanitizer|runtime error' '$s/long.err'"
run dir "$s"
check "a directory: status 2, one line naming it" sh -c "[ $rc = 2 ] && [ \$(wc -l <'$s/dir.err') = 1 ] && grep -q '$s' '$s/dir.err'"
run missing "$s/no-such.log"
check "a missing file: status 2, one line naming it" sh -c "[ $rc = 2 ] && grep -q 'no-such.log: No such file' '$s/missing.err'"
run badvm "$s/base.log" -v "$s/base.log"
check "VMLINUX that is no ELF file: status 2, one line" sh -c "[ $rc = 2 ] && [ \$(wc -l <'$s/badvm.err') = 1 ] && grep -q '^stackov-log: VMLINUX=' '$s/badvm.err'"

# 100 MB of log with the report at its end: found. (How long it takes is
# make bench-explain's: bench/explain-size.sh.)
yes '[  12.345678] ata1.00: a line of an ordinary boot, nothing to see here, move on please' |
	head -c 100000000 >"$s/big.log"
cat "$s/base.log" >>"$s/big.log"
start=$(date +%s)
rc=0
timeout 300 "$bin" -f "$s/big.log" >"$s/big.facts" 2>&1 || rc=$?
took=$(($(date +%s) - start))
check "100 MB of log: the report at its end is found, with the same facts (in $took s)" \
	sh -c "[ $rc = 0 ] && cmp -s '$s/base.facts' '$s/big.facts'"
[ "$failed" = 0 ] && rm -rf "$s"
finish
