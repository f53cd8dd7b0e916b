#!/bin/sh
# vm/demo-module.sh - make overflow-demo MODULE=dir [MODULE_ARGS="a=1 b=2"]
# [MODULE_WAIT=seconds]: build the user's module against the lab kernel,
# boot with it in the initramfs, arm kdump, load it with its arguments,
# and wait for a panic (or MODULE_WAIT, 60 s). A crash gives the same run
# directory and report as a scenario. A module that does not build or
# does not load gets a one-line reason, and out/latest is left alone.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/lib.sh"

VARIANT=${VARIANT:-$DEFAULT_VARIANT}
MODULE_WAIT=${MODULE_WAIT:-60}
case $MODULE_WAIT in
'' | *[!0-9]*) die "MODULE_WAIT must be a number of seconds, not '$MODULE_WAIT'" ;;
esac
# The arguments travel on the guest's kernel command line and into its
# shell: name=value words of a plain alphabet only, checked before
# anything is built.
args=$(printf '%s\n' "${MODULE_ARGS:-}" | tr -s ' \t' ',,' | sed 's/^,//; s/,$//')
case $args in
*[!A-Za-z0-9_.,=:/+-]*)
	die "MODULE_ARGS='${MODULE_ARGS:-}': only name=value words of letters, digits and _ . : / + - (no quotes, no shell characters)" ;;
esac
built=$("$LAB_ROOT/vm/builders/user-module.sh" "$MODULE" "$VARIANT") || exit 1
initrd=$(echo "$built" | sed -n 1p)
moddir=$(echo "$built" | sed -n 2p)
# The module to load: the one named after the directory, else the first.
name=$(basename "$(CDPATH='' cd -- "$MODULE" && pwd)")
[ -f "$moddir/$name.ko" ] || name=$(basename "$(find "$moddir" -name '*.ko' | sort | head -1)" .ko)
# The lab's own module is loaded in every guest: a module of that name
# could never load beside it.
for ko in "$moddir"/*.ko; do
	case $(basename "$ko" .ko | tr - _) in
	lkdtm_ext) die "MODULE=$MODULE: its module lkdtm_ext.ko has the name of the lab's own module, which every guest loads; rename it" ;;
	esac
done

mkdir -p "$LAB_OUT"
run=$(mktemp -d "$LAB_OUT/$(date +%Y%m%d-%H%M%S)-MODULE-$name-$VARIANT-XXXX")
rmdir "$run"
# The boot waits MODULE_WAIT in the guest: give the run that much more.
RUN_DIR=$run INITRD=$initrd KDUMP=${KDUMP:-1} QEMU_DUMP=0 SCENARIO='' \
	APPEND="${APPEND:-} lab.usermod=$name${args:+ lab.usermod_args=$args} lab.wait=$MODULE_WAIT" \
	VM_TIMEOUT=$((MODULE_WAIT + ${VM_TIMEOUT:-120})) LAB_SHOW=${LAB_SHOW:-1} \
	"$LAB_ROOT/vm/boot/qemu.sh" || true
log=$run/console.log
result=$(run_outcome "$run" 2>/dev/null || true)
case $result in
'' | running) die "the run left no outcome; see $run" ;;
esac
rec_set "$run" '.usermod = {name: $n, dir: $d, args: (if $a == "" then null else $a end), wait_s: ($w | tonumber)}' \
	--arg n "$name" --arg d "$(CDPATH='' cd -- "$MODULE" && pwd)" --arg a "$args" --arg w "$MODULE_WAIT"
cp "$moddir"/*.ko "$run/"
# The compiler's frame sizes (-fstack-usage), for the tests.
cat "$moddir"/*.su >"$run/frames.su" 2>/dev/null || true

# What the guest said of the module: the classifier put it in the record.
state=$(rec_get "$run" '.boots[0].usermod.state')
if [ "$state" = failed ]; then
	why=$(rec_get "$run" '.boots[0].usermod.error')
	kern=$(rec_get "$run" '.boots[0].usermod.kernel')
	die "MODULE=$MODULE: $name.ko did not load: ${why:-insmod failed}${kern:+; kernel: $kern} (run kept in $run; out/latest unchanged)"
fi
set_latest "$run"
echo
echo "== MODULE $name on $VARIANT: the guest ended by $result =="
if [ "$state" = idle ]; then
	echo "$name.ko loaded and nothing happened in ${MODULE_WAIT}s; the guest powered off"
	echo "console: $log"
	exit 0
fi
if [ "$state" = hung ]; then
	echo "$name.ko's init did not return in ${MODULE_WAIT}s (insmod still waiting, no crash); the guest powered off"
	echo "console: $log"
	exit 0
fi
why=$(rec_get "$run" '.boots[0].kdump_error')
[ -n "$why" ] && say "kdump failed: $why"
if dump_path "$run" vmcore >/dev/null; then
	"$LAB_ROOT/vm/read/report.sh" "$run"
else
	echo "no vmcore; console: $log"
fi
