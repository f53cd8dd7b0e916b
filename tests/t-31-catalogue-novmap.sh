#!/bin/sh
# Every scenario on the novmap kernel (CONFIG_VMAP_STACK=n, the world
# before the 2016 series), each in a fresh guest with no kdump, checked
# against its novmap outcome in tests/scenarios.tsv: how the run ended and
# what the console says. What vmap stacks changed shows here: recursion
# resets the machine or double-faults, a frame below the stack and a
# stack pointer into a freed stack go unnoticed, and the scatterlist, DMA
# and virt_to_page() uses of a linear-map stack all "work".
# Writes out/catalogue-novmap.txt, next to out/catalogue-vmap.txt.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

table=$LAB_OUT/catalogue-$(line_name novmap).txt
: >"$table"
klog() { kernel_log "$run/console.log"; }
outcome() { record_outcome "$table" 12 "$s" 'general protection|Oops'; }

check "the novmap kernel has no CONFIG_VMAP_STACK" \
	grep -qx '# CONFIG_VMAP_STACK is not set' "$(kbuild_dir novmap)/.config"
# ONLY="NAME..." runs just those scenarios.
for s in ${ONLY:-$("$LAB_ROOT/vm/list.sh" | cut -d' ' -f1)}; do
	scenario_field "$s" novmap >/dev/null || { fail "$s: tests/scenarios.tsv has no line for it"; continue; }
	boot "$s" VARIANT=novmap SCENARIO="$s" VM_TIMEOUT=30
	klog >"$run/klog.txt"
	check "$s: the scenario ran on novmap" grep -q "lkdtm_ext: Performing $s " "$run/klog.txt"
	expect_outcome "$s" novmap "$(run_outcome "$run")" "$run/klog.txt"
	lifecycle_numbers "$s" "$run/klog.txt"
	outcome
done
echo "novmap outcomes (also in $table):"
cat "$table"
finish
