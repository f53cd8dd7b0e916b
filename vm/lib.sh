# shellcheck shell=sh
# shellcheck disable=SC2034 # the variables here are read by the scripts that source it
# vm/lib.sh - the one place that decides where things live.
# Sourced by every script in vm/, tests/ and bench/.

LAB_ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
# The cache lives outside the clone; keyed subdirectories below it.
STACKOV_CACHE=${STACKOV_CACHE:-${HOME:-/root}/.cache/stackov-lab}
LAB_SRC_TARBALL=${LAB_SRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
LAB_TREE=$STACKOV_CACHE/linux
LAB_PATCHES=${LAB_PATCHES:-$LAB_ROOT/patches}
LAB_OUT=${LAB_OUT:-$LAB_ROOT/out}
LAB_VARIANTS="vmap novmap"
LAB_JOBS=${LAB_JOBS:-$(nproc)}

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

say() {
	printf '==> %s\n' "$*" >&2
}

check_variant() {
	case " $LAB_VARIANTS " in
	*" $1 "*) ;;
	*) die "unknown VARIANT '$1' (valid: $LAB_VARIANTS)" ;;
	esac
}

# Output directory of one kernel variant (kbuild O=).
kbuild_dir() {
	echo "$STACKOV_CACHE/build/$1"
}

# Per-variant artefacts the rest of the lab consumes.
kernel_image() {
	echo "$(kbuild_dir "$1")/arch/x86/boot/bzImage"
}
kernel_vmlinux() {
	echo "$(kbuild_dir "$1")/vmlinux"
}
module_dir() {
	echo "$STACKOV_CACHE/module/$1"
}
initramfs_image() {
	echo "$STACKOV_CACHE/initramfs/$1.cpio.gz"
}

# kernel_log FILE: a console log as text: no carriage returns, no printk
# timestamps.
kernel_log() {
	tr -d '\r' <"$1" | sed 's/^\[ *[0-9.]*\] //'
}

# series_patches DIR: the patch files DIR/series names, in order.
series_patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1/series"
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

# Point out/latest at run directory $1, atomically.
set_latest() {
	ln -sfn "$(basename "$1")" "$LAB_OUT/latest.tmp.$$"
	mv -T "$LAB_OUT/latest.tmp.$$" "$LAB_OUT/latest"
}

# sha256 of the contents of the named files, in order, plus their names.
hash_files() {
	for f in "$@"; do
		printf '%s\n' "${f##*/}"
		cat "$f"
	done | sha256sum | cut -c1-16
}
