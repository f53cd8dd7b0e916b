#!/bin/sh
# make test-full: t-31-catalogue-novmap on the 6.12 line: every scenario on novmap.
LINUX=6.12
export LINUX
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"
line_test t-31-catalogue-novmap novmap
