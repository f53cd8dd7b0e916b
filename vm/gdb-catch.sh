#!/bin/sh
# vm/gdb-catch.sh - make vm + make gdb + stackov-catch in one step, without
# a second terminal: boot SCENARIO (RECURSE_TASK) with the gdbstub holding
# the CPUs, attach gdb (vm/gdb.sh, batch), arm stackov-catch, let the guest
# run into the overflow, print gdb's verdict and frame walk at the stop
# (before the kernel has said anything), then let it go on to the panic
# and print the kernel's own BUG line. GDB_CATCH_CMDS=file adds gdb
# commands to run at the stop.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/lib.sh"

SCENARIO=${SCENARIO:-RECURSE_TASK}
"$LAB_ROOT/vm/list.sh" | grep -q "^$SCENARIO " || die "unknown SCENARIO '$SCENARIO'"
run=$(run_dir "$SCENARIO-gdb" "${VARIANT:-$DEFAULT_VARIANT}")
rmdir "$run" 2>/dev/null || true
cmds=$(mktemp "${TMPDIR:-/tmp}/stackov-catch.XXXXXX")
remove_on_exit "$cmds"
{
	echo stackov-catch
	echo continue
	[ -n "${GDB_CATCH_CMDS:-}" ] && cat "$GDB_CATCH_CMDS"
	printf '%s\n' 'echo gdb: the kernel has not printed its report yet; continuing to the panic\n'
	echo continue
} >"$cmds"
RUN_DIR=$run SCENARIO=$SCENARIO GDB=1 GDB_WAIT=1 KDUMP=0 LAB_SHOW=0 VM_TIMEOUT=${VM_TIMEOUT:-180} \
	"$LAB_ROOT/vm/boot/qemu.sh" >/dev/null 2>"$run.launcher.log" &
qpid=$!
i=0
until gdbstub_up "$run"; do
	i=$((i + 1))
	if ! kill -0 "$qpid" 2>/dev/null || [ $i -gt 200 ]; then
		die "the guest did not start; see $run.launcher.log"
	fi
	sleep 0.1
done
RUN_DIR=$run GDB_CMDS=$cmds "$LAB_ROOT/vm/gdb.sh" 2>&1 |
	grep -v -e '^Python Exception' -e '^Error occurred in Python' -e '^\[New Thread' || true
wait "$qpid" || true
mv "$run.launcher.log" "$run/launcher.log" 2>/dev/null || true
echo "== the kernel, after gdb let it go on:"
kernel_log "$run/console.log" | grep -E 'BUG: .*stack guard page was hit|^CPU: .* PID: |Kernel panic' | head -3
