#!/bin/sh
# The fatal scenarios on the orc kernel, built the way distributions build
# theirs (ORC and no frame pointer, KASLR, randomised memory and stack
# offset), through make overflow-demo, checked against their vmap line in
# tests/scenarios.tsv with t-30's checks (tests/catalogue.sh), and, on
# each dump, stackov's frames against crash's bt and drgn's stack_trace
# (peers_agree). KASLR moved the kernel, by an offset each boot draws.
# Writes out/catalogue-orc.txt. ONLY="NAME..." runs just those; make test
# runs four, make test-full (FULL=1) all of them.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"
# shellcheck source=tests/catalogue.sh
. "$LAB_ROOT/tests/catalogue.sh"

"$LAB_ROOT/vm/builders/kernel.sh" orc >"$LAB_OUT/build-orc.log" 2>&1 ||
	{ fail "the orc kernel did not build (see $LAB_OUT/build-orc.log)"; finish; }
cfg=$(kbuild_dir orc)/.config
for o in CONFIG_UNWINDER_ORC=y CONFIG_RANDOMIZE_BASE=y CONFIG_RANDOMIZE_MEMORY=y \
	CONFIG_RANDOMIZE_KSTACK_OFFSET_DEFAULT=y CONFIG_VMAP_STACK=y; do
	check "orc: $o" grep -qx "$o" "$cfg"
done
check "orc: no frame pointer" sh -c "! grep -q '^CONFIG_FRAME_POINTER=y' '$cfg'"

# The fatal ones: those that end by kdump on vmap (vm/lib.sh); in make
# test, four of them: the task stack and the IRQ stack ORC unwinds
# through, the double fault, and two syscalls for the random stack
# offset. The others' dumps are replayed by c-20 (tests/replay/6.1-orc-*).
catalogue orc "${ONLY:-$(full_or "$(fatal_scenarios)" \
	"RECURSE_TASK RECURSE_HARDIRQ BIG_FRAME GUARD_JUMP")}" vmap

kstack_offsets orc

# KASLR: each kdump dump's VMCOREINFO gives the offset its boot drew.
ko=$LAB_OUT/kerneloffset-$(line_name orc).txt
echo "KERNELOFFSET of each boot:"
cat "$ko"
moved() { grep -qv '=0*$' "$ko"; }
n=$(grep -c . "$ko" || true) nz=$(grep -cv '=0*$' "$ko" || true)
check "orc: KASLR moved the kernel (KERNELOFFSET not 0 in a dump's VMCOREINFO: $nz of $n dumps)" moved
finish
