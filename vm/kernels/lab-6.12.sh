# shellcheck shell=sh
# shellcheck disable=SC2034 # read by vm/lib.sh and the steps
# vm/kernels/lab-6.12.sh - the lab's kernel on the second line (KERNEL=lab
# LINUX=6.12): Debian's linux-source-6.12 (bookworm-security) with
# patches/6.12/series on top, the series ported; the same config fragments
# and variants as lab-6.1.sh, plus config/6.12.config; built by
# vm/builders/kernel-source.sh into a directory of its own in the cache.

KERNEL_RECIPE=source
KERNEL_VARIANTS="vmap novmap orc"
KERNEL_SOURCE=/usr/src/linux-source-6.12.tar.xz
KERNEL_SOURCE_TOP=linux-source-6.12
KERNEL_PACKAGE=linux-source-6.12
KERNEL_PATCHES=$LAB_ROOT/patches/6.12
KERNEL_CONFIG=$LAB_ROOT/vm/kernels/config
KERNEL_HOME=$STACKOV_CACHE/lab-6.12
KERNEL_TREE=$KERNEL_HOME/linux
# makedumpfile 1.7.2 (Debian 12's) at -d 31 leaves out of a 6.12 dump
# pages the readers need: crash "cannot read pid struct from xarray" and
# finds no vmap_area for the stack, drgn's crashed_thread() meets an
# "Excluded page" in the direct map. Slab pages, we take it: 6.8 gave
# them a page type for PG_slab, which 1.7.2 does not know. Level 1 leaves
# out zero pages only.
KERNEL_DUMP_LEVEL=lab.dumplevel=1
KERNEL_CMDLINE="nokaslr $KERNEL_DUMP_LEVEL"
kernel_cmdline() {
	if [ "$1" = orc ]; then echo "$KERNEL_DUMP_LEVEL"; else echo "$KERNEL_CMDLINE"; fi
}

# 6.12.config between them: what this line needs that 6.1 does not.
kernel_fragments() {
	echo "$KERNEL_CONFIG/base.config $KERNEL_CONFIG/6.12.config $KERNEL_CONFIG/$1.config"
}
