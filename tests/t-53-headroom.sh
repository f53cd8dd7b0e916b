#!/bin/sh
# Every stack's headroom (stackov -u), on a dump whose crash is no
# overflow: tests/modules/near_miss dives a kthread to about 1 KiB above
# its stack's end, prints how near it came, and sleeps; then its init
# writes through a NULL pointer. The readers must say no overflow, an
# oops, and name the near miss with the bytes the module printed and the
# function it dived in, agree word for word, and the run's recording must
# answer stackov -u again with no dump.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
rc=0
make -s overflow-demo MODULE=tests/modules/near_miss QEMU_DUMP=0 LAB_SHOW=0 >"$LAB_OUT/mod-near.out" 2>&1 || rc=$?
check "MODULE=near_miss: make overflow-demo exits 0" [ $rc = 0 ]
run=$LAB_OUT/$(readlink "$LAB_OUT/latest")
check "out/latest is the near_miss run" sh -c "echo '$run' | grep -q 'MODULE-near_miss-vmap'"
dm=$run/vmcore.dmesg
check "the kernel's log has the oops" grep -q 'BUG: kernel NULL pointer dereference' "$dm"
# What the module said (its own measure: its stack pointer at the deepest
# call, less task_stack_page()).
said=$(kernel_log "$dm" | sed -n "s/.*near_miss: \([0-9]*\) frames of near_miss_dive, the deepest \([0-9]*\) bytes above the stack's end$/\1 \2/p" | head -1)
check "the module said how deep it dived (${said:-nothing})" [ -n "$said" ]
frames=${said% *} mleft=${said#* }

readers_agree near_miss "$run" near_miss_dive no vmcore
h=$run/headroom-crash-vmcore.json
k=$(jq -c '[.stacks[] | select(.comm == "near_miss")][0] // empty' "$h" 2>/dev/null || true)
check "stackov -u lists the near_miss kthread's stack" [ -n "$k" ]
left=$(printf '%s\n' "$k" | jq -r .left 2>/dev/null || true)
check "its bytes never used (${left:-none}) are the module's own measure ($mleft)" [ "$left" = "$mleft" ]
check "its deepest code is near_miss_dive ($(printf '%s\n' "$k" | jq -r .deepest 2>/dev/null))" \
	[ "$(printf '%s\n' "$k" | jq -r .deepest 2>/dev/null)" = near_miss_dive ]
check "it is the deepest stack of the dump ($(jq -r '.stacks[0] | .stack + " " + (.comm // "cpu \(.cpu)")' "$h"))" \
	[ "$(jq -r '.stacks[0].comm' "$h")" = near_miss ]
check "its STACK_END_MAGIC is intact" [ "$(printf '%s\n' "$k" | jq -r .end_magic)" = intact ]
# The compiler's frame size of near_miss_dive, times the frames it said,
# is what it used of the stack, less what lies above its first frame.
su=$(su_bytes "$run" near_miss_dive)
check "near_miss_dive's $frames frames of ${su:-?} bytes (-fstack-usage) fit in the bytes used ($((16384 - ${mleft:-0})))" \
	sh -c "[ -n '$su' ] && [ $((${frames:-0} * ${su:-0})) -le $((16384 - ${mleft:-0})) ]"

svg_agrees near_miss "$run"
out=$LAB_OUT/mod-near.out
pid=$(printf '%s\n' "$k" | jq -r .pid 2>/dev/null || true)
check "the summary's verdict: no stack overflow, an oops in its init" \
	grep -Eq '^no stack overflow: an oops at (near_miss_init|init_module)\+0x' "$out"
check "the verdict names the near miss elsewhere: pid ${pid:-?} \"near_miss\", $mleft bytes, in near_miss_dive" \
	grep -qF "  near miss: TASK of pid $pid \"near_miss\" came within $mleft bytes of its end, in near_miss_dive" "$run/stackov-crash-vmcore.txt"
check "the summary names the near miss: pid ${pid:-?} \"near_miss\", $mleft bytes, in near_miss_dive" \
	grep -qF "near miss: no stack overflow; pid $pid \"near_miss\" came within $mleft bytes of its end, in near_miss_dive" "$out"
check "the summary names the deepest stack" grep -qF "deepest stack by the words written (on vmcore): TASK of pid $pid \"near_miss\", $mleft bytes never used, in near_miss_dive" "$out"

# The recording answers stackov -u with no dump, and takes -n.
bin=$(vm/builders/host-tools.sh stackov-replay) || bin=''
check "stackov-replay builds" [ -n "$bin" ]
rec=$run/replay-vmcore.gz
if [ -n "$bin" ] && [ -f "$rec" ]; then
	"$bin" "$rec" stackov -u -j >"$run/headroom-replay.json" 2>&1 || true
	check "replayed, stackov -u -j is crash's, word for word" cmp -s "$h" "$run/headroom-replay.json"
	"$bin" "$rec" stackov -u -n 512 >"$run/headroom-512.txt" 2>&1 || true
	check "replayed, -n 512: no stack under 512 bytes" grep -qx 'under 512 bytes left: no stack' "$run/headroom-512.txt"
	"$bin" "$rec" stackov -u -n "$((mleft + 1))" >"$run/headroom-n.txt" 2>&1 || true
	check "replayed, -n $((mleft + 1)): the near_miss kthread, and only it" \
		sh -c "[ \$(grep -c '^under ' '$run/headroom-n.txt') = 1 ] && grep -q '^under $((mleft + 1)) bytes left: TASK of pid $pid \"near_miss\", $mleft bytes, in near_miss_dive\$' '$run/headroom-n.txt'"
	rc=0
	"$bin" "$rec" stackov -u -n lots >"$run/headroom-bad.txt" 2>&1 || rc=$?
	check "replayed, -n lots: a usage error (status 2) that says why" \
		sh -c "[ $rc = 2 ] && grep -q \"takes a number of bytes, not 'lots'\" '$run/headroom-bad.txt'"
else
	fail "no recording of crash's answers to replay ($rec)"
fi
finish
