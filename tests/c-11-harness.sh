#!/bin/sh
# The harness itself, and the shell libraries' parsers, on inputs written
# here: check() fails a comparison with an empty side and names it; skip
# prints SKIP; jfield fails on a missing key; tests/run.sh counts passes,
# failures and skips, fails a test that exits non-zero with no FAIL line or
# checks nothing; the catalogue's parsers (scenario_field, per_alt,
# conditions_hold, outcome_holds, rot, in_range, cycle_has); the run
# record's functions (vm/record.sh).
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

s=$(mktemp -d "$LAB_OUT/test-harness-XXXX")
# inner CMD...: what CMD (a harness call) prints, from a subshell, with
# T=inner; the caller's failed is left alone.
inner() { (T=inner; "$@"); }
not() { ! "$@"; }
first_alt_holds() { outcome_holds "$1" "$2" "$3" && [ "$alt" = 1 ]; }
says() { inner "$@" >"$s/said" 2>&1 || true; cat "$s/said"; }

# check and its refusal of empty operands.
check "check passes a true comparison" [ "$(says check x [ a = a ])" = "PASS inner: x" ]
check "check fails a false one" [ "$(says check x [ a = b ])" = "FAIL inner: x" ]
check "an empty left side is a FAIL that names it" \
	[ "$(says check x [ '' = '' ])" = "FAIL inner: x: the left side of '=' is empty (the right: '')" ]
check "an empty right side too" \
	[ "$(says check x [ 3 -lt '' ])" = "FAIL inner: x: the right side of '-lt' is empty (the left: '3')" ]
check "and with test(1) as with [" [ "$(says check x test '' != b)" = "FAIL inner: x: the left side of '!=' is empty (the right: 'b')" ]
: >"$s/empty1"
: >"$s/empty2"
echo one >"$s/one"
check "cmp of two empty files fails, naming the first" [ "$(says check x cmp -s "$s/empty1" "$s/empty2")" = "FAIL inner: x: cmp: $s/empty1 is empty or missing" ]
check "cmp of a missing file fails, naming it" [ "$(says check x cmp -s "$s/one" "$s/none")" = "FAIL inner: x: cmp: $s/none is empty or missing" ]
cp "$s/one" "$s/one.copy"
check "cmp of two same files passes" [ "$(says check x cmp -s "$s/one" "$s/one.copy")" = "PASS inner: x" ]
check "a test that is no comparison runs as it is" [ "$(says check x [ -z '' ])" = "PASS inner: x" ]
check "skip says SKIP, the check and why" [ "$(says skip "the frames" "no dump")" = "SKIP inner: the frames: no dump" ]

# jfield: a value, the first object of JSON lines, an error on a missing key.
printf '{"a":"x y","n":3,"t":true}\n{"a":"second"}\n' >"$s/j"
check "jfield reads a string" [ "$(jfield "$s/j" a)" = "x y" ]
check "jfield reads a number and a boolean as text" [ "$(jfield "$s/j" n) $(jfield "$s/j" t)" = "3 true" ]
rc=0
v=$(jfield "$s/j" nokey 2>"$s/jerr") || rc=$?
check "jfield on a missing key: status 1, nothing printed, and a line why" \
	sh -c "[ $rc = 1 ] && [ -z '$v' ] && grep -q \"no 'nokey'\" '$s/jerr'"
rc=0
jfield "$s/none.json" a >/dev/null 2>&1 || rc=$?
check "jfield on a missing file: status 1" [ "$rc" = 1 ]

# tests/run.sh on tests written here: the counts, and what fails.
mkdir -p "$s/t"
printf '#!/bin/sh\necho "PASS a: one"\necho "PASS a: two"\necho "SKIP a: three: not here"\n' >"$s/t/a.sh"
printf '#!/bin/sh\necho "PASS b: one"\nexit 3\n' >"$s/t/b.sh"
printf '#!/bin/sh\necho "nothing checked"\n' >"$s/t/c.sh"
printf '#!/bin/sh\necho "SKIP d: all: not here"\n' >"$s/t/d.sh"
printf '#!/bin/sh\necho "FAIL e: it"\nexit 1\n' >"$s/t/e.sh"
rc=0
LAB_OUT=$s/out "$LAB_ROOT/tests/run.sh" "$s/t/a.sh" "$s/t/b.sh" "$s/t/c.sh" "$s/t/d.sh" "$s/t/e.sh" \
	>"$s/run.out" 2>"$s/run.err" || rc=$?
sed 's/^/    /' "$s/run.out"
check "run.sh: the last line counts passes, failures and skips" [ "$(tail -1 "$s/run.out")" = "3 passed, 3 failed, 2 skipped" ]
check "run.sh: a test that exits 3 with no FAIL line fails" grep -q '^FAIL b: exited with status 3$' "$s/run.out"
check "run.sh: a test that checks nothing fails" grep -q '^FAIL c: checked nothing$' "$s/run.out"
check "run.sh: a test that only skips does not fail" sh -c "! grep -q '^FAIL d' '$s/run.out'"
check "run.sh: exits non-zero on a failure" [ "$rc" != 0 ]
rc=0
LAB_OUT=$s/out2 "$LAB_ROOT/tests/run.sh" "$s/t/a.sh" >"$s/run2.out" 2>&1 || rc=$?
check "run.sh: all passed (and skipped): status 0" sh -c "[ $rc = 0 ] && tail -1 '$s/run2.out' | grep -qx '2 passed, 0 failed, 1 skipped'"

# The catalogue's parsers, on a table of their own.
printf '# name\tstack\tfunction\tthread\tvmap\tnovmap\tnote\nA\tTASK;IRQ\tf\tt\tresult=kdump && BUG: TASK || result=poweroff && !Oops\tresult=panic\tnote A\n' \
	>"$s/table.tsv"
SCENARIOS=$s/table.tsv
check "scenario_field: a column of a line" [ "$(scenario_field A function)" = f ]
check "scenario_field: no such line, status 1" not scenario_field B function
check "per_alt: the second of two" [ "$(per_alt 'TASK;IRQ' 2)" = IRQ ]
check "per_alt: the only one, for any N" [ "$(per_alt TASK 3)" = TASK ]
printf 'BUG: TASK stack guard page was hit\n' >"$s/log1"
printf 'all quiet\nOops: 0000\n' >"$s/log2"
check "outcome_holds: the first alternative (kdump and the BUG line)" \
	first_alt_holds "$(scenario_field A vmap)" kdump "$s/log1"
if outcome_holds "$(scenario_field A vmap)" poweroff "$s/log2"; then
	fail "outcome_holds: a poweroff whose log has Oops holds, though the table forbids it"
else
	pass "outcome_holds: a poweroff whose log has Oops does not hold ($why)"
fi
if outcome_holds "$(scenario_field A vmap)" kdump "$s/log2"; then
	fail "outcome_holds: a kdump without the BUG line holds"
else
	pass "outcome_holds: a kdump without the BUG line does not hold ($why)"
fi
check "rot: a cycle turned to start at its smallest name" [ "$(rot 'tie -> loop -> bind')" = 'bind -> tie -> loop' ]
check "rot: one function is itself" [ "$(rot f)" = f ]
check "in_range: 4 in 3..5" in_range 4 3 5
check "in_range: 6 not in 3..5" not in_range 6 3 5
check "cycle_has: a function of the cycle" cycle_has 'a -> b -> c x7' b
check "cycle_has: not a part of a name" not cycle_has 'ab -> c x7' b
SCENARIOS=$LAB_ROOT/tests/scenarios.tsv

# The run record.
r=$s/rec
mkdir "$r"
rec_set "$r" '{run: "r", boots: [], dumps: []}'
rec_boot_set "$r" kdump '. + {outcome: "kdump", reason: $w}' --arg w 'it "wrote" it'
rec_boot_set "$r" qemu-dump '. + {outcome: "panic"}'
rec_dump_set "$r" vmcore '. + {path: "./vmcore", captured: true}'
rec_dump_set "$r" qemu-vmcore '. + {path: "qemu-dump/qemu-vmcore", captured: false}'
check "run_outcome: the first boot's" [ "$(run_outcome "$r")" = kdump ]
check "run_outcome: a named boot's" [ "$(run_outcome "$r" qemu-dump)" = panic ]
check "run_reason: quotes kept" [ "$(run_reason "$r" kdump)" = 'it "wrote" it' ]
check "dump_path: a captured dump" [ "$(dump_path "$r" vmcore)" = "$r/./vmcore" ]
check "dump_path: not a dump that was not captured" not dump_path "$r" qemu-vmcore
check "rec_boot_set changes a boot in place: still two" [ "$(rec_get "$r" '.boots | length')" = 2 ]
check "rec_get of a missing key prints nothing" [ -z "$(rec_get "$r" .nokey)" ]
rc=0
rec_get "$s" .run >/dev/null 2>"$s/noerr" || rc=$?
check "rec_get with no record: status 1, one line" sh -c "[ $rc = 1 ] && [ \$(wc -l <'$s/noerr') = 1 ]"
rc=0
rec_set "$r" '.a = ' >/dev/null 2>&1 || rc=$?
check "rec_set with a bad filter fails, and the record is still whole" \
	sh -c "[ $rc != 0 ] && jq -e '.boots | length == 2' '$r/run.json' >/dev/null && [ ! -e '$r/run.json.tmp' ]"
# Two writers at once: both changes land (the run directory's lock).
for i in 1 2 3 4 5 6 7 8; do rec_set "$r" '.n[$i] = 1' --arg i "$i" & done
wait
check "eight writers at once: all eight keys are there" [ "$(rec_get "$r" '.n | length')" = 8 ]
[ "$failed" = 0 ] && rm -rf "$s"
finish
