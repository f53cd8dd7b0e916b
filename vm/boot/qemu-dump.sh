#!/bin/sh
# vm/boot/qemu-dump.sh RUN_DIR QEMU_PID - the second capture path. Watches the
# guest through QEMU's QMP socket; when it panics (pvpanic pauses it, with
# -action panic=pause), has QEMU write its own dumps of the guest, then ends
# it: kdump-compressed (dump-guest-memory -z) to RUN_DIR/qemu-vmcore, for
# crash, and ELF with paging (-p: program headers by virtual address,
# vmalloc'd stacks included) to RUN_DIR/qemu-vmcore.elf, for drgn (its
# libkdumpfile rejects QEMU's kdump header: no utsname but the machine)
# and for gdb, whose own bt then walks the whole stack.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

run=${1:?usage: qemu-dump.sh RUN_DIR QEMU_PID}
qpid=${2:?usage: qemu-dump.sh RUN_DIR QEMU_PID}
qmp=$run/qmp.sock
log=$run/qemu-dump.log

# One QMP exchange: negotiate, run one command, print the replies.
qmp() {
	printf '{"execute":"qmp_capabilities"}\n%s\n' "$1" |
		socat -t 0.5 - "UNIX-CONNECT:$qmp" 2>/dev/null | tr -d '\r' || true
}

# dump FORMAT PAGING FILE: one dump-guest-memory, waited for (3 minutes).
dump() {
	echo "guest panicked; dump-guest-memory format $1 paging $2" >>"$log"
	qmp "{\"execute\":\"dump-guest-memory\",\"arguments\":{\"paging\":$2,\"protocol\":\"file:$3\",\"format\":\"$1\",\"detach\":true}}" >>"$log"
	i=0
	while :; do
		d=$(qmp '{"execute":"query-dump"}')
		case $d in
		*'"status": "completed"'*) echo "dump completed" >>"$log"; break ;;
		*'"status": "failed"'*) echo "dump FAILED: $d" >>"$log"; rm -f "$3"; break ;;
		esac
		i=$((i + 1))
		[ $i -gt 600 ] && { echo "dump did not complete in 3 minutes" >>"$log"; rm -f "$3"; break; }
		sleep 0.3
	done
}

: >"$log"
while kill -0 "$qpid" 2>/dev/null; do
	case $(qmp '{"execute":"query-status"}') in
	*'"status": "guest-panicked"'*)
		start=$(date +%s.%N)
		dump kdump-zlib false "$run/qemu-vmcore"
		dump elf true "$run/qemu-vmcore.elf"
		echo "dumps took $(echo "$(date +%s.%N) - $start" | bc) s" >>"$log"
		qmp '{"execute":"quit"}' >/dev/null
		exit 0 ;;
	esac
	sleep 0.3
done
