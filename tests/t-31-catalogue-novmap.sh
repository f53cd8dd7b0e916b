#!/bin/sh
# The same overflows, and the stack-misuse scenarios, on the novmap kernel
# (CONFIG_VMAP_STACK=n, the world before the 2016 series). No guard page
# exists, so no scenario may get a guard-page report; what does happen is
# recorded in out/catalogue-novmap.txt, next to out/catalogue-vmap.txt.
# The misuse scenarios must show what vmap stacks changed: on a linear-map
# stack the scatterlist, DMA and virt_to_page() uses all "work".
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

table=$LAB_OUT/catalogue-novmap.txt
: >"$table"
klog() { kernel_log "$run/console.log"; }
in_log() { klog | grep -Eq -- "$1"; }
no_guard_report() { ! in_log 'stack guard page was hit'; }
outcome() { record_outcome "$table" 12 "$s" 'general protection|Oops'; }

for s in RECURSE_TASK RECURSE_KTHREAD RECURSE_WORKQUEUE RECURSE_HARDIRQ \
	RECURSE_SOFTIRQ RECURSE_LOCKED BIG_FRAME GUARD_JUMP STACK_SG STACK_DMA \
	STACK_VIRT_TO_PAGE STACK_USE_AFTER_EXIT; do
	boot "$s" VARIANT=novmap SCENARIO="$s" VM_TIMEOUT=30
	check "$s: the scenario ran on novmap" in_log "^lkdtm_ext: Performing $s "
	check "$s: no guard-page report (there is no guard page)" no_guard_report
	case $s in
	STACK_SG)
		check "$s: DEBUG_SG lets it through (a linear-map address is valid)" \
			in_log '^lkdtm_ext: FAIL: STACK_SG: a scatterlist entry now points at the stack' ;;
	STACK_DMA)
		check "$s: dma_map_single() maps the stack buffer" in_log 'STACK_DMA: result vmalloc_stack=0 map_single=mapped'
		check "$s: DMA-API debug still warns: maps memory from stack" \
			in_log 'DMA-API: .*device driver maps memory from stack' ;;
	STACK_VIRT_TO_PAGE)
		check "$s: virt_to_page() is right for a linear-map stack" \
			in_log 'result vmalloc_addr=0 .*pfn_valid=1 virt_to_page_matches=1' ;;
	STACK_USE_AFTER_EXIT)
		check "$s: the read of the freed stack goes unnoticed" \
			in_log '^lkdtm_ext: FAIL: STACK_USE_AFTER_EXIT: read 0x[0-9a-f]+ through a pointer into a freed stack' ;;
	esac
	outcome
done
echo "novmap outcomes (also in $table):"
cat "$table"
finish
