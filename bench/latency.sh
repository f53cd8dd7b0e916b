#!/bin/sh
# bench/latency.sh - how long the quick answers take, measured rather than
# asserted in a test: a no-op kernel build, the accelerator probe (a real
# boot under KVM where /dev/kvm exists), and make crash refusing a missing,
# an empty and a truncated dump. Needs a built vmap kernel and, for the
# crash rows, a kdump run in out/t-20-run (tests/t-20-kdump.sh makes one)
# or DUMP=out/<run>.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

# secs CMD...: run CMD, print its wall time in seconds (two decimals).
secs() {
	s=$(date +%s.%N)
	"$@" >/dev/null 2>&1 </dev/null || true
	printf '%.2f' "$(echo "$(date +%s.%N) - $s" | bc)"
}

row() { printf '| %s | %s s |\n' "$1" "$2"; }
echo "| step | wall time |"
echo "|---|---|"
row "no-op \`vm/builders/kernel.sh vmap\`" "$(secs "$LAB_ROOT/vm/builders/kernel.sh" vmap)"
row "no-op \`make build\`" "$(secs make -s -C "$LAB_ROOT" build)"
row "accelerator probe (\`PROBE=1 vm/boot/accel.sh\`)" "$(secs env PROBE=1 ACCEL=auto "$LAB_ROOT/vm/boot/accel.sh")"
good=${DUMP:-$LAB_OUT/t-20-run}
if [ -f "$good/vmcore" ]; then
	t=$(mktemp -d "${TMPDIR:-/tmp}/stackov-bench.XXXXXX")
	remove_on_exit "$t"
	mkdir "$t/empty" "$t/half"
	ln -s "$good/vmlinux" "$t/empty/vmlinux"
	ln -s "$good/vmlinux" "$t/half/vmlinux"
	: >"$t/empty/vmcore"
	head -c $(($(stat -c %s "$good/vmcore") / 2)) "$good/vmcore" >"$t/half/vmcore"
	for d in "missing $t/none" "empty $t/empty" "truncated $t/half"; do
		row "\`make crash\` refusing a dump that is ${d%% *}" \
			"$(secs timeout 120 make -s -C "$LAB_ROOT" crash DUMP="${d#* }" CRASH_ARGS=-s)"
	done
else
	echo "(no dump in $good: the make crash rows need one; run tests/run.sh t-20-kdump first)"
fi
