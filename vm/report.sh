#!/bin/sh
# vm/report.sh RUN_DIR - the post-mortem of one run, from three readers:
# crash (batch, crash-scripts/postmortem.crash), gdb (on the ELF vmcore,
# gdb-scripts/stackov.py) and drgn (drgn-scripts/postmortem.py). Writes
# RUN_DIR/report.txt and prints a short summary.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/lib.sh"

run=${1:?usage: report.sh RUN_DIR}
[ -f "$run/console.log" ] || die "$run is not a run directory"
rep=$run/report.txt
con() { kernel_log "$run/console.log"; }
text=$(con | sed -n 's/^lab: module lkdtm_ext .text //p' | head -1)

klog() {
	kernel_log "$1" |
		grep -E 'BUG: .*guard page|stack guard page: |Kernel panic|^CPU: .* PID: |^RIP: |lkdtm_ext: Performing' | head -8
}
rm -f "$rep.crash"
section() { printf '\n===== %s =====\n' "$*"; }
{
	echo "stackov-lab post-mortem of $(basename "$run")"
	sed -n 's/^\(variant\|accel\|cmdline\)=/\1: /p' "$run/run.env"
	for f in vmcore.dmesg qemu-dump/qemu-vmcore.dmesg; do
		[ -f "$run/$f" ] || continue
		section "the kernel's log, read from ${f%.dmesg}"
		klog "$run/$f"
	done
	section "console.log (with kdump the oops never reaches the console)"
	klog "$run/console.log"

	for d in vmcore qemu-vmcore; do
		[ -f "$run/$d" ] || continue
		section "crash on $d"
		CRASH_ARGS="-s -i $LAB_ROOT/crash-scripts/postmortem.crash" CRASH_TIMEOUT=300 \
			"$LAB_ROOT/vm/crash-open.sh" "$run/$d" </dev/null 2>&1 | tee -a "$rep.crash" |
			awk '/^ *#[0-9]+ / { k = $0; sub(/^ *#[0-9]+ +/, "", k); sub(/\[[0-9a-f]+\] /, "", k);
				if (k == last) { n++; next } if (n) print "      ... the frame above " n " more times"; n = 0; last = k }
				{ print } END { if (n) print "      ... the frame above " n " more times" }'
	done

	if [ -f "$run/vmcore.elf" ]; then
		section "gdb on vmcore.elf"
		set -- -q -batch -nx "$run/vmlinux" "$run/vmcore.elf"
		# Where each module's .text is: from the guest, or crash's mod list.
		for ko in "$run"/*.ko; do
			[ -f "$ko" ] || continue
			m=$(basename "$ko" .ko | tr - _)
			at=$text
			[ "$m" = lkdtm_ext ] && [ -n "$at" ] ||
				at=$(sed -n "s/^[0-9a-f]\{16\}  *$m  *\([0-9a-f]\{16\}\) .*/0x\1/p" "$rep.crash" | head -1)
			[ -n "$at" ] && set -- "$@" -ex "add-symbol-file $ko -s .text $at"
		done
		timeout 300 gdb "$@" -x "$LAB_ROOT/gdb-scripts/stackov.py" -ex lab-panic 2>&1 |
			sed -n '/^panic cpu:/,$p'
	fi

	if [ -f "$run/vmcore" ]; then
		section "drgn on vmcore"
		timeout 300 /usr/bin/python3 "$LAB_ROOT/drgn-scripts/postmortem.py" \
			"$run/vmcore" "$run/vmlinux" "$run"/*.ko 2>&1
	fi
} >"$rep"

echo
echo "== post-mortem of $(basename "$run") =="
for f in "$run/vmcore.dmesg" "$run/console.log"; do
	[ -f "$f" ] || continue
	line=$(kernel_log "$f" | grep -m1 -E 'BUG: .*guard page|Kernel panic|stack-protector|kernel BUG' || true)
	[ -n "$line" ] && { echo "kernel log (${f##*/}): $line"; break; }
done
grep -m1 'PID:.*COMMAND:' "$rep" | sed 's/^/crash: /' || true
grep -m1 '^crashed thread:' "$rep" | sed 's/^/drgn: /' || true
echo "backtrace recovered by drgn from the kdump vmcore:"
sed -n '/^===== drgn on vmcore/,$p' "$rep" | sed -n '/^stack trace/,$p' | sed 1d | head -12
rm -f "$rep.crash"
echo "full report (crash on both dumps, gdb, drgn): $rep"
