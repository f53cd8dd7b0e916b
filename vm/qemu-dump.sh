#!/bin/sh
# vm/qemu-dump.sh RUN_DIR QEMU_PID - the second capture path. Watches the
# guest through QEMU's QMP socket; when it panics (pvpanic pauses it, with
# -action panic=pause), has QEMU write its own kdump-compressed dump of the
# guest (dump-guest-memory -z) to RUN_DIR/qemu-vmcore, then ends the guest.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/lib.sh"

run=${1:?usage: qemu-dump.sh RUN_DIR QEMU_PID}
qpid=${2:?usage: qemu-dump.sh RUN_DIR QEMU_PID}
qmp=$run/qmp.sock
log=$run/qemu-dump.log

# One QMP exchange: negotiate, run one command, print the replies.
qmp() {
	printf '{"execute":"qmp_capabilities"}\n%s\n' "$1" |
		socat -t 0.5 - "UNIX-CONNECT:$qmp" 2>/dev/null | tr -d '\r' || true
}

: >"$log"
while kill -0 "$qpid" 2>/dev/null; do
	case $(qmp '{"execute":"query-status"}') in
	*'"status": "guest-panicked"'*)
		start=$(date +%s.%N)
		echo "guest panicked; dump-guest-memory format kdump-zlib" >>"$log"
		qmp "{\"execute\":\"dump-guest-memory\",\"arguments\":{\"paging\":false,\"protocol\":\"file:$run/qemu-vmcore\",\"format\":\"kdump-zlib\",\"detach\":true}}" >>"$log"
		i=0
		while :; do
			d=$(qmp '{"execute":"query-dump"}')
			case $d in
			*'"status": "completed"'*) echo "dump completed" >>"$log"; break ;;
			*'"status": "failed"'*) echo "dump FAILED: $d" >>"$log"; break ;;
			esac
			i=$((i + 1))
			[ $i -gt 300 ] && { echo "dump did not complete in 3 minutes" >>"$log"; break; }
			sleep 0.3
		done
		echo "dump took $(echo "$(date +%s.%N) - $start" | bc) s" >>"$log"
		qmp '{"execute":"quit"}' >/dev/null
		exit 0 ;;
	esac
	sleep 0.3
done
