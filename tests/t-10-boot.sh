#!/bin/sh
# The guest boots to init, loads the module, lists the scenarios the
# module's table holds, unloads it, and powers off.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

boot boot VARIANT=vmap LAB_MODE=run SCENARIO='' VM_TIMEOUT=120
check "kernel ran /init" has '^Run /init as init process'
check "lab init started" has '^lab: init started'
check "kernel is the lab's (6.1, -stackov)" has 'Linux version 6\.1\.[0-9]+-stackov'
check "lkdtm_ext loaded and created its debugfs files" has '^lkdtm_ext: ready: write a scenario name'
check "guest powered off" result_is poweroff
check "the run's record names the kernel it booted (lab-6.1)" [ "$(rec_get "$run" .kernel.description)" = lab-6.1 ]
check "vm/boot/qemu.sh exits 0" [ "$boot_rc" = 0 ]
list_matches() {
	console | sed -n 's/^lab-list: //p' >"$run/list.guest"
	"$LAB_ROOT/vm/list.sh" >"$run/list.host"
	[ -s "$run/list.guest" ] && cmp -s "$run/list.guest" "$run/list.host"
}
check "the guest's debugfs list matches make list" list_matches
check "the module unloads (its timer, work and irq_work cancelled)" has '^lab: lkdtm_ext unloaded$'
check "no oops or BUG on a plain boot" lacks 'Oops|BUG:|Call Trace'
t=$(console | sed -n 's/^lab: init started, uptime \([0-9.]*\) s.*/\1/p')
echo "boot to init: ${t} s guest uptime, $(rec_get "$run" '.boots[0].wall_s') s wall to power-off"
finish
