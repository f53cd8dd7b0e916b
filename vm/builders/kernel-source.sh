#!/bin/sh
# vm/builders/kernel-source.sh VARIANT - build a kernel whose description
# (vm/kernels/) says KERNEL_RECIPE=source: unpack KERNEL_SOURCE once into
# KERNEL_TREE (a git tree tagged 'pristine'), apply the series in
# KERNEL_PATCHES, configure tinyconfig + the description's fragments, and
# build bzImage, vmlinux and modules into kbuild_dir VARIANT.
# With nothing changed since the last build it does no kernel work at all.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

variant=${1:-$DEFAULT_VARIANT}
check_variant "$variant"
o=$(kbuild_dir "$variant")
frags=$(kernel_fragments "$variant")

unpack() {
	[ -f "$KERNEL_TREE/.git/lab-source" ] &&
		[ "$(cat "$KERNEL_TREE/.git/lab-source")" = "$srcid" ] && return 0
	[ -f "$KERNEL_SOURCE" ] || die "$KERNEL_SOURCE missing (apt-get install $KERNEL_PACKAGE)"
	say "unpacking $KERNEL_SOURCE into $KERNEL_TREE (once)"
	rm -rf "$KERNEL_TREE" "$KERNEL_HOME/build"
	mkdir -p "$KERNEL_HOME"
	tmp=$KERNEL_HOME/unpack.$$
	remove_on_exit "$tmp"
	rm -rf "$tmp" && mkdir -p "$tmp"
	tar -C "$tmp" -xJf "$KERNEL_SOURCE"
	mv "$tmp/$KERNEL_SOURCE_TOP" "$KERNEL_TREE"
	rmdir "$tmp"
	say "recording the pristine tree in git (once)"
	git -C "$KERNEL_TREE" init -q
	git -C "$KERNEL_TREE" add -A -f
	git -C "$KERNEL_TREE" -c user.name=stackov-lab -c user.email=lab@localhost \
		commit -q -m "pristine $srcid"
	git -C "$KERNEL_TREE" tag -f pristine >/dev/null
	echo "$srcid" >"$KERNEL_TREE/.git/lab-source"
}

# Check every option the fragments ask for is what .config ended up with:
# a later fragment's word on an option overrides an earlier one's, as in
# merge_config.sh (orc.config turns off base.config's frame pointer).
check_config() {
	# shellcheck disable=SC2086
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1 &/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1 unset/p' $frags |
		awk '{ k = $1; sub(/^[^ ]* /, ""); want[k] = $0 } END { for (o in want) print o, want[o] }' |
		sort >"$c/wanted"
	bad=0
	while read -r opt line; do
		got=$(grep "^$opt=" "$1" || true)
		if [ "$line" = unset ]; then
			[ -z "$got" ] && continue
			echo "  wanted $opt unset, got: $got" >&2
		else
			[ "$got" = "$line" ] && continue
			echo "  wanted $line, got: ${got:-unset}" >&2
		fi
		bad=1
	done <"$c/wanted"
	[ $bad = 0 ] || die "config fragments did not stick (see above)"
}

configure() {
	mkdir -p "$o"
	c=$o/lab-config.tmp
	remove_on_exit "$c"
	rm -rf "$c" && mkdir -p "$c"
	make -s -C "$KERNEL_TREE" O="$c" tinyconfig >/dev/null
	# shellcheck disable=SC2086
	(cd "$c" && "$KERNEL_TREE"/scripts/kconfig/merge_config.sh -m -O "$c" \
		"$c/.config" $frags >/dev/null)
	make -s -C "$KERNEL_TREE" O="$c" olddefconfig >/dev/null
	check_config "$c/.config"
	# Only replace .config when it changed, so kbuild sees no change.
	if ! cmp -s "$c/.config" "$o/.config"; then
		cp "$c/.config" "$o/.config"
		say "$variant: new kernel config"
	fi
	rm -rf "$c"
}

srcid="$(basename "$KERNEL_SOURCE") $(stat -c '%s %Y' "$KERNEL_SOURCE" 2>/dev/null || echo missing)"
# shellcheck disable=SC2086
key=$(
	{
		echo "$srcid"
		gcc --version | head -1
		hash_files $frags
		series_patches "$KERNEL_PATCHES"
		for p in "$KERNEL_PATCHES"/*.patch; do
			[ -f "$p" ] && hash_files "$p"
		done
	} | sha256sum | cut -c1-16
)
up_to_date() {
	[ -f "$o/lab-key" ] && [ "$(cat "$o/lab-key")" = "$key" ] &&
		[ -f "$(kernel_image "$variant")" ] && [ -f "$(kernel_vmlinux "$variant")" ]
}
# Checked again under the lock: another build may have just made it.
if up_to_date || { lab_lock exclusive "to build kernel $variant" && up_to_date; }; then
	say "kernel $variant is up to date ($key)"
	exit 0
fi

# LAB_BISECT=LINE (make test sets it to 6.1): the line's default variant
# is built patch by patch on its way to the series: vmlinux with the
# patches up to 1, 2, ... N (lab~N-1 .. lab of the tree), in its own build
# directory, each build but the first an incremental one. That is
# vm/builders/bisect.sh's check without a kernel build of its own; it
# writes the same report, which bisect.sh (t-41) then reads. A patch that
# does not build ends it: the tree goes back to the series and bisect.sh
# will bisect in its own tree, and say why.
bisect_secs=0 bisect_objs=0
bisect_while_building() {
	[ "${LAB_BISECT:-}" = "${LINUX:-6.1}" ] && [ "$variant" = "$DEFAULT_VARIANT" ] || return 0
	bdir=$KERNEL_HOME/bisect
	bkey=$(bisect_key)
	[ -f "$bdir/passed" ] && [ "$(cat "$bdir/passed")" = "$bkey" ] && return 0
	# shellcheck disable=SC2046 # names with no spaces
	set -- $(series_patches "$KERNEL_PATCHES")
	[ $# -gt 0 ] || return 0
	mkdir -p "$bdir"
	rm -f "$bdir/passed"
	: >"$bdir/report.new"
	cp "$o/.config" "$o/lab-config.series"
	say "building kernel $variant patch by patch ($# patches; LAB_BISECT=$LAB_BISECT)"
	n=0 ok=1 b0=$(date +%s)
	for p in "$@"; do
		n=$((n + 1))
		git -C "$KERNEL_TREE" checkout -q --detach "lab~$(($# - n))"
		s=$(date +%s)
		if ! env -u MAKEFLAGS -u MAKELEVEL make -C "$KERNEL_TREE" O="$o" -j"$LAB_JOBS" \
			olddefconfig vmlinux >"$bdir/build-$n.log" 2>&1; then
			say "patch $n, $p, does not build on its own here (see $bdir/build-$n.log)"
			ok=0
			break
		fi
		echo "patch $n builds: $p ($(($(date +%s) - s)) s)" | tee -a "$bdir/report.new"
		bisect_objs=$((bisect_objs + $(grep -cE "^ *(CC|LD|AS)" "$bdir/build-$n.log" || true)))
	done
	bisect_secs=$(($(date +%s) - b0))
	git -C "$KERNEL_TREE" checkout -q lab
	cmp -s "$o/.config" "$o/lab-config.series" || cp "$o/lab-config.series" "$o/.config"
	rm -f "$o/lab-config.series"
	[ $ok = 1 ] || return 0
	mv "$bdir/report.new" "$bdir/report"
	echo "$bkey" >"$bdir/passed"
}

t_all=$(date +%s)
unpack
"$LAB_ROOT/vm/builders/patches.sh" "$KERNEL_TREE" "$KERNEL_PATCHES"
configure
rm -f "$o/lab-key"
bisect_while_building
say "building kernel $variant in $o with $LAB_JOBS jobs (cold: about 5 minutes)"
start=$(date +%s)
log=$o/build.log
if ! env -u MAKEFLAGS -u MAKELEVEL make -C "$KERNEL_TREE" O="$o" -j"$LAB_JOBS" all >"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -20 >&2
	die "kernel $variant failed to build; full log: $log"
fi
n=$(($(grep -cE "^ *(CC|LD|AS)" "$log" || true) + bisect_objs))
secs=$(($(date +%s) - start + bisect_secs))
by=''
[ "$bisect_secs" = 0 ] || by=", $bisect_secs s of it patch by patch"
say "kernel $variant built in $secs s ($n objects compiled or linked$by)"
say "kernel $variant: $(($(date +%s) - t_all)) s in all, its source unpacked, patched and configured, then built"
# What this build took, for make bench's side-by-side of the lines.
echo "$secs s $n objects $(date -u +%Y-%m-%d)" >"$o/lab-built"
echo "$key" >"$o/lab-key"
