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
	check "demo $i: its own run, a kdump" [ "$(cat "$s/demo$i/result" 2>/dev/null)" = kdump ]
	check "demo $i: its report, the readers agree" \
		grep -q '^stackov in crash, gdb and drgn, on vmcore: the 3 readers agree' "$s/demo$i.out"
done
check "the two runs are two boots (two consoles, two dumps)" \
	sh -c "! cmp -s '$s/demo1/console.log' '$s/demo2/console.log' && ! cmp -s '$s/demo1/vmcore' '$s/demo2/vmcore'"

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
	sleep 5
	check "the build waits while the guest runs" kill -0 "$build"
	check "with one line that says for what" \
		grep -q '^==> waiting: another stackov-lab build or run holds .*lock (to build the vmap initramfs)' "$s/build.out"
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
