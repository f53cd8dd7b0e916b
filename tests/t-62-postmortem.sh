#!/bin/sh
# make postmortem on dumps that no lab run holds. A KERNEL=debian run's
# kdump vmcore is moved into kdump-tools' layout (var/crash/STAMP/dump.STAMP
# with dmesg.STAMP beside it) and the -dbg vmlinux and the module's .ko
# where Debian's packages put them (usr/lib/debug/...), under a root of
# the test's own; QEMU's ELF dump of the same scenario goes elsewhere
# alone. Given only the dump file and the vmlinux, each reader's verdict
# must be the lab's own report of that dump, word for word, and the
# kernel's BUG line's stack and fault; crash's bt and drgn's stack_trace
# must agree with stackov's frames; run.json must say where each input
# came from, and the kernel it names must be the log's "Linux version".
# A wrong vmlinux, no vmlinux, a truncated dump, a dump makedumpfile
# marked incomplete and a file that is no dump each get one line.
# LINUX=6.12 (x-62, make test-full): the same on Debian's 6.12 image.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
line=${LINUX:-6.1}
rc=0
make -s overflow-demo KERNEL=debian SCENARIO=RECURSE_TASK LAB_SHOW=0 >"$LAB_OUT/pm-demo-$line.out" 2>&1 || rc=$?
check "$line: make overflow-demo KERNEL=debian exits 0" [ $rc = 0 ]
run=$(readlink -f "$LAB_OUT/latest")
{ [ -f "$run/vmcore" ] && [ -f "$run/qemu-vmcore.elf" ]; } ||
	{ fail "$line: the Debian run $run has no vmcore and qemu-vmcore.elf"; finish; }
vc=$("$LAB_ROOT/vm/builders/host-tools.sh" vmcore-check)
rel=$("$vc" -i "$run/vmcore" | sed -n 's/^release=//p')
# The build ids, by binutils, not by the lab.
bid() { readelf -n "$1" | sed -n 's/^ *Build ID: *//p' | head -1; }
id=$(bid "$run/vmlinux")
klog=$(kernel_log "$run/vmcore.dmesg")
check "$line: the dump's release is the log's (Linux version $rel)" \
	sh -c "echo \"\$1\" | grep -q '^Linux version $rel '" _ "$klog"

# ---- kdump-tools' layout, in a root of the test's own.
root=$LAB_OUT/pm-root-$line
rm -rf "$root"
stamp=202612072150
mkdir -p "$root/var/crash/$stamp" "$root/usr/lib/debug/boot" "$root/usr/lib/debug/lib/modules/$rel/updates" "$root/dumps"
dump=$root/var/crash/$stamp/dump.$stamp
ln "$(readlink -f "$run/vmcore")" "$dump" 2>/dev/null || cp "$run/vmcore" "$dump"
cp "$run/vmcore.dmesg" "$root/var/crash/$stamp/dmesg.$stamp"
ln -s "$(readlink -f "$run/vmlinux")" "$root/usr/lib/debug/boot/vmlinux-$rel"
cp "$run/lkdtm_ext.ko" "$root/usr/lib/debug/lib/modules/$rel/updates/"
elf=$root/dumps/guest.elf
ln "$(readlink -f "$run/qemu-vmcore.elf")" "$elf" 2>/dev/null || cp "$run/qemu-vmcore.elf" "$elf"

# pm NAME VMCORE [VAR=value...]: make postmortem; $pm is its run, $pm_rc
# its status, $LAB_OUT/pm-NAME.out its output.
pm() {
	pm_name=$1 pm_core=$2
	shift 2
	pm_rc=0
	env "$@" make -s postmortem VMCORE="$pm_core" >"$LAB_OUT/pm-$pm_name.out" 2>&1 </dev/null || pm_rc=$?
	pm=$(readlink -f "$LAB_OUT/latest")
}
# same_verdicts WHAT PM FAMILY READERS LOG: each reader's verdict on the
# postmortem's dump is the lab's on FAMILY of $run, JSON and text; its
# stack and fault are LOG's BUG line's (the boot that wrote the dump).
same_verdicts() {
	for r in $4; do
		check "$1: $r's verdict is the lab's report of the same dump, word for word" \
			sh -c "[ -s '$2/stackov-$r-vmcore.json' ] && cmp -s '$run/stackov-$r-$3.json' '$2/stackov-$r-vmcore.json' &&
				cmp -s '$run/stackov-$r-$3.txt' '$2/stackov-$r-vmcore.txt'"
	done
	check "$1: crash's verdict has the BUG line's stack and fault" sh -c "
		want=\$(echo \"\$1\" | sed -n 's/^BUG: \([A-Z]*\) stack guard page was hit at \([0-9a-f]*\) .*/\1 \2/p' | head -1)
		[ -n \"\$want\" ] && [ \"\$(jq -r '.stack + \" \" + .fault' '$2/stackov-crash-vmcore.json')\" = \"\$want\" ]" _ "$(kernel_log "$5")"
	for p in crash drgn; do
		check "$1: $p's own unwinder agrees with stackov's frames (peers.json)" \
			jq -e --arg p "$p" '.[0].peers | any(.peer == $p and .status == "agrees")' "$2/peers.json"
	done
}

pm kdump "$dump" VMLINUX="$root/usr/lib/debug/boot/vmlinux-$rel"
sed 's/^/    /' "$LAB_OUT/pm-kdump.out" | head -5
check "kdump-tools layout: make postmortem exits 0" [ "$pm_rc" = 0 ]
check "kdump-tools layout: a run directory of its own" sh -c "[ '$pm' != '$run' ] && [ -f '$pm/run.json' ]"
P=$pm/run.json
check "run.json: the dump, as given, kdump-compressed" \
	jq -e --arg d "$dump" '.postmortem.vmcore | .path == $d and .format == "kdump" and .from == "VMCORE="' "$P"
check "run.json: the module from the -dbg tree beside VMLINUX" \
	jq -e '.postmortem.modules | .from == "the -dbg tree beside VMLINUX" and ([.linked[].name] == ["lkdtm_ext"])' "$P"
check "run.json: the log is kdump-tools' dmesg beside the dump" \
	jq -e --arg l "$root/var/crash/$stamp/dmesg.$stamp" '.postmortem.log | .path == $l and .from == "kdump-tools'"'"' dmesg beside the dump"' "$P"
check "run.json: the kernel, build id and package (the log's version; readelf's id)" \
	sh -c "jq -e --arg id '$id' --arg rel '$rel' '.kernel | .build_id == \$id and .release == \$rel and
		.package == (\"linux-image-\" + \$rel + \"-dbg\")' '$P' >/dev/null &&
		echo \"\$1\" | grep -qF \"\$(jq -r .kernel.version '$P')\"" _ "$klog"
same_verdicts "kdump-tools layout" "$pm" vmcore "crash drgn" "$run/vmcore.dmesg"
check "kdump-tools layout: gdb is skipped, saying why (it reads ELF only)" \
	jq -e '.readers | any(.reader == "gdb" and .status == "skipped" and (.why | test("ELF dumps only")))' "$pm/readers.json"
check "kdump-tools layout: the log alone is explained too" jq -e '.verdict.stack == "TASK"' "$pm/explain.json"

pm elf "$elf" VMLINUX="$root/usr/lib/debug/boot/vmlinux-$rel" MODULES="$root/usr/lib/debug/lib/modules/$rel"
sed 's/^/    /' "$LAB_OUT/pm-elf.out" | head -5
check "QEMU's ELF dump: make postmortem exits 0" [ "$pm_rc" = 0 ]
check "run.json: QEMU's ELF dump, its log read from the dump" \
	jq -e '.postmortem | .vmcore.format == "elf" and (.log.from | startswith("the dump ("))' "$pm/run.json"
same_verdicts "QEMU's ELF dump" "$pm" qemu-vmcore "crash gdb drgn" "$run/qemu-dump/qemu-vmcore.dmesg"

# ---- What it refuses, in one line each (make's own error line aside).
one_line() { # NAME PATTERN: pm-NAME.out has one line of its own, matching
	check "$1: exit status 1" [ "$pm_rc" != 0 ]
	check "$1: one line: $2" sh -c "[ \$(grep -vc '^make' '$LAB_OUT/pm-$1.out') = 1 ] &&
		grep -v '^make' '$LAB_OUT/pm-$1.out' | grep -Eq -- \"\$1\"" _ "$2"
	check "$1: no run directory, no verdict" sh -c "[ '$pm' = '$last' ] && ! grep -q 'stack overflow' '$LAB_OUT/pm-$1.out'"
	sed 's/^/    /' "$LAB_OUT/pm-$1.out" | head -2
}
last=$pm
# The release as an ERE (6.12's has a +).
rre=$(printf '%s' "$rel" | sed 's/[.+]/\\&/g')
other=$STACKOV_CACHE/build/vmap/vmlinux
if [ -f "$other" ]; then
	pm wrong "$dump" VMLINUX="$other"
	one_line wrong "is not the kernel of this dump: the dump's build id is $id \($rre\), vmlinux's $(bid "$other"); .*linux-image-$rre-dbg"
else
	skip "a wrong vmlinux" "no lab vmlinux at $other (t-02 builds it)"
fi
pm none "$dump" VMLINUX=
one_line none "^postmortem.sh: error: no VMLINUX given, and none at /usr/lib/debug/boot/vmlinux-$rre: .*build id $id; Debian ships its vmlinux in linux-image-$rre-dbg"
head -c "$(($(stat -L -c %s "$dump") / 2))" "$dump" >"$root/cut"
pm cut "$root/cut" VMLINUX="$root/usr/lib/debug/boot/vmlinux-$rel"
one_line cut "truncated: "
# makedumpfile's mark (disk_dump_header.status, at byte 424): incomplete.
cp "$dump" "$root/incomplete"
printf '\010' | dd of="$root/incomplete" bs=1 seek=424 conv=notrunc 2>/dev/null
pm incomplete "$root/incomplete" VMLINUX="$root/usr/lib/debug/boot/vmlinux-$rel"
one_line incomplete "makedumpfile marked it incomplete"
pm nodump "$root/var/crash/$stamp/dmesg.$stamp" VMLINUX="$root/usr/lib/debug/boot/vmlinux-$rel"
one_line nodump "is not a kdump-compressed or ELF dump"
[ "$failed" = 0 ] && [ "${KEEP:-0}" != 1 ] && rm -rf "$root"
finish
