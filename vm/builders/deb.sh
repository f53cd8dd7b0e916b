#!/bin/sh
# vm/builders/deb.sh - make deb: the readers as a Debian package,
# out/deb/stackov-tools_VERSION_amd64.deb, built by dpkg-buildpackage
# (debian/: debhelper) in a Debian trixie build root (vm/builders/chroot.sh:
# debootstrap's buildd variant with debian/control's Build-Depends and
# lintian, made once in the cache), from this tree's files; lintian then
# reads it, its output in out/deb/lintian.txt, and any error or warning
# fails the build. The crash extension is built against the defs.h of
# that root's crash: Debian trixie's, the crash the package is for.
# Prints the .deb's path.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

# The Build-Depends, a package a name (debhelper-compat is debhelper's).
bdeps=$(sed -n '/^Build-Depends:/,/^[A-Z]/p' "$LAB_ROOT/debian/control" | sed '$d' |
	sed 's/^Build-Depends://' | tr ',' '\n' | sed 's/(.*)//; s/[[:space:]]//g; /^$/d; s/^debhelper-compat$/debhelper/' |
	paste -sd,)
# lintian's libnet-ssleay-perl needs the virtual perl-openssl-abi-3,
# which debootstrap's resolver does not pick: perl-openssl-defaults.
root=$("$LAB_ROOT/vm/builders/chroot.sh" deb-build buildd "$bdeps,lintian,perl-openssl-defaults")

version=$(sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p' "$LAB_ROOT/debian/changelog")
out=$LAB_OUT/deb
mkdir -p "$out"
b=$root/build
rm -rf "$b"
mkdir -p "$b/stackov-tools"
# What the package is made of, as the tree has it now.
(cd "$LAB_ROOT" && tar --exclude=__pycache__ --exclude='*.o' --exclude='*.so' --exclude='*.a' \
	-cf - debian man libstackov crash-scripts gdb-scripts drgn-scripts stackov-log) | tar -C "$b/stackov-tools" -xf -
say "dpkg-buildpackage stackov-tools $version in $root"
t0=$(date +%s)
chroot_run "$root" sh -c 'cd /build/stackov-tools && dpkg-buildpackage -us -uc -b' >"$out/build.log" 2>&1 ||
	{ tail -20 "$out/build.log" >&2; die "dpkg-buildpackage failed (log: $out/build.log)"; }
deb=stackov-tools_${version}_amd64.deb
[ -f "$b/$deb" ] || die "dpkg-buildpackage made no $deb (log: $out/build.log)"
chroot_run "$root" runuser -u nobody -- lintian --info --display-info --pedantic "/build/$deb" >"$out/lintian.txt" 2>&1 || true
cp "$b/$deb" "$out/$deb.tmp" && mv "$out/$deb.tmp" "$out/$deb"
say "$deb built in $(($(date +%s) - t0)) s; lintian's word ($out/lintian.txt):"
sed 's/^/    /' "$out/lintian.txt" >&2
[ ! -s "$out/lintian.txt" ] || ! grep -q '^[EW]: ' "$out/lintian.txt" ||
	die "lintian has errors or warnings on $deb (see above)"
echo "$out/$deb"
