#!/bin/sh
# tests/replay/keep.sh RUN PREFIX [DIR] - keep what make check replays of
# one run's dump (vmcore, else qemu-vmcore), named NAME = PREFIX-DUMP
# (LINE-VARIANT-SCENARIO-DUMP: c-20 reads the scenario from it): the
# recording of crash's answers to the engine (RUN/replay-DUMP.gz,
# report.sh's) as DIR/NAME.gz, the
# verdict the readers gave then (the catalogue checked it against the
# kernel's report and drgn's unwinder) as NAME.json, and the facts that
# share no code with the engine as NAME.facts: from the dump's own kernel
# log, the BUG line and the oops's task line (and a module's word on how
# deep it went: "said: ..."), and of a crash that was no overflow its
# report (the stack protector's line, the stack end's, kernel BUG, the
# page fault's address, the RIP); from the compiler, the frame size of
# each function of the verdict's cycle, or of the function whose canary
# was smashed ("su: FUNC BYTES", gcc's -fstack-usage, RUN/frames.su).
# DIR: tests/replay.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../../vm/lib.sh"

run=${1:?usage: keep.sh RUN PREFIX [DIR]}
prefix=${2:?usage: keep.sh RUN PREFIX [DIR]}
dir=${3:-$LAB_ROOT/tests/replay}
for d in vmcore qemu-vmcore; do
	if [ ! -s "$run/replay-$d.gz" ] || [ ! -s "$run/stackov-crash-$d.json" ]; then
		continue
	fi
	dmesg=$run/$(rec_get "$run" '.dumps[] | select(.name == $n) | .dmesg' --arg n "$d")
	[ -f "$dmesg" ] || continue
	name=$prefix-$d
	mkdir -p "$dir"
	cp "$run/replay-$d.gz" "$dir/$name.gz"
	cp "$run/stackov-crash-$d.json" "$dir/$name.json"
	{
		echo "# $(rec_get "$run" '.kernel.description + " " + .kernel.variant + " " + (.scenario // "MODULE")'), $d of $(basename "$run")"
		kernel_log "$dmesg" | grep -E -m1 '^BUG: [A-Z]+ stack guard page was hit at ' || true
		kernel_log "$dmesg" | grep -a -E -m1 '^CPU: [0-9]+ (UID: [0-9]+ )?PID: [0-9]+ Comm: ' || true
		# A crash that was no overflow: the kernel's own report of it.
		kernel_log "$dmesg" | grep -a -E -m1 'Kernel stack is corrupted in: ' || true
		kernel_log "$dmesg" | grep -a -E -m1 'corrupted stack end detected|Thread overran stack, or stack corrupted' || true
		kernel_log "$dmesg" | grep -a -E -m1 '^kernel BUG at ' || true
		kernel_log "$dmesg" | grep -a -E -m1 'PANIC: double fault|kernel stack overflow \(double-fault\)' || true
		kernel_log "$dmesg" | grep -a -E -m1 '^BUG: (unable to handle page fault for address|kernel NULL pointer dereference, address): ' || true
		kernel_log "$dmesg" | grep -a -E -m1 '^RIP: 0010:' || true
		# What tests/modules/canary_copy said of its buffer.
		kernel_log "$dmesg" | grep -a -E -m1 'canary_copy: copying [0-9]+ bytes into the 16-byte buffer at ' |
			sed 's/^/said: /' || true
		# What a module said of its own depth (tests/modules/near_miss).
		kernel_log "$dmesg" | grep -a -E -m1 " [0-9]+ frames of [a-z_0-9]+, the deepest [0-9]+ bytes above the stack's end\$" |
			sed 's/^/said: /' || true
		# ... and of the function whose canary was smashed (gcc's .su drops
		# the clone numbers: copy_name.constprop.isra).
		for f in $(jq -r '((.cycle // "") | sub(" x[0-9]+.*$"; "") | split(" -> ") | .[]), (.function // empty)' \
			"$run/stackov-crash-$d.json"); do
			awk -F '\t' -v f="$f" 'function norm(s) { gsub(/\.[0-9]+/, "", s); return s }
				{ n = split($1, a, ":") } norm(a[n]) == norm(f) && $3 == "static" { print "su: " f " " $2; exit }' \
				"$run/frames.su" 2>/dev/null
		done
	} >"$dir/$name.facts"
	echo "$dir/$name.gz"
	exit 0
done
die "$run has no recorded dump to keep"
