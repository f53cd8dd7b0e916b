#!/bin/sh
# stackov-log on real overflow reports written by others (tests/logs/,
# each one's source in its first line): its facts against a reading of
# each log written by hand (NAME.expect). Where a log does not tell, the
# hand reading says "unknown", and so must the explainer. A cycle is the
# same cycle from whichever of its functions it is read. Each log also
# under AddressSanitizer and UBSan.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
# STACKOV_LOG_BIN (bench/logs-read.sh's BEFORE=): another build, both roles.
bin=${STACKOV_LOG_BIN:-$(vm/builders/host-tools.sh stackov-log)} || { fail "stackov-log does not build"; finish; }
asan=${STACKOV_LOG_BIN:-$(vm/builders/host-tools.sh stackov-log asan)} || { fail "stackov-log does not build with ASan"; finish; }
export ASAN_OPTIONS=exitcode=99:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:exitcode=98:print_stacktrace=1
s=$(mktemp -d "$LAB_OUT/test-explain-logs-XXXX")

n=0 right=0
for log in tests/logs/*.log; do
	name=$(basename "$log" .log)
	exp=tests/logs/$name.expect
	[ -f "$exp" ] || { fail "$name: no $exp beside it"; continue; }
	head -1 "$log" | grep -q '^# source: .' || fail "$name: its first line names no source"
	n=$((n + 1))
	rc=0
	"$bin" -f "$log" >"$s/$name.facts" 2>&1 || rc=$?
	# A log with no report stackov-log reads (a KASAN report, a cut
	# trace's first lines): "no stack overflow in this log", status 1.
	if [ "$(sed -n 's/^kind: //p' "$exp")" = none ]; then
		if [ "$rc" = 1 ] && grep -q '^no stack overflow in this log' "$s/$name.facts"; then
			pass "$name: no report: stackov-log says 'no stack overflow in this log'"
			right=$((right + 1))
		else
			fail "$name: the log has no report stackov-log reads, and it exits $rc: $(head -1 "$s/$name.facts")"
		fi
		continue
	fi
	[ "$rc" = 0 ] || { fail "$name: stackov-log exits $rc: $(head -1 "$s/$name.facts")"; continue; }
	# Under AddressSanitizer and UBSan: the same facts, and no report.
	arc=0
	"$asan" -f "$log" >"$s/$name.asan" 2>"$s/$name.asan.err" || arc=$?
	check "$name: under ASan and UBSan, the same facts and no sanitizer report (status $arc)" \
		sh -c "[ $arc = 0 ] && cmp -s '$s/$name.facts' '$s/$name.asan' && ! grep -Eq 'AddressSanitizer|runtime error|LeakSanitizer' '$s/$name.asan.err'"
	# The first report's facts (a blank line would part the next one's);
	# the signature where the reading gives one.
	wrong=0
	for key in kind stack side task context work entry cycle reliable signature; do
		grep -q "^$key: " "$exp" || [ "$key" = signature ] || { fail "$name: $exp has no $key"; wrong=1; continue; }
		grep -q "^$key: " "$exp" || continue
		want=$(sed -n "s/^$key: //p" "$exp")
		got=$(sed -n "s/^$key: //p" "$s/$name.facts" | head -1)
		if [ "$key" = cycle ]; then
			want=$(rot "$want")
			got=$(rot "$got")
		fi
		if [ "$want" = "$got" ]; then
			pass "$name: $key: $got"
		else
			fail "$name: $key: the log says '$want', stackov-log '$got'"
			wrong=1
		fi
	done
	[ "$wrong" = 1 ] || right=$((right + 1))
done
# One bug, one title: two syzbot reports of the bond features cycle,
# entered through sendmsg and through ioctl (syzbot titled them after
# rtnl_newlink and dev_ioctl), give one signature; and so does the first
# with its trace started a turn and a half later (another rotation of the
# same cycle at the top: its first 20 real entries left out).
sig() { "$bin" -j "$1" 2>/dev/null | head -1 | jq -r '.signature // empty'; }
a=tests/logs/syzbot-same-cycle-a-bond-features-rtnl-newlink.log
b=tests/logs/syzbot-same-cycle-b-bond-features-dev-ioctl.log
awk '/Call Trace:/ { t = 1; print; next } t && !/ \? / && /\+0x/ && k < 20 { k++; next } { print }' "$a" >"$s/rotated.log"
sa=$(sig "$a") sb=$(sig "$b") sr=$(sig "$s/rotated.log")
ra=$("$bin" -j "$a" | head -1 | jq -r .cycle) rr=$("$bin" -j "$s/rotated.log" | head -1 | jq -r .cycle)
check "one cycle entered through sendmsg and through ioctl: one signature ($sa)" sh -c "[ -n '$sa' ] && [ '$sa' = '$sb' ]"
check "the same trace from another turn of the cycle ($rr, was $ra): the same signature" \
	sh -c "[ -n '$sr' ] && [ '$sr' = '$sa' ] && [ '${ra% x*}' != '${rr% x*}' ]"
check "at least 33 real logs ($n)" [ "$n" -ge 33 ]
check "every real log read right, every fact of its reading: $right of $n" [ "$right" = "$n" ]
for log in tests/logs/*.log; do
	name=$(basename "$log" .log)
	check "$name: tests/logs/SOURCES.md names its source" grep -q "^- $name | " tests/logs/SOURCES.md
done
[ "$failed" = 0 ] && rm -rf "$s"
finish
