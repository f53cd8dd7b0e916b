#!/bin/sh
# make test-full: t-62-postmortem on the 6.12 line: Debian's own 6.12 image,
# its kdump vmcore in kdump-tools' layout and QEMU's ELF dump.
LINUX=6.12
export LINUX
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"
line_test t-62-postmortem
