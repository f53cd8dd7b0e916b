#!/bin/sh
# make overflow-demo KDUMP=0 (console only): RECURSE_TASK overflows the
# writer's task stack into its guard page; the kernel names the stack,
# the task and the function.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
rc=0
run=$LAB_OUT/test-demo-console
make -s overflow-demo SCENARIO=RECURSE_TASK VARIANT=vmap KDUMP=0 QEMU_DUMP=0 LAB_SHOW=0 \
	RUN_DIR="$run" >"$LAB_OUT/demo.out" 2>&1 || rc=$?
check "make overflow-demo exits 0" [ $rc = 0 ]
check "out/latest is this run" [ "$(readlink "$LAB_OUT/latest")" = "$(basename "$run")" ]
check "out/latest/console.log exists" [ -s "$LAB_OUT/latest/console.log" ]
check "the module performed RECURSE_TASK" has 'lkdtm_ext: Performing RECURSE_TASK \(pid [0-9]+, comm labtrig\)'
check "kernel: BUG: TASK stack guard page was hit" has '^BUG: TASK stack guard page was hit at [0-9a-f]+ \(stack is [0-9a-f]+\.\.[0-9a-f]+\)'
check "kernel: stack guard page oops" has '^stack guard page: 0000 \[#1\]'
pid=$(console | sed -n 's/.*lkdtm_ext: Performing RECURSE_TASK (pid \([0-9]*\).*/\1/p' | head -1)
check "the oops names the writing task (labtrig, pid $pid)" has "^CPU: [0-9]+ PID: $pid Comm: labtrig "
in_trace() {
	console | sed -n '/Call Trace:/,/end trace/p' |
		grep -Eq 'recurse_task_frame\+0x[0-9a-f]+/0x[0-9a-f]+ \[lkdtm_ext\]'
}
check "call trace names recurse_task_frame [lkdtm_ext]" in_trace
check "kernel panicked" has '^Kernel panic - not syncing: '
check "run result is panic" result_is panic
below_stack() {
	# shellcheck disable=SC2046
	set -- $(console | sed -n 's/.*stack guard page was hit at \([0-9a-f]*\) (stack is \([0-9a-f]*\)\.\..*/\1 \2/p')
	# Both are 16 hex digits: string order is numeric order.
	[ $# = 2 ] && [ "$(expr "$1" \< "$2")" = 1 ]
}
check "the fault address is below the reported stack" below_stack
check "the demo summary shows the guard-page report" grep -q 'BUG: TASK stack guard page was hit' "$LAB_OUT/demo.out"
finish
