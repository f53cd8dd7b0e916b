#!/bin/sh
# The accelerator probe is a real boot: KVM only if a guest under it reaches
# init, TCG otherwise. (How long it takes: make bench-latency.)
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

v=$(PROBE=1 ACCEL=auto "$LAB_ROOT/vm/boot/accel.sh" 2>/dev/null)
verdict_ok() { [ "$v" = kvm ] || [ "$v" = tcg ]; }
check "probe verdict is kvm or tcg (got '$v')" verdict_ok
d=$STACKOV_CACHE/probe
echo "probe reason: $(sed -n 3p "$d/verdict")"
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	booted_kvm() { grep -x -A1 -- -accel "$d/run/qemu.cmd" | grep -qx kvm; }
	check "the probe really booted QEMU under KVM" booted_kvm
	probe_ok() { grep -q 'lab: probe ok' "$d/run/console.log"; }
	if [ "$v" = kvm ]; then
		check "kvm verdict backed by the guest reaching init" probe_ok
	else
		check "tcg verdict: the KVM guest did not reach init" sh -c "! grep -q 'lab: probe ok' '$d/run/console.log'"
		echo "probe console under KVM:"
		tail -3 "$d/run/console.log"; tail -3 "$d/probe.log"
	fi
else
	check "no usable /dev/kvm: tcg" [ "$v" = tcg ]
fi
rc=0
ACCEL=bogus "$LAB_ROOT/vm/boot/accel.sh" 2>"$LAB_OUT/accel-bad.err" || rc=$?
check "ACCEL=bogus is refused with a clear error" \
	refused $rc "unknown ACCEL 'bogus'" "$LAB_OUT/accel-bad.err"
finish
