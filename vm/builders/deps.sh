#!/bin/sh
# vm/builders/deps.sh [check] - install, with apt, whatever the lab needs
# that is missing, the chosen kernel's own packages (KERNEL_DEPS, default
# KERNEL_PACKAGE) among it. "check": only what make check's fast tier needs
# (no QEMU, no crash): the compilers and libraries of the host tools, jq,
# the shell linter, and linux-source-6.1 for checkpatch.pl. Idempotent, and
# silent when everything is there.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

PKGS="${KERNEL_DEPS-$KERNEL_PACKAGE} qemu-system-x86 gdb crash kexec-tools makedumpfile
python3-drgn busybox-static gcc make bc flex bison libelf-dev libdw-dev libcapstone-dev libssl-dev
cpio xz-utils rsync kmod dwarves python3 binutils libc6-dev iproute2
git perl socat g++ libncurses-dev liblzo2-dev libsnappy-dev libzstd-dev
zlib1g-dev texinfo shellcheck util-linux diffutils gzip jq debootstrap"
if [ "${1:-}" = check ]; then
	PKGS="linux-source-6.1 gcc make libc6-dev libelf-dev libdw-dev libcapstone-dev zlib1g-dev bc binutils python3 perl git
shellcheck jq xz-utils util-linux diffutils"
fi

missing=""
for p in $PKGS; do
	case $(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null) in
	installed) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

echo "==> installing:$missing" >&2
if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: error: not root; run: sudo apt-get install$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
log=${TMPDIR:-/tmp}/stackov-lab-apt.$$.log
# shellcheck disable=SC2086
if ! { apt-get update -q && apt-get install -y -q --no-install-recommends $missing; } >"$log" 2>&1; then
	tail -20 "$log" >&2
	echo "deps.sh: error: apt-get failed; full log: $log" >&2
	exit 1
fi
rm -f "$log"
echo "==> installed:$missing" >&2
