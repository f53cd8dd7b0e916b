#!/bin/sh
# The one outcome classifier (vm/boot/classify.sh), fed consoles: real
# ones of the lab's guests (tests/consoles/: a kdump boot of
# RECURSE_TASK, QEMU's dump boot of it), and the same cut short, with
# QEMU killed, stopped, timed out, and the boots whose consoles are made
# here line by line (a power-off, a triple fault, a reset, kdump that did
# not arm, a capture kernel out of memory, a user's module that hangs).
# Each outcome, reason and list of finished dumps is the one written
# here by hand from what the console shows.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

c=$LAB_ROOT/tests/consoles
s=$(mktemp -d "$LAB_OUT/test-classify-XXXX")
n=0

# boot_of NAME [FIXTURE]: a boot directory $s/NAME, with FIXTURE's files.
boot_of() {
	b=$s/$1
	mkdir -p "$b"
	[ -n "${2:-}" ] && cp "$c/$2"/* "$b/"
	[ -f "$b/console.log" ] || : >"$b/console.log"
	echo "$b"
}
# classify NAME RC WALL TIMEOUT KDUMP QEMU_DUMP: classify.sh on $s/NAME.
classify() {
	n=$((n + 1))
	b=$s/$1
	shift
	rc=0
	"$LAB_ROOT/vm/boot/classify.sh" "$b" "$@" >"$b.out" 2>"$b.err" || rc=$?
}
val() { sed -n "s/^$2=//p" "$s/$1.out"; }
reason_has() { val "$1" reason | grep -Eq -- "$2"; }
# expect NAME OUTCOME REASON_ERE CAPTURED: what the classifier said of NAME.
expect() {
	check "$1: exits 0" [ "$rc" = 0 ]
	check "$1: outcome $2" [ "$(val "$1" outcome)" = "$2" ]
	check "$1: the reason says '$3' ($(val "$1" reason))" reason_has "$1" "$3"
	if [ -n "$4" ]; then
		check "$1: captured $4" [ "$(val "$1" captured)" = "$4" ]
	else
		check "$1: no dump is whole" sh -c "grep -qx 'captured=' '$s/$1.out'"
	fi
}

# 1. A kdump boot: the capture kernel wrote both dumps.
boot_of kdump kdump >/dev/null
classify kdump 0 6.1 300 1 0
expect kdump kdump 'the capture kernel wrote vmcore and vmcore.elf' 'vmcore vmcore.elf'
check "kdump: lkdtm_ext's .text is where the guest said" [ "$(val kdump module_text)" = 0xffffffffa0000000 ]
check "kdump: no kdump_error" sh -c "! grep -q '^kdump_error=' '$s/kdump.out'"

# 2. The same console cut short: after the first dump's copy, QEMU killed.
b=$(boot_of killed)
awk '{ print } /to \/dev\/vda done/ { exit }' "$c/kdump/console.log" >"$b/console.log"
classify killed 137 4.0 300 1 0
expect killed error 'QEMU was killed by signal KILL after 4 s, during the kdump capture' ''
# ... the limit ran out at the same place.
b=$(boot_of limit)
cp "$s/killed/console.log" "$b/"
classify limit 124 300.2 300 1 0
expect limit timeout "run's limit of 300 s.*during the kdump capture" ''
kerr_has() { val "$1" kdump_error | grep -Eq -- "$2"; }
check "limit: kdump_error says the capture was cut" kerr_has limit 'during the kdump capture'

# ... QEMU stopped by a TERM (it says so, and exits 0).
b=$(boot_of termed)
cp "$s/killed/console.log" "$b/"
echo 'qemu-system-x86_64: terminating on signal 15 from pid 4242 (kill)' >"$b/qemu.log"
classify termed 0 3.5 300 1 0
expect termed error 'QEMU stopped: terminating on signal 15 from pid 4242' ''
# ... QEMU exited on its own with the copy half done: the capture failed.
b=$(boot_of cut)
awk '{ print } /^lab: capture kernel up/ { exit }' "$c/kdump/console.log" | tr -d '\r' >"$b/console.log"
echo 'lab: capture: makedumpfile -l FAILED:' >>"$b/console.log"
echo 'lab: makedumpfile: write error: No space left on device' >>"$b/console.log"
classify cut 0 5.0 300 1 0
expect cut capture-failed 'makedumpfile -l FAILED.*No space left on device' ''
check "cut: kdump_error gives the same reason" [ "$(val cut kdump_error)" = "$(val cut reason)" ]
# ... the console ends inside the copy, and QEMU exited 0 (no word of it).
b=$(boot_of silent)
awk '{ print } /^lab: capture kernel up/ { exit }' "$c/kdump/console.log" >"$b/console.log"
classify silent 0 5.0 300 1 0
expect silent capture-failed 'did not finish writing the dump' ''

# 3. QEMU's own dump of the panic: both of its dumps completed.
boot_of qemu qemu-dump >/dev/null
classify qemu 0 2.6 300 0 1
expect qemu panic 'QEMU saw the guest panic.*QEMU wrote qemu-vmcore qemu-vmcore.elf' 'qemu-vmcore qemu-vmcore.elf'
# ... the second (ELF) dump failed.
b=$(boot_of qemu-half qemu-dump)
sed -i '$d' "$b/qemu-dump.log"
sed -i '$s/^dump completed$/dump FAILED: {"return": {"status": "failed"}}/' "$b/qemu-dump.log"
classify qemu-half 0 2.6 300 0 1
expect qemu-half panic 'QEMU wrote qemu-vmcore$' qemu-vmcore

# 4. Boots made here: a guest that powers off after a scenario.
b=$(boot_of poweroff)
printf '%s\n' '[    0.000000] Linux version 6.1.192-stackov+' 'lab: init started, uptime 0.9 s' \
	'lkdtm_ext: Performing STACK_DEPTH' 'lab: scenario STACK_DEPTH: labtrig exited with status 0; the guest is still running' \
	'lab: powering off' '[    2.000000] reboot: Power down' >"$b/console.log"
classify poweroff 0 2.1 300 1 0
expect poweroff poweroff 'powered off after: scenario STACK_DEPTH: labtrig exited with status 0' ''
# ... kdump armed, and it did not arm: the guest said why, and powered off.
b=$(boot_of noarm)
printf '%s\n' '[    0.000000] Linux version 6.1.192-stackov+' 'lab: kdump: no crashkernel= reservation' \
	'lab: kdump FAILED to arm; not triggering anything' 'lab: powering off' 'reboot: Power down' >"$b/console.log"
classify noarm 0 1.8 300 1 0
expect noarm poweroff 'kdump FAILED to arm' ''
check "noarm: kdump_error is the guest's own word" [ "$(val noarm kdump_error)" = 'kdump did not arm: kdump: no crashkernel= reservation; kdump FAILED to arm; not triggering anything' ]
# ... a triple fault (novmap's overflow): TCG's log says so, the console nothing.
b=$(boot_of triple)
printf '%s\n' '[    0.000000] Linux version 6.1.192-stackov+' 'lkdtm_ext: Performing RECURSE_TASK' >"$b/console.log"
printf '%s\n' 'CPU Reset (CPU 0)' 'Triple fault' 'CPU Reset (CPU 0)' >"$b/qemu-debug.log"
classify triple 0 9.0 300 0 0
expect triple triple-fault 'triple fault' ''
# ... a reset with no triple fault and nothing said.
b=$(boot_of reset)
printf '%s\n' '[    0.000000] Linux version 6.1.192-stackov+' 'lkdtm_ext: Performing RECURSE_TASK' >"$b/console.log"
classify reset 0 9.0 300 0 0
expect reset reset 'reset itself' ''
# ... a panic with kdump armed, and the capture kernel never started.
b=$(boot_of panic)
printf '%s\n' '[    0.000000] Linux version 6.1.192-stackov+' 'lab: kdump armed: capture kernel loaded (67108864 bytes reserved)' \
	'[    3.100000] Kernel panic - not syncing: Fatal exception in interrupt' >"$b/console.log"
classify panic 0 3.2 300 1 0
expect panic panic 'Kernel panic - not syncing: Fatal exception in interrupt; the capture kernel never started' ''
check "panic: kdump_error says the capture kernel never started" [ "$(val panic kdump_error)" = 'the capture kernel never started' ]
# ... the capture kernel started, and ran out of memory before init.
b=$(boot_of oom)
printf '%s\n' '[    0.000000] Linux version 6.1.192-stackov+' 'lab: kdump armed: capture kernel loaded (41943040 bytes reserved)' \
	'[    3.100000] Kernel panic - not syncing: Fatal exception in interrupt' '[    0.000000] Linux version 6.1.192-stackov+' \
	'[    0.500000] Out of memory and no killable processes...' \
	'[    0.510000] Kernel panic - not syncing: System is deadlocked on memory' >"$b/console.log"
classify oom 0 4.0 300 1 0
expect oom capture-failed 'the capture kernel failed: .*Out of memory' ''
# ... a user's module whose init never returns (MODULE_WAIT): the guest gave up.
b=$(boot_of hung)
printf '%s\n' '[    0.000000] Linux version 6.1.192-stackov+' 'lab: usermod: loading init_hang.ko' \
	'lab: usermod init_hang: its init did not return in 5s (insmod is still waiting)' \
	'lab: dmesg: [    7.000000] init_hang: spinning' 'lab: powering off' 'reboot: Power down' >"$b/console.log"
classify hung 0 8.0 125 1 0
expect hung poweroff 'init did not return in 5s' ''
check "hung: usermod=hung" [ "$(val hung usermod)" = hung ]
check "hung: the kernel's last word" [ "$(val hung usermod_kernel)" = 'init_hang: spinning' ]
# ... QEMU that exits with an error of its own before the guest runs.
b=$(boot_of qemu-error)
echo 'qemu-system-x86_64: -drive file=x: Could not open x: No such file' >"$b/qemu.log"
classify qemu-error 1 0.1 300 1 0
expect qemu-error error 'QEMU exited with status 1 .*Could not open' ''

# Bad input: one line, status 1.
rc=0
"$LAB_ROOT/vm/boot/classify.sh" "$s/no-such" 0 1 300 0 0 >/dev/null 2>"$s/bad.err" || rc=$?
check "a directory with no console: status 1, one line" sh -c "[ $rc = 1 ] && [ \$(wc -l <'$s/bad.err') = 1 ]"
rc=0
"$LAB_ROOT/vm/boot/classify.sh" "$s/kdump" x 1 300 0 0 >/dev/null 2>"$s/bad.err" || rc=$?
check "a status that is no number: status 1" sh -c "[ $rc = 1 ] && grep -q \"not a number: 'x'\" '$s/bad.err'"
check "$n consoles classified" [ "$n" -ge 15 ]
[ "$failed" = 0 ] && rm -rf "$s"
finish
