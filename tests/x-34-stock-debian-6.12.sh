#!/bin/sh
# make test-full: t-34-stock-debian on the 6.12 line: Debian's own 6.12 image (linux-image-6.12-amd64).
LINUX=6.12
export LINUX
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"
line_test t-34-stock-debian
