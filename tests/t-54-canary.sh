#!/bin/sh
# A stack crash that is no overflow, from a module the lab has not seen:
# tests/modules/canary_copy copies a 22-byte name into a 16-byte buffer
# with a loop bounded by the name, over the stack protector's canary, and
# the check at its return panics. The readers must say so, word for word:
# the function the kernel's panic names, its frame as large as the
# compiler made it, the canary's slot (found in the function's code) the
# word above the buffer the module printed, holding the name's last bytes
# where the canary's were; and the log alone must name a canary too.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
rc=0
make -s overflow-demo MODULE=tests/modules/canary_copy QEMU_DUMP=0 LAB_SHOW=0 >"$LAB_OUT/mod-canary.out" 2>&1 || rc=$?
check "MODULE=canary_copy: make overflow-demo exits 0" [ $rc = 0 ]
run=$LAB_OUT/$(readlink "$LAB_OUT/latest")
check "out/latest is the canary_copy run" sh -c "echo '$run' | grep -q 'MODULE-canary_copy-vmap'"
check "the kernel's log has the stack protector's panic" \
	grep -q 'Kernel panic - not syncing: stack-protector: Kernel stack is corrupted in: copy_name' "$run/vmcore.dmesg"
check "the summary's verdict: no stack overflow, a canary in copy_name" \
	grep -q "^no stack overflow: the stack protector's canary in copy_name[.a-z0-9]*'s frame was overwritten" \
	"$LAB_OUT/mod-canary.out"
# readers_agree: the three readers word for word, and crash_agrees: the
# kernel's report, the compiler's frame size (RUN/frames.su).
readers_agree canary_copy "$run" copy_name no vmcore
kernel_log "$run/vmcore.dmesg" >"$run/vmcore.klog"
crash_known canary_copy canary_copy "$run/stackov-crash-vmcore.json" "$run/vmcore.klog"
check "the map marks the canary's slot (stackov -m in crash)" \
	grep -q "^  $(jq -r .slot "$run/stackov-crash-vmcore.json")  canary, overwritten\$" "$run/reader-crash-vmcore.out"
svg_agrees canary_copy "$run"
explain_agrees canary_copy "$run"
finish
