#!/bin/sh
# Two users of the lab at once, and what a run exposes:
# - two make overflow-demo at the same time: both finish, each with its own
#   run directory and its own report;
# - a build while a guest runs (make test's builds beside a make vm): the
#   build waits, with one line that says for what, and finishes after;
# - the gdbstub, QEMU's monitor and QMP listen on loopback or on sockets in
#   the run directory only, and a run directory (a vmcore holds the guest's
#   memory) is for its owner only.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
s=$(mktemp -d "$LAB_OUT/test-conc-XXXX")

# 1. Two overflow-demo at once.
demo() { # N
	rc=0
	make -s overflow-demo SCENARIO=RECURSE_TASK QEMU_DUMP=0 LAB_SHOW=0 RUN_DIR="$s/demo$1" \
		>"$s/demo$1.out" 2>&1 || rc=$?
	echo "$rc" >"$s/demo$1.rc"
}
demo 1 &
p1=$!
demo 2 &
p2=$!
wait "$p1" "$p2"
for i in 1 2; do
	check "demo $i of 2 at once: exits 0" [ "$(cat "$s/demo$i.rc")" = 0 ]
	check "demo $i: its own run, a kdump" [ "$(run_outcome "$s/demo$i" 2>/dev/null)" = kdump ]
	check "demo $i: its report, the readers agree" \
		grep -q '^stackov in crash, gdb and drgn, on vmcore: the 3 readers agree' "$s/demo$i.out"
done
# At the same time: each guest started before the other ended (the boots'
# times in their records), and each run has its own dump.
overlap() {
	a0=$(rec_get "$s/demo1" '.boots[0].started_at') a1=$(rec_get "$s/demo1" '.boots[0].ended_at')
	b0=$(rec_get "$s/demo2" '.boots[0].started_at') b1=$(rec_get "$s/demo2" '.boots[0].ended_at')
	echo "    demo 1's guest ran $a0..$a1, demo 2's $b0..$b1"
	[ -n "$a0" ] && [ -n "$b1" ] && [ "$(echo "$a0 < $b1 && $b0 < $a1" | bc)" = 1 ]
}
check "the two guests ran at the same time (each started before the other ended)" overlap
check "the two runs have two dumps" sh -c "[ -s '$s/demo1/vmcore' ] && [ -s '$s/demo2/vmcore' ] && ! cmp -s '$s/demo1/vmcore' '$s/demo2/vmcore'"

# 2. A build while a guest runs: the guest holds the cache's lock shared,
# a build (here the initramfs, forced) needs it exclusive and waits.
r=$s/idle
RUN_DIR=$r LAB_MODE=idle GDB=1 VM_TIMEOUT=120 LAB_LATEST=0 vm/boot/qemu.sh >"$s/idle.out" 2>&1 &
guest=$!
if wait_for "$r/console.log" '^lab: init started' 60; then
	# 3. What listens while it runs: QEMU's TCP sockets, all on 127.0.0.1.
	q=$(qemu_of "$r")
	ss -Hltnp >"$s/listen.txt"
	grep "pid=$q," "$s/listen.txt" | awk '{ print $4 }' >"$s/qemu-listen.txt"
	sed 's/^/    QEMU listens on /' "$s/qemu-listen.txt"
	check "QEMU listens on TCP for the gdbstub only, on 127.0.0.1" \
		sh -c "[ -s '$s/qemu-listen.txt' ] && ! grep -v '^127\\.0\\.0\\.1:' '$s/qemu-listen.txt'"
	check "its monitor and QMP are sockets in the run directory" \
		sh -c "grep -q 'unix:$r/monitor.sock' '$r/qemu.cmd' && grep -q 'unix:$r/qmp.sock' '$r/qemu.cmd'"
	check "no VNC, no other TCP or network device on QEMU's command line" \
		sh -c "! grep -Eq '^-vnc|^-netdev|^-nic|tcp:0|tcp::|0\\.0\\.0\\.0' '$r/qemu.cmd'"
	start=$(date +%s)
	LAB_FORCE=1 vm/builders/initramfs.sh vmap >"$s/build.out" 2>&1 &
	build=$!
	# It says it waits, and it still waits while the guest runs.
	check "the build waits, with one line that says for what" \
		wait_for "$s/build.out" '^==> waiting: another stackov-lab build or run holds .*lock \(to build the vmap initramfs\)' 60
	check "and it has not gone on while the guest runs" sh -c "kill -0 $build && kill -0 $guest"
	kill "$(qemu_of "$r")"
	wait "$guest" || true
	rc=0
	wait "$build" || rc=$?
	check "once the guest is gone, the build finishes (status $rc, $(($(date +%s) - start)) s)" [ "$rc" = 0 ]
else
	fail "the idle guest did not start in 60 s"
	kill "$guest" 2>/dev/null
fi

# 4. Run directories: the owner's only, made here or given (RUN_DIR).
for d in "$s/demo1" "$r"; do
	check "$(basename "$d"): mode 700" [ "$(stat -c %a "$d")" = 700 ]
done
newest=$(readlink -f "$LAB_OUT/latest")
check "out/latest's run directory ($(basename "$newest")): mode 700" [ "$(stat -c %a "$newest")" = 700 ]
[ "$failed" = 0 ] && rm -rf "$s"
finish
