#!/bin/sh
# bench/crashkernel.sh - find the smallest crashkernel= reservation (from
# SIZES) with which the capture kernel boots and writes the vmcore.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

SIZES=${SIZES:-"32M 48M 64M 80M 96M 128M 192M"}
for s in $SIZES; do
	run=$(mktemp -d "$LAB_OUT/bench-ck-XXXX")
	rmdir "$run"
	RUN_DIR=$run KDUMP=1 CRASHKERNEL=$s SCENARIO=RECURSE_TASK VM_TIMEOUT=120 \
		"$LAB_ROOT/vm/boot/qemu.sh" 2>/dev/null || true
	if dump_path "$run" vmcore >/dev/null; then
		echo "crashkernel=$s: vmcore written ($(du -m "$run/vmcore" | cut -f1) MiB)"
	else
		# The classifier's word on the boot (run.json): why kdump wrote none.
		why=$(rec_get "$run" '.boots[0] | .kdump_error // .reason' 2>/dev/null)
		echo "crashkernel=$s: no vmcore (outcome $(run_outcome "$run" 2>/dev/null); ${why:-no reason recorded})"
	fi
	rm -rf "$run"
done
