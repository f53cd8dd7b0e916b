#!/bin/sh
# vm/demo.sh - one scenario run: boot the guest with SCENARIO, show the
# console live, then summarise what the kernel reported.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/lib.sh"

SCENARIO=${SCENARIO:-RECURSE_TASK}
"$LAB_ROOT/vm/list.sh" | grep -q "^$SCENARIO " ||
	die "unknown SCENARIO '$SCENARIO'; valid: $("$LAB_ROOT/vm/list.sh" | cut -d' ' -f1 | tr '\n' ' ')"
export SCENARIO
LAB_SHOW=${LAB_SHOW:-1} "$LAB_ROOT/vm/qemu.sh" || true
run=$LAB_OUT/$(readlink "$LAB_OUT/latest")
log=$run/console.log
[ -f "$run/result" ] || die "the run left no result; see $run"

echo
echo "== $SCENARIO on $VARIANT: the guest ended by $(cat "$run/result") =="
grep -E 'BUG: .*stack guard page was hit|stack guard page: |Kernel panic - not syncing|lkdtm_ext: (Performing|FAIL)|labtrig:|kernel stack overflow' "$log" |
	sed 's/^\[ *[0-9.]*\] //' || echo "(no stack report in the console)"
trace=$(sed -n '/Call Trace:/,/<\/TASK>\|---\[ end/p' "$log" | grep -c 'lkdtm_ext' || true)
echo "call-trace lines naming lkdtm_ext: $trace"
echo "console: $log"
