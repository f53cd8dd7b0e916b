#!/bin/sh
# The patch series, each patch seen at work in the guest (vmap kernel):
#  1 kstack_cache_* in /proc/vmstat move under a fork loop, hits dominating;
#  2 kstack_cache=0 keeps the hit counter at zero;
#  3 kstack_free=rcu makes the hit rate far lower than the default's;
#  4 vmap_stack_overflow=oops kills only the overflowing task, twice over,
#    with interrupts on as from any oops (vmap, orc and 6.12), and refuses
#    to for an IRQ stack, with a lock held, or in a kthread or kworker
#    (they panic as before);
#  5 the guard-page report's new line agrees with the dump and with what
#    the CPU saved (the stack pointer, the faulting instruction);
#  6 the module reads the cache size kstack_cache= set.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

N=2000
val() { console | sed -n "s/^forkloop: result .* $1=\([0-9]*\).*/\1/p" | head -1; }
loop() { # NAME EXTRA-APPEND
	# loglevel=4: no kernel info line may cut the result line in two.
	# forkloop -1: parent and children on CPU 0, one CPU's cache (an
	# unpinned loop's children exit on the other CPU: see make bench).
	boot "forkloop-$1" VARIANT=vmap APPEND="lab.cmd=forkloop:-1:$N loglevel=4 $2" VM_TIMEOUT=300
	line=$(console | grep -m1 '^forkloop: result')
	echo "$1 ($2): ${line:-no result}"
	hit=$(val kstack_cache_hit) miss=$(val kstack_cache_miss)
	put=$(val kstack_cache_put) full=$(val kstack_cache_full)
}

loop default ''
counters_there() { [ -n "$hit" ] && [ -n "$miss" ] && [ -n "$put" ] && [ -n "$full" ]; }
check "vmstat has the kstack_cache_* counters" counters_there
check "default: $N forks took a stack from the cache $hit times" [ "${hit:-0}" -gt 0 ]
check "default: hits dominate ($hit hits, $miss misses)" [ "${hit:-0}" -gt $((${miss:-0} * 4)) ]
check "default: stacks go back to the cache ($put puts)" [ "${put:-0}" -ge "${hit:-1}" ]
dhit=${hit:-0}

loop nocache 'kstack_cache=0'
check "kstack_cache=0: no hits ($hit)" [ "${hit:-x}" = 0 ]
check "kstack_cache=0: every fork vmallocs ($miss misses)" [ "${miss:-0}" -ge $N ]
check "kstack_cache=0: every dead stack is freed, bar the last few RCU has not run for ($full)" \
	[ "${full:-0}" -ge $((N - 10)) ]

loop rcu 'kstack_free=rcu'
check "kstack_free=rcu: the hit rate is far below the default's ($hit against $dhit hits of $N)" \
	[ "${hit:-$N}" -lt $((dhit / 2)) ]

boot badparam VARIANT=vmap APPEND="kstack_cache=99 kstack_free=later" VM_TIMEOUT=60
check "kstack_cache=99 is refused with its range" has '^kstack_cache=99: expected 0 to 16, keeping 2'
check "kstack_free=later is refused" has '^kstack_free=later: expected early or rcu, keeping early'

# 4: the option, two overflows in a row, then a fork.
boot oops VARIANT=vmap SCENARIO=RECURSE_TASK,RECURSE_TASK APPEND=vmap_stack_overflow=oops VM_TIMEOUT=120
n=$(console | grep -c '^BUG: TASK stack guard page was hit at')
check "vmap_stack_overflow=oops: both overflows reported ($n)" [ "$n" = 2 ]
check "each oops names the recursive function" has '^RIP: 0010:recurse_task_frame\+0x'
check "the writer was killed (SIGSEGV), twice" \
	sh -c "[ \$(tr -d '\r' <'$run/console.log' | grep -c 'labtrig exited with status 139') = 2 ]"
check "no panic" lacks 'Kernel panic'
check "the guest forks afterwards" has '^lab: after the scenarios: a new process could be forked'
check "and powers off cleanly" result_is poweroff
# Killed as cleanly as by any oops: with the interrupted context's
# interrupts on, and nothing else said about the task.
check "the killed task does not exit with interrupts off" lacks 'exited with irqs disabled'
check "no warning, no sleeping-in-atomic or lockdep splat" \
	lacks '^(WARNING:|BUG: sleeping function|BUG: scheduling while atomic|WARNING: inconsistent lock state|WARNING: suspicious RCU usage)'
# The same on the ORC kernel and on the 6.12 line (t-33 and t-35 built them).
for k in "orc 6.1" "vmap 6.12"; do
	# shellcheck disable=SC2086 # two words
	set -- $k
	boot "oops-$1-$2" VARIANT="$1" LINUX="$2" SCENARIO=RECURSE_TASK APPEND=vmap_stack_overflow=oops VM_TIMEOUT=120
	check "$1 ($2): the overflowing task is killed (SIGSEGV), no panic" \
		sh -c "tr -d '\r' <'$run/console.log' | grep -q 'labtrig exited with status 139' && ! grep -q 'Kernel panic' '$run/console.log'"
	check "$1 ($2): and not with interrupts off" lacks 'exited with irqs disabled'
done

boot oops-locked VARIANT=vmap SCENARIO=RECURSE_LOCKED APPEND=vmap_stack_overflow=oops VM_TIMEOUT=120
check "with a spinlock held the option does not apply: panic" has '^Kernel panic - not syncing: Fatal exception in interrupt'
boot oops-irq VARIANT=vmap SCENARIO=RECURSE_HARDIRQ APPEND=vmap_stack_overflow=oops VM_TIMEOUT=120
check "an IRQ stack overflow still panics" has '^Kernel panic - not syncing: Fatal exception in interrupt'
boot oops-kthread VARIANT=vmap SCENARIO=RECURSE_KTHREAD APPEND=vmap_stack_overflow=oops VM_TIMEOUT=120
check "a kthread's overflow still panics" has '^Kernel panic - not syncing: Fatal exception in interrupt'
check "and the kthread was the one overflowing" has '^CPU: [0-9]+ PID: [0-9]+ Comm: lkdtm_recurse '
boot oops-kworker VARIANT=vmap SCENARIO=RECURSE_WORKQUEUE APPEND=vmap_stack_overflow=oops VM_TIMEOUT=120
check "a kworker's overflow still panics: no work item is left half-run" \
	has '^Kernel panic - not syncing: Fatal exception in interrupt'
check "and the kworker was running recurse_work_fn" has '^Workqueue: events recurse_work_fn'
boot nooops VARIANT=vmap SCENARIO=RECURSE_TASK VM_TIMEOUT=120
check "without the option a task stack overflow panics as before" has '^Kernel panic - not syncing: Fatal exception in interrupt'

# 5: the new line, against the dump.
boot report VARIANT=vmap KDUMP=1 SCENARIO=RECURSE_TASK VM_TIMEOUT=120
log=$run/vmcore.dmesg
klog() { kernel_log "$log"; }
bug=$(klog | sed -n 's/^BUG: TASK stack guard page was hit at \([0-9a-f]*\) (stack is \([0-9a-f]*\)\.\.\([0-9a-f]*\))$/\1 \2 \3/p')
new=$(klog | sed -n 's/^traps: TASK stack overflow: \([0-9]*\) bytes below the stack, comm \([^ ]*\) pid \([0-9]*\) cpu \([0-9]*\)$/\1 \2 \3 \4/p')
echo "BUG line: $bug; new line: $new"
check "the report has the new line" [ -n "$new" ]
# The CPU's own record, printed from the saved registers: the stack
# pointer at the fault and the faulting instruction (<..> in Code:). A
# push or a call writes 8 bytes below the stack pointer.
rsp=$(klog | sed -n 's/^RSP: [0-9a-f]*:\([0-9a-f]*\) .*/\1/p' | head -1)
op=$(klog | sed -n 's/^Code: .*<\([0-9a-f][0-9a-f]\)>.*/\1/p' | head -1)
echo "saved RSP $rsp, faulting opcode $op"
# The low 48 bits are enough for a difference of a few pages, and fit sh.
low() { printf '%d' "0x$(echo "$1" | tail -c 13)"; }
case $op in
5[0-7] | e8) writes_at=$(($(low "${rsp:-0}") - 8)) ;;
*) writes_at=-1 ;;
esac
# shellcheck disable=SC2086
set -- $bug $new
check "the faulting instruction writes below the stack pointer (a push or call: $op)" [ "$writes_at" != -1 ]
check "the BUG line's fault address is where it writes (RSP - 8)" [ "$(low "${1:-0}")" = "$writes_at" ]
"$("$LAB_ROOT/vm/builders/readers.sh" python3 "$run/vmlinux")" "$LAB_ROOT/drgn-scripts/postmortem.py" "$run/vmcore" "$run/vmlinux" \
	"$run/lkdtm_ext.ko" >"$run/drgn.txt" 2>&1
head -4 "$run/drgn.txt"
check "the dump's crashed task is the one named (comm $5 pid $6)" \
	grep -q "^crashed thread: $5 pid $6 " "$run/drgn.txt"
check "on the CPU named ($7)" grep -q "^cpu: *$7\$" "$run/drgn.txt"
check "the dump's stack bounds are the ones printed" grep -q "^stack: *0x$2\.\.0x$3 " "$run/drgn.txt"
lo=$(sed -n 's/^stack: *0x\([0-9a-f]*\)\.\..*/\1/p' "$run/drgn.txt")
check "bytes below (${4:-?}) = the dump's stack start - where the instruction wrote" \
	[ "${4:-x}" = "$(($(low "${lo:-0}") - writes_at))" ]

# 6: the module drains and fills as many stacks as the cache holds.
boot reuse4 VARIANT=vmap SCENARIO=STACK_REUSE APPEND=kstack_cache=4 VM_TIMEOUT=120
check "kstack_cache=4: STACK_REUSE knows the cache holds 4 and still sees the stack reused" \
	has '^lkdtm_ext: STACK_REUSE: result cpu=[0-9]+ cache_size=4 .* reused=1 '
boot reuse0 VARIANT=vmap SCENARIO=STACK_REUSE,STACK_USE_AFTER_EXIT APPEND=kstack_cache=0 VM_TIMEOUT=120
check "kstack_cache=0: STACK_REUSE runs with no cache to drain" \
	has '^lkdtm_ext: STACK_REUSE: result cpu=[0-9]+ cache_size=0 '
check "kstack_cache=0: STACK_USE_AFTER_EXIT fills one stack per CPU past the (empty) cache" \
	has '^lkdtm_ext: STACK_USE_AFTER_EXIT: [0-9]+ fillers exited \(cache size 0\)'
check "and the read of the freed stack faults" has '^BUG: unable to handle page fault for address: ffffc9'
finish
