#!/bin/sh
# vm/boot/collect.sh RUN_DIR - after a dump run: turn what the capture kernel
# wrote on the raw disks (makedumpfile's flattened format) into
# RUN_DIR/vmcore (kdump-compressed) and RUN_DIR/vmcore.elf, and put the
# exact vmlinux and module next to them.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

run=${1:?usage: collect.sh RUN_DIR}
[ -f "$run/run.env" ] || die "$run is not a run directory"
vmlinux=$(run_env "$run" vmlinux)
module=$(run_env "$run" module)

log=$run/collect.log
: >"$log"
q=$run/qemu-vmcore
remove_on_exit "$q.tmp"
# note WHAT: a heading in collect.log, so each step's messages stay apart.
note() { printf '== %s\n' "$*" >>"$log"; }

# full: " (FS is full: N KiB free)" when the run's filesystem has no room
# left, the likeliest cause of a write that failed.
full() {
	# shellcheck disable=SC2046 # two words
	set -- $(df -Pk "$run" | awk 'NR == 2 { print $4, $6 }')
	[ "${1:-1024}" -lt 1024 ] && echo " ($2 is full: $1 KiB free)"
	true
}

status=0
for d in "kdump vmcore vda" "kdump-elf vmcore.elf vdb"; do
	# shellcheck disable=SC2086 # three words
	set -- $d
	disk=$run/$1.disk out=$run/$2
	[ -f "$disk" ] || continue
	note "makedumpfile -R: ${disk##*/} -> ${out##*/}"
	# Only a copy the capture kernel finished is whole; written to a
	# temporary name first, so a cut one never passes for a dump.
	remove_on_exit "$out.tmp"
	if ! tr -d '\r' <"$run/console.log" | grep -q "^lab: capture: makedumpfile .* to /dev/$3 done"; then
		say "no $2: the capture kernel did not finish writing it (no \"to /dev/$3 done\" on the console)"
		status=1
	elif [ "$(head -c 12 "$disk")" != makedumpfile ]; then
		say "no $2 on $(basename "$disk"): the capture kernel did not write one"
		status=1
	elif makedumpfile -R "$out.tmp" <"$disk" >>"$log" 2>&1 && mv "$out.tmp" "$out"; then
		say "$2: $(du -m "$out" | cut -f1) MiB"
	else
		why="$(full): $(grep -m1 -iE 'no space|error|fail|can.t' "$log" | cut -c1-120)"
		rm -f "$out.tmp"
		say "makedumpfile -R failed for $2$why"
		status=1
	fi
	rm -f "$disk"
done
# QEMU writes its kdump formats flattened too (it can stream to a pipe).
if [ -f "$q" ] && [ "$(head -c 12 "$q")" = makedumpfile ]; then
	note "makedumpfile -R: qemu-vmcore"
	if makedumpfile -R "$q.tmp" <"$q" >>"$log" 2>&1; then
		mv "$q.tmp" "$q"
	else
		why=$(full)
		rm -f "$q.tmp" "$q"
		say "makedumpfile -R failed for the QEMU dump$why; see $run/collect.log"
		status=1
	fi
fi
[ -f "$q" ] && say "qemu-vmcore: $(du -m "$q" | cut -f1) MiB"
# The exact vmlinux (a hard link survives a rebuild of the cache) and module
# (crash reads the log with them when makedumpfile cannot).
if [ -f "$vmlinux" ]; then
	ln -f "$vmlinux" "$run/vmlinux" 2>/dev/null || cp "$vmlinux" "$run/vmlinux"
fi
[ -f "$module" ] && cp "$module" "$run/lkdtm_ext.ko"
# The crashed kernel's log, from the dump: with kdump the console never
# shows the oops (printk from the double-fault handler is deferred, and
# crash_kexec runs before anything flushes it).
for f in "$run/vmcore" "$q"; do
	[ -f "$f" ] || continue
	note "makedumpfile --dump-dmesg: ${f##*/}"
	makedumpfile --dump-dmesg "$f" "$f.dmesg" >>"$log" 2>&1 && continue
	# makedumpfile 1.7.2 cannot find a KASLR kernel's page tables in
	# QEMU's dumps; crash's log command reads them.
	note "crash's log: ${f##*/}"
	printf 'log\nq\n' >"$f.log-cmd"
	if CRASH_ARGS="-s -i $f.log-cmd" "$LAB_ROOT/vm/read/crash-open.sh" "$f" 2>>"$log" |
		grep '^\[' >"$f.dmesg" && grep -q 'Linux version' "$f.dmesg"; then
		note "read with crash"
	else
		rm -f "$f.dmesg"
		say "could not read the kernel log from $(basename "$f")"
	fi
	rm -f "$f.log-cmd"
done
# Each dump's size and CRC (cksum) as written, so a later truncation or
# change is named as such.
[ -f "$q.elf" ] && say "qemu-vmcore.elf: $(du -m "$q.elf" | cut -f1) MiB"
for f in "$run/vmcore" "$run/vmcore.elf" "$q" "$q.elf"; do
	[ -f "$f" ] || continue
	stat -c %s "$f" >"$f.size"
	cksum <"$f" | cut -d' ' -f1 >"$f.cksum"
done

exit $status
