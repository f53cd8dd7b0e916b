#!/bin/sh
# vm/builders/chroot.sh NAME VARIANT PACKAGES - print the path of a whole
# Debian trixie root (debootstrap --variant=VARIANT --include=PACKAGES, its
# maintainer scripts run, apt working inside), made once in the cache as
# $STACKOV_CACHE/root-NAME and made again when NAME's suite, mirror,
# variant or packages change. The roots make deb builds in (buildd, with
# the Build-Depends) and its test installs into (minbase, with Debian's
# own crash, gdb and python3-drgn). Run things in one with chroot_run.
#
#   vm/builders/chroot.sh NAME VARIANT PACKAGES      make (once), print
#   . vm/lib.sh; chroot_run ROOT CMD...              CMD in ROOT, /proc on
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

name=${1:?usage: chroot.sh NAME VARIANT PACKAGES}
variant=${2:?usage: chroot.sh NAME VARIANT PACKAGES}
pkgs=${3:-}
suite=${CHROOT_SUITE:-trixie}
mirror=${READERS_MIRROR:-http://deb.debian.org/debian}
dir=$STACKOV_CACHE/root-$name
key=$(printf '%s\n' "$suite" "$mirror" "$variant" "$pkgs" "root 1" | sha256sum | cut -c1-16)
made() { [ "$(cat "$dir/lab-key" 2>/dev/null)" = "$key" ]; }

if ! made; then
	mkdir -p "$STACKOV_CACHE"
	exec 7>>"$dir.lock"
	flock -n -x 7 || { say "waiting: another stackov-lab is making $dir"; flock -x 7; }
fi
if ! made; then
	command -v debootstrap >/dev/null || die "no debootstrap (make deps installs it)"
	new=$dir.new.$$
	remove_on_exit "$new" "$new.log"
	say "making a Debian $suite root ($variant${pkgs:+, with $pkgs}) in $dir, once (a few minutes)"
	t0=$(date +%s)
	debootstrap --variant="$variant" ${pkgs:+--include="$pkgs"} "$suite" "$new" "$mirror" >"$new.log" 2>&1 ||
		{ tail -5 "$new.log" >&2; cp "$new.log" "$dir.log"; die "debootstrap $suite failed (log: $dir.log)"; }
	mv "$new.log" "$new/lab-debootstrap.log"
	# apt inside: the suite's lists, for apt-get install ./file.deb.
	cp /etc/resolv.conf "$new/etc/resolv.conf" 2>/dev/null || true
	chroot_run "$new" apt-get update -q >>"$new/lab-debootstrap.log" 2>&1 ||
		die "apt-get update failed in the $suite root (log: $new/lab-debootstrap.log)"
	chroot_run "$new" apt-get clean
	rm -rf "$dir"
	mv "$new" "$dir"
	echo "$key" >"$dir/lab-key"
	say "$suite root $name ready in $(($(date +%s) - t0)) s"
fi
echo "$dir"
