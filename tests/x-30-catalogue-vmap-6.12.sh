#!/bin/sh
# make test-full: t-30-catalogue-vmap on the 6.12 line: the whole catalogue on vmap (make test's t-35 runs two scenarios).
LINUX=6.12
export LINUX
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"
line_test t-30-catalogue-vmap vmap
