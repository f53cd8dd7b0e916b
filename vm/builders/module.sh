#!/bin/sh
# vm/builders/module.sh VARIANT - build lkdtm-ext against VARIANT of the chosen
# kernel (kernel_modbuild), with Kbuild, in a copy under the cache (the
# clone stays clean). Leaves lkdtm_ext.ko in module_dir VARIANT, and the
# compiler's frame sizes (-fstack-usage: src/*.su) beside its objects, a
# truth the tests hold the readers' frame bytes to.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

variant=${1:-$DEFAULT_VARIANT}
check_variant "$variant"
o=$(kernel_modbuild "$variant")
[ -f "$o/Module.symvers" ] || die "kernel $variant is not built (make kernel VARIANT=$variant)"
d=$(module_dir "$variant")
# The module is up to date when neither its sources nor the kernel changed.
key=$({ kernel_key "$variant"; echo KCFLAGS=-fstack-usage, every .su kept; hash_files "$LAB_ROOT"/lkdtm-ext/*; } |
	sha256sum | cut -c1-16)
up_to_date() { [ -f "$d/lkdtm_ext.ko" ] && [ "$(cat "$d/lkdtm_ext.ko.key" 2>/dev/null)" = "$key" ]; }
if up_to_date || { lab_lock exclusive "to build lkdtm_ext for $variant" && up_to_date; }; then
	exit 0
fi
mkdir -p "$d"
# The compiler's *.su stay beside the objects they came with (a file not
# compiled again keeps its own); an object whose .su is gone (a cache
# from before that) is made again.
rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' --exclude='*.su' \
	--exclude='.*.cmd' --exclude=Module.symvers --exclude=modules.order \
	"$LAB_ROOT/lkdtm-ext/" "$d/src/"
find "$d/src" -name '*.o' ! -name '*.mod.o' ! -name lkdtm_ext.o | while read -r obj; do
	[ -f "${obj%.o}.su" ] || rm -f "$obj"
done
log=$d/build.log
if ! env -u MAKEFLAGS -u MAKELEVEL make -C "$o" M="$d/src" KCFLAGS=-fstack-usage modules >"$log" 2>&1; then
	cat "$log" >&2
	die "lkdtm-ext failed to build against kernel $variant"
fi
grep -E 'warning:' "$log" >&2 || true
if ! cmp -s "$d/src/lkdtm_ext.ko" "$d/lkdtm_ext.ko"; then
	remove_on_exit "$d/lkdtm_ext.ko.tmp.$$"
	cp -p "$d/src/lkdtm_ext.ko" "$d/lkdtm_ext.ko.tmp.$$"
	mv "$d/lkdtm_ext.ko.tmp.$$" "$d/lkdtm_ext.ko"
	say "module lkdtm_ext.ko for $variant: $d/lkdtm_ext.ko"
fi
echo "$key" >"$d/lkdtm_ext.ko.key"
