#!/bin/sh
# vm/boot/capture-disk.sh VARIANT - print the path of a small raw disk image that
# carries this variant's bzImage and initramfs into the guest, so that init
# can load the very same files as its kdump capture kernel. (QEMU's fw_cfg
# sysfs files would do, but under TCG they read at about 60 KiB/s.)
# Layout: sector 0 holds one line "stackov-capture kernel=OFF,SIZE,SHA256
# initrd=OFF,SIZE,SHA256" (offsets in MiB); the files follow, MiB-aligned.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

variant=${1:-$DEFAULT_VARIANT}
check_variant "$variant"
kernel=$(kernel_image "$variant")
initrd=$(initramfs_image "$variant")
img=$KERNEL_HOME/initramfs/$variant.capture.img
key=$(hash_files "$kernel" "$initrd" "$0")
if [ -f "$img" ] && [ "$(cat "$img.key" 2>/dev/null)" = "$key" ]; then
	echo "$img"
	exit 0
fi

remove_on_exit "$img.tmp.$$" "$img.key.$$"
mib=1048576
ksize=$(stat -c %s "$kernel")
isize=$(stat -c %s "$initrd")
koff=1
ioff=$((koff + (ksize + mib - 1) / mib))
ksha=$(sha256sum "$kernel" | cut -d' ' -f1)
isha=$(sha256sum "$initrd" | cut -d' ' -f1)
printf 'stackov-capture kernel=%s,%s,%s initrd=%s,%s,%s\n' \
	$koff "$ksize" "$ksha" $ioff "$isize" "$isha" | dd of="$img.tmp.$$" bs=512 conv=sync status=none
dd if="$kernel" of="$img.tmp.$$" bs=$mib seek=$koff conv=sync,notrunc status=none
dd if="$initrd" of="$img.tmp.$$" bs=$mib seek=$ioff conv=sync,notrunc status=none
echo "$key" >"$img.key.$$"
mv "$img.tmp.$$" "$img"
mv "$img.key.$$" "$img.key"
echo "$img"
