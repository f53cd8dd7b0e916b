# shellcheck shell=sh
# shellcheck disable=SC2034 # read by vm/lib.sh and the steps
# vm/kernels/lab-6.1.sh - the lab's own kernel (KERNEL=lab LINUX=6.1, the
# default): Debian's linux-source-6.1 with patches/series on top, configured
# as tinyconfig plus config/base.config and config/VARIANT.config (vmap,
# novmap, and orc: ORC and KASLR, the way distributions build), built
# from source by vm/builders/kernel-source.sh, one build per variant.

# How it is made: vm/builders/kernel-$KERNEL_RECIPE.sh.
KERNEL_RECIPE=source
# The variants, the first the default.
KERNEL_VARIANTS="vmap novmap orc"
# The source: a tarball, its top directory, the Debian package that has it.
KERNEL_SOURCE=${LAB_SRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
KERNEL_SOURCE_TOP=linux-source-6.1
KERNEL_PACKAGE=linux-source-6.1
# The series applied on top of it, and the config fragments' directory.
KERNEL_PATCHES=${LAB_PATCHES:-$LAB_ROOT/patches}
KERNEL_CONFIG=$LAB_ROOT/vm/kernels/config
# Where its tree and builds live: the cache's top, as before kernels had
# descriptions (a second line gets a directory of its own).
KERNEL_HOME=$STACKOV_CACHE
KERNEL_TREE=$KERNEL_HOME/linux
# What every boot of it adds to the command line: vmap's and novmap's
# configs have no KASLR, and nokaslr says so to a reader of run.json; orc
# randomises, as a distribution's kernel does.
KERNEL_CMDLINE=nokaslr
kernel_cmdline() {
	[ "$1" = orc ] || echo "$KERNEL_CMDLINE"
}

# kernel_fragments VARIANT: the config fragments merged onto tinyconfig, in
# order; a later one's word on an option wins. Every option they end up
# asking for must be in .config.
kernel_fragments() {
	echo "$KERNEL_CONFIG/base.config $KERNEL_CONFIG/$1.config"
}
