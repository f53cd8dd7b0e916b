#!/bin/sh
# vm/postmortem.sh - make postmortem VMCORE=path [VMLINUX=path] [MODULES=dir]
# [LOG=path]: the post-mortem of a dump that no lab run made (a kdump-tools
# dump.STAMP, a virsh or QEMU ELF dump), by the same readers and report as
# a run's (vm/read/report.sh), in a run directory of its own, out/STAMP-
# postmortem-RELEASE-XXXX, whose run.json says where each input came from.
#
# The dump is checked before anything reads it (vm/read/vmcore-check.c):
# its structure, makedumpfile's own mark of an incomplete dump, and that
# VMLINUX is the kernel that wrote it (build ids). A dump that fails gets
# one line and status 1, as does a missing or wrong vmlinux: that line
# names the build id to look for and, for a Debian kernel, the package
# that holds it (linux-image-RELEASE-dbg), from the dump's own
# VMCOREINFO and init_uts_ns.
#
# Defaults, as Debian lays a system out:
#   VMLINUX  /usr/lib/debug/boot/vmlinux-RELEASE (linux-image-RELEASE-dbg)
#   MODULES  the -dbg tree beside VMLINUX: .../usr/lib/debug/lib/modules/RELEASE
#   LOG      kdump-tools' dmesg.STAMP beside dump.STAMP, else the log read
#            from the dump (makedumpfile --dump-dmesg, else drgn's get_dmesg)
# Of the modules, those the log names ("Modules linked in:") are linked
# into the run directory (a .ko.xz unpacked), where every reader loads them.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/lib.sh"

usage="usage: make postmortem VMCORE=path [VMLINUX=path] [MODULES=dir] [LOG=path]"
[ -n "${VMCORE:-}" ] || die "no VMCORE given; $usage"
[ -f "$VMCORE" ] || die "VMCORE=$VMCORE: no such file"
[ -r "$VMCORE" ] || die "VMCORE=$VMCORE: not readable by $(id -un)"
abs() { echo "$(CDPATH='' cd -- "$(dirname -- "$1")" && pwd)/$(basename -- "$1")"; }
VMCORE=$(abs "$VMCORE")

check=$("$LAB_ROOT/vm/builders/host-tools.sh" vmcore-check) || die "vmcore-check does not build"
# Whole? (structure, size, makedumpfile's incomplete mark): its one line.
why=$("$check" "$VMCORE") || die "$why"
ident=$("$check" -i "$VMCORE") || die "$ident"
field() { printf '%s\n' "$ident" | sed -n "s/^$1=//p"; }
format=$(field format) build_id=$(field build_id) release=$(field release) version=$(field version)
[ -n "$release" ] || die "$VMCORE has no VMCOREINFO with OSRELEASE: nothing in it says which kernel wrote it"

# Where this kernel's vmlinux is, for the one line that asks for it.
pkg=''
case $release in
*-amd64) pkg="linux-image-$release-dbg" ;;
esac
want="the kernel that wrote it is $release${build_id:+, build id $build_id}"
if [ -n "$pkg" ]; then
	want="$want; Debian ships its vmlinux in $pkg, as /usr/lib/debug/boot/vmlinux-$release"
else
	want="$want; its vmlinux is the one with that build id (readelf -n VMLINUX)"
fi
vfrom="VMLINUX="
if [ -z "${VMLINUX:-}" ]; then
	VMLINUX=/usr/lib/debug/boot/vmlinux-$release
	vfrom="found at $VMLINUX"
	[ -f "$VMLINUX" ] || die "no VMLINUX given, and none at $VMLINUX: $want"
fi
[ -f "$VMLINUX" ] || die "VMLINUX=$VMLINUX: no such file; $want"
VMLINUX=$(abs "$VMLINUX")
why=$("$check" "$VMCORE" "$VMLINUX") || die "$why; $want"

# The modules' debug files: MODULES=, else the -dbg tree beside VMLINUX.
mfrom="MODULES="
if [ -z "${MODULES:-}" ]; then
	mfrom="the -dbg tree beside VMLINUX"
	case $VMLINUX in
	*/usr/lib/debug/boot/*) MODULES=${VMLINUX%/boot/*}/lib/modules/$release ;;
	esac
	[ -d "${MODULES:-/nonexistent}" ] || { MODULES='' mfrom=''; }
fi
[ -z "$MODULES" ] || [ -d "$MODULES" ] || die "MODULES=$MODULES: no such directory"
[ -z "$MODULES" ] || MODULES=$(abs "$MODULES")

# The kernel's log: LOG=, kdump-tools' dmesg.STAMP beside dump.STAMP,
# else the dump's own (makedumpfile reads it through VMCOREINFO).
lfrom="LOG="
if [ -n "${LOG:-}" ]; then
	[ -f "$LOG" ] || die "LOG=$LOG: no such file"
	LOG=$(abs "$LOG")
else
	case ${VMCORE##*/} in
	dump.[0-9]*) LOG=$(dirname "$VMCORE")/dmesg.${VMCORE##*/dump.} lfrom="kdump-tools' dmesg beside the dump" ;;
	esac
	[ -f "${LOG:-/nonexistent}" ] || LOG=''
fi

run=$(new_run_dir postmortem "$release")
say "post-mortem of $VMCORE ($format, $release) in $run"
ln -s "$VMCORE" "$run/vmcore"
# One file, every reader: crash and drgn read either format, gdb ELF only.
[ "$format" = elf ] && ln -s "$VMCORE" "$run/vmcore.elf"
ln -s "$VMLINUX" "$run/vmlinux"
if [ -n "$LOG" ]; then
	cp "$LOG" "$run/vmcore.dmesg"
elif makedumpfile --dump-dmesg "$VMCORE" "$run/vmcore.dmesg" >"$run/dmesg.log" 2>&1; then
	lfrom="the dump (makedumpfile --dump-dmesg)"
	LOG=$VMCORE
# makedumpfile reads no ELF dump of more than 65535 segments (QEMU's of a
# KASLR kernel): drgn's printk helper reads the log from any.
elif py=$("$LAB_ROOT/vm/builders/readers.sh" python3 "$VMLINUX") &&
	timeout 120 "$py" - "$VMCORE" "$VMLINUX" >"$run/vmcore.dmesg" 2>>"$run/dmesg.log" <<'PY'
import sys
import drgn
from drgn.helpers.linux.printk import get_dmesg
prog = drgn.Program()
prog.set_core_dump(sys.argv[1])
prog.load_debug_info([sys.argv[2]])
sys.stdout.buffer.write(get_dmesg(prog))
PY
then
	lfrom="the dump (drgn's get_dmesg; makedumpfile could not read it)"
	LOG=$VMCORE
else
	rm -f "$run/vmcore.dmesg"
	lfrom="none: neither makedumpfile nor drgn could read the dump's log ($run/dmesg.log)"
fi

# The modules the log names, from MODULES (a name's - and _ are one).
if [ -n "$MODULES" ] && [ -f "$run/vmcore.dmesg" ]; then
	sed -n 's/.*Modules linked in: *//p' "$run/vmcore.dmesg" | tr ' ' '\n' |
		sed 's/(.*//; s/\[.*//' | grep -E '^[A-Za-z0-9_-]+$' | tr - _ | sort -u |
		while read -r m; do
			pat=$(echo "$m" | sed 's/_/[-_]/g')
			ko=$(find "$MODULES" -regextype posix-extended -regex ".*/$pat\\.ko(\\.xz)?" 2>/dev/null | head -1)
			[ -n "$ko" ] || continue
			case $ko in
			*.xz) xz -dc "$ko" >"$run/$m.ko" ;;
			*) ln -s "$ko" "$run/$m.ko" ;;
			esac
		done
fi
# What the readers will load: the .ko files the run directory holds.
for ko in "$run"/*.ko; do
	if [ -s "$ko" ]; then echo "$(basename "$ko" .ko) $(readlink -f "$ko")"; fi
done >"$run/modules.txt"
say "modules: $(wc -l <"$run/modules.txt") of those the log names, from ${MODULES:-no MODULES}"

size=$(stat -L -c %s "$VMCORE")
rec_set "$run" '
	.postmortem = {
		vmcore: {path: $vmcore, format: $format, size: ($size | tonumber), from: "VMCORE="},
		vmlinux: {path: $vmlinux, from: $vfrom},
		modules: {dir: (if $mdir == "" then null else $mdir end), from: (if $mfrom == "" then null else $mfrom end),
			linked: ($mods | split("\n") | map(select(. != "") | split(" ") | {name: .[0], path: .[1]}))},
		log: {path: (if $log == "" then null else $log end), from: $lfrom}}
	| .kernel = {description: "postmortem", variant: "", release: $rel, version: $ver,
		build_id: $id, package: (if $pkg == "" then null else $pkg end)}
	| .boots = [{name: "postmortem", outcome: "dump"}]
	| .dumps = [{name: "vmcore", boot: "postmortem", path: "vmcore", format: $format, captured: true,
		size: ($size | tonumber), check: "whole"}
		+ (if $dmesg then {dmesg: "vmcore.dmesg"} else {} end)]
		+ (if $format == "elf" then [{name: "vmcore.elf", boot: "postmortem", path: "vmcore.elf",
			format: "elf", captured: true, size: ($size | tonumber), check: "whole"}] else [] end)' \
	--arg vmcore "$VMCORE" --arg format "$format" --arg size "$size" --arg vmlinux "$VMLINUX" \
	--arg vfrom "$vfrom" --arg mdir "$MODULES" --arg mfrom "$mfrom" --rawfile mods "$run/modules.txt" \
	--arg log "$LOG" --arg lfrom "$lfrom" --arg rel "$release" --arg ver "$version" --arg id "$build_id" \
	--arg pkg "$pkg" --argjson dmesg "$([ -f "$run/vmcore.dmesg" ] && echo true || echo false)"
set_latest "$run"
exec "$LAB_ROOT/vm/read/report.sh" "$run"
