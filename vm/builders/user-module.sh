#!/bin/sh
# vm/builders/user-module.sh DIR VARIANT - build a user's out-of-tree module (a
# directory with a Kbuild or Makefile) against the lab kernel of VARIANT,
# in a copy under the cache, and make an initramfs that is the lab's plus
# the module(s). Prints two lines: the initramfs, then the build directory
# holding the .ko files. On a compiler error, shows it and fails.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

src=${1:?usage: user-module.sh DIR VARIANT}
variant=${2:-$DEFAULT_VARIANT}
check_variant "$variant"
[ -d "$src" ] || die "MODULE=$src: no such directory"
[ -f "$src/Kbuild" ] || [ -f "$src/Makefile" ] || die "MODULE=$src: no Kbuild or Makefile in it"
o=$(kernel_modbuild "$variant")
[ -f "$o/Module.symvers" ] || die "kernel $variant is not built (make kernel VARIANT=$variant)"
abs=$(CDPATH='' cd -- "$src" && pwd)
d=$KERNEL_HOME/user/$variant/$(echo "$abs" | sha256sum | cut -c1-12)
mkdir -p "$d"
# The build's products stay (the compiler's *.su among them: a second
# run with nothing to recompile must still have them); an object whose
# .su is gone (a cache from before that) is made again.
rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' --exclude='*.su' "$abs/" "$d/src/"
find "$d/src" -name '*.o' ! -name '*.mod.o' | while read -r obj; do
	[ -f "${obj%.o}.su" ] || rm -f "$obj"
done
# -fstack-usage: the compiler's frame sizes (*.su), beside the objects.
if ! env -u MAKEFLAGS -u MAKELEVEL make -C "$o" M="$d/src" KCFLAGS=-fstack-usage modules >"$d/build.log" 2>&1; then
	grep -E ': (fatal )?error:|: undefined reference|ERROR:' "$d/build.log" |
		sed "s|$d/src|$abs|g" | head -15 >&2
	die "MODULE=$src does not build against the $variant kernel (the compiler's errors are above; full log: $d/build.log)"
fi
kos=$(find "$d/src" -name '*.ko' | sort)
[ -n "$kos" ] || die "MODULE=$src built no .ko file"

# The lab's initramfs with the module(s) appended.
root=$d/root
rm -rf "$root"
mkdir -p "$root/lib/modules/user"
for ko in $kos; do
	cp "$ko" "$root/lib/modules/user/"
done
overlay_initramfs "$variant" "$root" "$d/initrd.cpio.gz"
echo "$d/initrd.cpio.gz"
echo "$d/src"
