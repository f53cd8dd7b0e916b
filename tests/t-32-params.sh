#!/bin/sh
# Module parameters have bounds: out-of-range values are refused with a
# clear error at load time, and STACK_DEPTH honours an in-range depth.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

boot params-bad VARIANT=vmap SCENARIO=STACK_DEPTH APPEND=lab.modargs=depth=0 VM_TIMEOUT=60
check "depth=0: the kernel names the range" has '^lkdtm_ext: depth=0 is out of range \(1\.\.40\)'
check "depth=0: insmod fails" has '^lab: insmod lkdtm_ext\.ko depth=0 failed'
check "depth=0: nothing triggered, clean power-off" result_is poweroff

boot params-bad2 VARIANT=vmap SCENARIO=STACK_ACCOUNTING APPEND=lab.modargs=threads=1000 VM_TIMEOUT=60
check "threads=1000: refused with its range" has '^lkdtm_ext: threads=1000 is out of range \(1\.\.64\)'
boot params-bad3 VARIANT=vmap SCENARIO=GUARD_JUMP APPEND=lab.modargs=guard_jump_kb=30 VM_TIMEOUT=60
check "guard_jump_kb=30: refused, not a step of 8" has '^lkdtm_ext: guard_jump_kb=30 is not 24 plus a multiple of 8'
boot params-bad4 VARIANT=vmap SCENARIO=STACK_DEPTH APPEND=lab.modargs=depth=abc VM_TIMEOUT=60
check "depth=abc: refused, not a number" has '^lkdtm_ext: depth=abc is not a number'

boot params-ok VARIANT=vmap SCENARIO=STACK_DEPTH APPEND=lab.modargs=depth=32,threads=2 VM_TIMEOUT=60
check "depth=32 accepted" has '^lab: lkdtm_ext loaded with depth=32 threads=2'
used=$(console | sed -n 's/.*STACK_DEPTH: result depth=32 frame_bytes=256 used_at_deepest=\([0-9]*\).*/\1/p')
check "STACK_DEPTH recursed 32 frames: at least 8192 bytes in use (${used:-none})" [ "${used:-0}" -ge 8192 ]
finish
