#!/bin/sh
# vm/selftest-lkdtm.sh - make selftest-lkdtm: run the kernel's own LKDTM
# selftest (tools/testing/selftests/lkdtm/run.sh, one script per entry of
# its tests.txt, under kselftest's runner.sh) in the guest, with
# panic_on_oops=0 so that an oops kills only the writing process and one
# boot runs many tests. An entry that takes the whole guest down (panic,
# reset, hang) is recorded as such and the next boot carries on after it.
# Writes RUN/selftest-lkdtm.tap (kselftest's own ok / not ok / # SKIP
# lines, renumbered across boots) and prints it as a table.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/lib.sh"

VARIANT=${VARIANT:-$DEFAULT_VARIANT}
check_variant "$VARIANT"
initrd=$("$LAB_ROOT/vm/builders/selftest-initrd.sh" "$VARIANT")
tests=$KERNEL_TREE/tools/testing/selftests/lkdtm/tests.txt
total=$(grep -c . "$tests")
run=$(run_dir selftest-lkdtm "$VARIANT")
set_latest "$run"
tap=$run/selftest-lkdtm.tap
: >"$tap"
name_at() { awk -v i="$1" 'NR == i { print $1 }' "$tests" | sed 's/#//'; }

done_count=0 boot=0
while [ "$done_count" -lt "$total" ]; do
	boot=$((boot + 1))
	b=$run/boot-$boot
	say "selftest-lkdtm: boot $boot, from test $((done_count + 1)) of $total"
	# loglevel=1: the oopses stay in dmesg (run.sh reads it) and off the
	# console, where they could cut the runner's lines in two.
	RUN_DIR=$b RUN_RECORD=$run BOOT_NAME=boot-$boot LAB_LATEST=0 LAB_MODE=selftest SCENARIO='' KDUMP=0 QEMU_DUMP=0 INITRD=$initrd \
		APPEND="lab.selftest_from=$done_count loglevel=1 ${APPEND:-}" \
		VM_TIMEOUT=${SELFTEST_TIMEOUT:-600} LAB_SHOW=0 "$LAB_ROOT/vm/boot/qemu.sh" 2>>"$run/launcher.log" || true
	con=$(tr -d '\r' <"$b/console.log")
	results=$(echo "$con" | grep -E '^(not )?ok [0-9]+ selftests: lkdtm: ' || true)
	n=0
	[ -n "$results" ] && n=$(echo "$results" | wc -l)
	echo "$results" | grep . | while read -r line; do
		num=$(echo "$line" | sed -E 's/^(not )?ok ([0-9]+) .*/\2/')
		echo "$line" | sed -E "s/^((not )?ok) $num /\\1 $((done_count + num)) /"
	done >>"$tap"
	done_count=$((done_count + n))
	echo "$con" | grep -q '^lab: selftest: done' && break
	# The guest went down inside the next test: name it, and go on.
	victim=$(name_at $((done_count + 1)))
	if echo "$con" | grep -q "^# selftests: lkdtm: $victim.sh\$"; then
		done_count=$((done_count + 1))
		echo "not ok $done_count selftests: lkdtm: $victim.sh # CRASHED the guest ($(run_outcome "$run" "boot-$boot"))" >>"$tap"
	else
		die "boot $boot ran no test (outcome $(run_outcome "$run" "boot-$boot"): $(run_reason "$run" "boot-$boot")); see $b/console.log"
	fi
done

remove_on_exit "$tap.tmp"
echo "TAP version 13" >"$tap.tmp"
echo "1..$total" >>"$tap.tmp"
cat "$tap" >>"$tap.tmp"
mv "$tap.tmp" "$tap"
printf '%-34s %s\n' "LKDTM test" "kselftest result"
sed -nE 's/^(not ok|ok) [0-9]+ selftests: lkdtm: ([A-Z0-9_]+)\.sh( # (.*))?$/\2|\1|\4/p' "$tap" |
	while IFS='|' read -r t r rest; do
		case "$r|$rest" in
		"ok|SKIP"*) r=SKIP ;;
		ok*) r=PASS ;;
		*) r="FAIL${rest:+ ($rest)}" ;;
		esac
		printf '%-34s %s\n' "$t" "$r"
	done
echo "$(grep -c '^ok .*[^P]$' "$tap" || true) passed, $(grep -c '# SKIP$' "$tap" || true) skipped, $(grep -c '^not ok' "$tap" || true) failed or crashed, in $boot boots; TAP: $tap"
