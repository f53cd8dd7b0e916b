#!/bin/sh
# vm/builders/checkpatch.sh - print the path of the kernel's
# scripts/checkpatch.pl: the unpacked tree's when there is one, else the
# three files it reads (checkpatch.pl, spelling.txt,
# const_structs.checkpatch) taken once out of linux-source-6.1's tarball
# into $STACKOV_CACHE/checkpatch, so make check needs no kernel tree.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

if [ -x "$KERNEL_TREE/scripts/checkpatch.pl" ]; then
	echo "$KERNEL_TREE/scripts/checkpatch.pl"
	exit 0
fi
dir=$STACKOV_CACHE/checkpatch
cp=$dir/$KERNEL_SOURCE_TOP/scripts/checkpatch.pl
if [ ! -x "$cp" ]; then
	[ -f "$KERNEL_SOURCE" ] || die "no $KERNEL_SOURCE to take checkpatch.pl from (apt-get install $KERNEL_PACKAGE)"
	say "taking checkpatch.pl out of $KERNEL_SOURCE (once)"
	mkdir -p "$dir.tmp"
	remove_on_exit "$dir.tmp"
	tar -xJf "$KERNEL_SOURCE" -C "$dir.tmp" "$KERNEL_SOURCE_TOP/scripts/checkpatch.pl" \
		"$KERNEL_SOURCE_TOP/scripts/spelling.txt" "$KERNEL_SOURCE_TOP/scripts/const_structs.checkpatch" ||
		die "cannot take checkpatch.pl out of $KERNEL_SOURCE"
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
fi
echo "$cp"
