#!/bin/sh
# vm/boot/classify.sh BOOT_DIR QEMU_RC WALL TIMEOUT KDUMP QEMU_DUMP - how
# one boot ended, and why: the only place that decides it. vm/boot/qemu.sh
# runs it when QEMU is gone and puts what it prints into the run record
# (run.json); tests/c-10-classify.sh feeds it consoles.
#
# Reads BOOT_DIR/console.log, qemu.log (QEMU's own messages),
# qemu-debug.log (TCG's triple-fault note) and qemu-dump.log
# (vm/boot/qemu-dump.sh's); QEMU_RC is timeout(1)'s status for QEMU,
# WALL its seconds, TIMEOUT the run's limit, KDUMP and QEMU_DUMP (0 or 1)
# what the boot was armed with. Prints key=value lines:
#   outcome=   kdump           the capture kernel wrote the dump
#              capture-failed  it started and wrote none (why: its panic,
#                              makedumpfile's failure, or a copy cut short)
#              panic           the kernel panicked (and no capture kernel ran)
#              poweroff        the guest powered itself off
#              triple-fault    TCG logged a triple fault (a silent reset)
#              reset           the guest reset itself, nothing said
#              timeout         QEMU ran into TIMEOUT
#              error           QEMU was killed or stopped from outside, or
#                              exited in a way none of the above explains
#   reason=    one sentence: the evidence for the outcome
#   captured=  the dumps whose writing finished, by the guest's or QEMU's
#              own word: vmcore vmcore.elf (kdump), qemu-vmcore
#              qemu-vmcore.elf (QEMU's); a dump missing here is not whole
#   module_text=  where the guest loaded lkdtm_ext's .text (for gdb)
#   usermod=   loaded, idle, hung or failed: a user's module (MODULE=)
#   usermod_error=, usermod_kernel=  insmod's error, the kernel's last word
#   kdump_error=  kdump was armed, the guest crashed, and kdump wrote no
#              dump: why (it did not arm, its kernel failed or never started)
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

[ $# = 6 ] || die "usage: classify.sh BOOT_DIR QEMU_RC WALL TIMEOUT KDUMP QEMU_DUMP"
dir=$1 rc=$2 wall=$3 limit=$4 kdump=$5 qdump=$6
[ -f "$dir/console.log" ] || die "$dir has no console.log"
for n in "$rc" "$limit"; do
	case $n in '' | *[!0-9]*) die "not a number: '$n'" ;; esac
done
secs=${wall%.*}
secs=${secs:-0}

# What QEMU said, and what its dump helper did.
stopped=$(grep -m1 -o 'terminating on signal [0-9]*.*' "$dir/qemu.log" 2>/dev/null || true)
triple=0
grep -qs '^Triple fault' "$dir/qemu-debug.log" && triple=1
qpanic=0
grep -qs '^guest panicked' "$dir/qemu-dump.log" && qpanic=1
# QEMU's dumps: each "dump-guest-memory format F" line, then its fate.
qcaptured=$(awk '/^guest panicked; dump-guest-memory format / { f = $5 }
	/^dump completed/ && f != "" { print (f == "elf" ? "qemu-vmcore.elf" : "qemu-vmcore"); f = "" }' \
	"$dir/qemu-dump.log" 2>/dev/null | tr '\n' ' ' | sed 's/ $//')

# The console, read once: each fact the decision needs.
kernel_log "$dir/console.log" | awk '
	function keep(v) { gsub(/\t/, " ", v); return substr(v, 1, 200) }
	/^Linux version / { boots++ }
	/^lab: kdump FAILED to arm/ || (/^lab: kdump: / && !/ sha256 /) { arm = arm (arm ? "; " : "") keep(substr($0, 6)) }
	/^lab: kdump armed/ { armed = 1; arm = "" }
	/^lab: capture kernel up/ { up = 1 }
	/^lab: capture: makedumpfile .* to \/dev\/vda done/ { vda = 1 }
	/^lab: capture: makedumpfile .* to \/dev\/vdb done/ { vdb = 1 }
	/^lab: capture: makedumpfile .* FAILED/ { mfail = mfail (mfail ? "; " : "") keep(substr($0, 15)); want = 1; next }
	want && /^lab: makedumpfile: / { mfail = mfail " " keep(substr($0, 21)); next }
	{ want = 0 }
	boots <= 1 && /Kernel panic - not syncing/ && !panic1 { panic1 = keep(substr($0, index($0, "Kernel panic"))) }
	boots > 1 && !why2 && (/Kernel panic - not syncing/ || /Out of memory/) { why2 = keep($0) }
	/reboot: Power down/ { off = 1 }
	/^lab: / && !/^lab: powering off/ && !/^lab: dmesg: / { last = keep(substr($0, 6)) }
	/^lab: module lkdtm_ext \.text / && !text { text = $5 }
	/^lab: usermod [^ ]*\.ko failed to load: / { um = "failed"; v = $0; sub(/^lab: usermod [^ ]*\.ko failed to load: /, "", v); uerr = keep(v) }
	/^lab: usermod [^ ]* loaded; / { um = "loaded" }
	/^lab: usermod [^ ]*: nothing happened/ { um = "idle" }
	/^lab: usermod [^ ]*: its init did not return/ { um = "hung" }
	/^lab: dmesg: / { v = $0; sub(/^lab: dmesg: \[ *[0-9.]*\] /, "", v); if (v !~ /^lab/) ukern = keep(v) }
	END {
		printf "boots\t%d\narm\t%s\narmed\t%d\nup\t%d\nvda\t%d\nvdb\t%d\nmfail\t%s\n", boots, arm, armed, up, vda, vdb, mfail
		printf "panic1\t%s\nwhy2\t%s\noff\t%d\nlast\t%s\ntext\t%s\n", panic1, why2, off, last, text
		printf "um\t%s\nuerr\t%s\nukern\t%s\n", um, uerr, ukern
	}' >"$dir/.classify.$$"
fact() { awk -F '\t' -v k="$1" '$1 == k { print $2; exit }' "$dir/.classify.$$"; }
boots=$(fact boots) arm=$(fact arm) armed=$(fact armed) up=$(fact up)
vda=$(fact vda) vdb=$(fact vdb) mfail=$(fact mfail) panic1=$(fact panic1)
why2=$(fact why2) off=$(fact off) last=$(fact last)
echo "module_text=$(fact text)"
um=$(fact um)
if [ -n "$um" ]; then
	echo "usermod=$um"
	[ -n "$(fact uerr)" ] && echo "usermod_error=$(fact uerr)"
	[ -n "$(fact ukern)" ] && echo "usermod_kernel=$(fact ukern)"
fi
rm -f "$dir/.classify.$$"

captured=''
[ "$vda" = 1 ] && captured=vmcore
[ "$vdb" = 1 ] && captured="${captured:+$captured }vmcore.elf"

# kdump_word: what became of kdump, for a boot armed with it that wrote
# no dump: the guest's own word when arming failed, else what the capture
# kernel said last when it booted (a second "Linux version"), else that it
# never started.
kdump_word() {
	if [ -n "$arm" ]; then
		echo "kdump did not arm: $arm"
	elif [ "$armed" != 1 ]; then
		echo "kdump was never armed (no \"lab: kdump armed\" on the console)"
	elif [ "$boots" -gt 1 ] && [ -n "$why2" ]; then
		echo "the capture kernel failed: $why2"
	elif [ "$boots" -gt 1 ]; then
		echo "the capture kernel booted but wrote no dump"
	else
		echo "the capture kernel never started"
	fi
}
during=''
if [ "$up" = 1 ]; then
	during=', during the kdump capture: no dump is taken from it'
elif [ "$boots" -gt 1 ]; then
	during=', while the capture kernel booted: no dump is taken from it'
fi

outcome='' reason=''
if [ "$rc" = 124 ] || { [ "$rc" = 137 ] && [ "$secs" -ge "$limit" ]; }; then
	outcome=timeout
	reason="QEMU was still running after the run's limit of $limit s"
	[ -n "$panic1" ] && reason="$reason, after the kernel's $panic1"
	[ -n "$during" ] && reason="$reason$during"
	[ -z "$panic1$during" ] && [ -n "$last" ] && reason="$reason; the guest's last word: $last"
	captured=''
elif [ "$rc" -gt 128 ]; then
	outcome=error
	reason="QEMU was killed by signal $(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128))) after $secs s$during"
	captured=''
elif [ -n "$stopped" ]; then
	outcome=error
	reason="QEMU stopped: $stopped, after $secs s$during"
	captured=''
elif [ "$up" = 1 ] && [ -n "$captured" ]; then
	outcome=kdump
	reason="the capture kernel wrote $(echo "$captured" | sed 's/ / and /')"
	[ -n "$mfail" ] && reason="$reason; $mfail"
elif [ "$up" = 1 ] || { [ "$kdump" = 1 ] && [ "$boots" -gt 1 ]; }; then
	outcome=capture-failed
	if [ -n "$mfail" ]; then
		reason="the capture kernel started, and $mfail"
	elif [ -n "$why2" ]; then
		reason="the capture kernel failed: $why2"
	else
		reason="the capture kernel started and did not finish writing the dump (no \"to /dev/vda done\" on the console)"
	fi
elif [ -n "$panic1" ] || [ "$qpanic" = 1 ]; then
	outcome=panic
	reason=${panic1:-QEMU saw the guest panic (pvpanic), with no panic line on the console}
	[ "$kdump" = 1 ] && reason="$reason; $(kdump_word)"
	if [ "$qdump" = 1 ]; then
		captured=$qcaptured
		reason="$reason; QEMU wrote ${captured:-no dump}"
	fi
elif [ "$off" = 1 ]; then
	outcome=poweroff
	reason="the guest powered off${last:+ after: $last}"
elif [ "$triple" = 1 ]; then
	outcome='triple-fault'
	reason="TCG logged a triple fault: the CPU reset with nothing on the console"
elif [ "$rc" = 0 ]; then
	outcome=reset
	reason="the guest reset itself with no panic and no power-off on the console"
else
	outcome=error
	reason="QEMU exited with status $rc without a power-off or a panic: $(head -1 "$dir/qemu.log" 2>/dev/null | cut -c1-150)"
fi
echo "outcome=$outcome"
echo "reason=$reason"
echo "captured=$captured"
# kdump armed, the guest crashed, and no dump from it: why, in one line.
if [ "$kdump" = 1 ]; then
	case $outcome in
	capture-failed) echo "kdump_error=$reason" ;;
	panic | triple-fault | reset) echo "kdump_error=$(kdump_word)" ;;
	poweroff) if [ -n "$arm" ]; then echo "kdump_error=$(kdump_word)"; fi ;;
	timeout | error) if [ -n "$during" ]; then echo "kdump_error=$reason"; fi ;;
	esac
fi
exit 0
