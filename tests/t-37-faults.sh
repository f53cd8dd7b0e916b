#!/bin/sh
# Faults injected into runs, and the lab's recovery from each:
# - QEMU killed (SIGKILL) while the guest runs, and again while the capture
#   kernel copies the dump: the run ends as "error" with a one-line
#   reason, keeps no partial dump, holds no lock, leaves no process, and
#   the next run works;
# - the capture kernel fails (crashkernel= too small): the run says why
#   kdump failed, and QEMU's own dump still gives a report;
# - out/ on a full filesystem (a small tmpfs): refused before the boot
#   when it is too small to start, and when it fills up during the run, a
#   line that names the full filesystem and no partial vmcore;
# - a kernel build interrupted (SIGINT, as Ctrl-C sends it): the tree is
#   never booted half-built, and the next build resumes and finishes.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
s=$(mktemp -d "$LAB_OUT/test-faults-XXXX")
lock=$STACKOV_CACHE/lock

no_qemu() { ! pgrep -f "qemu-system-x86_64 .*$1/" >/dev/null; }
lock_free() { flock -n -x "$lock" true; }
one_line() { [ "$(grep -Ec -- "$2" "$1")" = 1 ]; }

# kill_at NAME WHEN ERE SECONDS REASON CMD...: run CMD in the background
# as run NAME, SIGKILL its QEMU once its console matches ERE, and check
# what the run says (REASON: the end of its one-line error).
kill_at() {
	n=$1 when=$2 ere=$3 secs=$4 reason=$5
	shift 5
	r=$s/$n
	RUN_DIR=$r LAB_LATEST=0 "$@" >"$s/$n.out" 2>&1 &
	bg=$!
	if ! wait_for "$r/console.log" "$ere" "$secs"; then
		fail "$when: the console did not match '$ere' in $secs s (see $r/console.log)"
		kill "$bg" 2>/dev/null
		return
	fi
	kill -9 "$(qemu_of "$r")"
	rc=0
	wait "$bg" || rc=$?
	sed 's/^/    /' "$s/$n.out" | tail -2
	check "killed $when: the run exits non-zero (status $rc)" [ "$rc" != 0 ]
	check "its outcome is error" [ "$(run_outcome "$r")" = error ]
	check "one line gives the reason: QEMU was killed by signal KILL$reason" \
		one_line "$s/$n.out" "^==> run error: QEMU was killed by signal KILL after [0-9]* s$reason"
	check "the run's record keeps the reason ($(run_reason "$r"))" \
		sh -c "echo '$(run_reason "$r")' | grep -q '^QEMU was killed by signal KILL after [0-9]* s$reason'"
	check "the record says no dump of the boot was captured" [ "$(rec_get "$r" '.boots[0].captured | length')" = 0 ]
	check "no vmcore, no vmcore.elf, no dump disk is left" \
		sh -c "[ ! -e '$r/vmcore' ] && [ ! -e '$r/vmcore.elf' ] && ! ls '$r'/*.disk >/dev/null 2>&1"
	check "no QEMU is left" no_qemu "$r"
	check "no lock is held" lock_free
}

# 1. QEMU killed while the guest idles.
kill_at kill-idle "while the guest runs" '^lab: init started' 60 '' \
	env LAB_MODE=idle VM_TIMEOUT=120 vm/boot/qemu.sh
# 2. QEMU killed while the capture kernel copies the dump.
kill_at kill-kdump "during the kdump copy" '^lab: capture kernel up' 120 \
	', during the kdump capture: no dump is taken from it' \
	env SCENARIO=RECURSE_TASK QEMU_DUMP=0 LAB_SHOW=0 vm/demo.sh

# 3. The next run works.
r=$s/after
RUN_DIR=$r LAB_MODE=probe LAB_LATEST=0 vm/boot/qemu.sh >"$s/after.out" 2>&1 || true
check "the next boot works (outcome $(run_outcome "$r" 2>/dev/null))" [ "$(run_outcome "$r" 2>/dev/null)" = poweroff ]

# 4. The capture kernel fails: 40M is too little for it (bench-crashkernel: 48M is on the edge, 32M never starts it).
r=$s/small-ck
rc=0
RUN_DIR=$r SCENARIO=RECURSE_TASK CRASHKERNEL=40M LAB_SHOW=0 LAB_LATEST=0 vm/demo.sh >"$s/small-ck.out" 2>&1 || rc=$?
grep -E '^==> kdump failed|^stack overflow:|^stackov in' "$s/small-ck.out" | sed 's/^/    /'
check "crashkernel=40M: no vmcore from kdump" [ ! -e "$r/vmcore" ]
check "one line says kdump failed and why (the capture kernel's own words)" \
	one_line "$s/small-ck.out" '^==> kdump failed: the capture kernel failed: .*(Out of memory|Kernel panic)'
check "the record keeps it, and the boot's outcome is capture-failed" \
	sh -c "[ '$(run_outcome "$r")' = capture-failed ] && echo '$(rec_get "$r" '.boots[0].kdump_error')' | grep -q '^the capture kernel failed: '"
check "QEMU's own dump was taken" [ -s "$r/qemu-vmcore" ]
check "and the report reads it: a TASK stack overflow, the readers agree" \
	sh -c "grep -q '^stack overflow: TASK stack' '$s/small-ck.out' &&
		grep -q '^stackov in crash, gdb and drgn, on qemu-vmcore: the 3 readers agree' '$s/small-ck.out'"
check "make overflow-demo's flow exits 0" [ "$rc" = 0 ]

# 5. out/ on a full filesystem.
m=$s/tmpfs
mkdir "$m"
if mount -t tmpfs -o size=40M tmpfs "$m"; then
	# Too small to start a kdump run: refused before the boot.
	rc=0
	RUN_DIR=$m/run SCENARIO=RECURSE_TASK QEMU_DUMP=0 LAB_SHOW=0 LAB_LATEST=0 vm/demo.sh >"$s/full-start.out" 2>&1 || rc=$?
	sed 's/^/    /' "$s/full-start.out" | tail -1
	check "a 40 MiB out/: refused before the boot, in one line naming the free space" \
		sh -c "[ $rc != 0 ] && grep -q 'MiB free on $m' '$s/full-start.out' && [ ! -e '$m/run/console.log' ]"
	umount "$m"
	# Room to start, not to finish: the ELF vmcore fills it.
	mount -t tmpfs -o size=100M tmpfs "$m"
	rc=0
	RUN_DIR=$m/run SCENARIO=RECURSE_TASK QEMU_DUMP=0 LAB_SHOW=0 LAB_LATEST=0 LAB_MIN_FREE_MB=50 \
		vm/demo.sh >"$s/full.out" 2>&1 || rc=$?
	grep -E 'full|failed|MiB' "$s/full.out" | sed 's/^/    /'
	check "a 100 MiB out/: a line names the full filesystem" grep -q "($m is full: [0-9]* KiB free)" "$s/full.out"
	# The kdump-compressed dump (12 MiB) fits; the ELF one does not. Each
	# dump the record names is either whole, its size as written, or
	# named as missing with the reason.
	vc=$("$LAB_ROOT/vm/builders/host-tools.sh" vmcore-check)
	whole() { [ -f "$1" ] && [ "$(stat -c %s "$1")" = "$(rec_get "$m/run" '.dumps[] | select(.name == $n) | .size' --arg n "${1##*/}")" ] && "$vc" "$1" >/dev/null; }
	check "the kdump-compressed vmcore is there, and whole" whole "$m/run/vmcore"
	rec_get "$m/run" '.dumps[] | .name + " " + (.captured | tostring) + " " + (.reason // "-")' | sed 's/^/    dump: /'
	others_ok() {
		for n in $(rec_get "$m/run" '.dumps[] | select(.name != "vmcore") | .name'); do
			if [ "$(rec_get "$m/run" '.dumps[] | select(.name == $n) | .captured' --arg n "$n")" = true ]; then
				whole "$m/run/$n" || return 1
			else
				[ ! -e "$m/run/$n" ] && [ -n "$(rec_get "$m/run" '.dumps[] | select(.name == $n) | .reason' --arg n "$n")" ] || return 1
			fi
		done
	}
	check "every other dump is whole, or gone with its reason in the record" others_ok
	check "the record names vmcore.elf" [ "$(rec_get "$m/run" '[.dumps[] | select(.name == "vmcore.elf")] | length')" = 1 ]
	check "no temporary file is left" sh -c "! ls '$m/run/'*.tmp >/dev/null 2>&1"
	check "no QEMU is left" no_qemu "$m/run"
	cp "$s/full.out" "$s/full.kept.out"
	umount "$m"
else
	fail "cannot mount a tmpfs (the test needs root): the full-filesystem case is not checked"
fi

# 6. A kernel build interrupted by SIGINT. The lab kernel's tree is
# up to date; forget that it is (its lab-key) and make one object old.
o=$(kbuild_dir vmap)
key=$(cat "$o/lab-key")
rm "$o/lab-key"
: >"$o/build.log"
touch "$KERNEL_TREE/kernel/fork.c"
# In a process group of its own, as a terminal's job is: Ctrl-C's SIGINT
# goes to every process of the build. (A background job of a script
# starts with SIGINT ignored, and make keeps it so: env gives it back.)
setsid env --default-signal=INT make -s kernel >"$s/build-int.out" 2>&1 &
bg=$!
if wait_for "$o/build.log" 'CC +kernel/fork.o' 300; then
	/bin/kill -INT -- -"$bg"
fi
rc=0
wait "$bg" || rc=$?
check "the interrupted build exits non-zero (status $rc)" [ "$rc" != 0 ]
check "it left no lab-key: the tree is known to be half-built" [ ! -e "$o/lab-key" ]
rc=0
RUN_DIR=$s/halfbuilt LAB_MODE=probe LAB_LATEST=0 vm/boot/qemu.sh >"$s/halfbuilt.out" 2>&1 || rc=$?
sed 's/^/    /' "$s/halfbuilt.out"
check "a boot refuses the half-built kernel in one line" \
	sh -c "[ $rc != 0 ] && [ \$(wc -l <'$s/halfbuilt.out') = 1 ] && grep -q 'kernel vmap is half-built' '$s/halfbuilt.out'"
start=$(date +%s)
rc=0
make -s kernel >"$s/build-again.out" 2>&1 || rc=$?
sed 's/^/    /' "$s/build-again.out" | tail -1
check "built again, it finishes (in $(($(date +%s) - start)) s) with the same key" \
	sh -c "[ $rc = 0 ] && [ \"\$(cat '$o/lab-key')\" = '$key' ]"
check "it resumed: fork.o was rebuilt, the rest kept" grep -Eq 'kernel vmap built in [0-9]+ s \(([1-9]|[1-9][0-9]) objects' "$s/build-again.out"
check "no lock is held" lock_free
[ "$failed" = 0 ] && rm -rf "$s"
finish
