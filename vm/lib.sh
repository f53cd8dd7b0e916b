# shellcheck shell=sh
# shellcheck disable=SC2034 # the variables here are read by the scripts that source it
# vm/lib.sh - the one place that decides where things live, and which
# kernel a step works on. Sourced by every script in vm/, tests/ and bench/.

# The clone: the directory above the vm/ that holds this file, found from
# the sourcing script's own path (vm/X.sh, vm/ROOM/X.sh, tests/X.sh...).
LAB_ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")" && while [ ! -f vm/lib.sh ] && [ "$PWD" != / ]; do cd ..; done && pwd)
[ -f "$LAB_ROOT/vm/lib.sh" ] || { echo "${0##*/}: error: cannot find the lab's clone above $0" >&2; exit 1; }
# The cache lives outside the clone; keyed subdirectories below it.
STACKOV_CACHE=${STACKOV_CACHE:-${HOME:-/root}/.cache/stackov-lab}
LAB_OUT=${LAB_OUT:-$LAB_ROOT/out}
LAB_JOBS=${LAB_JOBS:-$(nproc)}
# The dump readers (crash, gdb, drgn): Debian trixie's packages (the
# default), sid's (the newest), or this machine's own (host: Debian 12's
# gdb and drgn, crash built from source). vm/builders/readers.sh.
READERS=${READERS:-trixie}
case $READERS in
trixie | sid | host) ;;
*) echo "${0##*/}: error: unknown READERS '$READERS' (valid: trixie sid host)" >&2; exit 1 ;;
esac

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

# LAB_SAY_T0=EPOCH (bench/cold-start.sh): each line says the seconds since.
say() {
	if [ -n "${LAB_SAY_T0:-}" ]; then
		printf '==> [%ss] %s\n' "$(($(date +%s) - LAB_SAY_T0))" "$*" >&2
	else
		printf '==> %s\n' "$*" >&2
	fi
}

# ---- The kernel: a description in vm/kernels/, chosen by KERNEL and LINUX.
# A description is a few variables and, where its kernel is not built the
# usual way, functions overriding the defaults below. vm/kernels/README.md
# says what each one means; every step asks these, never a fixed path.
LAB_KERNEL=${KERNEL:-lab}-${LINUX:-6.1}

# kernels_described: the names of every description, e.g. "lab-6.1".
kernels_described() {
	for f in "$LAB_ROOT"/vm/kernels/*-*.sh; do
		[ -f "$f" ] && basename "$f" .sh
	done | tr '\n' ' ' | sed 's/ $//'
}

check_variant() {
	case " $KERNEL_VARIANTS " in
	*" $1 "*) ;;
	*) die "unknown VARIANT '$1' (valid: $KERNEL_VARIANTS)" ;;
	esac
}

# Where a variant's builds land: $KERNEL_HOME/build/VARIANT (kbuild O=),
# module/VARIANT, initramfs/VARIANT.cpio.gz.
kbuild_dir() {
	echo "$KERNEL_HOME/build/$1"
}
kernel_image() {
	echo "$(kbuild_dir "$1")/arch/x86/boot/bzImage"
}
kernel_vmlinux() {
	echo "$(kbuild_dir "$1")/vmlinux"
}
# kernel_modbuild VARIANT: the directory out-of-tree modules build against
# (make -C DIR M=...): it holds Module.symvers.
kernel_modbuild() {
	kbuild_dir "$1"
}
# kernel_key VARIANT: a word that changes whenever VARIANT's kernel does.
kernel_key() {
	cat "$(kbuild_dir "$1")/lab-key" 2>/dev/null || true
}
module_dir() {
	echo "$KERNEL_HOME/module/$1"
}
initramfs_image() {
	echo "$KERNEL_HOME/initramfs/$1.cpio.gz"
}
# kernel_boot_module_dir VARIANT: the tree of the kernel's own modules,
# where KERNEL_BOOT_MODULES (what the guest loads first) are found.
kernel_boot_module_dir() {
	echo "$(kbuild_dir "$1")/lib/modules"
}
# kernel_cmdline VARIANT: what every boot of VARIANT adds to the command line.
kernel_cmdline() {
	echo "$KERNEL_CMDLINE"
}

# KERNEL_SERIES: 1 when the kernel carries patches/series (the lab's own),
# 0 when it does not (a distribution's). needs_series WHAT PATCH: on a
# kernel without the series, one line saying WHAT needs it, and exit 3 (a
# refusal said in full: a caller adds no line of its own).
KERNEL_SERIES=1
needs_series() {
	[ "$KERNEL_SERIES" = 1 ] && return 0
	printf '%s: error: %s needs the lab kernel (patch %s); %s has no patches/series\n' \
		"${0##*/}" "$1" "$2" "$LAB_KERNEL" >&2
	exit 3
}
# check_scenarios "A B": each a scenario of make list, or one line that
# names the valid ones, and exit.
check_scenarios() {
	for one in $1; do
		"$LAB_ROOT/vm/list.sh" | grep -q "^$one " ||
			die "unknown SCENARIO '$one'; valid: $("$LAB_ROOT/vm/list.sh" | cut -d' ' -f1 | tr '\n' ' ')"
	done
}
# fatal_scenarios: those whose vmap outcome in tests/scenarios.tsv is a
# kdump, one per line, in the table's order.
fatal_scenarios() {
	awk -F '\t' '!/^#/ && $5 ~ /result=kdump/ { print $1 }' "$LAB_ROOT/tests/scenarios.tsv"
}
# check_series_args ARGS: the kernel parameters that only the series
# adds (patches/README.md), each with the patch that adds it.
check_series_args() {
	for w in $1; do
		case $w in
		kstack_cache=*) needs_series "$w" 0002 ;;
		kstack_free=*) needs_series "$w" 0003 ;;
		vmap_stack_overflow=*) needs_series "$w" 0004 ;;
		esac
	done
}

# use_kernel NAME: load vm/kernels/NAME.sh (on top of the defaults above).
use_kernel() {
	[ -f "$LAB_ROOT/vm/kernels/$1.sh" ] ||
		die "no kernel '$1' (KERNEL=${KERNEL:-lab} LINUX=${LINUX:-6.1}); described: $(kernels_described)"
	# shellcheck disable=SC1090 # one of vm/kernels/*-*.sh
	. "$LAB_ROOT/vm/kernels/$1.sh"
	LAB_KERNEL=$1
	DEFAULT_VARIANT=${KERNEL_VARIANTS%% *}
}

# kernel_log FILE: a console log as text: no carriage returns, no printk
# timestamps.
kernel_log() {
	tr -d '\r' <"$1" | sed 's/^\[ *[0-9.]*\] //'
}

# crash_limitation ERROR [VERDICT [OUT [VERSION]]]: the limitation of
# crash's code behind one of its bt errors, in one line, or nothing when the
# error is not one the lab has traced to crash's code. VERDICT is stackov's
# JSON on the same dump, OUT the file with crash's whole output there,
# VERSION the crash's (readers.json): the line names the crash that said it.
# Both are seen in Debian's crash 8.0.6 (trixie); crash 9.0.2 (sid) has
# the second only: it reads QEMU's dump with no IST error.
# - x86_64_get_dumpfile_stack_frame() searches every IST stack of a CPU it
#   has no saved registers for (in QEMU's dump, a CPU that panic stopped);
#   x86_64_exception_stacks_init() names them from the IDT gates that use
#   them, and gives size 0 to one that no gate uses: the VC stack on a
#   kernel without CONFIG_AMD_MEM_ENCRYPT, the MCE stack without
#   CONFIG_X86_MCE (the lab kernel has neither; Debian's has both, and its
#   dumps show no such error).
# - x86_64_in_irqstack() finds the interrupted stack from the exception
#   frame's saved rsp, which an overflow leaves in the guard page
#   below the stack it overflowed (or, from a frame that skipped the guard,
#   further below): bt cannot cross from the #DF stack.
# hex_below A B: A and B are addresses of 16 hex digits and A < B (as
# strings, in the order of the numbers).
hex_below() {
	[ -n "$1" ] && [ -n "$2" ] && [ "$1" != "$2" ] &&
		[ "$(printf '%s\n%s\n' "$1" "$2" | sort | head -1)" = "$1" ]
}

crash_limitation() {
	cv="crash${4:+ $4}"
	case $1 in
	*'invalid size request: 0'*'stack contents'* | *'read of stack at fffffe'*)
		echo "$cv reads an IST stack no IDT gate uses (this kernel has no CONFIG_AMD_MEM_ENCRYPT or CONFIG_X86_MCE) as size 0, while it looks for the registers of a CPU that panic stopped, which leaves the panic task's bt as it is" ;;
	*'cannot transition from exception stack to current process stack'*)
		rsp=$(printf '%s' "${2:-}" | sed -n 's/.*"rsp":"\([0-9a-f]*\)".*/\1/p')
		lo=$(printf '%s' "${2:-}" | sed -n 's/.*"lo":"\([0-9a-f]*\)".*/\1/p')
		stk=$(printf '%s' "${2:-}" | sed -n 's/.*"stack":"\([A-Z]*\)".*/\1/p')
		hex_below "$rsp" "$lo" &&
			echo "$cv finds the interrupted stack from the saved rsp ($rsp), which this overflow left below the $stk stack ($lo), in its guard page: bt cannot leave the #DF stack" && return
		# No bounds in VERDICT (a refusal: the frame skipped the guard):
		# crash's own message (in OUT) gives the rsp and the stack's base.
		[ -f "${3:-}" ] || return 0
		rsp=$(sed -n 's/^ *process stack pointer: \([0-9a-f]\{16\}\)$/\1/p' "$3" | head -1)
		lo=$(sed -n 's/^ *current stack base: \([0-9a-f]\{16\}\)$/\1/p' "$3" | head -1)
		hex_below "$rsp" "$lo" &&
			echo "$cv finds the interrupted stack from the saved rsp ($rsp), which this frame left below the task's stack ($lo), past its guard page: bt cannot leave the #DF stack" ;;
	esac
	true
}

# series_patches DIR: the patch files DIR/series names, in order.
series_patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1/series"
}

# bisect_key: what a bisection of the series stands for (its patches, in
# order, and the default variant's fragments). $KERNEL_HOME/bisect/passed
# holds the key of the last series found to build patch by patch,
# $KERNEL_HOME/bisect/report its "patch N builds: NAME (S s)" lines.
bisect_key() {
	# shellcheck disable=SC2046 # names with no spaces
	(cd "$KERNEL_PATCHES" && hash_files $(series_patches .) $(kernel_fragments "$DEFAULT_VARIANT"))
}

# pack_cpio DIR OUT: the tree under DIR as a reproducible gzip'd newc cpio
# archive (fixed owner and timestamps, sorted entries).
pack_cpio() {
	find "$1" -exec touch -h -d @0 {} +
	(cd "$1" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0 --reproducible) |
		gzip -n -9 >"$2"
}

# overlay_initramfs VARIANT DIR OUT: the lab's initramfs of VARIANT with
# the tree under DIR appended as a second archive (the kernel unpacks
# concatenated cpio archives one after the other).
overlay_initramfs() {
	pack_cpio "$2" "$3.overlay"
	cat "$(initramfs_image "$1")" "$3.overlay" >"$3"
}

# new_run_dir LABEL VARIANT: make a fresh, unique run directory under
# out/ and print its absolute path.
new_run_dir() {
	mkdir -p "$LAB_OUT"
	d=$(mktemp -d "$LAB_OUT/$(date +%Y%m%d-%H%M%S)-$1-$2-XXXX") || die "cannot make a run directory in $LAB_OUT"
	CDPATH='' cd -- "$d" && pwd
}

# run_dir LABEL VARIANT: this run's directory, as an absolute path: the
# caller's RUN_DIR (made if missing), else a new one (new_run_dir). Only
# its owner may enter it: a dump holds all of the guest's memory.
run_dir() {
	if [ -n "${RUN_DIR:-}" ]; then
		mkdir -p "$RUN_DIR" && chmod 700 "$RUN_DIR" && CDPATH='' cd -- "$RUN_DIR" && pwd
	else
		new_run_dir "$1" "$2"
	fi
}

# crash_include CRASH: the directory with the defs.h of crash binary
# CRASH: the lab's own build has its source next to it; a distribution's
# crash new enough to be used as it is ships /usr/include/crash/defs.h.
crash_include() {
	for d in "$(dirname "$1")" /usr/include/crash; do
		[ -f "$d/defs.h" ] && { echo "$d"; return 0; }
	done
	die "no crash defs.h next to $1 or in /usr/include/crash"
}

# chroot_run ROOT CMD...: CMD in the Debian root ROOT (vm/builders/chroot.sh),
# with a plain environment and /proc mounted in a mount namespace of its
# own (unshare): the mount ends with CMD, however CMD ends.
chroot_run() {
	cr_root=$1
	shift
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
		unshare --mount --propagation private sh -c 'mount -t proc proc "$0/proc" && exec chroot "$0" "$@"' "$cr_root" "$@"
}

# verdict_text FILE: stackov's verdict text in a reader's output FILE, from
# its "stack overflow: " or "no stack overflow: " line to the last line
# indented under it (what report.sh keeps as stackov-READER-DUMP.txt).
verdict_text() {
	sed -n '/^\(no \)\{0,1\}stack overflow: /,/^[^ ]/p' "$1" |
		sed '/^[^ ]/{/^\(no \)\{0,1\}stack overflow: /!d}'
}

# engine_sources: libstackov's C files that make the engine (all but
# stackov-replay's main), one a word, as a reader compiles them in.
engine_sources() {
	for f in "$LAB_ROOT"/libstackov/*.c; do
		case $f in */replay-main.c) ;; *) printf '%s ' "$f" ;; esac
	done
}

# remove_on_exit PATH...: remove PATHs when the script ends, however it
# ends (an error, Ctrl-C, a timeout's TERM). Paths hold no spaces.
LAB_CLEANUP=''
remove_on_exit() {
	LAB_CLEANUP="$LAB_CLEANUP $*"
	trap 'rm -rf $LAB_CLEANUP' EXIT
	trap 'rm -rf $LAB_CLEANUP; trap - EXIT; exit 130' INT TERM HUP
}

# Point out/latest at run directory $1 (absolute), atomically: relative to
# out/ when the run is inside it (out/RUN, or deeper when RUN_DIR named a
# directory further down), else the absolute path.
set_latest() {
	case $1 in
	"$LAB_OUT"/*) latest_to=${1#"$LAB_OUT"/} ;;
	*) latest_to=$1 ;;
	esac
	ln -sfn "$latest_to" "$LAB_OUT/latest.tmp.$$"
	mv -T "$LAB_OUT/latest.tmp.$$" "$LAB_OUT/latest"
}

# lab_lock shared|exclusive WHAT: hold the cache's lock until this script
# and its children exit. Builds (everything that writes the cache) hold it
# exclusive, guest runs shared: a build waits for runs and other builds,
# runs wait for builds, and each waiter says so in one line. A script
# started under a lock it already holds (LAB_LOCKED) does not take it again.
lab_lock() {
	[ -n "${LAB_LOCKED:-}" ] && return 0
	mkdir -p "$STACKOV_CACHE"
	exec 9>>"$STACKOV_CACHE/lock"
	if [ "$1" = shared ]; then set -- -s "$2"; else set -- -x "$2"; fi
	if ! flock -n "$1" 9; then
		say "waiting: another stackov-lab build or run holds $STACKOV_CACHE/lock ($2)"
		flock "$1" 9
	fi
	LAB_LOCKED=$1
	export LAB_LOCKED
}

# sha256 of the contents of the named files, in order, plus their names.
hash_files() {
	for f in "$@"; do
		printf '%s\n' "${f##*/}"
		cat "$f"
	done | sha256sum | cut -c1-16
}

# gdbstub_up RUN_DIR: the guest of RUN_DIR is up far enough for gdb: its
# record names the vmlinux and QEMU listens on its gdb port. qemu.sh
# writes gdb.port before the record, and QEMU listens only once started.
gdbstub_up() {
	[ -s "$1/gdb.port" ] && [ -n "$(rec_get "$1" .kernel.vmlinux 2>/dev/null)" ] &&
		ss -Hltn "sport = :$(cat "$1/gdb.port")" 2>/dev/null | grep -q .
}

# cpu_of_times FILE: "user sys" seconds of a shell's children, from the
# output of times that the shell ran itself into FILE (times in a pipe or
# in $(...) reports a new subshell's, nothing). For the benches.
cpu_of_times() {
	tail -1 "$1" | awk '{ for (i = 1; i <= 2; i++) {
		split($i, a, /[ms]/); t[i] = a[1] * 60 + a[2] } printf "%.0f %.0f\n", t[1], t[2] }'
}

# The run record (run.json), read and written through vm/record.sh only.
# shellcheck source=vm/record.sh
. "$LAB_ROOT/vm/record.sh"

use_kernel "$LAB_KERNEL"
