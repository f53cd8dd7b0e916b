#!/bin/sh
# A live guest with its gdbstub: the stub listens on 127.0.0.1 only, and
# gdb attached through vm/gdb.sh (what `make gdb` runs) sees init in lx-ps.
# The launcher says "CPUs held" only with GDB_WAIT=1. A run stopped with
# TERM (what Ctrl-C or a test's timeout sends) leaves no QEMU behind.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

run=$(mktemp -d "$LAB_OUT/test-gdbstub-XXXX")
rmdir "$run"
RUN_DIR=$run LAB_MODE=idle GDB=1 VM_TIMEOUT=240 SCENARIO='' \
	"$LAB_ROOT/vm/boot/qemu.sh" 2>"$LAB_OUT/gdbstub.launcher.log" &
qpid=$!
quit_vm() {
	/usr/bin/python3 - "$run/monitor.sock" <<'PY' 2>/dev/null || true
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b"quit\n")
time.sleep(0.5)
PY
	wait "$qpid" 2>/dev/null || true
}
trap quit_vm EXIT

i=0
until grep -q '^lab: idle' "$run/console.log" 2>/dev/null; do
	i=$((i + 1))
	[ $i -gt 120 ] && break
	sleep 0.5
done
check "guest reached idle" grep -q '^lab: idle' "$run/console.log"
check "without GDB_WAIT the launcher does not say the CPUs are held" \
	sh -c "grep -q 'gdbstub on 127.0.0.1' '$LAB_OUT/gdbstub.launcher.log' && ! grep -q 'CPUs held' '$LAB_OUT/gdbstub.launcher.log'"
port=$(cat "$run/gdb.port")

listeners=$(ss -Hltn "sport = :$port" | awk '{print $4}')
echo "listening on port $port: $listeners"
only_loopback() {
	[ -n "$listeners" ] || return 1
	for l in $listeners; do
		[ "$l" = "127.0.0.1:$port" ] || return 1
	done
}
check "gdbstub listens on 127.0.0.1:$port and nothing else" only_loopback

connects() {
	/usr/bin/python3 -c '
import socket, sys
fam = socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET
s = socket.socket(fam)
s.settimeout(2)
try:
    s.connect((sys.argv[1], int(sys.argv[2])))
except OSError:
    sys.exit(1)
' "$1" "$port"
}
others=$(ip -o addr show | awk '{print $4}' | cut -d/ -f1 | grep -vxE '127\.0\.0\.1|::1' || true)
not_connects() { ! connects "$1"; }
for a in $others; do
	case $a in fe80:*) continue ;; esac
	check "gdbstub not reachable on $a" not_connects "$a"
done
check "gdbstub not reachable on ::1" not_connects ::1
check "gdbstub reachable on 127.0.0.1 (so the checks above can fail)" connects 127.0.0.1

RUN_DIR=$run GDB_ARGS="-batch -ex lx-ps" timeout 120 "$LAB_ROOT/vm/gdb.sh" >"$run/gdb.out" 2>&1
sed 's/^/  gdb: /' "$run/gdb.out" | head -20
check "gdb loaded vmlinux-gdb.py and ran lx-ps" grep -Eq '^0x[0-9a-f]+ +[0-9]+ +' "$run/gdb.out"
check "lx-ps shows init as PID 1" grep -Eq '^0x[0-9a-f]+ +1 +init$' "$run/gdb.out"
check "lx-ps shows the kernel threads (kthreadd, PID 2)" grep -Eq '^0x[0-9a-f]+ +2 +kthreadd$' "$run/gdb.out"

# GDB_WAIT=1: the CPUs are held, and it says so. Then TERM the launcher,
# as an interrupted make would: its QEMU must go with it.
held=$(mktemp -d "$LAB_OUT/test-gdbwait-XXXX")
rmdir "$held"
RUN_DIR=$held LAB_MODE=idle GDB=1 GDB_WAIT=1 VM_TIMEOUT=240 SCENARIO='' \
	"$LAB_ROOT/vm/boot/qemu.sh" 2>"$LAB_OUT/gdbwait.launcher.log" &
hpid=$!
i=0
until [ -s "$held/gdb.port" ] && qemu_of "$held" >/dev/null; do
	i=$((i + 1))
	[ $i -gt 100 ] && break
	sleep 0.2
done
check "with GDB_WAIT=1 it says the CPUs are held" grep -q 'CPUs held until gdb continues' "$LAB_OUT/gdbwait.launcher.log"
check "its QEMU is running" qemu_of "$held"
kill -TERM "$hpid"
hrc=0
wait "$hpid" 2>/dev/null || hrc=$?
check "the launcher, TERMed, exits 130 (interrupted)" [ "$hrc" = 130 ]
no_qemu_left() { ! qemu_of "$held" >/dev/null; }
check "after TERM to the launcher no QEMU of that run is left (waited for up to 10 s)" until_true 10 no_qemu_left
finish
