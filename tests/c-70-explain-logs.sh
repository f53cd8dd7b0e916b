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
bin=$(vm/builders/host-tools.sh stackov-log) || { fail "stackov-log does not build"; finish; }
asan=$(vm/builders/host-tools.sh stackov-log asan) || { fail "stackov-log does not build with ASan"; finish; }
export ASAN_OPTIONS=exitcode=99:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:exitcode=98:print_stacktrace=1
s=$(mktemp -d "$LAB_OUT/test-explain-logs-XXXX")

n=0
for log in tests/logs/*.log; do
	name=$(basename "$log" .log)
	exp=tests/logs/$name.expect
	[ -f "$exp" ] || { fail "$name: no $exp beside it"; continue; }
	head -1 "$log" | grep -q '^# source: .' || fail "$name: its first line names no source"
	n=$((n + 1))
	rc=0
	"$bin" -f "$log" >"$s/$name.facts" 2>&1 || rc=$?
	[ "$rc" = 0 ] || { fail "$name: stackov-log exits $rc: $(head -1 "$s/$name.facts")"; continue; }
	# Under AddressSanitizer and UBSan: the same facts, and no report.
	arc=0
	"$asan" -f "$log" >"$s/$name.asan" 2>"$s/$name.asan.err" || arc=$?
	check "$name: under ASan and UBSan, the same facts and no sanitizer report (status $arc)" \
		sh -c "[ $arc = 0 ] && cmp -s '$s/$name.facts' '$s/$name.asan' && ! grep -Eq 'AddressSanitizer|runtime error|LeakSanitizer' '$s/$name.asan.err'"
	# The first report's facts (a blank line would part the next one's).
	for key in kind stack side task context work entry cycle reliable; do
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
		fi
	done
done
check "at least 8 real logs ($n)" [ "$n" -ge 8 ]
for log in tests/logs/*.log; do
	name=$(basename "$log" .log)
	check "$name: tests/logs/SOURCES.md names its source" grep -q "^- $name | " tests/logs/SOURCES.md
done
[ "$failed" = 0 ] && rm -rf "$s"
finish
