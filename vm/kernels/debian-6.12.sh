# shellcheck shell=sh
# shellcheck disable=SC2034 # read by vm/lib.sh and the steps
# vm/kernels/debian-6.12.sh - Debian 12's Linux 6.12, unpatched (KERNEL=debian
# LINUX=6.12): the image linux-image-6.12-amd64 depends on (from
# bookworm-security), unpacked from its package into the cache; its debug
# vmlinux, the one file taken from the matching -dbg package; out-of-tree
# modules built against the matching headers. Made by
# vm/builders/kernel-debian.sh. One variant, stock: ORC (6.4's format),
# KASLR, randomised memory and stack offsets, VMAP_STACK, as Debian builds it.
# What every Debian image shares is vm/kernels/debian.sh.
#
# Unlike 6.1's, 6.12's linux-headers package depends on its image, so apt
# would install this kernel in this machine's /boot to give the headers.
# The recipe unpacks the headers, their -common half and linux-kbuild into
# the cache instead (KERNEL_HEADERS=unpack): nothing touches /usr/src.

# shellcheck source=vm/kernels/debian.sh
. "$LAB_ROOT/vm/kernels/debian.sh"
# The metapackage whose dependency names the image (linux-image-ABI);
# DEBIAN_ABI=6.12.NNN+deb12-amd64 pins one instead.
KERNEL_PACKAGE=linux-image-6.12-amd64
KERNEL_HEADERS=unpack
KERNEL_HOME=$STACKOV_CACHE/debian-6.12
# KASLR as Debian boots it. makedumpfile 1.7.2 at -d 31 leaves out pages
# crash and drgn need on 6.12 (vm/kernels/lab-6.12.sh): -d 1 here too.
KERNEL_CMDLINE='lab.dumplevel=1'
# Debian's 6.1 needed 192M for its capture kernel (debian-6.1.sh); 6.12's
# image and modules are larger, and 256M is what runs here.
KERNEL_CRASHKERNEL=256M
# virtio_pci is built in on 6.12; the rest are modules, xz-compressed.
KERNEL_BOOT_MODULES="virtio_blk qemu_fw_cfg pvpanic-mmio"
