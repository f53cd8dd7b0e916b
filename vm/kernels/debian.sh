# shellcheck shell=sh
# shellcheck disable=SC2034 # read by vm/lib.sh and the steps
# vm/kernels/debian.sh - what every description of a Debian image shares
# (debian-6.1.sh, debian-6.12.sh source it; not a kernel itself): the
# recipe, vm/builders/kernel-debian.sh, unpacks the image, its -dbg
# vmlinux and its modules into $KERNEL_HOME/stock, and records there the
# ABI it took. One variant, stock: as Debian builds it. Not patched: what
# needs patches/series says so (kernel_needs_series).

KERNEL_RECIPE=debian
KERNEL_SERIES=0
KERNEL_VARIANTS=stock
# What make deps installs for it: nothing (the image is never this
# machine's kernel; the recipe fetches what it needs).
KERNEL_DEPS=''
KERNEL_TREE=''
KERNEL_PATCHES=''
KERNEL_CONFIG=''

# The ABI (6.1.0-NN-amd64, 6.12.NNN+deb12-amd64) the recipe unpacked.
debian_abi() {
	cat "$KERNEL_HOME/abi" 2>/dev/null || true
}
kbuild_dir() {
	echo "$KERNEL_HOME/$1"
}
kernel_image() {
	echo "$KERNEL_HOME/$1/boot/vmlinuz-$(debian_abi)"
}
kernel_vmlinux() {
	echo "$KERNEL_HOME/$1/vmlinux-$(debian_abi)"
}
# The headers: installed by apt under /usr/src, or with
# KERNEL_HEADERS=unpack unpacked into the cache beside the image.
kernel_modbuild() {
	if [ "${KERNEL_HEADERS:-apt}" = unpack ]; then
		echo "$KERNEL_HOME/$1/usr/src/linux-headers-$(debian_abi)"
	else
		echo "/usr/src/linux-headers-$(debian_abi)"
	fi
}
# The package's version (6.1.192-3), with the ABI.
kernel_key() {
	cat "$KERNEL_HOME/$1/lab-key" 2>/dev/null || true
}
# kernel_boot_module_dir VARIANT: where the image's own modules are.
kernel_boot_module_dir() {
	echo "$KERNEL_HOME/$1/lib/modules/$(debian_abi)"
}
