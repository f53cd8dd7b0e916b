#!/bin/sh
# make selftest-lkdtm: the kernel's LKDTM selftest, unmodified, under
# kselftest's runner in the guest. The stack entries must pass on the vmap
# kernel; every entry of tests.txt gets a result; one that takes the guest
# down is named, not lost.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
rc=0
start=$(date +%s)
run=$LAB_OUT/test-selftest-lkdtm
make -s selftest-lkdtm VARIANT=vmap RUN_DIR="$run" >"$LAB_OUT/selftest-lkdtm.out" 2>&1 || rc=$?
echo "make selftest-lkdtm: $(($(date +%s) - start)) s"
cat "$LAB_OUT/selftest-lkdtm.out"
check "make selftest-lkdtm exits 0" [ $rc = 0 ]
tap=$run/selftest-lkdtm.tap
st=$KERNEL_TREE/tools/testing/selftests
total=$(grep -c . "$st/lkdtm/tests.txt")
check "every one of the $total entries of tests.txt has a result" \
	[ "$(grep -cE '^(not )?ok [0-9]+ selftests: lkdtm: ' "$tap")" = "$total" ]
# What the guest ran, as kselftest's runner reported it: each entry of the
# tree's tests.txt, once, in its order, numbered 1..N.
ran_in_order() {
	sed -nE 's/^(not )?ok ([0-9]+) selftests: lkdtm: ([A-Z0-9_]+)\.sh.*/\2 \3/p' "$tap" >"$run/ran.txt"
	awk '{ print NR, $1 }' "$st/lkdtm/tests.txt" | sed 's/ #/ /' >"$run/expected.txt"
	cmp -s "$run/ran.txt" "$run/expected.txt"
}
check "the guest ran tests.txt's entries, each once, in order" ran_in_order
# tests/README.md's counts are this run's (vmap, one boot).
readme=$(tr '\n' ' ' <"$LAB_ROOT/tests/README.md" |
	sed -n 's/.*On the vmap kernel all \([0-9]*\) entries run in one boot, in about [0-9]* s: \([0-9]*\) pass, *\([0-9]*\) are skipped, \([0-9]*\) fail\..*/\1 \2 \3 \4/p')
np=$(grep -cE '^ok [0-9]+ .*[^P]$' "$tap" || true)
ns=$(grep -cE '^ok [0-9]+ .*# SKIP$' "$tap" || true)
nf=$(grep -c '^not ok ' "$tap" || true)
echo "this run: $total entries, $np pass, $ns skipped, $nf fail; tests/README.md says: ${readme:-nothing}"
check "tests/README.md's selftest counts are this run's ($total/$np/$ns/$nf)" [ "$readme" = "$total $np $ns $nf" ]
for t in STACK_GUARD_PAGE_LEADING STACK_GUARD_PAGE_TRAILING REPORT_STACK_CANARY \
	USERCOPY_STACK_FRAME_TO USERCOPY_STACK_FRAME_FROM USERCOPY_STACK_BEYOND; do
	check "$t passes (not skipped)" grep -Eq "^ok [0-9]+ selftests: lkdtm: $t\\.sh\$" "$tap"
done
check "entries marked # in tests.txt are kselftest SKIPs (EXHAUST_STACK)" \
	grep -Eq '^ok [0-9]+ selftests: lkdtm: EXHAUST_STACK\.sh # SKIP$' "$tap"

# With oops=panic every oops takes the guest down: each such entry must be
# named as the one that crashed it, and the next boot must carry on.
rc=0
run=$LAB_OUT/test-selftest-lkdtm-panic
make -s selftest-lkdtm VARIANT=vmap APPEND=oops=panic RUN_DIR="$run" >"$LAB_OUT/selftest-lkdtm-panic.out" 2>&1 || rc=$?
tail -1 "$LAB_OUT/selftest-lkdtm-panic.out"
check "with oops=panic: make selftest-lkdtm still completes" [ $rc = 0 ]
tap=$run/selftest-lkdtm.tap
check "every entry still has a result" \
	[ "$(grep -cE '^(not )?ok [0-9]+ selftests: lkdtm: ' "$tap")" = "$total" ]
check "BUG is named as having crashed the guest" \
	grep -Eq '^not ok [0-9]+ selftests: lkdtm: BUG\.sh # CRASHED the guest \(panic\)$' "$tap"
check "the boot after it ran the next entry (WARNING passes)" \
	grep -Eq '^ok [0-9]+ selftests: lkdtm: WARNING\.sh$' "$tap"
check "it took more than one boot" grep -Eq 'in [0-9]{2,} boots|in [2-9] boots' "$LAB_OUT/selftest-lkdtm-panic.out"
finish
