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
make -s selftest-lkdtm VARIANT=vmap >"$LAB_OUT/selftest-lkdtm.out" 2>&1 || rc=$?
echo "make selftest-lkdtm: $(($(date +%s) - start)) s"
cat "$LAB_OUT/selftest-lkdtm.out"
check "make selftest-lkdtm exits 0" [ $rc = 0 ]
run=$LAB_OUT/$(readlink "$LAB_OUT/latest")
tap=$run/selftest-lkdtm.tap
st=$LAB_TREE/tools/testing/selftests
overlay=$STACKOV_CACHE/selftest/vmap/initrd.cpio.gz.overlay
same() { zcat "$overlay" | cpio -i --quiet --to-stdout "$1" | cmp -s - "$2"; }
check "the guest's run.sh is the tree's, unmodified" same selftests/lkdtm/run.sh "$st/lkdtm/run.sh"
check "the guest's runner.sh is the tree's" same selftests/kselftest/runner.sh "$st/kselftest/runner.sh"
total=$(grep -c . "$st/lkdtm/tests.txt")
check "every one of the $total entries of tests.txt has a result" \
	[ "$(grep -cE '^(not )?ok [0-9]+ selftests: lkdtm: ' "$tap")" = "$total" ]
for t in STACK_GUARD_PAGE_LEADING STACK_GUARD_PAGE_TRAILING REPORT_STACK_CANARY \
	USERCOPY_STACK_FRAME_TO USERCOPY_STACK_FRAME_FROM USERCOPY_STACK_BEYOND; do
	check "$t passes (not skipped)" grep -Eq "^ok [0-9]+ selftests: lkdtm: $t\\.sh\$" "$tap"
done
check "entries marked # in tests.txt are kselftest SKIPs (EXHAUST_STACK)" \
	grep -Eq '^ok [0-9]+ selftests: lkdtm: EXHAUST_STACK\.sh # SKIP$' "$tap"

# With oops=panic every oops takes the guest down: each such entry must be
# named as the one that crashed it, and the next boot must carry on.
rc=0
make -s selftest-lkdtm VARIANT=vmap APPEND=oops=panic >"$LAB_OUT/selftest-lkdtm-panic.out" 2>&1 || rc=$?
tail -1 "$LAB_OUT/selftest-lkdtm-panic.out"
check "with oops=panic: make selftest-lkdtm still completes" [ $rc = 0 ]
tap=$LAB_OUT/$(readlink "$LAB_OUT/latest")/selftest-lkdtm.tap
check "every entry still has a result" \
	[ "$(grep -cE '^(not )?ok [0-9]+ selftests: lkdtm: ' "$tap")" = "$total" ]
check "BUG is named as having crashed the guest" \
	grep -Eq '^not ok [0-9]+ selftests: lkdtm: BUG\.sh # CRASHED the guest \(panic\)$' "$tap"
check "the boot after it ran the next entry (WARNING passes)" \
	grep -Eq '^ok [0-9]+ selftests: lkdtm: WARNING\.sh$' "$tap"
check "it took more than one boot" grep -Eq 'in [0-9]{2,} boots|in [2-9] boots' "$LAB_OUT/selftest-lkdtm-panic.out"
finish
