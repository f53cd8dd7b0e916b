#!/bin/sh
# crash's stackov extension (crash-scripts/*.c), on t-20's RECURSE_TASK
# dumps: make crash loads it; help stackov reads like crash's own help;
# its verdict on QEMU's dump matches that dump's own BUG line as it does on
# kdump's (t-30 checks every fatal scenario); -i lists every CPU's IRQ and
# exception stacks with guards, -a every task's high-water mark, -c the
# cached stacks; bad input gets one line, never a crash of
# crash; it builds, with the engine, with no warnings at -Wall -Wextra
# against READERS's defs.h.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

good=$LAB_OUT/t-20-run
[ -f "$good/vmcore" ] || { fail "no vmcore in $good (t-20 makes one)"; finish; }
s=$(mktemp -d "$LAB_OUT/test-stackov-XXXX")
# in_crash NAME DUMP CMD...: crash_batch into $s/NAME.out.
in_crash() {
	cname=$1
	shift
	crash_batch "$s/$cname.out" "$@"
}

inc=$("$LAB_ROOT/vm/builders/readers.sh" include)
make -s -B -C "$LAB_ROOT/crash-scripts" O="$s" CRASH_INCLUDE="$inc" CFLAGS=-O2 >"$s/gcc.err" 2>&1 || true
check "the extension builds with no warnings at -Wall -Wextra -Werror (crash-scripts/Makefile)" \
	sh -c "[ -s '$s/stackov.so' ] && [ ! -s '$s/gcc.err' ]"
# Built for another crash (CRASH_VERSION): crash's extend refuses it in
# one line naming both versions, and no stackov command is there.
mkdir -p "$s/other"
make -s -B -C "$LAB_ROOT/crash-scripts" O="$s/other" CRASH_INCLUDE="$inc" CRASH_VERSION=0.0.1 CFLAGS=-O2 >"$s/other.err" 2>&1 || true
crash_bin=$("$LAB_ROOT/vm/builders/readers.sh" crash)
printf 'extend %s\nstackov\nq\n' "$s/other/stackov.so" >"$s/other.crash"
HOME=$s timeout 300 "$crash_bin" -s -i "$s/other.crash" "$good/vmlinux" "$good/vmcore" >"$s/other.out" 2>&1 </dev/null || true
sed 's/^/    /' "$s/other.out" | head -4
check "an extension built for another crash refuses to load, naming both versions" \
	grep -q "^extend: stackov: built for crash 0.0.1, this is crash $("$LAB_ROOT/vm/builders/readers.sh" | sed -n "s/^crash //p");" "$s/other.out"
check "an extension built for another crash adds no stackov command" \
	sh -c "! grep -q '^stack overflow: ' '$s/other.out'"

in_crash help "$good" "help stackov"
check "help stackov: NAME, SYNOPSIS, DESCRIPTION and EXAMPLE, as crash's own" sh -c \
	"grep -q '^  stackov - explain a kernel stack overflow' '$s/help.out' &&
	grep -q '^  stackov \[-a | -c | -i | -m \[-s\] | -u \[-n bytes\] | -j\] \[pid | taskp\]' '$s/help.out' &&
	grep -q '^DESCRIPTION' '$s/help.out' && grep -q '^EXAMPLE' '$s/help.out'"

bug_of() { kernel_log "$1" | sed -n 's/^BUG: \([A-Z]*\) stack guard page was hit at \([0-9a-f]*\) .*/\1 \2/p' | head -1; }
for d in vmcore qemu-vmcore; do
	in_crash "$d" "$good/$d" "stackov" "stackov -j"
	want=$(bug_of "$(readlink -f "$good/$d").dmesg")
	got=$(/usr/bin/python3 -c 'import json, sys; d = json.loads(sys.stdin.readline()); print(d["stack"], d["fault"])' \
		<"$(grep -m1 '^{' "$s/$d.out" >"$s/$d.json"; echo "$s/$d.json")" 2>/dev/null)
	same() { [ -n "$got" ] && [ "$got" = "$want" ]; }
	check "on $d: stack kind and fault '$got', as its own BUG line says ('$want')" same
	check "on $d: the verdict names the guard page hit and the cycle" sh -c \
		"grep -q '^  guard: .*, hit\$' '$s/$d.out' && grep -q '^  cycle:     recurse_task_frame x[0-9]* ([0-9]* bytes per cycle)\$' '$s/$d.out'"
done

in_crash cpus "$good" "stackov -i"
for c in 0 1; do
	check "-i: cpu $c's IRQ stack and its guard" sh -c \
		"grep -q '^cpu $c  IRQ  ' '$s/cpus.out' && grep -q '^cpu $c  IRQ-GUARD  ' '$s/cpus.out'"
	check "-i: cpu $c's double-fault and NMI stacks" sh -c \
		"grep -q '^cpu $c  DF  ' '$s/cpus.out' && grep -q '^cpu $c  NMI  ' '$s/cpus.out'"
done

# -a: the overflowed task used its whole stack and comes first; every
# task is listed. -c: each CPU holds at most kstack_cache (2) stacks, none
# of them a live task's, each with its vm_struct.
in_crash usage "$good" "stackov -a" "ps"
first=$(sed -n '/^ *PID  *USED  *COMM/{n;p;q}' "$s/usage.out")
echo "deepest: $first"
deepest_is_panic() { echo "$first" | awk '{ exit !($3 == "labtrig" && $2 >= 16000) }'; }
check "-a: the deepest stack is the overflowed task's, near all of its 16384 bytes" deepest_is_panic
ntasks=$(grep -cE '^[> ] +[0-9]+ +[0-9]+ +[0-9]+ +[0-9a-f]{16} ' "$s/usage.out")
nlisted=$(sed -n '/^ *PID  *USED  *COMM/,/^ *PID  *PPID/p' "$s/usage.out" | grep -cE '^ +[0-9]+ +-?[0-9]+ ')
check "-a: lists every task ps lists ($nlisted of $ntasks)" [ "$nlisted" = "$ntasks" ]
in_crash cached "$good" "stackov -c"
per_cpu_ok() {
	for c in 0 1; do
		[ "$(grep -c "^cpu $c  slot " "$s/cached.out")" -le 2 ] || return 1
	done
}
check "-c: at most 2 cached stacks per CPU" per_cpu_ok
check "-c: at least one stack is cached after the boot's forks and exits" grep -q '^cpu [0-9]  slot ' "$s/cached.out"
check "-c: no cached stack is still a live task's" sh -c "! grep -q STILL '$s/cached.out'"
check "-c: each with its vm_struct (4 pages, a guard page included)" sh -c \
	"[ \$(grep -c '^cpu [0-9]  slot ' '$s/cached.out') = \$(grep -c '^    vm_struct: .* (20480 bytes, a guard page included), 4 pages, caller ' '$s/cached.out') ]"
check "the verdict gives the stack's vm_struct and its page frames" sh -c \
	"grep -q '^  vm_struct: [0-9a-f]*, area .*, 4 pages, caller ' '$s/vmcore.out' && grep -Eq '^  pfns: +[0-9a-f]+ [0-9a-f]+ [0-9a-f]+ [0-9a-f]+\$' '$s/vmcore.out'"

# -u: every task's stack (as many as -a lists) and every CPU's IRQ and
# exception stacks, deepest first: the overflowed task's, within one turn
# of its recursion (296 bytes on vmap) of its end.
in_crash headroom "$good" "stackov -u"
ntask=$(grep -cE '^ +([0-9]+|\?) +[0-9]+  .* TASK of pid ' "$s/headroom.out")
check "-u: a line for every task -a lists ($ntask of $nlisted)" [ "$ntask" = "$nlisted" ]
for c in 0 1; do
	for k in IRQ DF NMI DB MCE; do
		check "-u: cpu $c's $k stack" grep -q " $k of cpu $c " "$s/headroom.out"
	done
done
first=$(sed -n '/^ *LEFT  *OF  *END MAGIC/{n;p;q}' "$s/headroom.out")
echo "deepest: $first"
deepest_turn() {
	echo "$first" | grep -Eq '^ +[0-9]+ +16384 +[a-z]+ +TASK of pid [0-9]+ "labtrig" +recurse_task_frame$' &&
		[ "$(echo "$first" | awk '{ print $1 }')" -le 296 ]
}
check "-u: the deepest is the overflowed task's, within a turn of its end, in its recursion ($first)" deepest_turn
check "-u: it is named as under 2048 bytes left" grep -q '^under 2048 bytes left: TASK of pid [0-9]* "labtrig", [0-9]* bytes, in recurse_task_frame$' "$s/headroom.out"
in_crash headroom-n "$good" "stackov -u -n 0"
check "-u -n 0: no stack is under 0 bytes" grep -qx 'under 0 bytes left: no stack' "$s/headroom-n.out"
# -m: the overflowed stack drawn, top first: the syscall's pt_regs, the
# frames, the cycle, the guard page with the BUG line's fault.
in_crash map "$good" "stackov -m"
bug=$(bug_of "$(readlink -f "$good/vmcore").dmesg")
check "-m: the map of the TASK stack, top first" grep -q '^map of the TASK stack, [0-9a-f]*\.\.[0-9a-f]* (16384 bytes), top first:$' "$s/map.out"
check "-m: pt_regs at its top" sh -c "sed -n '/^map of/{n;p;q}' '$s/map.out' | grep -q ' 168  pt_regs '"
check "-m: the cycle" grep -q '  #0\.\.#[0-9]* the cycle: recurse_task_frame x[0-9]* (296 bytes per cycle)$' "$s/map.out"
check "-m: the guard page, with the BUG line's fault (${bug#* })" grep -q "  4096  guard page, the fault at ${bug#* }\$" "$s/map.out"

# refuses NAME PATTERN CMD: CMD gets one line matching PATTERN, and crash
# goes on to the next command.
refuses() {
	in_crash "$1" "$good" "$3" "p jiffies"
	one_line() { [ "$(grep -c '^stackov: ' "$s/$1.out")" = 1 ] && grep -qF "stackov: $2" "$s/$1.out"; }
	check "$1: one line: $2" one_line "$1" "$2"
	check "$1: crash carries on" grep -q '^jiffies = ' "$s/$1.out"
}
refuses unknown-pid "no task or pid 99999 in this dump" "stackov 99999"
refuses not-panic "pid 1 \"init\" is not the panic task: it did not overflow its stack" "stackov 1"
refuses bad-option "invalid option -- 'x'" "stackov -x"
refuses bad-bytes "-n takes a number of bytes, not 'lots'" "stackov -u -n lots"
refuses bad-map "usage: stackov [-a | -c | -i | -m [-s] | -u [-n BYTES] | -j] [pid | taskp]" "stackov -m -j"
rm -rf "$s"
finish
