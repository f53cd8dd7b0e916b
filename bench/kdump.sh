#!/bin/sh
# bench/kdump.sh - one kdump run of SCENARIO (RECURSE_TASK): time from the
# module saying "Performing" (the overflow follows within microseconds; with
# kdump the oops itself never reaches the console) to the vmcore being on the
# host, and the sizes of the dumps against guest RAM. QEMU_DUMP=1 (default)
# also times QEMU's dump-guest-memory of the same scenario.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

SCENARIO=${SCENARIO:-RECURSE_TASK}
run=$(mktemp -d "$LAB_OUT/bench-kdump-XXXX")
rmdir "$run"
now() { date +%s.%N; }

RUN_DIR=$run KDUMP=1 SCENARIO=$SCENARIO VM_TIMEOUT=300 "$LAB_ROOT/vm/boot/qemu.sh" 2>"$run.log" &
pid=$!
tp=""
while kill -0 $pid 2>/dev/null; do
	if [ -z "$tp" ] && grep -qs 'lkdtm_ext: Performing' "$run/console.log"; then
		tp=$(now)
	fi
	sleep 0.05
done
wait $pid || { cat "$run.log"; exit 1; }
te=$(now)
mv "$run.log" "$run/launcher.log"
[ -n "$tp" ] || { echo "no panic seen on the console"; exit 1; }
[ -f "$run/vmcore" ] || { echo "no vmcore"; exit 1; }
mem=$(sed -n 's/.*System RAM: \([0-9]*\)MB.*/\1/p' "$run/console.log" | head -1)
ck=$(sed -n 's/.*Reserving \([0-9]*MB\) of memory .* for crashkernel.*/\1/p' "$run/console.log" | head -1)
printf 'kdump, %s, guest RAM %s MiB, crashkernel %s\n' "$SCENARIO" "$mem" "$ck"
printf '  trigger on console -> vmcore on host: %.1f s\n' "$(echo "$te - $tp" | bc)"
printf '  vmcore (makedumpfile -l -d 31): %s bytes (%.1f MiB)\n' \
	"$(stat -c %s "$run/vmcore")" "$(echo "$(stat -c %s "$run/vmcore") / 1048576" | bc -l)"
printf '  vmcore.elf (makedumpfile -E -d 31): %.1f MiB\n' "$(echo "$(stat -c %s "$run/vmcore.elf") / 1048576" | bc -l)"
tr -d '\r' <"$run/console.log" | grep '^lab: capture' | sed 's/^/  /'

if [ "${QEMU_DUMP:-1}" = 1 ]; then
	q=$run/qemu-dump
	RUN_DIR=$q QEMU_DUMP=1 SCENARIO=$SCENARIO VM_TIMEOUT=300 "$LAB_ROOT/vm/boot/qemu.sh" 2>/dev/null || true
	[ -f "$q/qemu-vmcore" ] || { echo "no QEMU dump"; exit 1; }
	printf 'QEMU dump-guest-memory (kdump-zlib): %.1f MiB, %s\n' \
		"$(echo "$(stat -c %s "$q/qemu-vmcore") / 1048576" | bc -l)" "$(sed -n 's/^dumps took \(.*\)/both dumps (kdump-zlib and ELF) took \1/p' "$q/qemu-dump.log")"
fi
[ "${BENCH_KEEP:-0}" = 1 ] || rm -rf "$run"
