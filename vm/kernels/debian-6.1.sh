# shellcheck shell=sh
# shellcheck disable=SC2034 # read by vm/lib.sh and the steps
# vm/kernels/debian-6.1.sh - Debian 12's own kernel, unpatched (KERNEL=debian
# LINUX=6.1): the image linux-image-amd64 depends on, unpacked from its
# package into the cache; its debug vmlinux, the one file taken from the
# matching -dbg package; out-of-tree modules built against the matching
# linux-headers package, which apt installs under /usr/src. Made by
# vm/builders/kernel-debian.sh. One variant, stock: ORC, KASLR, randomised
# memory and stack offsets, VMAP_STACK, as Debian builds it. What every
# Debian image shares is vm/kernels/debian.sh.

# shellcheck source=vm/kernels/debian.sh
. "$LAB_ROOT/vm/kernels/debian.sh"
# The metapackage whose dependency names the image (linux-image-ABI);
# DEBIAN_ABI=6.1.0-NN-amd64 pins one instead.
KERNEL_PACKAGE=linux-image-amd64
KERNEL_HOME=$STACKOV_CACHE/debian-6.1
# KASLR as Debian boots it; a live gdb adds nokaslr itself.
KERNEL_CMDLINE=''
# The capture kernel is Debian's whole image and its modules: 64M, the lab
# kernel's, fails to arm; 96M is the smallest that wrote the vmcore (make
# bench-crashkernel KERNEL=debian); 192M, twice that, is what runs here.
KERNEL_CRASHKERNEL=192M
# Its drivers are modules: the initramfs carries these from the image's own
# package, with what they depend on, loaded by the guest's init first.
KERNEL_BOOT_MODULES="virtio_pci virtio_blk qemu_fw_cfg pvpanic-mmio"
