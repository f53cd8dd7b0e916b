#!/bin/sh
# vm/demo.sh - one scenario run, the whole flow: boot the guest with kdump
# armed and SCENARIO triggered (console shown live), collect the vmcore the
# capture kernel wrote, boot once more for QEMU's own dump of the same
# scenario (QEMU_DUMP=0 skips it), then print the post-mortem.
# With MODULE=dir, the user's module instead (vm/demo-module.sh).
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/lib.sh"

if [ -n "${MODULE:-}" ]; then
	exec "$LAB_ROOT/vm/demo-module.sh"
fi

SCENARIO=${SCENARIO:-RECURSE_TASK}
check_scenarios "$(echo "$SCENARIO" | tr , ' ')"
QEMU_DUMP=${QEMU_DUMP:-1}
export SCENARIO
check_series_args "${APPEND:-}"

# This run's directory: the caller's RUN_DIR, or a new one. Every step
# below reads this run, never out/latest, which may be another run's.
run=$(run_dir "$(echo "$SCENARIO" | tr , +)" "${VARIANT:-$DEFAULT_VARIANT}")
t0=$(date +%s.%N)
rc=0
RUN_DIR=$run KDUMP=${KDUMP:-1} QEMU_DUMP=0 LAB_SHOW=${LAB_SHOW:-1} "$LAB_ROOT/vm/boot/qemu.sh" || rc=$?
result=$(run_outcome "$run" 2>/dev/null || true)
case $result in
'' | running)
	rmdir "$run" 2>/dev/null || true
	die "the run did not start (vm/boot/qemu.sh exited with status $rc); nothing to report" ;;
esac
set_latest "$run"
log=$run/console.log

echo
echo "== $SCENARIO on $(rec_get "$run" .kernel.variant): the guest ended by $result =="
lines=$(kernel_log "$log" |
	grep -E 'BUG: .*stack guard page was hit|stack guard page: |Kernel panic - not syncing|lkdtm_ext: (Performing|FAIL|XFAIL|.*: result )|labtrig:|kernel stack overflow|^lab: (kdump|capture)' || true)
echo "${lines:-(no stack report on the console)}"

# kdump armed and no capture: say why (the classifier's word, in the
# record). QEMU's own dump still catches the panic (pvpanic), so the
# readers have a dump all the same.
why=$(rec_get "$run" '.boots[0].kdump_error')
[ -n "$why" ] && say "kdump failed: $why"
case $result in
kdump | capture-failed | panic | timeout) dumpable=1 ;;
*) dumpable=0 ;;
esac
if [ "$QEMU_DUMP" = 1 ] && [ "$dumpable" = 1 ]; then
	say "booting $SCENARIO again for QEMU's own dump (dump-guest-memory on pvpanic)"
	# No crash kernel to reserve, and the ELF dump is the size of memory.
	RUN_DIR=$run/qemu-dump RUN_RECORD=$run KDUMP=0 QEMU_DUMP=1 LAB_SHOW=0 LAB_LATEST=0 \
		LAB_MEM=${QEMU_DUMP_MEM:-256M} "$LAB_ROOT/vm/boot/qemu.sh" || true
	for f in qemu-vmcore qemu-vmcore.elf; do
		dump_path "$run" "$f" >/dev/null && ln -sf "qemu-dump/$f" "$run/$f"
	done
fi
rec_set "$run" '.timings.demo_s = ($s | tonumber)' --arg s "$(echo "$(date +%s.%N) - $t0" | bc)"
if [ -n "$(rec_get "$run" '.dumps[] | select(.captured) | .name')" ]; then
	"$LAB_ROOT/vm/read/report.sh" "$run"
else
	echo "no dump was captured; console: $log"
	# A run that died (QEMU killed, a full disk) is a failure of the flow.
	[ "$result" != error ] || exit 1
fi
