#!/bin/sh
# vm/list.sh - the scenarios, read from the module's own tables: the family
# order of core.c's categories[], then every CRASHTYPE() line of that
# family's file (family NAME lives in lkdtm-ext/NAME.c), one per line.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/lib.sh"

m=$LAB_ROOT/lkdtm-ext
families=$(sed -n 's/^[[:space:]]*&\([a-z0-9_]*\)_crashtypes,$/\1/p' "$m/core.c")
for family in $families; do
	[ -f "$m/$family.c" ] || die "core.c lists family '$family' but $m/$family.c is missing"
	sed -n 's/^[[:space:]]*CRASHTYPE(\([A-Z0-9_]*\), *"\(.*\)"),$/\1 \2/p' "$m/$family.c"
done | while read -r name desc; do
	printf '%-20s %s\n' "$name" "$desc"
done
