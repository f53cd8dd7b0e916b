#!/bin/sh
# vm/boot/qemu.sh - the one place that boots the lab guest. Every boot of the lab,
# the accelerator probe included, goes through here. Settings, from the
# environment (the Makefile passes them through):
#   KERNEL, LINUX         the kernel (vm/kernels/KERNEL-LINUX.sh; lab-6.1)
#   VARIANT=vmap|novmap|orc  its variant (the description's first)
#   SCENARIO=NAME[,NAME]  scenarios for the guest init (lab.scenario=)
#   LAB_MODE=run|shell|idle|probe|selftest   guest init mode (run)
#   APPEND="..."          extra kernel command-line arguments
#   ACCEL=auto|kvm|tcg    accelerator; auto runs the probe (vm/boot/accel.sh)
#   ICOUNT=N              TCG with -icount shift=N: guest time follows the
#                         instructions executed, so guest timings repeat
#   VM_TIMEOUT=seconds    hard limit on the run (300; 3600 interactive)
#   GDB=1 [GDB_WAIT=1]    gdbstub on 127.0.0.1 (port in RUN_DIR/gdb.port),
#                         optionally holding the CPUs until gdb attaches
#   INTERACTIVE=1         serial console on this terminal (Ctrl-A x quits)
#   LAB_SHOW=1            copy the console to stderr live
#   KDUMP=1               arm kdump in the guest (crashkernel=CRASHKERNEL,
#                         oops=panic); the capture kernel writes the dump to
#                         raw virtio disks, vm/boot/collect.sh makes RUN_DIR/vmcore
#   QEMU_DUMP=1           instead, on a guest panic (pvpanic) QEMU pauses
#                         and its monitor writes RUN_DIR/qemu-vmcore
#   RUN_DIR=dir           use this run directory instead of a new one
#   RUN_RECORD=dir        the run whose run.json gets this boot (RUN_DIR;
#                         vm/demo.sh's second boot is in RUN/qemu-dump)
#   BOOT_NAME=name        the boot's name there (kdump, qemu-dump, or boot)
#   LAB_LATEST=0          do not point out/latest at the new run directory
#   INITRD=file           another initramfs (vm/builders/user-module.sh makes one)
# The run directory gets console.log, qemu.cmd and qemu.log; the run's
# record (run.json, vm/record.sh) gets the boot: its settings as it
# starts, then its outcome and reason from vm/boot/classify.sh (kdump,
# capture-failed, panic, poweroff, triple-fault, reset, timeout, error).
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

VARIANT=${VARIANT:-$DEFAULT_VARIANT}
check_variant "$VARIANT"
LAB_MODE=${LAB_MODE:-run}
INTERACTIVE=${INTERACTIVE:-0}
GDB=${GDB:-0}
GDB_WAIT=${GDB_WAIT:-0}
LAB_SHOW=${LAB_SHOW:-0}
LAB_MEM=${LAB_MEM:-1G}
LAB_SMP=${LAB_SMP:-2}
KDUMP=${KDUMP:-0}
QEMU_DUMP=${QEMU_DUMP:-0}
# The smallest reservation that works with 1G of guest RAM is
# make bench-crashkernel's (bench/README.md): below it the capture kernel
# runs out of memory. A description may ask for more (KERNEL_CRASHKERNEL).
CRASHKERNEL=${CRASHKERNEL:-${KERNEL_CRASHKERNEL:-64M}}
if [ "$INTERACTIVE" = 1 ]; then
	VM_TIMEOUT=${VM_TIMEOUT:-3600}
else
	VM_TIMEOUT=${VM_TIMEOUT:-300}
fi
case $VM_TIMEOUT in
'' | *[!0-9]*) die "VM_TIMEOUT must be a number of seconds, not '$VM_TIMEOUT'" ;;
esac
case $LAB_MODE in
run | shell | idle | probe | selftest) ;;
*) die "unknown LAB_MODE '$LAB_MODE' (valid: run shell idle probe selftest)" ;;
esac
case ${SCENARIO:-} in
*[!A-Za-z0-9_,]*) die "SCENARIO '$SCENARIO' is not a scenario name (see make list)" ;;
esac

check_series_args "${APPEND:-}"

kernel=$(kernel_image "$VARIANT")
initrd=${INITRD:-$(initramfs_image "$VARIANT")}
[ -f "$kernel" ] || die "no kernel for $VARIANT: $kernel (make kernel VARIANT=$VARIANT)"
[ -f "$initrd" ] || die "no initramfs for $VARIANT: $initrd (make initramfs VARIANT=$VARIANT)"
# A build writes lab-key last: without it the tree is half-built (an
# interrupted build), its bzImage and vmlinux perhaps from two builds.
[ -f "$(kbuild_dir "$VARIANT")/lab-key" ] ||
	die "kernel $VARIANT is half-built (its build did not finish): make kernel VARIANT=$VARIANT finishes it"

accel=$(ACCEL=${ACCEL:-auto} VARIANT=$VARIANT "$LAB_ROOT/vm/boot/accel.sh")
case $accel in
kvm | tcg) ;;
*) die "accelerator probe gave '$accel'" ;;
esac

# A unique run directory, or the caller's (which then knows where the run
# is without reading out/latest); out/latest points at the newest one.
new=0
[ -n "${RUN_DIR:-}" ] || new=1
RUN_DIR=$(run_dir "$(echo "${SCENARIO:-$LAB_MODE}" | tr , +)" "$VARIANT")
[ ! -e "$RUN_DIR/console.log" ] || die "$RUN_DIR already holds a run"

# A run that takes a dump needs room for it: kdump's two formats (and,
# while they are copied, the raw disks they come from), or QEMU's ELF
# dump, as big as the guest's memory. Refused before the boot, in one line.
need=0
[ "$KDUMP" = 1 ] && need=256
if [ "$QEMU_DUMP" = 1 ]; then
	mem=$(echo "$LAB_MEM" | sed 's/[Gg]$/*1024/; s/[Mm]$//' | bc)
	need=$((mem + 64))
fi
need=${LAB_MIN_FREE_MB:-$need}
if [ "$need" -gt 0 ]; then
	# shellcheck disable=SC2046 # two words
	set -- $(df -Pm "$RUN_DIR" | awk 'NR == 2 { print $4, $6 }')
	if [ "$1" -lt "$need" ]; then
		[ "$new" = 1 ] && rmdir "$RUN_DIR"
		die "$RUN_DIR: only $1 MiB free on $2; a run with a dump needs about $need MiB (LAB_MIN_FREE_MB)"
	fi
fi
[ "$new" = 1 ] && [ "${LAB_LATEST:-1}" = 1 ] && set_latest "$RUN_DIR"

free_port() {
	p=$((20000 + $$ % 20000))
	while [ -n "$(ss -Hltn "sport = :$p")" ]; do
		p=$((p + 1))
	done
	echo "$p"
}

kcmd=$(kernel_cmdline "$VARIANT")
# A live gdb reads vmlinux's addresses as they are: a randomising kernel
# boots without KASLR under the gdbstub, as the kernel's gdb documentation
# advises (Documentation/dev-tools/gdb-kernel-debugging.rst). A dump gets
# no such help: its readers take the offset from its vmcoreinfo.
if [ "$GDB" = 1 ]; then
	case " $kcmd " in *" nokaslr "*) ;; *) kcmd="${kcmd:+$kcmd }nokaslr" ;; esac
fi
cmdline="console=ttyS0,115200${kcmd:+ $kcmd} no_hash_pointers panic=-1 lab.mode=$LAB_MODE"
[ -n "${SCENARIO:-}" ] && cmdline="$cmdline lab.scenario=$SCENARIO"
[ "$KDUMP" = 1 ] && cmdline="$cmdline crashkernel=$CRASHKERNEL oops=panic lab.kdump=1"
[ "$QEMU_DUMP" = 1 ] && cmdline="$cmdline oops=panic"
[ -n "${APPEND:-}" ] && cmdline="$cmdline $APPEND"

set -- -nodefaults -no-user-config -display none -no-reboot \
	-machine q35 -m "$LAB_MEM" -smp "$LAB_SMP" \
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
	-device vmcoreinfo -device pvpanic \
	-monitor "unix:$RUN_DIR/monitor.sock,server=on,wait=off" \
	-qmp "unix:$RUN_DIR/qmp.sock,server=on,wait=off"
if [ "$QEMU_DUMP" = 1 ]; then
	set -- "$@" -action panic=pause
else
	set -- "$@" -action panic=none
fi
if [ "$KDUMP" = 1 ]; then
	# The dumps leave the guest on two raw disks (vda, vdb); the capture
	# kernel, this same bzImage and initramfs, comes in on a third (vdc).
	for disk in kdump kdump-elf; do
		truncate -s "$LAB_MEM" "$RUN_DIR/$disk.disk"
		truncate -s +64M "$RUN_DIR/$disk.disk"
		# A write that fails (a full disk) fails in the guest, whose
		# makedumpfile says so, instead of pausing the VM (werror=enospc).
		set -- "$@" -drive "file=$RUN_DIR/$disk.disk,format=raw,if=virtio,werror=report,rerror=report"
	done
	capdisk=$("$LAB_ROOT/vm/boot/capture-disk.sh" "$VARIANT")
	set -- "$@" -drive "file=$capdisk,format=raw,if=virtio,readonly=on"
fi
if [ "$INTERACTIVE" = 1 ]; then
	set -- "$@" -chardev "stdio,id=con,mux=on,signal=off,logfile=$RUN_DIR/console.log" \
		-serial chardev:con -mon chardev=con,mode=readline
else
	set -- "$@" -chardev "file,id=con,path=$RUN_DIR/console.log" -serial chardev:con
fi
if [ "$GDB" = 1 ]; then
	port=$(free_port)
	echo "$port" >"$RUN_DIR/gdb.port"
	set -- "$@" -gdb "tcp:127.0.0.1:$port"
	held=''
	if [ "$GDB_WAIT" = 1 ]; then
		set -- "$@" -S
		held=' (CPUs held until gdb continues)'
	fi
	say "gdbstub on 127.0.0.1:$port$held"
fi
if [ "$accel" = kvm ]; then
	set -- -accel kvm -cpu host "$@"
else
	# TCG logs a triple fault (a reset with no message) to this file.
	# ICOUNT=N: guest time follows the instructions executed (2^N ns
	# each), one host thread for all CPUs: a guest's timings repeat.
	tcg="-accel tcg,thread=multi"
	case ${ICOUNT:-} in
	'') ;;
	*[!0-9]*) die "ICOUNT must be a shift (0..10), not '$ICOUNT'" ;;
	*) tcg="-accel tcg,thread=single -icount shift=$ICOUNT,sleep=off" ;;
	esac
	# shellcheck disable=SC2086
	set -- $tcg -d cpu_reset -D "$RUN_DIR/qemu-debug.log" "$@"
fi

# The run's record: every later step (collect, report, tests) reads what
# it needs of the run from there. The run's own facts, once; this boot's
# settings, its outcome "running" until QEMU is gone.
RUN_RECORD=${RUN_RECORD:-$RUN_DIR}
boot_name=${BOOT_NAME:-boot}
[ "$KDUMP" = 1 ] && boot_name=${BOOT_NAME:-kdump}
[ "$QEMU_DUMP" = 1 ] && boot_name=${BOOT_NAME:-qemu-dump}
boot_dir=.
[ "$RUN_RECORD" = "$RUN_DIR" ] || boot_dir=${RUN_DIR#"$RUN_RECORD"/}
if ! rec_has "$RUN_RECORD"; then
	rec_set "$RUN_RECORD" '{schema: 1, run: $run, dir: $dir, accel: $accel,
		kernel: {description: $desc, variant: $variant, image: $image, image_sha256: $isha,
			vmlinux: $vmlinux, initrd: $initrd, initrd_sha256: $rsha, "module": $mod},
		scenario: (if $scenario == "" then null else $scenario end),
		boots: [], dumps: [], timings: {}}' \
		--arg run "$(basename "$RUN_RECORD")" --arg dir "$RUN_RECORD" \
		--arg accel "$accel${ICOUNT:+ icount shift=$ICOUNT}" --arg desc "$LAB_KERNEL" --arg variant "$VARIANT" \
		--arg image "$kernel" --arg isha "$(sha256sum "$kernel" | cut -d' ' -f1)" \
		--arg vmlinux "$(kernel_vmlinux "$VARIANT")" --arg initrd "$initrd" \
		--arg rsha "$(sha256sum "$initrd" | cut -d' ' -f1)" \
		--arg mod "$(module_dir "$VARIANT")/lkdtm_ext.ko" --arg scenario "${SCENARIO:-}" ||
		die "cannot write the run record in $RUN_RECORD"
fi
rec_boot_set "$RUN_RECORD" "$boot_name" '. + {dir: $bdir, mode: $mode, cmdline: $cmdline,
	kdump: ($kdump == "1"), qemu_dump: ($qdump == "1"), memory: $mem, cpus: ($smp | tonumber),
	timeout_s: ($timeout | tonumber), outcome: "running"}' \
	--arg bdir "$boot_dir" --arg mode "$LAB_MODE" --arg cmdline "$cmdline" --arg kdump "$KDUMP" \
	--arg qdump "$QEMU_DUMP" --arg mem "$LAB_MEM" --arg smp "$LAB_SMP" --arg timeout "$VM_TIMEOUT" || die "cannot write the run record in $RUN_RECORD"
printf '%s\n' qemu-system-x86_64 "$@" >"$RUN_DIR/qemu.cmd"
: >"$RUN_DIR/console.log"
say "run $RUN_DIR: $VARIANT kernel, $accel, timeout ${VM_TIMEOUT}s"

# A run interrupted (Ctrl-C, a test's timeout) takes its processes along:
# background jobs of a script do not get the terminal's SIGINT.
tailpid='' qpid='' dpid=''
stop_children() {
	for p in $qpid $dpid $tailpid; do
		kill "$p" 2>/dev/null || true
	done
}
trap 'stop_children' EXIT
trap 'stop_children; trap - EXIT; exit 130' INT TERM HUP
# Builds wait while a guest runs from the cache (vm/lib.sh: lab_lock).
lab_lock shared "a guest is running"

if [ "$LAB_SHOW" = 1 ] && [ "$INTERACTIVE" != 1 ]; then
	tail -n +1 -f "$RUN_DIR/console.log" >&2 &
	tailpid=$!
fi
start=$(date +%s.%N)
rc=0
if [ "$INTERACTIVE" = 1 ]; then
	timeout --foreground -k 5 "$VM_TIMEOUT" qemu-system-x86_64 "$@" \
		2>"$RUN_DIR/qemu.log" || rc=$?
else
	timeout -k 5 "$VM_TIMEOUT" qemu-system-x86_64 "$@" \
		</dev/null >"$RUN_DIR/qemu.log" 2>&1 &
	qpid=$!
	if [ "$QEMU_DUMP" = 1 ]; then
		"$LAB_ROOT/vm/boot/qemu-dump.sh" "$RUN_DIR" "$qpid" &
		dpid=$!
	fi
	wait "$qpid" || rc=$?
	[ -n "$dpid" ] && { wait "$dpid" || true; }
fi
end=$(date +%s.%N)
qpid='' dpid=''
if [ -n "$tailpid" ]; then
	sleep 0.2
	kill "$tailpid" 2>/dev/null || true
	tailpid=''
fi

# How the boot ended, and why: vm/boot/classify.sh decides, from QEMU's
# status and logs and the console; the record keeps it.
wall=$(echo "$end - $start" | bc)
"$LAB_ROOT/vm/boot/classify.sh" "$RUN_DIR" "$rc" "$wall" "$VM_TIMEOUT" "$KDUMP" "$QEMU_DUMP" \
	>"$RUN_DIR/classify.out" || die "the boot's outcome could not be classified"
cval() { sed -n "s/^$1=//p" "$RUN_DIR/classify.out" | head -1; }
result=$(cval outcome)
why=$(cval reason)
rec_boot_set "$RUN_RECORD" "$boot_name" '. + {outcome: $o, reason: $r, qemu_rc: ($rc | tonumber),
	started_at: ($t0 | tonumber), ended_at: ($t1 | tonumber), wall_s: ($wall | tonumber),
	captured: ($cap | split(" ") | map(select(. != ""))),
	module_text: (if $text == "" then null else $text end),
	usermod: (if $um == "" then null else {state: $um, error: $uerr, kernel: $ukern} end),
	kdump_error: (if $kerr == "" then null else $kerr end)}' \
	--arg o "$result" --arg r "$why" --arg rc "$rc" --arg wall "$wall" \
	--arg t0 "$start" --arg t1 "$end" --arg cap "$(cval captured)" --arg text "$(cval module_text)" \
	--arg um "$(cval usermod)" --arg uerr "$(cval usermod_error)" --arg ukern "$(cval usermod_kernel)" \
	--arg kerr "$(cval kdump_error)" ||
	die "cannot write the boot's outcome into $RUN_RECORD/run.json"
rm -f "$RUN_DIR/classify.out"
if [ "$KDUMP" = 1 ] || [ "$QEMU_DUMP" = 1 ]; then
	# What the outcome says is whole is collected, and the record says
	# what became of each dump; a collection that failed is said there
	# and by collect.sh, and the outcome stays the guest's.
	RUN_RECORD=$RUN_RECORD BOOT_NAME=$boot_name "$LAB_ROOT/vm/boot/collect.sh" "$RUN_DIR" ||
		say "not every dump of this boot was collected (run.json says which, and why)"
fi
case $result in
triple-fault | reset)
	say "the guest reset itself ($result) with no panic on the console" ;;
timeout)
	say "run timed out: $why; console: $RUN_DIR/console.log"
	exit 1 ;;
error)
	[ -s "$RUN_DIR/qemu.log" ] && sed 's/^/  qemu: /' "$RUN_DIR/qemu.log" >&2
	say "run error: $why; console: $RUN_DIR/console.log"
	exit 1 ;;
esac
say "guest ended by $result after $(echo "$wall" | cut -c1-5) s; console: $RUN_DIR/console.log"
