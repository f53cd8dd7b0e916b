#!/bin/sh
# make overflow-demo, the whole flow: kdump arms in the guest, RECURSE_TASK
# overflows, the capture kernel (the same bzImage and initramfs) writes the
# vmcore, QEMU takes its own dump of the scenario on a second boot, and
# crash, gdb and drgn each recover the crashed task and its recursion.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
rc=0
# The run is kept (t-21 opens its dump); it is not a test-* directory.
run=$LAB_OUT/t-20-run
rm -rf "$run"
make -s overflow-demo SCENARIO=RECURSE_TASK VARIANT=vmap LAB_SHOW=0 RUN_DIR="$run" \
	>"$LAB_OUT/kdump-demo.out" 2>&1 || rc=$?
check "make overflow-demo exits 0" [ $rc = 0 ]

check "kdump armed before the trigger (kexec_crash_loaded = 1)" has '^lab: kdump armed: capture kernel loaded'
armed_first() {
	console | grep -nE '^lab: kdump armed|^labtrig: triggering' | cut -d: -f1 | tr '\n' ' ' |
		awk '{ exit !($1 < $2) }'
}
check "kdump is armed before labtrig triggers" armed_first
kern_sha=$(sha256sum "$(kernel_image vmap)" | cut -d' ' -f1)
initrd_sha=$(sha256sum "$(initramfs_image vmap)" | cut -d' ' -f1)
check "the capture kernel is the same bzImage (sha256 in the guest)" has "^lab: kdump: bzImage sha256 $kern_sha\$"
check "the capture initramfs is the same initramfs" has "^lab: kdump: initrd sha256 $initrd_sha\$"
check "capture kernel's console is in console.log" has 'Command line: .*lab\.mode=capture .*elfcorehdr='
check "capture kernel booted with /proc/vmcore" has '^lab: capture kernel up at .*/proc/vmcore is [0-9]+ bytes'
check "makedumpfile -d 31 wrote the kdump dump" has '^lab: capture: makedumpfile -F -l -d 31 to /dev/vda done'
check "result is kdump" result_is kdump
sig() { [ "$(head -c 8 "$1")" = "KDUMP   " ]; }
check "out/<run>/vmcore is kdump-compressed" sig "$run/vmcore"
check "vmcore is smaller than guest RAM" [ "$(stat -c %s "$run/vmcore")" -lt $((1024 * 1048576)) ]
# The dump's vmcoreinfo carries the crashed kernel's build ID.
dump_bid() { grep -ao 'BUILD-ID=[0-9a-f]*' "$1" | head -1 | cut -d= -f2; }
elf_bid() { readelf -n "$1" | sed -n 's/.*Build ID: //p'; }
bid=$(dump_bid "$run/vmcore")
check "the vmcore's vmcoreinfo has a build ID ($bid)" [ -n "$bid" ]
check "the vmlinux next to it is the crashed kernel (the same build ID)" [ "$(elf_bid "$run/vmlinux")" = "${bid:-none}" ]
check "QEMU's dump is of the same kernel" [ "$(dump_bid "$run/qemu-vmcore")" = "${bid:-none}" ]
check "run.json names the run, its kernel and initramfs by sha256" \
	[ "$(rec_get "$run" '.dir + " " + .kernel.image_sha256 + " " + .kernel.initrd_sha256')" = "$run $kern_sha $initrd_sha" ]
check "run.json: the kdump boot wrote both dumps, QEMU's boot its two" \
	[ "$(rec_get "$run" '[.boots[] | .name + ":" + .outcome + ":" + (.captured | join(","))] | join(" ")')" = \
		"kdump:kdump:vmcore,vmcore.elf qemu-dump:panic:qemu-vmcore,qemu-vmcore.elf" ]
check "run.json: the size of vmcore as written is its size now" \
	[ "$(rec_get "$run" '.dumps[] | select(.name == "vmcore") | .size')" = "$(stat -c %s "$run/vmcore")" ]
check "run.json: each dump passed the structural check at capture" \
	[ "$(rec_get "$run" '[.dumps[] | .check] | unique | join(" ")')" = whole ]
check "the module with debug info next to it" sh -c "readelf -S '$run/lkdtm_ext.ko' | grep -q debug_info"
check "QEMU's own dump (pvpanic + dump-guest-memory) is kdump-compressed" sig "$run/qemu-dump/qemu-vmcore"
both_logged() {
	grep -qx '== makedumpfile -R: kdump.disk -> vmcore' "$run/collect.log" &&
		grep -qx '== makedumpfile -R: kdump-elf.disk -> vmcore.elf' "$run/collect.log"
}
check "collect.log keeps the messages of both dumps' reassembly" both_logged
check "the report names no failed reader" sh -c "! grep -q '^FAILED readers' '$LAB_OUT/kdump-demo.out'"
check "the dump's own log has the guard-page report" \
	grep -q 'BUG: TASK stack guard page was hit at' "$run/vmcore.dmesg"

pid=$(console | sed -n 's/.*lkdtm_ext: Performing RECURSE_TASK (pid \([0-9]*\).*/\1/p' | head -1)
check "the module said which task it ran in (pid ${pid:-none})" [ -n "$pid" ]
# sect "READER on FILE": that reader's whole output on FILE's dump.
sect() {
	f=${1##* on }
	cat "$run/reader-${1%% *}-${f%.elf}.out"
}
bt_has() { sect "$1" | grep -Eq "$2"; }
check "crash on vmcore: panic task is labtrig pid $pid" bt_has "crash on vmcore" "^PID: $pid +TASK: .*COMMAND: \"labtrig\""
check "crash on vmcore: bt crosses the DOUBLEFAULT stack" bt_has "crash on vmcore" '^--- <DOUBLEFAULT exception stack> ---'
check "crash on vmcore: bt has recurse_task_frame [lkdtm_ext]" bt_has "crash on vmcore" 'recurse_task_frame at [0-9a-f]+ \[lkdtm_ext\]'
check "crash on qemu-vmcore: panic task is labtrig" bt_has "crash on qemu-vmcore" '^PID: [0-9]+ +TASK: .*COMMAND: "labtrig"'
check "crash on qemu-vmcore: bt has recurse_task_frame [lkdtm_ext]" bt_has "crash on qemu-vmcore" 'recurse_task_frame at [0-9a-f]+ \[lkdtm_ext\]'
same_story() {
	a=$(sect "crash on vmcore" | grep -oE 'exception RIP: [a-z_]+' | head -1)
	b=$(sect "crash on qemu-vmcore" | grep -oE 'exception RIP: [a-z_]+' | head -1)
	[ -n "$a" ] && [ "$a" = "$b" ]
}
check "both dumps: the double fault interrupted the same function" same_story
check "gdb on vmcore.elf: its own bt has frame #0, recurse_task_frame" bt_has "gdb on vmcore.elf" '^#0 +(0x[0-9a-f]+ in )?recurse_task_frame \(.*recurse\.c'
check "gdb on vmcore.elf: and stops there (no vmalloc in an ELF vmcore)" bt_has "gdb on vmcore.elf" '^Backtrace stopped: Cannot access memory at address '
check "gdb on vmcore.elf: stackov, through the page tables: labtrig pid $pid" bt_has "gdb on vmcore.elf" "^stack overflow: TASK stack, pid $pid \"labtrig\" "
check "gdb on vmcore.elf: and the recursion folded" bt_has "gdb on vmcore.elf" '^  cycle: +recurse_task_frame x[0-9]+ '
check "gdb on vmcore.elf: stackov's frames, in order, are drgn's own unwinder's" gdb_frames_in "$run" vmcore drgn
check "gdb on vmcore.elf: and crash's bt's" gdb_frames_in "$run" vmcore crash
check "gdb on qemu-vmcore.elf: stackov's frames, in order, are crash's bt's on QEMU's dump" \
	gdb_frames_in "$run" qemu-vmcore crash
check "gdb on qemu-vmcore.elf (paging ELF): its own bt reads the stacks, to the double fault's entry" \
	bt_has "gdb on qemu-vmcore.elf" ' in asm_exc_double_fault '
check "drgn on vmcore: crashed thread is labtrig pid $pid" bt_has "drgn on vmcore" "^crashed thread: labtrig pid $pid "
check "drgn on vmcore: stack trace has the recursion" bt_has "drgn on vmcore" '^  #1-#[0-9]+ +0x[0-9a-f]+ recurse_task_frame at recurse\.c:[0-9]+ \(x[0-9]+\)'
check "drgn on vmcore: and the syscall it came from" bt_has "drgn on vmcore" ' ksys_write at '
check "the demo ends with the post-mortem" grep -q '^backtrace recovered by drgn from the kdump vmcore:' "$LAB_OUT/kdump-demo.out"
finish
