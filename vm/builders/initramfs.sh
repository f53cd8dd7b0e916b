#!/bin/sh
# vm/builders/initramfs.sh VARIANT - build the guest initramfs: busybox-static, the
# lab's init and guest programs, and the lkdtm-ext module of VARIANT.
# Reproducible: fixed owners and timestamps, sorted entries, gzip -n, so the
# same inputs give the same bytes.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

variant=${1:-$DEFAULT_VARIANT}
check_variant "$variant"
ko=$(module_dir "$variant")/lkdtm_ext.ko
[ -f "$ko" ] || die "module for $variant is not built (make module VARIANT=$variant)"
busybox=/bin/busybox
GUEST_DEBIAN_BINS="kexec makedumpfile"
[ -x "$busybox" ] || die "$busybox missing (apt-get install busybox-static)"
if readelf -l "$busybox" | grep -q 'program interpreter'; then
	die "$busybox is dynamically linked (apt-get install busybox-static)"
fi

# The kernel's own modules it needs to boot here (a description's
# KERNEL_BOOT_MODULES: Debian's kernel has virtio and fw_cfg as modules),
# from its package's tree, in the order the guest loads them.
# Each after what it depends on (modinfo's depends: the package ships no
# modules.dep, depmod makes it on install).
# Debian's 6.12 ships them xz-compressed (NAME.ko.xz): the initramfs gets
# them uncompressed, for busybox's insmod.
bootmods=''
find_module() { # NAME
	find "$(kernel_boot_module_dir "$variant")/kernel" -name "$1.ko" -o -name "$1.ko.xz" | head -1
}
add_module() { # NAME
	case " $bootmods " in *"/$1.ko "* | *"/$1.ko.xz "*) return 0 ;; esac
	f=$(find_module "$1")
	[ -n "$f" ] || die "kernel $LAB_KERNEL $variant has no module $1.ko (KERNEL_BOOT_MODULES)"
	for dep in $(modinfo -F depends "$f" | tr , ' '); do
		add_module "$dep"
	done
	f=$(find_module "$1")
	bootmods="$bootmods $f"
}
for m in ${KERNEL_BOOT_MODULES:-}; do
	add_module "$m"
done

out=$(initramfs_image "$variant")
# shellcheck disable=SC2046,SC2086
key=$(hash_files "$LAB_ROOT/vm/guest/init" "$LAB_ROOT/vm/builders/initramfs.sh" \
	$(ls "$LAB_ROOT"/vm/guest/*.c "$LAB_ROOT"/bench/*.c) "$ko" "$busybox" $(for b in $GUEST_DEBIAN_BINS; do command -v "$b"; done) $bootmods)
up_to_date() { [ "${LAB_FORCE:-0}" != 1 ] && [ -f "$out" ] && [ "$(cat "$out.key" 2>/dev/null)" = "$key" ]; }
if up_to_date || { lab_lock exclusive "to build the $variant initramfs" && up_to_date; }; then
	exit 0
fi
work=$KERNEL_HOME/initramfs/$variant.d
rm -rf "$work"
remove_on_exit "$work" "$out.tmp"
mkdir -p "$work/root/bin" "$work/root/lib/modules" "$work/root/proc" \
	"$work/root/sys" "$work/root/dev" "$work/root/tmp" "$work/root/etc"

# Guest-side programs: C, static, built here (the benchmark's too).
for src in "$LAB_ROOT"/vm/guest/*.c "$LAB_ROOT"/bench/*.c; do
	prog=$(basename "$src" .c)
	gcc -static -O2 -Wall -Werror -o "$work/root/bin/$prog" "$src" ||
		die "guest program $prog failed to build"
done

# Debian's own kexec and makedumpfile, with exactly the shared libraries
# ldd says they load (and the dynamic loader), at the same paths.
for bin in $GUEST_DEBIAN_BINS; do
	path=$(command -v "$bin") || die "$bin missing (apt-get install kexec-tools makedumpfile)"
	cp -L "$path" "$work/root/bin/$bin"
	ldd "$path" | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p' |
		while read -r lib; do
			mkdir -p "$work/root$(dirname "$lib")"
			cp -L "$lib" "$work/root$lib"
		done
done
cp "$busybox" "$work/root/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$work/root/bin/$applet" ] || ln -s busybox "$work/root/bin/$applet"
done
cp "$LAB_ROOT/vm/guest/init" "$work/root/init"
chmod 755 "$work/root/init"
cp "$ko" "$work/root/lib/modules/"
if [ -n "$bootmods" ]; then
	mkdir -p "$work/root/lib/modules/boot"
	for f in $bootmods; do
		m=$(basename "${f%.xz}" .ko)
		case $f in
		*.xz) xz -dc "$f" >"$work/root/lib/modules/boot/$m.ko" || die "cannot uncompress $f" ;;
		*) cp "$f" "$work/root/lib/modules/boot/" ;;
		esac
		echo "$m"
	done >"$work/root/lib/modules/boot/order"
fi
printf 'root:x:0:0:root:/:/bin/sh\nlab:x:1000:1000:lab:/tmp:/bin/sh\n' >"$work/root/etc/passwd"
printf 'root:x:0:\nlab:x:1000:\n' >"$work/root/etc/group"

# Deterministic archive.
pack_cpio "$work/root" "$out.tmp"
mv "$out.tmp" "$out"
echo "$key" >"$out.key"
rm -rf "$work"
say "initramfs for $variant: $out ($(du -k "$out" | cut -f1) KiB)"
