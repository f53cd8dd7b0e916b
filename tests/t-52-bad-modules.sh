#!/bin/sh
# make overflow-demo MODULE= with modules that do not overflow as asked:
# no Kbuild; an oops in init that is no overflow; an init that never
# returns; an overflow that comes after MODULE_WAIT; a module named as the
# lab's own; arguments with shell characters. Each ends in one line that
# says what happened, and none leaves a stale out/latest, a QEMU or a lock.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
m=tests/modules
s=$(mktemp -d "$LAB_OUT/test-badmod-XXXX")
no_qemu() { ! pgrep -f "qemu-system-x86_64 .*$LAB_OUT/" >/dev/null; }
lock_free() { flock -n -x "$STACKOV_CACHE/lock" true; }

# demo NAME [VAR=value...]: make overflow-demo with MODULE=tests/modules/NAME
# and the settings; status in $rc, output in $s/NAME.out, and the time.
demo() {
	name=$1
	shift
	before=$(readlink "$LAB_OUT/latest" || true)
	start=$(date +%s)
	rc=0
	env "$@" make -s overflow-demo MODULE="$m/$name" LAB_SHOW=0 >"$s/$name.out" 2>&1 || rc=$?
	took=$(($(date +%s) - start))
	grep -vE '^make(\[[0-9]+\])?: \*\*\*' "$s/$name.out" | grep -v '^==> ' >"$s/$name.msg" || true
	sed 's/^/    /' "$s/$name.msg" | tail -3
}
# after NAME: what every case leaves: no QEMU, no lock.
after() {
	check "$1: no QEMU is left" no_qemu
	check "$1: no lock is held" lock_free
}
# refused NAME ERE: make fails with ERE in one line, out/latest unchanged.
refused_with() {
	check "$1: make fails (status $rc)" [ "$rc" != 0 ]
	n=$(grep -Ec -- "$2" "$s/$1.msg")
	check "$1: one line says why: $2" [ "$n" = 1 ]
	check "$1: out/latest is unchanged" [ "$(readlink "$LAB_OUT/latest" || true)" = "$before" ]
	after "$1"
}

demo no_kbuild
refused_with no_kbuild "^user-module.sh: error: MODULE=$m/no_kbuild: no Kbuild or Makefile in it\$"

demo name_clash
refused_with name_clash "MODULE=$m/name_clash: its module lkdtm_ext.ko has the name of the lab's own module"

# Shell characters in the arguments: refused before anything is built.
# shellcheck disable=SC2016 # the shell characters are the point
for a in 'x=$(reboot)' 'x=1;poweroff' "x='a b'" 'x=`id`' 'x=*'; do
	demo deep_parse MODULE_ARGS="$a"
	cp "$s/deep_parse.msg" "$s/args.msg"
	check "MODULE_ARGS=$a: refused in one line, in $took s" \
		sh -c "[ $rc != 0 ] && [ \$(wc -l <'$s/args.msg') = 1 ] && grep -q '^demo-module.sh: error: MODULE_ARGS=' '$s/args.msg'"
	check "MODULE_ARGS=$a: out/latest unchanged" [ "$(readlink "$LAB_OUT/latest" || true)" = "$before" ]
done
after "MODULE_ARGS with shell characters"

# An oops in init, no overflow: a dump, and the verdict on the oops: its
# RIP and the NULL address it wrote, as the kernel's log has them.
demo init_oops
check "init_oops: make exits 0 (a dump, a report)" [ "$rc" = 0 ]
check "init_oops: the kernel's log has the oops" grep -q 'BUG: kernel NULL pointer dereference' "$LAB_OUT/latest/vmcore.dmesg"
# (its init by the alias module_init() gives it: init_module)
check "init_oops: the verdict: no stack overflow, an oops in its init" \
	grep -Eq '^no stack overflow: an oops at (init_oops_init|init_module)\+0x' "$s/init_oops.out"
orun=$LAB_OUT/$(readlink "$LAB_OUT/latest")
kernel_log "$orun/vmcore.dmesg" >"$orun/vmcore.klog"
crash_agrees init_oops "$orun/stackov-crash-vmcore.json" "$orun/vmcore.klog"
crash_known init_oops init_oops "$orun/stackov-crash-vmcore.json" "$orun/vmcore.klog"
check "init_oops: no reader errors" sh -c "! grep -q '^reader errors' '$s/init_oops.out'"
check "init_oops: out/latest is its run" sh -c "readlink '$LAB_OUT/latest' | grep -q 'MODULE-init_oops-vmap'"
after init_oops

# quiet NAME LINE STATE: a module that does not crash within MODULE_WAIT=5:
# make exits 0 after the wait, with LINE once, out/latest is its run, and
# its record says the guest powered off with the module in STATE.
quiet() {
	demo "$1" MODULE_WAIT=5
	check "$1: make exits 0" [ "$rc" = 0 ]
	check "$1: one line says: $2" [ "$(grep -cF -- "$2" "$s/$1.out")" = 1 ]
	check "$1: out/latest is its run" sh -c "readlink '$LAB_OUT/latest' | grep -q 'MODULE-$1-vmap'"
	qr=$LAB_OUT/$(readlink "$LAB_OUT/latest")
	check "$1: the guest gave up after MODULE_WAIT and powered off, not the run's timeout ($(run_outcome "$qr"): $(run_reason "$qr"))" \
		[ "$(run_outcome "$qr")" = poweroff ]
	check "$1: the record says what became of the module ($(rec_get "$qr" '.boots[0].usermod.state'))" \
		[ "$(rec_get "$qr" '.boots[0].usermod.state')" = "$3" ]
	after "$1"
}
# An init that never returns: the guest gives up after MODULE_WAIT.
quiet init_hang "init_hang.ko's init did not return in 5s" hung
# An overflow 30 s after the load, with MODULE_WAIT=5: nothing happened.
quiet late_overflow "late_overflow.ko loaded and nothing happened in 5s" idle
[ "$failed" = 0 ] && rm -rf "$s"
finish
