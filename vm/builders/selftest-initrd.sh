#!/bin/sh
# vm/builders/selftest-initrd.sh VARIANT - print the path of an initramfs for LKDTM's
# own selftest: the lab's initramfs plus, as a second cpio archive, the
# in-tree lkdtm.ko, tools/testing/selftests/{lkdtm,kselftest} from the lab's
# kernel tree, unmodified, and what run.sh needs that busybox lacks:
# Debian's coreutils mktemp, comm and timeout (mktemp --tmpdir -t, comm
# --nocheck-order, timeout --foreground).
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

variant=${1:-$DEFAULT_VARIANT}
check_variant "$variant"
o=$(kbuild_dir "$variant")
ko=$o/drivers/misc/lkdtm/lkdtm.ko
[ -f "$ko" ] || die "no in-tree lkdtm.ko in $o (CONFIG_LKDTM=m; make kernel VARIANT=$variant)"
st=$KERNEL_TREE/tools/testing/selftests
d=$KERNEL_HOME/selftest/$variant
root=$d/root
rm -rf "$root"
mkdir -p "$root/lib/modules" "$root/selftests/lkdtm" "$root/selftests/kselftest" "$root/usr/bin"
cp "$ko" "$root/lib/modules/"
cp "$st/lkdtm/run.sh" "$st/lkdtm/tests.txt" "$root/selftests/lkdtm/"
cp "$st/kselftest/runner.sh" "$root/selftests/kselftest/"
for bin in mktemp comm timeout; do
	path=/usr/bin/$bin
	[ -x "$path" ] || die "$path missing (apt-get install coreutils)"
	ldd "$path" | grep -q 'libc.so.6' || die "$path: unexpected libraries"
	cp "$path" "$root/usr/bin/"
done
overlay_initramfs "$variant" "$root" "$d/initrd.cpio.gz"
echo "$d/initrd.cpio.gz"
