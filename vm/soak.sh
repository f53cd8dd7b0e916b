#!/bin/sh
# vm/soak.sh - every named scenario N times in a row (make soak): does the
# lab give the same answer each time? Each run is make overflow-demo's
# whole flow (kdump, then the readers' post-mortem; QEMU's dump too with
# QEMU_DUMP=1), and gives one line of the table:
#   run  result  stack  task  cycle  agree  wall
# result: how the guest ended; stack: the kind stackov names (TASK, IRQ,
# "-" when it refused, the crash's kind when it was none: canary,
# freed-stack...); task: the comm it names (never the pid); cycle:
# the folded recursion's function (its count, which the random stack
# offset moves, in parentheses); agree: whether crash's, gdb's and drgn's
# stackov said the same, word for word, on each dump; wall: seconds.
# A scenario's usual answer is the one most of its runs gave (all but the
# count and the wall time); a run that differs keeps its run directory
# and is named under the table; the others lose their dumps once read.
# SCENARIO=a,b (default: every scenario whose vmap outcome in
# tests/scenarios.tsv is a kdump), N (10), VARIANT, SOAK_OUT
# (out/soak-VARIANT), KEEP=1 (keep every run). Writes SOAK_OUT/table.md
# and SOAK_OUT/rows.tsv; a scenario not N of N alike is a finding, shown
# in the table, not a failure of the soak.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/lib.sh"

N=${N:-10}
case $N in '' | *[!0-9]* | 0) die "N='$N' is not a count of runs (1 or more)" ;; esac
variant=${VARIANT:-$DEFAULT_VARIANT}
check_variant "$variant"
if [ -n "${SCENARIO:-}" ]; then
	names=$(echo "$SCENARIO" | tr , ' ')
	check_scenarios "$names"
else
	names=$(fatal_scenarios | tr '\n' ' ')
fi
out=${SOAK_OUT:-$LAB_OUT/soak-$variant}
mkdir -p "$out"
rows=$out/rows.tsv
: >"$rows"

# facts RUN: the tab-separated facts of one run, from its run directory:
# its record (run.json), crash's stackov verdict on its first dump
# (stackov-crash-DUMP.json) and the readers' agreement (readers.json).
facts() {
	res=$(run_outcome "$1" 2>/dev/null || echo error)
	kind='' task='' cyc=''
	for d in vmcore qemu-vmcore; do
		j=$1/stackov-crash-$d.json
		[ -s "$j" ] || continue
		if jq -e .refusal "$j" >/dev/null; then
			# A refusal ("stackov: the double fault at ... is not below a known stack").
			kind=-
		elif jq -e .kind "$j" >/dev/null; then
			# A crash that was no overflow: its kind (canary, freed-stack...).
			kind=$(jq -r .kind "$j")
			task=$(jq -r .comm "$j")
			cyc=none
		else
			kind=$(jq -r .stack "$j")
			task=$(jq -r .comm "$j")
			cyc=$(jq -r 'if .cycle_reps > 0 then (.cycle | sub(" x[0-9]+.*$"; "")) + " (x\(.cycle_reps))" else "none" end' "$j")
		fi
		break
	done
	# agree: every dump read has the three verdicts, the same; NO: two
	# differ; "N of 3": some reader gave none; "-": no dump was read.
	agree=-
	if [ -f "$1/readers.json" ]; then
		agree=$(jq -r '.agreement | if length == 0 then "-"
			elif any(.[]; .same | not) then "NO"
			elif all(.[]; .agree) then "yes"
			else ([.[].verdicts] | min | tostring) + " of 3" end' "$1/readers.json")
	fi
	printf '%s\t%s\t%s\t%s\t%s\n' "$res" "${kind:-?}" "${task:--}" "${cyc:--}" "$agree"
}

total=$(($(echo "$names" | wc -w) * N))
i=0
for s in $names; do
	k=1
	while [ "$k" -le "$N" ]; do
		i=$((i + 1))
		run=$out/$s-$k
		rm -rf "$run"
		say "soak $i/$total: $s, run $k of $N, on $variant"
		t0=$(date +%s.%N)
		rc=0
		RUN_DIR=$run LAB_LATEST=0 LAB_SHOW=0 SCENARIO=$s QEMU_DUMP=${QEMU_DUMP:-0} \
			"$LAB_ROOT/vm/demo.sh" >"$out/$s-$k.out" 2>&1 || rc=$?
		t1=$(date +%s.%N)
		if rec_has "$run"; then
			f=$(facts "$run")
		else
			f=$(printf 'error\t?\t-\t-\t-')
			echo "demo.sh exited $rc before the run began" >>"$out/$s-$k.out"
		fi
		wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')
		printf '%s\t%s\t%s\t%s\n' "$s" "$k" "$f" "$wall" >>"$rows"
		k=$((k + 1))
	done
done

# The table, and which runs differ from their scenario's usual answer.
"$LAB_ROOT/vm/read/soak-table.sh" "$rows" "$(echo "$names" | wc -w) scenarios, $N runs each, on $variant ($LAB_KERNEL)" \
	>"$out/table.md"
sed -n 's/^| \([A-Z0-9_]*\) | [0-9]* of [0-9]* | .* | run \(.*\) |$/\1 \2/p' "$out/table.md" >"$out/differ.txt"

# Keep the runs that differ whole; of the others, the dumps can go (tens
# of MiB each), their logs, manifest and report stay.
bad=0
for s in $names; do
	keep=$(sed -n "s/^$s //p" "$out/differ.txt")
	[ -n "$keep" ] && bad=1
	k=1
	while [ "$k" -le "$N" ]; do
		case " $keep " in
		*" $k "*) ;;
		*) [ "${KEEP:-0}" = 1 ] || [ ! -d "$out/$s-$k" ] ||
			find "$out/$s-$k" \( -name 'vmcore' -o -name 'vmcore.elf' -o -name 'qemu-vmcore' \
				-o -name 'qemu-vmcore.elf' -o -name vmlinux -o -name '*.ko' -o -name '*.disk' \) -delete ;;
		esac
		k=$((k + 1))
	done
done
cat "$out/table.md"
echo
if [ "$bad" = 1 ]; then
	echo "runs that differ from their scenario's usual answer, kept:"
	while read -r s ks; do
		for k in $ks; do echo "  $out/$s-$k ($out/$s-$k.out)"; done
	done <"$out/differ.txt"
else
	echo "every scenario: $N of $N alike"
fi
echo "table: $out/table.md"
