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
# The rows run on each kernel line of BENCH_LINES ("6.1 6.12"): the first
# under every clock, the others under -icount only, and table.md sets the
# lines side by side: ns per operation, the guest's boot to /init, the
# last build of each line's vmap kernel, and a kdump of RECURSE_TASK.
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
BENCH_LINES=${BENCH_LINES:-"6.1 6.12"}
first_line=${BENCH_LINES%% *}
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
# line_clocks LINE: the clocks LINE's rows run under.
line_clocks() {
	if [ "$1" = "$first_line" ]; then echo "$clocks"; else echo icount; fi
}
# Each kernel the rows need, on each line, built once: the kernel,
# lkdtm-ext, the initramfs.
built=''
for line in $BENCH_LINES; do
	for row in $ROWS; do
		row_of "$row"
		case " $built " in *" $kernel/$variant/$line "*) continue ;; esac
		built="$built $kernel/$variant/$line"
		export LINUX="$line"
		KERNEL=$kernel "$LAB_ROOT/vm/builders/kernel.sh" "$variant" &&
			KERNEL=$kernel "$LAB_ROOT/vm/builders/module.sh" "$variant" &&
			KERNEL=$kernel "$LAB_ROOT/vm/builders/initramfs.sh" "$variant"
	done
done

total=0
for line in $BENCH_LINES; do
	total=$((total + $(echo "$ROWS" | wc -w) * $(line_clocks "$line" | wc -w) * RUNS))
done
i=0
for line in $BENCH_LINES; do
	export LINUX="$line"
	for row in $ROWS; do
		row_of "$row"
		# A row of another line is named by it in the raw lines (vmap@6.12).
		name=$row
		[ "$line" = "$first_line" ] || name=$row@$line
		for clock in $(line_clocks "$line"); do
			run_no=1
			while [ "$run_no" -le "$RUNS" ]; do
				i=$((i + 1))
				say "stackbench $i/$total: $name, $clock, run $run_no"
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
				[ "$lines" = 6 ] || die "stackbench: $name/$clock run $run_no printed $lines of 6 results; see $dir/console.log"
				# The guest's time to /init, from the kernel's own timestamp.
				boot=$(tr -d '\r' <"$dir/console.log" | sed -n 's/^\[ *\([0-9.]*\)\] Run \/init as init process.*/\1/p' | head -1)
				tr -d '\r' <"$dir/console.log" |
					sed -n "s/^stackbench: result /row=$name clock=$clock run=$run_no boot_s=${boot:--} /p" >>"$raw.tmp"
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
done

# Each line's build and dump: the last build of its vmap kernel (recorded
# by the build), and one kdump of RECURSE_TASK under -icount: the vmcore's
# size and the capture kernel's guest time to it.
: >"$out/lines.raw.tmp"
for line in $BENCH_LINES; do
	# In a subshell with the line's own description (its cache directory).
	(
	export LINUX="$line"
	use_kernel "$lab-$line"
	bl=$(kbuild_dir vmap)/lab-built
	dir=$(mktemp -d "$LAB_OUT/bench-kdump-XXXX")
	rmdir "$dir"
	say "stackbench: a kdump of RECURSE_TASK on $line, under -icount"
	KERNEL=$lab RUN_DIR=$dir LAB_LATEST=0 VARIANT=vmap ACCEL=tcg ICOUNT=$ICOUNT_SHIFT LAB_SMP=1 KDUMP=1 QEMU_DUMP=0 \
		SCENARIO=RECURSE_TASK VM_TIMEOUT=900 "$LAB_ROOT/vm/boot/qemu.sh" 2>/dev/null || true
	[ -s "$dir/vmcore" ] || die "stackbench: the kdump on $line wrote no vmcore; see $dir/console.log"
	cap=$(tr -d '\r' <"$dir/console.log" | sed -n 's/.*capture: makedumpfile .* done, [0-9.]* s to \([0-9.]*\) s.*/\1/p' | head -1)
	lvl=$(tr -d '\r' <"$dir/console.log" | sed -n 's/.*capture: makedumpfile -F -[a-zE]* -d \([0-9]*\) .*/\1/p' | head -1)
	printf 'line=%s build=%s vmcore_bytes=%s dumplevel=%s capture_s=%s kernel=%s\n' "$line" \
		"$(tr ' ' , 2>/dev/null <"$bl" || echo -)" "$(stat -c %s "$dir/vmcore")" "${lvl:--}" "${cap:--}" \
		"$(strings "$(kernel_vmlinux vmap)" | sed -n 's/^Linux version \([^ ]*\) .*/\1/p' | head -1)" >>"$out/lines.raw.tmp"
	rm -rf "$dir"
	) || exit 1
done
mv "$out/lines.raw.tmp" "$out/lines.raw"
mv "$raw.tmp" "$raw"
"$LAB_ROOT/bench/stackbench-table.sh" "$out"
cat "$out/table.md"
