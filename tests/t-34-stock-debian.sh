#!/bin/sh
# Debian's own kernel, unpatched (KERNEL=debian): the image linux-image-amd64
# depends on, unpacked into the cache and never installed here, with the
# vmlinux of its -dbg package. A subset of the fatal scenarios through make
# overflow-demo, checked against their vmap line in tests/scenarios.tsv with
# t-30's checks (tests/catalogue.sh), the peer check on each dump, one
# MODULE= example, and the line that what needs the series gives.
# ONLY="NAME..." runs just those scenarios. LINUX=6.12 (x-34, make
# test-full) does the same on Debian's 6.12 image, whose headers are
# unpacked into the cache rather than installed (vm/kernels/debian-6.12.sh).
KERNEL=debian
export KERNEL
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"
# shellcheck source=tests/catalogue.sh
. "$LAB_ROOT/tests/catalogue.sh"

"$LAB_ROOT/vm/builders/kernel.sh" stock >"$LAB_OUT/build-stock.log" 2>&1 ||
	{ cat "$LAB_OUT/build-stock.log"; fail "Debian's kernel could not be unpacked (see $LAB_OUT/build-stock.log)"; finish; }
abi=$(debian_abi)
cfg=$(kbuild_dir stock)/boot/config-$abi
echo "Debian's kernel: $(cat "$(kbuild_dir stock)/lab-key")"
for o in CONFIG_UNWINDER_ORC=y CONFIG_RANDOMIZE_BASE=y CONFIG_RANDOMIZE_MEMORY=y \
	CONFIG_RANDOMIZE_KSTACK_OFFSET_DEFAULT=y CONFIG_VMAP_STACK=y; do
	check "stock: $o (its package's config)" grep -qx "$o" "$cfg"
done
check "stock: no frame pointer, no LKDTM" sh -c "! grep -qE '^CONFIG_(FRAME_POINTER|LKDTM)=y' '$cfg'"
check "stock: the image is not installed as this machine's kernel" \
	sh -c "! dpkg-query -W -f='\${db:Status-Status}' linux-image-$abi 2>/dev/null | grep -qx installed"
if [ "${KERNEL_HEADERS:-apt}" = unpack ]; then
	check "stock: its headers are in the cache, not installed under /usr/src" \
		sh -c "[ -f '$(kernel_modbuild stock)/Module.symvers' ] && [ ! -e /usr/src/linux-headers-$abi ] &&
			! dpkg-query -W -f='\${db:Status-Status}' linux-headers-$abi 2>/dev/null | grep -qx installed"
fi
check "stock: the -dbg package left only its vmlinux in the cache" \
	sh -c "[ ! -e '$(kbuild_dir stock)/usr/lib/debug' ] && readelf -S '$(kernel_vmlinux stock)' | grep -q debug_info"

# Seven scenarios under make test-full (FULL=1); in make test, two: a
# syscall twice (the random stack offset). Softirq's dump is replayed by
# c-20 (tests/replay/6.1-stock-RECURSE_SOFTIRQ-*), t-33 has the rest on
# ORC.
catalogue stock "${ONLY:-$(full_or \
	"RECURSE_TASK RECURSE_KTHREAD RECURSE_WORKQUEUE RECURSE_HARDIRQ RECURSE_SOFTIRQ BIG_FRAME GUARD_JUMP" \
	"RECURSE_TASK BIG_FRAME")}" vmap

kstack_offsets stock

# A user's module: built against Debian's linux-headers package.
if [ -z "${ONLY:-}" ]; then
	module_cycle stock "debian-${LINUX:-6.1}" "Debian's kernel"
	peers_agree mutual_recursion "$mrun"

	# The lab kernel's vmlinux with Debian's dump: each reader refuses in
	# one line naming both build ids, never a wrong report.
	# (the lab's 6.1 vmap kernel, built by t-02)
	other=$STACKOV_CACHE/build/vmap/vmlinux
	mm=$LAB_OUT/stock-mismatch
	rm -rf "$mm" && mkdir -p "$mm"
	ln -s "$mrun/vmcore" "$mm/vmcore" && ln -s "$other" "$mm/vmlinux"
	timeout 120 make -s -C "$LAB_ROOT" crash DUMP="$mm" CRASH_ARGS=-s </dev/null >"$mm/crash.out" 2>&1 || true
	timeout 300 "$("$LAB_ROOT/vm/builders/readers.sh" gdb)" -q -batch -nx "$other" "$mrun/vmcore.elf" -x "$LAB_ROOT/gdb-scripts/stackov-gdb.py" \
		-ex stackov >"$mm/gdb.out" 2>&1 || true
	timeout 120 "$("$LAB_ROOT/vm/builders/readers.sh" python3 "$other")" "$LAB_ROOT/drgn-scripts/stackov_drgn.py" "$mrun/vmcore" "$other" \
		>"$mm/drgn.out" 2>&1 || true
	for r in crash gdb drgn; do
		sed 's/^/    /' "$mm/$r.out"
		check "a vmlinux not the dump's: $r refuses, naming both build ids" \
			sh -c "grep -v '^make' '$mm/$r.out' | grep 'is not the kernel of this dump: the dump.s build id is [0-9a-f]* ($abi), vmlinux.s [0-9a-f]*\$' | grep -q ."
	done
	check "a vmlinux not the dump's: no reader printed a verdict" sh -c "! grep -q '^stack overflow:' '$mm'/*.out"
	rm -rf "$mm"
	[ "$failed" = 0 ] && [ "${KEEP:-0}" != 1 ] && rm -rf "$mrun"
fi

# What needs patches/series says so, in one line, and runs nothing.
series_line() { # NAME PATCH OUTFILE MAKE-ARGS...
	name=$1 patch=$2 outf=$3
	shift 3
	rc=0
	make -s -C "$LAB_ROOT" "$@" >"$outf" 2>&1 || rc=$?
	sed 's/^/    /' "$outf"
	check "$name on stock: refused in one line naming patch $patch" \
		sh -c "[ $rc != 0 ] && [ \$(grep -cv '^make' '$outf') = 1 ] && grep -q 'needs the lab kernel (patch $patch)' '$outf'"
}
series_line "vmap_stack_overflow=oops" 0004 "$LAB_OUT/stock-oops.out" \
	overflow-demo SCENARIO=RECURSE_TASK APPEND=vmap_stack_overflow=oops LAB_SHOW=0
series_line "kstack_cache=4" 0002 "$LAB_OUT/stock-cache.out" overflow-demo SCENARIO=STACK_REUSE APPEND=kstack_cache=4 LAB_SHOW=0
series_line "make bench (the cache counters)" 0001 "$LAB_OUT/stock-bench.out" bench

# An image version apt does not have: one line, nothing unpacked.
rc=0
noabi=${LINUX:-6.1}.0-999-amd64
DEBIAN_ABI=$noabi "$LAB_ROOT/vm/builders/kernel.sh" stock >"$LAB_OUT/stock-noabi.out" 2>&1 || rc=$?
sed 's/^/    /' "$LAB_OUT/stock-noabi.out"
check "an image apt does not have: one line naming the package" \
	sh -c "[ $rc != 0 ] && grep -q 'no package linux-image-$noabi in apt' '$LAB_OUT/stock-noabi.out'"
check "an image apt does not have: the cache keeps the kernel it had" \
	[ "$(debian_abi)" = "$abi" ]
finish
