#!/bin/sh
# An unknown scenario name gets -EINVAL and the list of valid names, from
# the kernel; nothing crashes and the guest keeps running. The host side
# refuses it before booting, and so it does an unknown variant or kernel.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

boot unknown VARIANT=vmap SCENARIO=NO_SUCH_SCENARIO VM_TIMEOUT=120
check "kernel logs the unknown name" has "^lkdtm_ext: unknown scenario 'NO_SUCH_SCENARIO'; valid names:"
check "kernel logs the valid names" has '^lkdtm_ext:   RECURSE_TASK$'
check "the write failed with EINVAL" has '^labtrig: write NO_SUCH_SCENARIO: Invalid argument \(errno 22\)'
check "the guest kept running after it" has '^lab: scenario NO_SUCH_SCENARIO: labtrig exited with status 1; the guest is still running'
check "no oops, BUG or panic" lacks 'Oops|BUG:|Kernel panic'
check "guest powered off cleanly" result_is poweroff

rc=0
make -s -C "$LAB_ROOT" overflow-demo SCENARIO=NO_SUCH_SCENARIO >"$LAB_OUT/unknown-demo.out" 2>&1 || rc=$?
check "make overflow-demo SCENARIO=NO_SUCH_SCENARIO fails" [ $rc != 0 ]
check "with an error naming the valid scenarios" \
	refused $rc "unknown SCENARIO 'NO_SUCH_SCENARIO'; valid: RECURSE_TASK" "$LAB_OUT/unknown-demo.out"
# A run that fails to start is said to have failed, and no earlier run is
# reported in its place: out/latest stays where it was.
before=$(readlink "$LAB_OUT/latest" 2>/dev/null || echo none)
rc=0
make -s -C "$LAB_ROOT" overflow-demo SCENARIO=RECURSE_TASK VM_TIMEOUT=soon \
	>"$LAB_OUT/nostart-demo.out" 2>&1 || rc=$?
check "a run that cannot start (VM_TIMEOUT=soon) fails, saying so" \
	refused $rc "the run did not start" "$LAB_OUT/nostart-demo.out"
check "and it names the reason" grep -q "VM_TIMEOUT must be a number of seconds, not 'soon'" "$LAB_OUT/nostart-demo.out"
check "and reports no post-mortem" sh -c "! grep -q 'post-mortem' '$LAB_OUT/nostart-demo.out'"
check "out/latest is unchanged" [ "$(readlink "$LAB_OUT/latest" 2>/dev/null || echo none)" = "$before" ]
rc=0
VARIANT=bogus "$LAB_ROOT/vm/boot/qemu.sh" 2>"$LAB_OUT/bad-variant.err" || rc=$?
check "VARIANT=bogus is refused" refused $rc "unknown VARIANT 'bogus'" "$LAB_OUT/bad-variant.err"
# A kernel with no description (vm/kernels/KERNEL-LINUX.sh) gets one line
# that names the ones there are, from any target.
rc=0
make -s -C "$LAB_ROOT" list KERNEL=nosuch LINUX=9.9 >"$LAB_OUT/bad-kernel.out" 2>&1 || rc=$?
described=''
for f in "$LAB_ROOT"/vm/kernels/*-*.sh; do
	f=${f##*/}
	described="$described${described:+ }${f%.sh}"
done
check "KERNEL=nosuch LINUX=9.9 is refused in one line naming the kernels described ($described)" sh -c \
	"[ $rc != 0 ] && grep -qx \"list.sh: error: no kernel 'nosuch-9.9' (KERNEL=nosuch LINUX=9.9); described: $described\" '$LAB_OUT/bad-kernel.out' &&
	[ \$(grep -c error '$LAB_OUT/bad-kernel.out') = 1 ]"
finish
