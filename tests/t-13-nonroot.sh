#!/bin/sh
# The trigger is root-only: a non-root process in the guest gets
# "Permission denied" and nothing is triggered.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

boot nonroot VARIANT=vmap SCENARIO=RECURSE_TASK APPEND=lab.user=1000 VM_TIMEOUT=120
check "labtrig ran as uid 1000" has '^labtrig: triggering RECURSE_TASK as uid 1000 '
check "open of the trigger file: Permission denied" \
	has '^labtrig: open /sys/kernel/debug/lkdtm_ext/trigger: Permission denied \(errno 13\)'
check "the scenario did not run" lacks 'Performing RECURSE_TASK|guard page|Kernel panic'
check "guest powered off cleanly" result_is poweroff
finish
