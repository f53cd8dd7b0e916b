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

status=0
for d in "kdump vmcore" "kdump-elf vmcore.elf"; do
	disk=$run/${d% *}.disk out=$run/${d#* }
	[ -f "$disk" ] || continue
	note "makedumpfile -R: ${disk##*/} -> ${out##*/}"
	if [ "$(head -c 12 "$disk")" = makedumpfile ]; then
		if makedumpfile -R "$out" <"$disk" >>"$log" 2>&1; then
			say "$(basename "$out"): $(du -m "$out" | cut -f1) MiB"
		else
			say "makedumpfile -R failed for $disk; see $run/collect.log"
			status=1
		fi
	else
		say "no dump on $(basename "$disk"): the capture kernel did not write one"
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
		say "makedumpfile -R failed for the QEMU dump; see $run/collect.log"
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
# Each dump's size as written, so a later truncation is named as such.
[ -f "$q.elf" ] && say "qemu-vmcore.elf: $(du -m "$q.elf" | cut -f1) MiB"
for f in "$run/vmcore" "$run/vmcore.elf" "$q" "$q.elf"; do
	[ -f "$f" ] && stat -c %s "$f" >"$f.size"
done

exit $status
