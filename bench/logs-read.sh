#!/bin/sh
# bench/logs-read.sh [BEFORE] - make bench-logs: how many of the real logs
# in tests/logs/ stackov-log reads right, every fact of each one's reading
# by hand (NAME.expect), as c-70 checks them: a table of each log, its
# kind and what it got wrong, and the count; then the same count for the
# stackov-log of commit BEFORE (default 6626080, before the pasted
# formats, arm64 and the signature), on today's logs and readings. c-70's
# own PASS and FAIL lines are what the table is made of.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

before=${1:-${BEFORE:-6626080}}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stackov-logs-read.XXXXXX")
remove_on_exit "$tmp"
# count FILE: "N of M" logs with no FAIL line of their own in c-70's FILE.
count() {
	n=0 right=0
	for log in "$LAB_ROOT"/tests/logs/*.log; do
		name=$(basename "$log" .log)
		n=$((n + 1))
		grep -q "^FAIL c-70-explain-logs: $name: " "$1" || right=$((right + 1))
	done
	echo "$right of $n"
}
sh "$LAB_ROOT/tests/c-70-explain-logs.sh" >"$tmp/c70" 2>&1 || true
n=0 right=0
echo "stackov-log on the real logs of tests/logs/, against their readings by hand"
echo
echo "| log | kind | read right |"
echo "|---|---|---|"
for log in "$LAB_ROOT"/tests/logs/*.log; do
	name=$(basename "$log" .log)
	kind=$(sed -n 's/^kind: //p' "$LAB_ROOT/tests/logs/$name.expect")
	wrong=$(sed -n "s/^FAIL c-70-explain-logs: $name: \([a-z]*\): .*/\1/p; s/^FAIL c-70-explain-logs: $name: \(.*\)/\1/p" "$tmp/c70" |
		grep -v ' ' | paste -sd, | sed 's/,/, /g')
	grep -q "^FAIL c-70-explain-logs: $name: " "$tmp/c70" && [ -z "$wrong" ] && wrong=other
	grep -q "^PASS c-70-explain-logs: $name: " "$tmp/c70" || [ -n "$wrong" ] || wrong="not read"
	n=$((n + 1))
	if [ -z "$wrong" ]; then
		right=$((right + 1))
		echo "| $name | $kind | yes |"
	else
		echo "| $name | $kind | no: $wrong |"
	fi
done
echo
echo "$right of $n real logs read right ($(count "$tmp/c70") with no FAIL line of their own)."
# The explainer of BEFORE, built from that commit's sources.
mkdir -p "$tmp/before/bin"
if git -C "$LAB_ROOT" archive "$before" stackov-log libstackov | tar -C "$tmp/before" -xf - &&
	make -s -C "$tmp/before/stackov-log" O="$tmp/before/bin" >"$tmp/before.log" 2>&1; then
	STACKOV_LOG_BIN=$tmp/before/bin/stackov-log sh "$LAB_ROOT/tests/c-70-explain-logs.sh" >"$tmp/c70.before" 2>&1 || true
	echo "Before, stackov-log of $before read $(count "$tmp/c70.before") right, on the same logs and readings."
else
	echo "Before: stackov-log of $before does not build here ($(tail -1 "$tmp/before.log"))."
fi
