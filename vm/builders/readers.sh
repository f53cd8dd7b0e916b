#!/bin/sh
# vm/builders/readers.sh [--refresh | TOOL [VMLINUX]] - the dump readers of READERS
# (trixie, the default; sid, the newest; host, this machine's own): with
# TOOL (crash, gdb, python3), print the command that runs it; with
# include, the directory of the crash's defs.h (for its extensions);
# without, make sure they are there and print the versions, one
# "tool version" a line; --refresh makes the suite's root again, from
# today's packages. VMLINUX matters to host's python3 only (see
# vm/builders/drgn.sh).
#
# trixie and sid are Debian's own packages (crash, with its defs.h for
# extensions; gdb; python3-drgn), fetched by debootstrap and unpacked
# into a root made once per suite in the cache
# ($STACKOV_CACHE/readers-SUITE, about half a minute and 300 MB; its
# packages and their versions in lab-packages): nothing is installed on
# this machine but debootstrap, nothing runs chrooted; each tool runs through the root's own loader and
# libraries, from a wrapper in the root's lab-bin/. host: Debian 12's gdb
# and python3-drgn, and crash 8.0.6 built from source (vm/builders/crash.sh,
# about 13 minutes once), for users who stay on bookworm.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

tool=${1:-}
refresh=0
[ "$tool" = --refresh ] && { refresh=1 tool=''; }
# READERS_BIN=DIR (for tests): a TOOL there is used instead.
if [ -n "$tool" ] && [ -n "${READERS_BIN:-}" ] && [ -x "$READERS_BIN/$tool" ]; then
	echo "$READERS_BIN/$tool"
	exit 0
fi
case $tool in '' | crash | gdb | python3 | include) ;; *) die "usage: readers.sh [--refresh | crash | gdb | python3 [VMLINUX] | include]" ;; esac

if [ "$READERS" = host ]; then
	case $tool in
	crash) exec "$LAB_ROOT/vm/builders/crash.sh" ;;
	include) crash_include "$("$LAB_ROOT/vm/builders/crash.sh")" ;;
	gdb) command -v gdb || die "no gdb on this machine (make deps)" ;;
	python3)
		if [ -n "${2:-}" ]; then exec "$LAB_ROOT/vm/builders/drgn.sh" "$2"; fi
		echo /usr/bin/python3 ;;
	'')
		echo "gdb $(gdb --version | sed -n '1s/.* //p')"
		echo "drgn $(/usr/bin/python3 -c 'import drgn; print(drgn.__version__)')"
		c=$("$LAB_ROOT/vm/builders/crash.sh") || exit 1
		echo "crash $("$c" --version 2>/dev/null | sed -n 's/^crash \([0-9][0-9.]*\).*/\1/p' | head -1)" ;;
	esac
	exit 0
fi

MIRROR=${READERS_MIRROR:-http://deb.debian.org/debian}
PACKAGES=crash,gdb,python3-drgn,binutils
dir=$STACKOV_CACHE/readers-$READERS
bin=$dir/lab-bin
# The root's key: what it was made of and how (a suite's packages move on:
# readers.sh --refresh makes it again from today's).
key=$(printf '%s\n' "$READERS" "$MIRROR" "$PACKAGES" "unpacked 2" | sha256sum | cut -c1-16)
made() {
	[ "$(cat "$dir/lab-key" 2>/dev/null)" = "$key" ] &&
		[ -s "$dir/lab-versions" ] && [ -x "$bin/crash" ] && [ -x "$bin/gdb" ] && [ -x "$bin/python3" ]
}
readers_lock() {
	mkdir -p "$STACKOV_CACHE"
	exec 7>>"$STACKOV_CACHE/readers-$READERS.lock"
	flock -n -x 7 && return 0
	say "waiting: another stackov-lab is making $READERS's readers ($STACKOV_CACHE/readers-$READERS.lock)"
	flock -x 7
}

if [ "$refresh" = 1 ] && [ "$READERS" != host ]; then
	readers_lock
	rm -f "$dir/lab-key"
fi
if ! made && readers_lock && ! made; then
	if ! command -v debootstrap >/dev/null; then
		say "installing debootstrap (for $READERS's readers)"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >"$STACKOV_CACHE/readers-apt.log" 2>&1 ||
			die "apt-get install debootstrap failed (log: $STACKOV_CACHE/readers-apt.log)"
	fi
	root=$dir.new.$$
	remove_on_exit "$root"
	rm -rf "$root"
	say "making $READERS's readers (Debian's crash, gdb and python3-drgn) in $dir, once (about half a minute)"
	t0=$(date +%s)
	# debootstrap resolves and fetches the packages (minbase and ours,
	# with what they depend on) and checks them against the suite's signed
	# Release; each is then unpacked as it is (dpkg-deb -x), with no
	# maintainer script run: the tools need their files, nothing
	# configured. Half the time and CPU of a whole debootstrap.
	debootstrap --download-only --variant=minbase --include="$PACKAGES" "$READERS" "$root" "$MIRROR" \
		>"$root.log" 2>&1 || { tail -5 "$root.log" >&2; die "debootstrap $READERS failed (log: $root.log, kept)"; }
	mv "$root.log" "$root/lab-debootstrap.log"
	[ -s "$root/debootstrap/debpaths" ] || die "debootstrap $READERS fetched nothing (log: $root/lab-debootstrap.log)"
	# The packages, "NAME VERSION" a line, from the files they came in
	# (NAME_VERSION_ARCH.deb, an epoch's colon as %3a).
	while read -r pkg deb; do
		dpkg-deb -x "$root$deb" "$root" || die "cannot unpack $root$deb"
		v=${deb##*/}
		v=${v#"${pkg}"_}
		echo "$pkg $(echo "${v%_*.deb}" | sed 's/%3a/:/')"
	done <"$root/debootstrap/debpaths" | sort >"$root/lab-packages"
	rm -rf "$root/var/cache/apt/archives"
	mkdir -p "$root/lab-bin"
	# One wrapper a tool: the root's loader and libraries, the root's
	# Python for drgn and for gdb's scripts, gdb's own data directory.
	for t in crash gdb python3; do
		{
			echo '#!/bin/sh'
			echo "# $READERS's $t, through its own loader (vm/builders/readers.sh)."
			echo "r=$dir"
			echo 'export PYTHONHOME="$r/usr" PYTHONPATH="$r/usr/lib/python3/dist-packages"'
			case $t in
			gdb) echo 'set -- -data-directory "$r/usr/share/gdb" "$@"' ;;
			esac
			echo 'exec "$r/lib64/ld-linux-x86-64.so.2" --library-path "$r/lib/x86_64-linux-gnu:$r/usr/lib/x86_64-linux-gnu"'" \"\$r/usr/bin/$t\" \"\$@\""
		} >"$root/lab-bin/$t"
		chmod +x "$root/lab-bin/$t"
	done
	rm -rf "$dir"
	mv "$root" "$dir"
	# Each tool's own word on its version: that it runs, too.
	{
		echo "crash $("$bin/crash" --version 2>/dev/null | sed -n 's/^crash \([0-9][0-9.]*\).*/\1/p' | head -1)"
		echo "gdb $("$bin/gdb" --version 2>/dev/null | sed -n '1s/.* \([0-9][0-9.]*\)$/\1/p')"
		echo "drgn $("$bin/python3" -c 'import drgn; print(drgn.__version__)' 2>/dev/null)"
	} >"$dir/lab-versions.tmp"
	! grep -q ' $' "$dir/lab-versions.tmp" ||
		die "$READERS's readers do not all run ($(grep ' $' "$dir/lab-versions.tmp" | tr -d ' ' | tr '\n' ' ')); see $dir/lab-debootstrap.log and $dir/lab-packages"
	mv "$dir/lab-versions.tmp" "$dir/lab-versions"
	echo "$key" >"$dir/lab-key"
	say "$READERS's readers ready in $(($(date +%s) - t0)) s: $(paste -sd, "$dir/lab-versions" | sed "s/,/, /g")"
fi
made || die "$READERS's readers are not there ($dir)"
case $tool in
'') cat "$dir/lab-versions" ;;
include) echo "$dir/usr/include/crash" ;;
*) echo "$bin/$tool" ;;
esac
