#!/bin/sh
# bench/boot-time.sh - boot the lab guest N times (default 3) to init and
# power-off; print the guest's uptime when init starts and the wall time.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

N=${N:-3}
VARIANT=${VARIANT:-$DEFAULT_VARIANT}
echo "boot to init, variant $VARIANT, accelerator $(VARIANT=$VARIANT "$LAB_ROOT/vm/boot/accel.sh")"
i=0
while [ $i -lt "$N" ]; do
	i=$((i + 1))
	run=$(mktemp -d "$LAB_OUT/bench-boot-XXXX")
	rmdir "$run"
	RUN_DIR=$run LAB_MODE=probe SCENARIO='' VM_TIMEOUT=120 \
		"$LAB_ROOT/vm/boot/qemu.sh" 2>/dev/null || { echo "boot $i failed: $run"; exit 1; }
	up=$(sed -n 's/^lab: init started, uptime \([0-9.]*\) s.*/\1/p' "$run/console.log")
	wall=$(rec_get "$run" '.boots[0].wall_s')
	printf 'boot %d: init at %s s guest uptime, %.2f s wall from QEMU start to power-off\n' "$i" "$up" "$wall"
	rm -rf "$run"
done
