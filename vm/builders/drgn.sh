#!/bin/sh
# vm/builders/drgn.sh VMLINUX - READERS=host's drgn for VMLINUX's kernel:
# print the python that runs the drgn able to read its dumps. Debian 12's
# drgn 0.0.22 (/usr/bin/python3) reads 6.1; from 6.4 on it finds no module
# (struct module's mem[] replaced core_size: "could not find loaded kernel
# modules") and so no module ORC, and its unwinder stops in the first
# module frame. For such a kernel this is trixie's drgn 0.0.31, from the
# readers' root (vm/builders/readers.sh, READERS=trixie: made once).
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

vml=${1:?usage: drgn.sh VMLINUX}
[ -r "$vml" ] || die "drgn.sh: cannot read $vml"
ver=$(strings "$vml" | sed -n 's/^Linux version \([0-9]*\)\.\([0-9]*\)[.-].*/\1 \2/p' | head -1)
# shellcheck disable=SC2086 # two words, major and minor
set -- $ver
if [ $# != 2 ] || [ "$1" -lt 6 ] || { [ "$1" = 6 ] && [ "$2" -lt 4 ]; }; then
	echo /usr/bin/python3
	exit 0
fi
READERS=trixie exec "$LAB_ROOT/vm/builders/readers.sh" python3
