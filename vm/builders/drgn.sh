#!/bin/sh
# vm/builders/drgn.sh VMLINUX - print the python that runs the drgn able to
# read VMLINUX's dumps, making it if needed. Debian 12's drgn 0.0.22 reads
# 6.1; from 6.4 on it finds no module (struct module's mem[] replaced
# core_size: "could not find loaded kernel modules") and so no module ORC,
# and its unwinder stops in the first module frame. Debian's drgn 0.0.31
# (trixie) reads them, but its source is not on the mirror (the pool
# answers 404 for drgn_0.0.31.orig.tar.gz) and its binary is built for
# Python 3.13. So for such a kernel this makes, once, a trixie root with
# python3-drgn in $STACKOV_CACHE/drgn-trixie (debootstrap --variant=minbase:
# about 260 MB, 3 minutes), and prints a wrapper that runs its Python
# through its own loader and libraries: nothing is installed on this
# machine but debootstrap, and nothing runs chrooted.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

vml=${1:?usage: drgn.sh VMLINUX}
[ -r "$vml" ] || die "drgn.sh: cannot read $vml"
ver=$(strings "$vml" | sed -n 's/^Linux version \([0-9]*\)\.\([0-9]*\)[.-].*/\1 \2/p' | head -1)
# shellcheck disable=SC2086 # two words, major and minor
set -- $ver
if [ $# != 2 ] || [ "$1" -lt 6 ] || { [ "$1" = 6 ] && [ "$2" -lt 4 ]; }; then
	echo /usr/bin/python3
	exit 0
fi

DRGN_SUITE=trixie
DRGN_MIRROR=${DRGN_MIRROR:-http://deb.debian.org/debian}
dir=$STACKOV_CACHE/drgn-$DRGN_SUITE
py=$dir/python3
made() { [ -x "$py" ] && "$py" -c 'import drgn' 2>/dev/null; }
drgn_lock() {
	mkdir -p "$STACKOV_CACHE"
	exec 7>>"$STACKOV_CACHE/drgn.lock"
	flock -n -x 7 && return 0
	say "waiting: another stackov-lab holds $STACKOV_CACHE/drgn.lock" >&2
	flock -x 7
}
if made || { drgn_lock && made; }; then
	echo "$py"
	exit 0
fi

if ! command -v debootstrap >/dev/null; then
	say "installing debootstrap (for $DRGN_SUITE's drgn)" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >"$STACKOV_CACHE/drgn-apt.log" 2>&1 ||
		die "apt-get install debootstrap failed (log: $STACKOV_CACHE/drgn-apt.log)"
fi
root=$dir.new.$$
remove_on_exit "$root"
rm -rf "$root"
say "making a $DRGN_SUITE root with python3-drgn in $dir (once, about 3 minutes), for $vml's Linux $1.$2" >&2
t0=$(date +%s)
debootstrap --variant=minbase --include=python3-drgn "$DRGN_SUITE" "$root" "$DRGN_MIRROR" >"$root.log" 2>&1 ||
	{ tail -5 "$root.log" >&2; die "debootstrap $DRGN_SUITE failed (log: $root.log)"; }
mv "$root.log" "$root/lab-debootstrap.log"
# The wrapper names the root's final place.
cat >"$root/python3" <<EOW
#!/bin/sh
# $DRGN_SUITE's Python with its drgn, run through its own loader (vm/builders/drgn.sh).
r=$dir
PYTHONHOME=\$r/usr PYTHONPATH=\$r/usr/lib/python3/dist-packages exec "\$r/lib64/ld-linux-x86-64.so.2" \\
	--library-path "\$r/lib/x86_64-linux-gnu:\$r/usr/lib/x86_64-linux-gnu" "\$r/usr/bin/python3" "\$@"
EOW
chmod +x "$root/python3"
rm -rf "$dir"
mv "$root" "$dir"
made || die "$dir's python cannot import drgn (see $dir/lab-debootstrap.log)"
say "drgn $("$py" -c 'import drgn; print(drgn.__version__)') ready in $(($(date +%s) - t0)) s: $py" >&2
echo "$py"
