# shellcheck shell=sh
# tests/lib.sh - helpers for the test scripts. Each test script prints one
# "PASS name: what" or "FAIL name: what" line per check; tests/run.sh counts.
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

T=$(basename "$0" .sh)
failed=0

pass() { echo "PASS $T: $*"; }
fail() {
	echo "FAIL $T: $*"
	failed=1
}
# check WHAT CMD... : one check, passes when CMD succeeds.
check() {
	what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}
finish() { exit "$failed"; }

# boot NAME [VAR=value...]: boot the guest into a fresh run directory and
# set $run to it. The settings are passed to vm/qemu.sh's environment.
boot() {
	run=$(mktemp -d "$LAB_OUT/test-$1-XXXX")
	rmdir "$run"
	shift
	env RUN_DIR="$run" LAB_SHOW=0 GDB=0 INTERACTIVE=0 "$@" \
		"$LAB_ROOT/vm/qemu.sh" 2>"$run.launcher.log" || true
	mv "$run.launcher.log" "$run/launcher.log" 2>/dev/null || true
}
# What the kernel and the guest printed, without printk timestamps.
console() { kernel_log "$run/console.log"; }
# has PATTERN: the console has a line matching the extended regex.
has() { console | grep -Eq -- "$1"; }
lacks() { ! has "$1"; }
# refused RC PATTERN FILE: a command failed (RC != 0) and said PATTERN.
refused() { [ "$1" != 0 ] && grep -q -- "$2" "$3"; }
result_is() { [ "$(cat "$run/result" 2>/dev/null)" = "$1" ]; }
# record_outcome TABLE WIDTH NAME [PATTERN]: append a line for NAME: the
# run's result and the first two lines of what the kernel reported (read
# with the test's own klog), PATTERN widening what counts as a report.
record_outcome() {
	pat='BUG: |Kernel panic|kernel BUG|PANIC:|FAIL:|XFAIL:|: result '
	[ -n "${4:-}" ] && pat="$pat|$4"
	o=$(klog | grep -E "$pat" | head -2 | cut -c1-100 | sed 's/^lkdtm_ext: //' |
		paste -sd'|' | sed 's/|/ | /')
	printf "%-20s %-${2}s %s\n" "$3" "$(cat "$run/result")" "${o:-(nothing on the console)}" >>"$1"
}
mkdir -p "$LAB_OUT"
