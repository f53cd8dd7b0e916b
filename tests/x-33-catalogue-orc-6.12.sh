#!/bin/sh
# make test-full: t-33-catalogue-orc on the 6.12 line: the fatal scenarios on orc (ORC in 6.4's format, KASLR).
LINUX=6.12
export LINUX
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"
line_test t-33-catalogue-orc orc
