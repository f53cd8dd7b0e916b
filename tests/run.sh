#!/bin/sh
# tests/run.sh [--check] [NAME|PATH...] - run the tests in order, each under a
# timeout, and end with "N passed, N failed, N skipped". The fast tier,
# tests/c-*.sh (make check: everything that needs no guest), runs first;
# then tests/t-*.sh (make test); FULL=1 (make test-full) runs tests/x-*.sh
# after them: the rest of the 6.12 line. --check runs the fast tier only.
# Each test prints a PASS, FAIL or SKIP line per check; a test that exits
# non-zero with no FAIL line, or checks nothing, fails.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

TEST_TIMEOUT=${TEST_TIMEOUT:-1800}
tier='test'
[ "${1:-}" = --check ] && { tier=check; shift; }
if [ $# -gt 0 ]; then
	list=""
	for n in "$@"; do
		case $n in
		*/*) list="$list $n" ;;
		*) list="$list $LAB_ROOT/tests/$n.sh" ;;
		esac
	done
else
	list=$(ls "$LAB_ROOT"/tests/c-*.sh)
	[ "$tier" = test ] && list="$list $(ls "$LAB_ROOT"/tests/t-*.sh)"
	[ "$tier" = test ] && [ "${FULL:-0}" = 1 ] && list="$list $(ls "$LAB_ROOT"/tests/x-*.sh)"
fi

# The 6.1 line's vmap kernel is built patch by patch (vm/builders/
# kernel-source.sh): t-41's bisection then costs no kernel of its own.
LAB_BISECT=${LAB_BISECT-6.1}
export LAB_BISECT
passed=0 failed=0 skipped=0 times='' t0=$(date +%s)
mkdir -p "$LAB_OUT"
# One test run at a time per out/: each clears out/test-* as it starts.
exec 8>>"$LAB_OUT/.tests.lock"
flock -n 8 || die "another test run is using $LAB_OUT; wait for it to finish"
# The guests of the last test run (out/test-*) go; user runs stay.
rm -rf "$LAB_OUT"/test-*
# The readers (READERS's, and sid's, which the catalogue checks beside
# them: roots unpacked from Debian's packages, half a minute each) are made in the background
# beside t-02's kernels; a test that needs them waits for them. With FULL,
# READERS=host's crash too (built from source, about 13 minutes). The fast
# tier needs no reader.
if [ "$tier" = test ]; then
	{
		"$LAB_ROOT/vm/builders/readers.sh" && READERS=sid "$LAB_ROOT/vm/builders/readers.sh"
		[ "${FULL:-0}" != 1 ] || nice -n 10 "$LAB_ROOT/vm/builders/crash.sh"
	} >/dev/null 2>"$LAB_OUT/readers.log" &
fi
for t in $list; do
	name=$(basename "$t" .sh)
	[ -f "$t" ] || { echo "FAIL $name: no such test"; failed=$((failed + 1)); continue; }
	echo "--- $name" >&2
	log=$LAB_OUT/$name.log
	start=$(date +%s)
	rc=0
	timeout -k 10 "$TEST_TIMEOUT" sh "$t" >"$log" 2>&1 || rc=$?
	grep -E '^(PASS|FAIL|SKIP) ' "$log" || true
	p=$(grep -c '^PASS ' "$log" || true)
	f=$(grep -c '^FAIL ' "$log" || true)
	k=$(grep -c '^SKIP ' "$log" || true)
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "FAIL $name: exited with status $rc$([ $rc = 124 ] && echo " (timed out after ${TEST_TIMEOUT}s)")"
		tail -5 "$log" | sed 's/^/    /'
		f=1
	elif [ "$rc" = 0 ] && [ "$p" = 0 ] && [ "$k" = 0 ]; then
		echo "FAIL $name: checked nothing"
		f=1
	fi
	[ "$f" != 0 ] && echo "    log: $log"
	secs=$(($(date +%s) - start))
	echo "    ($secs s)" >&2
	times="$times $(echo "$name" | cut -d- -f1-2) $secs,"
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + k))
done
# Where the time went, just above the last line (which is all a CI
# excerpt may keep): each test's seconds, then the whole run's.
echo "time by test (s):${times%,}; all $(($(date +%s) - t0))" | fold -s -w 100
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
