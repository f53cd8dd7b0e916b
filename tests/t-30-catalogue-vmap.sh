#!/bin/sh
# Every scenario of make list, each through make overflow-demo (a fresh
# guest on the vmap kernel, kdump armed; QEMU_DUMP=0). Fatal ones: the kernel's own message, read from the log in
# the dump, names what caught it, the function and the context, and drgn
# confirms the crashed thread and its frames from the vmcore. The reporting
# ones leave the guest up and print a result line that is checked.
# Writes out/catalogue-vmap.txt: one line per scenario, its outcome.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

table=$LAB_OUT/catalogue-vmap.txt
: >"$table"
klog() { kernel_log "$log"; }
in_log() { klog | grep -Eq -- "$1"; }
field() { klog | sed -n "s/.*$1: result .*$2=\([0-9a-z]*\).*/\1/p" | head -1; }
outcome() { record_outcome "$table" 8 "$s"; }
runs=''
demo() {
	make -s -C "$LAB_ROOT" overflow-demo SCENARIO="$s" VARIANT=vmap QEMU_DUMP=0 LAB_SHOW=0 \
		>"$LAB_OUT/demo-$s.out" 2>&1 || fail "$s: make overflow-demo failed"
	run=$LAB_OUT/$(readlink "$LAB_OUT/latest")
	runs="$runs $run"
}

# fatal MESSAGE FUNCTION CONTEXT DRGN_THREAD [DRGN_FUNCTION]: a kdump run;
# the log has MESSAGE, names FUNCTION (as FUNCTION+0x or FUNCTION.cold+0x)
# and matches CONTEXT; drgn's crashed thread is DRGN_THREAD and its stack
# trace has DRGN_FUNCTION (default FUNCTION).
fatal() {
	[ -n "${ran:-}" ] || demo
	ran=''
	log=$run/vmcore.dmesg
	check "$s: kdump captured a vmcore" [ -s "$run/vmcore" ]
	[ -f "$log" ] || log=$run/console.log
	check "$s: kernel says: $1" in_log "$1"
	check "$s: the report names $2" in_log "$2(\\.cold)?\\+0x"
	check "$s: context: $3" in_log "$3"
	sed -n '/^===== drgn on vmcore/,$p' "$run/report.txt" >"$run/drgn.txt" 2>/dev/null || true
	check "$s: the demo printed the post-mortem" grep -q '^== post-mortem of ' "$LAB_OUT/demo-$s.out"
	check "$s: drgn: the crashed thread is $4" grep -Eq "^crashed thread: $4" "$run/drgn.txt"
	check "$s: drgn: its stack trace has ${5:-$2}" grep -Eq " ${5:-$2} at " "$run/drgn.txt"
	outcome
}

# report NAME PATTERN...: a plain run; the guest stays up, each PATTERN is
# in the console.
report() {
	demo
	log=$run/console.log
	check "$s: guest stayed up and powered off" result_is poweroff
	check "$s: no oops or panic" sh -c "! tr -d '\r' <'$log' | grep -Eq 'Oops|Kernel panic|kernel BUG'"
	for p in "$@"; do
		check "$s: $p" in_log "$p"
	done
	outcome
}

for s in $("$LAB_ROOT/vm/list.sh" | cut -d' ' -f1); do
	case $s in
	RECURSE_TASK) fatal 'BUG: TASK stack guard page was hit at' recurse_task_frame \
		'Comm: labtrig' labtrig ;;
	RECURSE_KTHREAD) fatal 'BUG: TASK stack guard page was hit at' recurse_kthread_frame \
		'Comm: lkdtm_recurse' lkdtm_recurse ;;
	RECURSE_WORKQUEUE) fatal 'BUG: TASK stack guard page was hit at' recurse_work_frame \
		'Workqueue: events recurse_work_fn' 'kworker/' ;;
	RECURSE_HARDIRQ) fatal 'BUG: IRQ stack guard page was hit at' recurse_hardirq_frame \
		'^ <IRQ>$' '' ;;
	RECURSE_SOFTIRQ)
		fatal 'BUG: (IRQ|TASK) stack guard page was hit at' recurse_softirq_frame \
			'recursing in softirq: .*in_serving_softirq 1' ''
		echo "softirq overflow: $(klog | grep -o 'BUG: [A-Z]* stack guard page') while '$(klog | sed -n 's/.*recursing in softirq: comm \([^ ]*\).*/\1/p')' was current" ;;
	RECURSE_LOCKED) fatal 'BUG: TASK stack guard page was hit at' recurse_locked_frame \
		'recurse_lock held: comm labtrig .*preempt_count 0x1' labtrig ;;
	BIG_FRAME) fatal 'BUG: TASK stack guard page was hit at' big_frame_16k \
		'first touch at .*: in the guard page below the stack' labtrig ;;
	GUARD_JUMP)
		# Where a frame that skips the guard lands depends on what vmalloc
		# put below this stack: another area (mapped) or a hole. The module
		# says which before it touches; both outcomes are checked. In mapped
		# memory the compiler's zeroing of the frame (INIT_STACK_ALL_ZERO,
		# a memset from its low end) writes into that other area until it
		# reaches unmapped space; the stack pointer is on no known stack,
		# so the kernel's call trace is empty and drgn finds the caller.
		demo
		ran=1
		log=$run/vmcore.dmesg
		if in_log 'first touch at .*: in MAPPED vmalloc memory beyond the guard page'; then
			fatal 'BUG: unable to handle page fault for address: ffffc9' __memset \
				'first touch at .*: in MAPPED vmalloc memory beyond the guard page' labtrig \
				lkdtm_ext_GUARD_JUMP
			check "$s: the kernel's call trace is empty" in_log 'Call Trace:$'
		else
			fatal 'PANIC: double fault, error_code: 0x0' guard_jump_32k \
				'first touch at .*: in unmapped vmalloc space beyond the guard page' labtrig
		fi
		check "$s: no guard-page report: the guard was skipped" sh -c "! grep -q 'stack guard page was hit' '$log'" ;;
	CANARY_SMASH) fatal 'Kernel panic - not syncing: stack-protector: Kernel stack is corrupted in: canary_victim' \
		canary_victim 'Comm: labtrig' labtrig ;;
	STACK_END_SMASH) fatal 'Kernel panic - not syncing: corrupted stack end detected inside scheduler' \
		lkdtm_ext_STACK_END_SMASH 'Comm: labtrig' labtrig ;;
	STACK_SG) fatal 'kernel BUG at include/linux/scatterlist.h:[0-9]+!' lkdtm_ext_STACK_SG \
		'Comm: labtrig' labtrig ;;
	STACK_USE_AFTER_EXIT)
		fatal 'BUG: unable to handle page fault for address: ffffc9' lkdtm_ext_STACK_USE_AFTER_EXIT \
			'#PF: error_code\(0x0000\) - not-present page' labtrig
		ptr=$(klog | sed -n 's/.*the stack is unmapped .*; reading \([0-9a-f]*\)$/\1/p')
		check "$s: the fault is at the pointer into the freed stack ($ptr)" \
			in_log "BUG: unable to handle page fault for address: ${ptr:-none}\$"
		check "$s: and that is a vmalloc address" in_log 'vmalloc_addr|ffffc9' ;;
	HEAP_SG) report 'HEAP_SG: result ok=1 .*sg_virt_matches=1' ;;
	STACK_DMA) report 'rejecting DMA map of vmalloc memory' \
		'DMA-API: .*device driver maps memory from stack' \
		'STACK_DMA: result vmalloc_stack=1 map_single=refused map_page=mapped' ;;
	STACK_VIRT_TO_PAGE) report \
		'STACK_VIRT_TO_PAGE: result vmalloc_addr=1 .*pfn_valid=0 virt_to_page_matches=0 vmalloc_to_page_matches=1' ;;
	STACK_REUSE) report 'STACK_REUSE: result .* reused=1 .* zeroed=1' ;;
	STACK_ACCOUNTING)
		report 'STACK_ACCOUNTING: result threads=8 thread_size_kb=16 '
		check "$s: KernelStack grew by threads x THREAD_SIZE ($(field STACK_ACCOUNTING grew_kb) KiB)" \
			[ "$(field STACK_ACCOUNTING grew_kb)" = "$(field STACK_ACCOUNTING expected_kb)" ]
		check "$s: and fell back by as much ($(field STACK_ACCOUNTING fell_kb) KiB)" \
			[ "$(field STACK_ACCOUNTING fell_kb)" = "$(field STACK_ACCOUNTING expected_kb)" ] ;;
	STACK_DEPTH)
		report 'STACK_DEPTH: result depth=16 frame_bytes=256 '
		used=$(field STACK_DEPTH used_at_deepest)
		hw=$(field STACK_DEPTH high_water_after)
		check "$s: 16 frames of 256 bytes use at least 4096 bytes ($used)" [ "${used:-0}" -ge 4096 ]
		check "$s: the high-water mark read from the stack covers it ($hw >= $used)" [ "${hw:-0}" -ge "${used:-1}" ] ;;
	*) fail "$s: the catalogue test has no expectation for it" ;;
	esac
done
echo "outcomes (also in $table):"
cat "$table"
# All passed: the 18 run directories (vmcores of 12-70 MiB each) can go.
# shellcheck disable=SC2086
[ "$failed" = 0 ] && [ "${KEEP:-0}" != 1 ] && rm -rf $runs
finish
