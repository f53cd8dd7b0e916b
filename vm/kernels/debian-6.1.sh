# shellcheck shell=sh
# shellcheck disable=SC2034 # read by vm/lib.sh and the steps
# vm/kernels/debian-6.1.sh - Debian 12's own kernel, unpatched (KERNEL=debian
# LINUX=6.1): the image linux-image-amd64 depends on, unpacked from its
# package into the cache; its debug vmlinux, the one file taken from the
# matching -dbg package; out-of-tree modules built against the matching
# linux-headers package, which apt installs under /usr/src. Made by
# vm/builders/kernel-debian.sh. One variant, stock: ORC, KASLR, randomised
# memory and stack offsets, VMAP_STACK, as Debian builds it. Not patched:
# what needs patches/series says so (kernel_needs_series).

KERNEL_RECIPE=debian
KERNEL_SERIES=0
KERNEL_VARIANTS=stock
# The metapackage whose dependency names the image (linux-image-ABI);
# DEBIAN_ABI=6.1.0-NN-amd64 pins one instead.
KERNEL_PACKAGE=linux-image-amd64
# What make deps installs for it: nothing (the image is never this
# machine's kernel; the recipe installs the headers).
KERNEL_DEPS=''
KERNEL_HOME=$STACKOV_CACHE/debian-6.1
KERNEL_TREE=''
KERNEL_PATCHES=''
KERNEL_CONFIG=''
# KASLR as Debian boots it; a live gdb adds nokaslr itself.
KERNEL_CMDLINE=''
# The capture kernel is Debian's whole image and its modules: 64M, the lab
# kernel's, fails to arm; 96M is the smallest that wrote the vmcore (make
# bench-crashkernel KERNEL=debian); 192M, twice that, is what runs here.
KERNEL_CRASHKERNEL=192M
# Its drivers are modules: the initramfs carries these from the image's own
# package, with what they depend on, loaded by the guest's init first.
KERNEL_BOOT_MODULES="virtio_pci virtio_blk qemu_fw_cfg pvpanic-mmio"

# The ABI (6.1.0-NN-amd64) the recipe unpacked, recorded in the cache.
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
kernel_modbuild() {
	echo "/usr/src/linux-headers-$(debian_abi)"
}
# The package's version (6.1.192-3), with the ABI.
kernel_key() {
	cat "$KERNEL_HOME/$1/lab-key" 2>/dev/null || true
}
# kernel_boot_module_dir VARIANT: where the image's own modules are.
kernel_boot_module_dir() {
	echo "$KERNEL_HOME/$1/lib/modules/$(debian_abi)"
}
