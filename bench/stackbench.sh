#!/bin/sh
# bench/stackbench.sh - the series' experiment, repeatably (make bench):
# bench/stackbench.c in the guest (pthread_create+join, fork+wait, clone
# of a bare thread; pinned to CPU 0, then not) for each row
#   stock (Debian's own kernel, KERNEL=debian: the baseline a user knows),
#   novmap, vmap (the default cache of 2), kstack_cache=0, =1, =4,
#   kstack_free=rcu
# under two clocks: plain TCG (wall: the host's time, 2 CPUs) and TCG with
# -icount (guest time follows the instructions executed; 1 CPU, the most
# QEMU 7.2 boots under -icount), RUNS boots each,
# and KVM too where the probe says it works. Writes, under out/bench/:
#   stackbench.raw   every result line, with its row, clock and run
#   table.md         min/median/max ns per operation, the cache counters
#                    and KernelStack, the seed's numbers beside ours
#   plot.svg         one bar group per row: median ns per operation
#   highwater.md     how much of each 16 KiB stack tasks used, after boot
#                    and after the workload (SysRq-t, DEBUG_STACK_USAGE)
# N (2000) operations per measurement, RUNS (3) boots per row and clock,
# ICOUNT_SHIFT (0: one ns per instruction), BENCH_OUT (out/bench), ROWS.
# Prints table.md at the end (make bench keeps it for make bench-doc).
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

# Its rows are the series' variants and boot parameters, its table the
# series' counters (patch 0001); the stock row is Debian's kernel, chosen
# here, whatever KERNEL the lab's rows run on.
needs_series "make bench (the kstack_cache_* counters)" 0001
STOCK_KERNEL=${STOCK_KERNEL:-debian}
N=${N:-2000}
RUNS=${RUNS:-3}
ICOUNT_SHIFT=${ICOUNT_SHIFT:-0}
ROWS=${ROWS:-"stock novmap vmap kstack_cache=0 kstack_cache=1 kstack_cache=4 kstack_free=rcu"}
out=${BENCH_OUT:-$LAB_OUT/bench}
mkdir -p "$out"
raw=$out/stackbench.raw
: >"$raw.tmp"

clocks="wall icount"
[ "$(ACCEL=auto "$LAB_ROOT/vm/boot/accel.sh")" = kvm ] && clocks="$clocks kvm"

# row_of ROW: the kernel, variant and boot parameter ROW runs with.
lab=${KERNEL:-lab}
row_of() {
	kernel=$lab variant=vmap opt=''
	case $1 in
	stock) kernel=$STOCK_KERNEL variant=stock ;;
	novmap) variant=novmap ;;
	vmap) ;;
	*) opt=$1 ;;
	esac
}
# Each kernel the rows need, built once: the kernel, lkdtm-ext, the initramfs.
built=''
for row in $ROWS; do
	row_of "$row"
	case " $built " in *" $kernel/$variant "*) continue ;; esac
	built="$built $kernel/$variant"
	KERNEL=$kernel "$LAB_ROOT/vm/builders/kernel.sh" "$variant" &&
		KERNEL=$kernel "$LAB_ROOT/vm/builders/module.sh" "$variant" &&
		KERNEL=$kernel "$LAB_ROOT/vm/builders/initramfs.sh" "$variant"
done

total=$(($(echo "$ROWS" | wc -w) * $(echo "$clocks" | wc -w) * RUNS))
i=0
for row in $ROWS; do
	row_of "$row"
	for clock in $clocks; do
		run_no=1
		while [ "$run_no" -le "$RUNS" ]; do
			i=$((i + 1))
			say "stackbench $i/$total: $row, $clock, run $run_no"
			dir=$(mktemp -d "$LAB_OUT/bench-stack-XXXX")
			rmdir "$dir"
			accel=tcg icount='' smp=2
			[ "$clock" = kvm ] && accel=kvm
			# QEMU 7.2 under -icount never brings up a second CPU (the
			# guest waits in "Booting SMP configuration"): one CPU there.
			[ "$clock" = icount ] && icount=$ICOUNT_SHIFT smp=1
			KERNEL=$kernel RUN_DIR=$dir LAB_LATEST=0 VARIANT=$variant ACCEL=$accel ICOUNT=$icount LAB_SMP=$smp SCENARIO='' \
				APPEND="lab.cmd=stackbench:all:$N $opt" VM_TIMEOUT=900 \
				"$LAB_ROOT/vm/boot/qemu.sh" 2>/dev/null || true
			lines=$(tr -d '\r' <"$dir/console.log" | grep -c '^stackbench: result ' || true)
			[ "$lines" = 6 ] || die "stackbench: $row/$clock run $run_no printed $lines of 6 results; see $dir/console.log"
			tr -d '\r' <"$dir/console.log" | sed -n "s/^stackbench: result /row=$row clock=$clock run=$run_no /p" >>"$raw.tmp"
			if [ "$row" = vmap ] && [ "$clock" = wall ] && [ "$run_no" = 1 ]; then
				tr -d '\r' <"$dir/console.log" | sed 's/^\[ *[0-9.]*\] //' |
					awk '/^stackbench: highwater end/ { w = "" } w && /^task:/ { print w, $0 }
					/^stackbench: highwater [a-z]/ { w = $3 }' >"$out/highwater.raw"
			fi
			rm -rf "$dir"
			run_no=$((run_no + 1))
		done
	done
done
mv "$raw.tmp" "$raw"
"$LAB_ROOT/bench/stackbench-table.sh" "$out"
cat "$out/table.md"
