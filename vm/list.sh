#!/bin/sh
# vm/list.sh - the scenarios, read from the module's own tables
# (every CRASHTYPE() line in lkdtm-ext/*.c), one per line with its description.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/lib.sh"

sed -n 's/^[[:space:]]*CRASHTYPE(\([A-Z0-9_]*\), *"\(.*\)"),$/\1 \2/p' \
	"$LAB_ROOT"/lkdtm-ext/*.c | while read -r name desc; do
	printf '%-20s %s\n' "$name" "$desc"
done
