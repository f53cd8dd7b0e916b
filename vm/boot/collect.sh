#!/bin/sh
# vm/boot/collect.sh BOOT_DIR - after a dump boot: turn what the capture
# kernel wrote on the raw disks (makedumpfile's flattened format) into
# BOOT_DIR/vmcore (kdump-compressed) and BOOT_DIR/vmcore.elf, or QEMU's
# flattened dump into BOOT_DIR/qemu-vmcore, and put the exact vmlinux and
# module next to them. Only a dump the boot's outcome says was finished
# ("captured" in run.json, vm/boot/classify.sh's word) is collected; each
# dump gets its entry in the run record (RUN_RECORD, default BOOT_DIR):
# its path, size and CRC as written, the structural check's result
# (vm/read/vmcore-check.c), the kernel's log read from it, or the reason
# it is missing. Status 1 when a captured dump could not be collected.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

boot=${1:?usage: collect.sh BOOT_DIR}
rec=${RUN_RECORD:-$boot}
rec_has "$rec" || die "$rec has no run record (run.json)"
name=${BOOT_NAME:-$(rec_get "$rec" '.boots[-1].name')}
captured=" $(rec_get "$rec" '.boots[] | select(.name == $b) | .captured // [] | join(" ")' --arg b "$name") "
vmlinux=$(rec_get "$rec" .kernel.vmlinux)
module=$(rec_get "$rec" .kernel.module)
rel=''
[ "$rec" = "$boot" ] || rel=${boot#"$rec"/}/
check=$("$LAB_ROOT/vm/builders/host-tools.sh" vmcore-check)

log=$boot/collect.log
: >"$log"
q=$boot/qemu-vmcore
remove_on_exit "$q.tmp"
# note WHAT: a heading in collect.log, so each step's messages stay apart.
note() { printf '== %s\n' "$*" >>"$log"; }

# full: " (FS is full: N KiB free)" when the run's filesystem has no room
# left, the likeliest cause of a write that failed.
full() {
	# shellcheck disable=SC2046 # two words
	set -- $(df -Pk "$boot" | awk 'NR == 2 { print $4, $6 }')
	[ "${1:-1024}" -lt 1024 ] && echo " ($2 is full: $1 KiB free)"
	true
}
# missing DUMP WHY: the record says DUMP is not there, and why.
missing() {
	rec_dump_set "$rec" "$1" '. + {boot: $b, path: $p, captured: false, reason: $why}' \
		--arg b "$name" --arg p "$rel$1" --arg why "$2"
}
was_captured() { case $captured in *" $1 "*) return 0 ;; esac; return 1; }

status=0
for d in "kdump vmcore vda kdump" "kdump-elf vmcore.elf vdb elf"; do
	# shellcheck disable=SC2086 # four words
	set -- $d
	disk=$boot/$1.disk out=$boot/$2
	[ -f "$disk" ] || continue
	note "makedumpfile -R: ${disk##*/} -> ${out##*/}"
	remove_on_exit "$out.tmp"
	if ! was_captured "$2"; then
		why="the boot did not finish writing it ($(rec_get "$rec" '.boots[] | select(.name == $b) | .outcome' --arg b "$name"): $(run_reason "$rec" "$name"))"
		say "no $2: $why"
		missing "$2" "$why"
	elif [ "$(head -c 12 "$disk")" != makedumpfile ]; then
		say "no $2 on $(basename "$disk"): the capture kernel did not write one"
		missing "$2" "no makedumpfile stream on $(basename "$disk")"
		status=1
	# Written to a temporary name first, so a cut one never passes for a dump.
	elif makedumpfile -R "$out.tmp" <"$disk" >>"$log" 2>&1 && mv "$out.tmp" "$out"; then
		rec_dump_set "$rec" "$2" '. + {boot: $b, path: $p, format: $f, captured: true}' \
			--arg b "$name" --arg p "$rel$2" --arg f "$4"
		say "$2: $(du -m "$out" | cut -f1) MiB"
	else
		why="makedumpfile -R failed$(full): $(grep -m1 -iE 'no space|error|fail|can.t' "$log" | cut -c1-120)"
		rm -f "$out.tmp"
		say "$why"
		missing "$2" "$why"
		status=1
	fi
	rm -f "$disk"
done
# QEMU's dumps: whole only if its dump helper saw them complete.
for f in qemu-vmcore qemu-vmcore.elf; do
	{ [ -e "$boot/$f" ] || was_captured "$f"; } || continue
	if ! was_captured "$f"; then
		rm -f "$boot/$f"
		missing "$f" "QEMU did not finish writing it ($(run_reason "$rec" "$name"))"
		continue
	fi
	fmt=kdump
	[ "$f" = qemu-vmcore.elf ] && fmt=elf
	# QEMU writes its kdump format flattened too (it can stream to a pipe).
	if [ "$fmt" = kdump ] && [ "$(head -c 12 "$q")" = makedumpfile ]; then
		note "makedumpfile -R: qemu-vmcore"
		if makedumpfile -R "$q.tmp" <"$q" >>"$log" 2>&1; then
			mv "$q.tmp" "$q"
		else
			why="makedumpfile -R failed for the QEMU dump$(full)"
			rm -f "$q.tmp" "$q"
			say "$why; see $boot/collect.log"
			missing "$f" "$why"
			status=1
			continue
		fi
	fi
	rec_dump_set "$rec" "$f" '. + {boot: $b, path: $p, format: $f, captured: true}' \
		--arg b "$name" --arg p "$rel$f" --arg f "$fmt"
	say "$f: $(du -m "$boot/$f" | cut -f1) MiB"
done
# The exact vmlinux (a hard link survives a rebuild of the cache) and module
# (crash reads the log with them when makedumpfile cannot).
if [ -f "$vmlinux" ]; then
	ln -f "$vmlinux" "$boot/vmlinux" 2>/dev/null || cp "$vmlinux" "$boot/vmlinux"
fi
[ -f "$module" ] && cp "$module" "$boot/lkdtm_ext.ko"
# The compiler's frame sizes of the module (-fstack-usage), for the tests.
cat "$(dirname "$module")"/src/*.su >"$boot/frames.su" 2>/dev/null || rm -f "$boot/frames.su"
# The crashed kernel's log, from the dump: with kdump the console never
# shows the oops (printk from the double-fault handler is deferred, and
# crash_kexec runs before anything flushes it).
for f in "$boot/vmcore" "$q"; do
	[ -f "$f" ] || continue
	note "makedumpfile --dump-dmesg: ${f##*/}"
	if ! makedumpfile --dump-dmesg "$f" "$f.dmesg" >>"$log" 2>&1; then
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
	fi
	[ -f "$f.dmesg" ] && rec_dump_set "$rec" "${f##*/}" '.dmesg = $d' --arg d "$rel${f##*/}.dmesg"
done
# Each dump's size and CRC (cksum) as written, and the structural check,
# so a later truncation or change is named as such.
for f in vmcore vmcore.elf qemu-vmcore qemu-vmcore.elf; do
	[ -f "$boot/$f" ] || continue
	w=$("$check" "$boot/$f" 2>&1) && w=whole
	rec_dump_set "$rec" "$f" '. + {size: ($s | tonumber), cksum: ($c | tonumber), check: $w}' \
		--arg s "$(stat -c %s "$boot/$f")" --arg c "$(cksum <"$boot/$f" | cut -d' ' -f1)" \
		--arg w "${w#"$boot/$f": }"
done

exit $status
