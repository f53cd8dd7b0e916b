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
	if [ -s "$run/vmcore" ]; then
		echo "crashkernel=$s: vmcore written ($(du -m "$run/vmcore" | cut -f1) MiB)"
	else
		why=$(tr -d '\r' <"$run/console.log" | grep -E -m1 'Kernel panic|kdump FAILED|Out of memory|not syncing|cannot|Cannot' | sed 's/^\[ *[0-9.]*\] //')
		echo "crashkernel=$s: no vmcore (result $(cat "$run/result" 2>/dev/null); ${why:-no reason on the console})"
	fi
	rm -rf "$run"
done
