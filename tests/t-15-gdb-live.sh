#!/bin/sh
# gdb on a live guest: boot RECURSE_TASK and RECURSE_HARDIRQ with the
# gdbstub holding the CPUs (GDB=1 GDB_WAIT=1), attach gdb through
# vm/gdb.sh in batch (GDB_CMDS, what make gdb runs), arm stackov-catch,
# and check that gdb stops in the guard-page path before the kernel says a
# word about it, naming the task, the stack kind and the bounds that the
# kernel's BUG line and oops then print. Then: a gdb left attached to a
# held guest does not keep it running past its timeout.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

# start NAME VAR=value...: a guest in the background, its gdbstub up.
start() {
	run=$(mktemp -d "$LAB_OUT/test-gdblive-$1-XXXX")
	rmdir "$run"
	shift
	env RUN_DIR="$run" LAB_SHOW=0 GDB=1 GDB_WAIT=1 INTERACTIVE=0 "$@" \
		"$LAB_ROOT/vm/boot/qemu.sh" >/dev/null 2>"$run.launcher.log" &
	qpid=$!
	i=0
	until gdbstub_up "$run" || [ $i -gt 100 ]; do
		i=$((i + 1))
		sleep 0.2
	done
}

for s in RECURSE_TASK RECURSE_HARDIRQ; do
	start "$s" SCENARIO="$s" KDUMP=0 VM_TIMEOUT=180
	cmds=$run.gdb
	cat >"$cmds" <<GDB
stackov-catch
continue
echo stackov-catch stopped\n
frame 0
echo the kernel's log at the stop:\n
lx-dmesg
echo end of the kernel's log\n
stackov -j
stackov-bt
stackov-stacks
continue
GDB
	grc=0
	RUN_DIR=$run GDB_CMDS=$cmds timeout -k 5 240 "$LAB_ROOT/vm/gdb.sh" >"$run.gdb.out" 2>&1 || grc=$?
	qrc=0
	wait "$qpid" || qrc=$?
	out=$run.gdb.out
	check "$s: gdb did not time out (status $grc)" [ "$grc" != 124 ]
	check "$s: gdb let the guest go on to its panic (vm/boot/qemu.sh status $qrc)" result_is panic
	check "$s: gdb stopped at the catch (stackov-catch)" grep -q '^stackov-catch: cpu [0-9]* hit a guard page at ' "$out"
	check "$s: it stopped in handle_stack_overflow(), the guard-page path, before die()" \
		sh -c "sed -n '/^stackov-catch stopped/,/^the kernel.s log at the stop/p' '$out' | grep -q '^#0  handle_stack_overflow '"
	# The console shows nothing either way (the handler's printk is
	# deferred); the log buffer shows what the kernel had said by then.
	sed -n "/^the kernel's log at the stop:/,/^end of the kernel's log/p" "$out" >"$run.dmesg"
	check "$s: gdb read the kernel's log at the stop (lx-dmesg: $(grep -c . "$run.dmesg") lines)" \
		grep -q 'Performing '"$s" "$run.dmesg"
	check "$s: and the kernel had not reported the overflow yet (no BUG line in its log)" \
		sh -c "! grep -q 'stack guard page was hit' '$run.dmesg'"
	grep -m1 '^{"stack":' "$out" >"$run.json" || true
	check "$s: stackov -j gave a verdict at the stop" [ -s "$run.json" ]
	jv() { jfield "$run.json" "$1"; }
	log=$run/console.log
	bug=$(kernel_log "$log" | sed -n 's/.*BUG: \([A-Z]*\) stack guard page was hit at \([0-9a-f]*\) (stack is \([0-9a-f]*\)\.\.\([0-9a-f]*\))$/\1 \2 \3..\4/p' | head -1)
	oops=$(kernel_log "$log" | sed -n 's/^CPU: [0-9]* \(UID: [0-9]* \)\{0,1\}PID: \([0-9]*\) Comm: \([^ ]*\) .*/\2 \3/p' | head -1)
	check "$s: then the kernel printed its BUG line ($bug)" [ -n "$bug" ]
	check "$s: gdb's stack, fault and bounds ($(jv stack) $(jv fault) $(jv lo)..$(jv hi)) are the BUG line's" \
		[ "$(jv stack) $(jv fault) $(jv lo)..$(jv hi)" = "$bug" ]
	check "$s: gdb's task (pid $(jv pid) $(jv comm)) is the oops's ($oops)" [ "$(jv pid) $(jv comm)" = "$oops" ]
	fn=$(scenario_field "$s" function)
	check "$s: stackov-bt folds the recursion of $fn (named from the module's kallsyms)" \
		grep -Eq "^  cycle: +$fn x[0-9]+" "$out"
	check "$s: stackov-stacks lists the task's stack and the CPU's IRQ and DF stacks" \
		sh -c "grep -Eq '^  TASK +[0-9a-f]+\\.\\.' '$out' && grep -Eq '^  IRQ +[0-9a-f]+\\.\\.' '$out' && grep -Eq '^  DF +[0-9a-f]+\\.\\.' '$out'"
done

# A gdb that attaches and never lets go: the guest still ends at its timeout.
start idle LAB_MODE=idle VM_TIMEOUT=15
printf 'shell sleep 60\n' >"$run.gdb"
t0=$(date +%s)
RUN_DIR=$run GDB_CMDS=$run.gdb timeout -k 5 90 "$LAB_ROOT/vm/gdb.sh" >"$run.gdb.out" 2>&1 &
gpid=$!
wait "$qpid" || true
t1=$(date +%s)
kill "$gpid" 2>/dev/null || true
wait "$gpid" 2>/dev/null || true
check "a gdb left attached does not hold the guest past its 15 s timeout (it ended by timeout, after $((t1 - t0)) s)" \
	result_is timeout
no_qemu() { ! qemu_of "$run" >/dev/null; }
check "no QEMU of that run is left" no_qemu
finish
