#!/bin/sh
# vm/boot/accel.sh - print the accelerator to use: kvm or tcg.
# ACCEL=kvm|tcg forces one. ACCEL=auto (default) uses KVM only when a real
# short boot under it reaches the guest init: /dev/kvm existing proves
# nothing (on some hosts -cpu host aborts, or the guest hangs decompressing).
# The verdict is cached per host, QEMU and kernel build; PROBE=1 re-probes.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

case ${ACCEL:-auto} in
kvm | tcg) echo "$ACCEL"; exit 0 ;;
auto) ;;
*) die "unknown ACCEL '$ACCEL' (valid: auto kvm tcg)" ;;
esac

VARIANT=${VARIANT:-$DEFAULT_VARIANT}
# TCG takes this guest to init in 1.5 s of wall time (make bench-boot): a
# KVM that has not got there in 10 s is broken, or slower than TCG anyway.
PROBE_TIMEOUT=${PROBE_TIMEOUT:-10}
dir=$STACKOV_CACHE/probe
key=$(
	{
		uname -r
		grep -m1 'model name' /proc/cpuinfo || true
		qemu-system-x86_64 --version | head -1
		kernel_key "$VARIANT"
	} | sha256sum | cut -c1-16
)
if [ "${PROBE:-0}" != 1 ] && [ -f "$dir/verdict" ] &&
	[ "$(sed -n 2p "$dir/verdict")" = "$key" ]; then
	sed -n 1p "$dir/verdict"
	exit 0
fi

mkdir -p "$dir"
rm -rf "$dir/run"
verdict=tcg
why="/dev/kvm is not usable"
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	why="the probe boot under KVM did not reach init within ${PROBE_TIMEOUT}s"
	if ACCEL=kvm LAB_MODE=probe VM_TIMEOUT=$PROBE_TIMEOUT RUN_DIR=$dir/run \
		SCENARIO='' APPEND='' GDB=0 INTERACTIVE=0 LAB_SHOW=0 \
		"$LAB_ROOT/vm/boot/qemu.sh" 2>"$dir/probe.log" &&
		grep -q 'lab: probe ok' "$dir/run/console.log"; then
		verdict=kvm
		why="a probe boot under KVM reached init"
	elif grep -q 'qemu:' "$dir/probe.log"; then
		why="$why ($(grep -m1 'qemu:' "$dir/probe.log" | sed 's/^ *qemu: //'))"
	fi
fi
printf '%s\n%s\n%s\n' "$verdict" "$key" "$why" >"$dir/verdict"
say "accelerator: $verdict, because $why"
echo "$verdict"
