#!/bin/sh
# vm/builders/kernel-debian.sh [VARIANT] - make a kernel whose description
# says KERNEL_RECIPE=debian (vm/kernels/debian-6.1.sh): Debian's own image,
# unpatched. Finds the ABI the metapackage depends on (or DEBIAN_ABI),
# downloads linux-image-ABI and linux-image-ABI-dbg with apt-get download,
# unpacks the image (boot/ and lib/modules/) and from the -dbg package only
# its vmlinux, and for out-of-tree modules either installs
# linux-headers-ABI with apt (files under /usr/src only) or, when the
# description says KERNEL_HEADERS=unpack (headers that depend on their
# image), unpacks them with their -common half and linux-kbuild into the
# cache. Nothing is installed as this machine's kernel. All of it lands in a temporary directory first, moved
# into place when whole: an interrupted run leaves nothing half-unpacked.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

variant=${1:-$DEFAULT_VARIANT}
check_variant "$variant"
o=$(kbuild_dir "$variant")

# version PACKAGE: the candidate version in apt's lists, or nothing.
version() {
	apt-cache show --no-all-versions "$1" 2>/dev/null | sed -n 's/^Version: //p' | head -1
}
# abi: DEBIAN_ABI, else the one linux-image-amd64 depends on.
abi() {
	if [ -n "${DEBIAN_ABI:-}" ]; then
		echo "$DEBIAN_ABI"
		return
	fi
	apt-cache depends "$KERNEL_PACKAGE" 2>/dev/null |
		sed -n 's/^ *Depends: linux-image-\([0-9][^ ]*\)$/\1/p' | head -1
}

a=$(abi)
if [ -z "$a" ] || [ -z "$(version "linux-image-$a")" ]; then
	say "apt's lists know no ${DEBIAN_ABI:+linux-image-}${DEBIAN_ABI:-$KERNEL_PACKAGE}: apt-get update"
	apt-get update -q >/dev/null 2>&1 || die "apt-get update failed"
	a=$(abi)
fi
[ -n "$a" ] || die "apt knows no $KERNEL_PACKAGE to find Debian's kernel by"
v=$(version "linux-image-$a")
[ -n "$v" ] || die "no package linux-image-$a in apt's lists (DEBIAN_ABI=${DEBIAN_ABI:-})"
dv=$(version "linux-image-$a-dbg")
[ "$dv" = "$v" ] || die "no package linux-image-$a-dbg $v in apt's lists${dv:+ (it has $dv)}: no debug vmlinux for this image"
# The headers: linux-headers-ABI, and with KERNEL_HEADERS=unpack the two
# packages it needs, linux-headers-BASE-common and linux-kbuild-BASE.
headers="linux-headers-$a"
[ "${KERNEL_HEADERS:-apt}" = unpack ] && headers="$headers linux-headers-${a%-amd64}-common linux-kbuild-${a%-amd64}"
for p in $headers; do
	hv=$(version "$p")
	[ "$hv" = "$v" ] || die "no package $p $v in apt's lists${hv:+ (it has $hv)}: modules cannot be built for this image"
done
key="$a $v"

up_to_date() {
	[ "$(cat "$o/lab-key" 2>/dev/null)" = "$key" ] && [ "$(debian_abi)" = "$a" ] &&
		[ -f "$(kernel_vmlinux "$variant")" ] && [ -f "$(kernel_image "$variant")" ] &&
		[ -f "$(kernel_modbuild "$variant")/Module.symvers" ]
}
if up_to_date || { lab_lock exclusive "to unpack Debian's kernel $a" && up_to_date; }; then
	exit 0
fi

if [ "${KERNEL_HEADERS:-apt}" = apt ] && [ ! -f "/usr/src/linux-headers-$a/Module.symvers" ]; then
	say "installing linux-headers-$a $v with apt (under /usr/src: for out-of-tree modules)"
	[ "$(id -u)" = 0 ] || die "not root; run: sudo apt-get install linux-headers-$a"
	log=$KERNEL_HOME/apt-headers.log
	mkdir -p "$KERNEL_HOME"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "linux-headers-$a=$v" \
		>"$log" 2>&1 || { tail -5 "$log" >&2; die "apt-get install linux-headers-$a failed (log: $log)"; }
fi

mkdir -p "$KERNEL_HOME"
tmp=$KERNEL_HOME/unpack.$$
remove_on_exit "$tmp"
rm -rf "$tmp"
mkdir -p "$tmp/dl" "$tmp/$variant"
say "downloading linux-image-$a $v and its -dbg package (about 930 MB)"
t0=$(date +%s)
dl="linux-image-$a=$v linux-image-$a-dbg=$v"
[ "${KERNEL_HEADERS:-apt}" = unpack ] && for p in $headers; do dl="$dl $p=$v"; done
# shellcheck disable=SC2086 # $dl is a list of package=version words
(cd "$tmp/dl" && apt-get download -q $dl) \
	>"$tmp/download.log" 2>&1 || { tail -5 "$tmp/download.log" >&2; die "apt-get download failed"; }
say "downloaded in $(($(date +%s) - t0)) s; unpacking the image"
dpkg-deb -x "$tmp"/dl/linux-image-"$a"_*.deb "$tmp/$variant"
[ -f "$tmp/$variant/boot/vmlinuz-$a" ] || die "linux-image-$a has no boot/vmlinuz-$a"
# Only the one file of the -dbg package: it unpacks to 5.6 GB.
say "taking vmlinux-$a out of the -dbg package"
# tar stops reading once it has it: dpkg-deb's broken pipe is expected,
# and what counts is that the file is a whole ELF vmlinux.
{ dpkg-deb --fsys-tarfile "$tmp"/dl/linux-image-"$a"-dbg_*.deb 2>"$tmp/dbg.err" || true; } |
	tar -x -O --occurrence=1 "./usr/lib/debug/boot/vmlinux-$a" >"$tmp/$variant/vmlinux-$a"
readelf -S "$tmp/$variant/vmlinux-$a" 2>/dev/null | grep -q '\.debug_info' ||
	die "linux-image-$a-dbg gave no whole vmlinux-$a with debug info ($(head -1 "$tmp/dbg.err"))"
if [ "${KERNEL_HEADERS:-apt}" = unpack ]; then
	say "unpacking $headers"
	for p in $headers; do
		dpkg-deb -x "$tmp"/dl/"$p"_*.deb "$tmp/$variant"
	done
	# Its Makefile includes the -common half by its /usr/src path; the
	# scripts and tools links are relative and stay inside the cache.
	h=$tmp/$variant/usr/src/linux-headers-$a
	[ -f "$h/Module.symvers" ] || die "linux-headers-$a has no Module.symvers"
	sed -i "s|^include /usr/src/|include $o/usr/src/|" "$h/Makefile"
	grep -q "^include $o/usr/src/linux-headers-${a%-amd64}-common/Makefile" "$h/Makefile" ||
		die "linux-headers-$a's Makefile does not include its -common half as expected"
fi
rm -rf "$tmp/dl"
echo "$key" >"$tmp/$variant/lab-key"
rm -rf "$o"
mv "$tmp/$variant" "$o"
echo "$a" >"$KERNEL_HOME/abi.tmp.$$"
mv "$KERNEL_HOME/abi.tmp.$$" "$KERNEL_HOME/abi"
say "Debian's kernel $a $v: $(kernel_image "$variant"), vmlinux $(du -m "$(kernel_vmlinux "$variant")" | cut -f1) MiB, in $(($(date +%s) - t0)) s"
