#!/bin/sh
# make test-full: t-41-bisect on the 6.12 line: each patch of patches/6.12/series builds on the ones before it.
LINUX=6.12
export LINUX
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"
line_test t-41-bisect
