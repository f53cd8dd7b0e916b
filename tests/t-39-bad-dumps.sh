#!/bin/sh
# The report (vm/read/report.sh) on dumps that are not whole: a vmcore
# truncated, one with a damaged header, one changed at its own size; a run
# directory with no dump; a run whose every dump is bad. Each gets a first
# line that says so (with the size against the size at capture), the bad
# dump is not read, a good one beside it still is, and nothing says the
# readers disagree. Copies of t-20's run (t-20 makes it).
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
good=$LAB_OUT/t-20-run
{ [ -f "$good/vmcore" ] && rec_has "$good"; } || { fail "no vmcore and run.json in $good (t-20 makes them)"; finish; }
s=$(mktemp -d "$LAB_OUT/test-baddumps-XXXX")

# copy NAME: a run directory of hard links to t-20's run (dumps copied
# where a case changes them), with only kdump's dumps unless told.
copy() {
	d=$(copy_run "$good" "$s/$1" console.log vmcore.elf vmcore.dmesg vmlinux lkdtm_ext.ko)
	cp "$good/vmcore" "$d/vmcore"
	jq -s '.[0].dumps += [.[1].dumps[] | select(.name == "vmcore")] | .[0]' "$d/run.json" "$good/run.json" \
		>"$d/run.json.new" && mv "$d/run.json.new" "$d/run.json"
	echo "$d"
}
# read_dumps NAME: the dump families readers read in NAME's run.
read_dumps() { jq -r '[.readers[].dump] | unique | join(" ")' "$s/$1/readers.json"; }
# bad_why NAME DUMP: why readers.json says DUMP was not read.
bad_why() { jq -r --arg d "$2" '.dumps[] | select(.name == $d and (.whole | not)) | .why' "$s/$1/readers.json"; }
# report NAME: report.sh on $s/NAME, its status in $rc, output in NAME.out.
report() {
	rc=0
	timeout 600 "$LAB_ROOT/vm/read/report.sh" "$s/$1" >"$s/$1.out" 2>&1 || rc=$?
	sed -n '/^== post-mortem/,$p' "$s/$1.out" | head -4 | sed 's/^/    /'
}
first_line() { sed -n '/^== post-mortem/{n;p;q}' "$s/$1.out"; }
# says NAME ERE: the first line of NAME's summary matches ERE.
says() { first_line "$1" | grep -Eq -- "$2"; }
no_disagree() {
	! grep -q 'DISAGREE' "$s/$1.out" && jq -e 'all(.agreement[]; .same)' "$s/$1/readers.json" >/dev/null
}

# Truncated: kdump's vmcore cut to half; vmcore.elf, whole, is left out
# with it (one dump, two formats).
d=$(copy half)
size=$(stat -c %s "$d/vmcore")
truncate -s $((size / 2)) "$d/vmcore"
report half
check "truncated: the summary's first line says so, with both sizes" \
	says half "^BAD DUMP: vmcore is truncated: $((size / 2)) bytes of the $size written at capture; neither vmcore nor vmcore.elf was read$"
check "truncated: and so does readers.json" [ "$(bad_why half vmcore)" = "vmcore is truncated: $((size / 2)) bytes of the $size written at capture" ]
check "truncated: no reader ran on it" [ "$(jq '.readers | length' "$s/half/readers.json")" = 0 ]
check "truncated: nothing says the readers disagree" no_disagree half
check "truncated: with no whole dump left, report.sh exits 1 and says so" \
	sh -c "[ $rc = 1 ] && grep -q '^no dump of this run is whole' '$s/half.out'"

# The same, with QEMU's dump of the same run beside it: that one is read.
if [ -e "$good/qemu-vmcore" ]; then
	for f in qemu-dump qemu-vmcore qemu-vmcore.elf; do cp -a "$good/$f" "$d/"; done
	jq -s '.[0].dumps += [.[1].dumps[] | select(.name | startswith("qemu-"))] | .[0]' "$d/run.json" "$good/run.json" \
		>"$d/run.json.new" && mv "$d/run.json.new" "$d/run.json"
	report half
	check "truncated beside a whole QEMU dump: exits 0" [ "$rc" = 0 ]
	check "the first line still names the truncated vmcore" says half '^BAD DUMP: vmcore is truncated'
	check "the readers read QEMU's dump and agree" grep -q '^stackov in crash, gdb and drgn, on qemu-vmcore: the 3 readers agree' "$s/half.out"
	check "and only QEMU's dump" [ "$(read_dumps half)" = qemu-vmcore ]
	check "nothing says the readers disagree" no_disagree half
else
	fail "t-20's run has no qemu-vmcore to read beside a bad vmcore"
fi

# A damaged header: the first 4 KiB of the vmcore overwritten, its size kept.
d=$(copy header)
dd if=/dev/zero of="$d/vmcore" bs=4096 count=1 conv=notrunc 2>/dev/null
report header
check "damaged header: the first line says the vmcore is damaged, at its size as at capture" \
	says header "^BAD DUMP: vmcore is damaged \\($size bytes, as at capture\\): "
check "damaged header: nothing says the readers disagree" no_disagree header

# A change inside the dump, at its own size: the CRC taken at capture.
d=$(copy crc)
rm -f "$d/vmcore.elf"
cp "$good/vmcore.elf" "$d/vmcore.elf"
printf 'stackov-lab' | dd of="$d/vmcore.elf" bs=1 seek=$(($(stat -c %s "$d/vmcore.elf") / 2)) conv=notrunc 2>/dev/null
report crc
check "changed at its own size: the first line names vmcore.elf's CRC" \
	says crc '^BAD DUMP: vmcore.elf is damaged: its CRC \(cksum\) is not the one taken at capture'
check "changed: nothing says the readers disagree" no_disagree crc

# No dump at all: one line, status 1.
d=$s/nodump
mkdir "$d"
copy_run "$good" "$d" console.log >/dev/null
report nodump
check "no dump: report.sh exits 1" [ "$rc" = 1 ]
check "no dump: one line says so" sh -c "[ \$(wc -l <'$s/nodump.out') = 1 ] &&
	grep -q '^no dump in nodump: the guest ended by kdump; nothing for the readers to read' '$s/nodump.out'"

# The whole dump, unchanged: no BAD DUMP line (the check itself can pass).
d=$(copy whole)
report whole
check "a whole dump: no BAD DUMP line, and the readers agree" \
	sh -c "! grep -q 'BAD DUMP' '$s/whole.out' && grep -q 'on vmcore: the 3 readers agree' '$s/whole.out'"
# gdb's stackov-where on QEMU's ELF dump: vmap_area's vm sits in an
# anonymous union, which the helpers look into.
lo=$(jq -r 'select(.stack == "TASK") | .lo' "$good/stackov-crash-qemu-vmcore.json")
if [ -n "$lo" ] && [ -e "$good/qemu-vmcore.elf" ]; then
	gdb=$("$LAB_ROOT/vm/builders/readers.sh" gdb)
	timeout 300 "$gdb" -q -batch -nx "$good/vmlinux" "$good/qemu-vmcore.elf" -x gdb-scripts/stackov-gdb.py \
		-ex "stackov-where 0x$lo+0x100" >"$s/where.out" 2>&1 || true
	# And an address in a vmalloc area that is no stack: the module's text.
	timeout 300 "$gdb" -q -batch -nx "$good/vmlinux" "$good/qemu-vmcore.elf" -x gdb-scripts/stackov-gdb.py \
		-ex "stackov-where $(rec_get "$good" '.boots[] | select(.name == "qemu-dump") | .module_text')+0x10" >>"$s/where.out" 2>&1 || true
	tail -2 "$s/where.out" | sed 's/^/    /'
	check "gdb on qemu-vmcore.elf: stackov-where names the task stack" \
		grep -Eq "^[0-9a-f]+: the TASK stack of pid [0-9]+ \"labtrig\", stack\+0x100\$" "$s/where.out"
	check "and the vmalloc area of the module's text, with its caller" \
		grep -Eq "^[0-9a-f]+: vmalloc area [0-9a-f]+\.\.[0-9a-f]+, caller load_module\+[0-9]+, not a stack\$" "$s/where.out"
else
	fail "no TASK verdict on t-20's qemu-vmcore to ask stackov-where about"
fi
[ "$failed" = 0 ] && rm -rf "$s"
finish
