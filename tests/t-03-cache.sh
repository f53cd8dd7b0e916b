#!/bin/sh
# A second build with nothing changed does no kernel work; the initramfs
# is reproducible (same inputs, same bytes).
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

v=vmap
vml=$(kernel_vmlinux $v)
before=$(stat -c %Y "$vml")
log=$(kbuild_dir $v)/build.log
log_before=$(stat -c %Y "$log")
out=$("$LAB_ROOT/vm/builders/kernel.sh" $v 2>&1)
says_up_to_date() { echo "$out" | grep -q "kernel $v is up to date"; }
check "no-op kernel build says up to date" says_up_to_date
check "no-op kernel build ran no make (build.log untouched)" [ "$(stat -c %Y "$log")" = "$log_before" ]
check "vmlinux not rewritten" [ "$(stat -c %Y "$vml")" = "$before" ]

# A build while another holds the cache lock waits for it, saying so in
# one line, and then goes on. (The holder here stands in for a guest run.)
lock=$STACKOV_CACHE/lock
# shellcheck disable=SC2016 # expanded by the inner shell
flock -s "$lock" sh -c 'echo held >"$1"; sleep 4' - "$LAB_OUT/t03-held" &
holder=$!
wait_for "$LAB_OUT/t03-held" held 30 || fail "the holder of the cache lock did not start"
rm -f "$LAB_OUT/t03-held"
rc=0
LAB_FORCE=1 "$LAB_ROOT/vm/builders/initramfs.sh" $v >"$LAB_OUT/t03-wait.out" 2>&1 || rc=$?
holder_gone() { ! kill -0 "$holder" 2>/dev/null; }
check "a build under a running guest's lock waited, said so, and then built (status $rc)" \
	sh -c "[ $rc = 0 ] && grep -q '^==> waiting: another stackov-lab build or run holds' '$LAB_OUT/t03-wait.out'"
check "it went on only after the holder let go" holder_gone
wait "$holder" || true

# A second test run while one is going is refused in one line (each
# clears out/test-* as it starts). Under tests/run.sh the lock is already
# held, by the run itself; run alone, a holder takes it, and says so
# before the second run starts.
holder2=''
if flock -n "$LAB_OUT/.tests.lock" true; then
	rm -f "$LAB_OUT/t03-held2"
	# shellcheck disable=SC2016 # expanded by the inner shell
	flock -n "$LAB_OUT/.tests.lock" sh -c 'echo held >"$1"; exec sleep 120' - "$LAB_OUT/t03-held2" &
	holder2=$!
	wait_for "$LAB_OUT/t03-held2" held 10 || fail "the holder of the test lock did not start"
fi
rc=0
"$LAB_ROOT/tests/run.sh" c-01-patches >"$LAB_OUT/t03-nested.out" 2>&1 || rc=$?
check "a second test run while one is going is refused in one line" \
	sh -c "[ $rc != 0 ] && [ \$(wc -l <'$LAB_OUT/t03-nested.out') = 1 ] &&
	grep -q 'another test run is using' '$LAB_OUT/t03-nested.out'"
[ -n "$holder2" ] && kill "$holder2" 2>/dev/null
wait

img=$(initramfs_image $v)
a=$(sha256sum "$img" | cut -d' ' -f1)
LAB_FORCE=1 "$LAB_ROOT/vm/builders/initramfs.sh" $v 2>/dev/null
b=$(sha256sum "$img" | cut -d' ' -f1)
check "initramfs rebuilt from the same inputs is byte-identical" [ "$a" = "$b" ]
check "initramfs holds init, busybox, labtrig and the module" sh -c \
	"zcat '$img' | cpio -t --quiet | grep -cxE 'init|bin/busybox|bin/labtrig|lib/modules/lkdtm_ext.ko' | grep -qx 4"
finish
