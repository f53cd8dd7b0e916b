#!/bin/sh
# vm/builders/crash.sh - print the path of a crash that can read 6.1 dumps, building
# one if needed. Debian 12's crash 8.0.2 cannot (maple tree, fixed in 8.0.3);
# when the installed crash is 8.0.3 or newer it is used as it is. Otherwise
# Debian's crash 8.0.6 source (trixie) is fetched through a private apt
# configuration (the machine's own sources are never touched), checked
# against its sha256, built once and cached in $STACKOV_CACHE/crash-8.0.6.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

CRASH_VERSION=8.0.6
CRASH_DEBIAN=8.0.6-1
CRASH_TARBALL=crash_$CRASH_VERSION.orig.tar.gz
CRASH_SHA256=097c6c94ded7e24db4af58de24744bd28276d6f5bae0828bc6b6a02664c4282a
CRASH_SUITE=${CRASH_SUITE:-trixie}
CRASH_MIRROR=${CRASH_MIRROR:-http://deb.debian.org/debian}

have=$(dpkg-query -W -f='${Version}' crash 2>/dev/null || true)
if [ -n "$have" ] && dpkg --compare-versions "$have" ge 8.0.3; then
	command -v crash
	exit 0
fi

# crash links its bundled gdb 10.2, which is most of the build. The lab
# needs gdb's symbol reading and nothing more: no gdbserver, libctf, TUI,
# Guile or source highlighting, and no debug info for gdb itself. That takes
# a quarter off the build: 492 to 361 s of CPU, 253 to 190 s alone on 2
# cores (make bench-crash: bench/README.md).
lab_flags="--disable-gdbserver --disable-libctf --disable-tui --without-guile"
lab_flags="$lab_flags --disable-source-highlight CFLAGS=-O2 CXXFLAGS=-O2"
CRASH_GDB_FLAGS=${CRASH_GDB_FLAGS-$lab_flags}

# CRASH_BUILD_DIR and CRASH_GDB_FLAGS are for bench/crash-build.sh. A crash
# built with other flags (an older lab's) is built again.
dir=${CRASH_BUILD_DIR:-$STACKOV_CACHE/crash-$CRASH_VERSION}
bin=$dir/crash-$CRASH_VERSION/crash
flags_stamp=$dir/crash-$CRASH_VERSION/lab-gdb-flags
built() { [ -x "$bin" ] && [ "$(cat "$flags_stamp" 2>/dev/null)" = "$CRASH_GDB_FLAGS" ]; }
# crash's own lock, not the cache's: its build touches no kernel or run,
# so make overflow-demo builds it while the kernel builds.
crash_lock() {
	mkdir -p "$STACKOV_CACHE"
	exec 8>>"$STACKOV_CACHE/crash.lock"
	flock -n -x 8 && return 0
	say "waiting: another stackov-lab build of crash holds $STACKOV_CACHE/crash.lock"
	flock -x 8
}
# CRASH_NO_BUILD=now: the built crash, or an error at once (no wait).
if [ "${CRASH_NO_BUILD:-0}" = now ]; then
	built || die "crash $CRASH_VERSION is not built (vm/builders/crash.sh builds it, once, about 13 minutes)"
	echo "$bin"
	exit 0
fi
if built || { crash_lock && built; }; then
	echo "$bin"
	exit 0
fi
# vm/builders/prepare.sh's build ran (this waited for its lock) and failed: say so
# rather than build it all again.
[ "${CRASH_NO_BUILD:-0}" = 1 ] &&
	die "crash $CRASH_VERSION is not built: its build beside the kernel failed; see $dir/build.log"

mkdir -p "$dir"
tarball=$dir/$CRASH_TARBALL
if [ ! -f "$tarball" ]; then
	say "fetching Debian's crash $CRASH_DEBIAN source ($CRASH_SUITE) through a private apt configuration"
	apt=$dir/apt
	mkdir -p "$apt/lists/partial"
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $CRASH_MIRROR $CRASH_SUITE main" \
		>"$apt/sources.list"
	set -- -q -o Dir::Etc::sourcelist="$apt/sources.list" \
		-o Dir::Etc::sourceparts=/nonexistent -o Dir::State::Lists="$apt/lists" \
		-o APT::Get::List-Cleanup=0 -o APT::Sandbox::User=root
	apt-get "$@" update >"$dir/apt.log" 2>&1 ||
		die "apt-get update of the private source list failed; see $dir/apt.log"
	# The .dsc and the Debian tarball may be gone from the mirror (404); the
	# upstream tarball is all the build needs.
	(cd "$dir" && apt-get "$@" source --download-only "crash=$CRASH_DEBIAN") \
		>>"$dir/apt.log" 2>&1 || true
	[ -f "$tarball" ] || die "could not fetch $CRASH_TARBALL; see $dir/apt.log"
fi
echo "$CRASH_SHA256  $tarball" | sha256sum -c --quiet - ||
	{ rm -f "$tarball"; die "$CRASH_TARBALL: sha256 mismatch, removed"; }

say "building crash $CRASH_VERSION with $LAB_JOBS jobs (with its bundled gdb 10.2; about 5 minutes, once)"
rm -rf "$dir/crash-$CRASH_VERSION"
tar -C "$dir" -xzf "$tarball"
start=$(date +%s)
if ! (cd "$dir/crash-$CRASH_VERSION" && env -u MAKEFLAGS -u MAKELEVEL make -j"$LAB_JOBS" \
	GDB_CONF_FLAGS="$CRASH_GDB_FLAGS" lzo snappy zstd) >"$dir/build.log" 2>&1; then
	tail -20 "$dir/build.log" >&2
	die "crash $CRASH_VERSION failed to build; full log: $dir/build.log"
fi
[ -x "$bin" ] || die "crash build finished but $bin is missing; see $dir/build.log"
echo "$CRASH_GDB_FLAGS" >"$flags_stamp"
say "crash $CRASH_VERSION built in $(($(date +%s) - start)) s: $bin"
echo "$bin"
