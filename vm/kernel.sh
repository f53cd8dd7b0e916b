#!/bin/sh
# vm/kernel.sh VARIANT - build the lab kernel of one variant in the cache:
# unpack linux-source-6.1 once (as a git tree tagged 'pristine'), apply
# patches/series, configure tinyconfig + vm/config fragments, build bzImage,
# vmlinux and modules into $STACKOV_CACHE/build/VARIANT.
# With nothing changed since the last build it does no kernel work at all.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/lib.sh"

variant=${1:-vmap}
check_variant "$variant"
o=$(kbuild_dir "$variant")
frags="$LAB_ROOT/vm/config/base.config $LAB_ROOT/vm/config/$variant.config"

unpack() {
	[ -f "$LAB_TREE/.git/lab-source" ] &&
		[ "$(cat "$LAB_TREE/.git/lab-source")" = "$srcid" ] && return 0
	[ -f "$LAB_SRC_TARBALL" ] || die "$LAB_SRC_TARBALL missing (apt-get install linux-source-6.1)"
	say "unpacking $LAB_SRC_TARBALL into $LAB_TREE (once)"
	rm -rf "$LAB_TREE" "$STACKOV_CACHE/build"
	mkdir -p "$STACKOV_CACHE"
	tmp=$STACKOV_CACHE/unpack.$$
	remove_on_exit "$tmp"
	rm -rf "$tmp" && mkdir -p "$tmp"
	tar -C "$tmp" -xJf "$LAB_SRC_TARBALL"
	mv "$tmp"/linux-source-6.1 "$LAB_TREE"
	rmdir "$tmp"
	say "recording the pristine tree in git (once)"
	git -C "$LAB_TREE" init -q
	git -C "$LAB_TREE" add -A -f
	git -C "$LAB_TREE" -c user.name=stackov-lab -c user.email=lab@localhost \
		commit -q -m "pristine $srcid"
	git -C "$LAB_TREE" tag -f pristine >/dev/null
	echo "$srcid" >"$LAB_TREE/.git/lab-source"
}

# Check every option a fragment asks for is what .config ended up with.
check_config() {
	bad=0
	for f in $frags; do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=*)
				grep -qxF "$line" "$1" || {
					echo "  wanted $line, got: $(grep "^${line%%=*}=" "$1" || echo unset)" >&2
					bad=1
				} ;;
			"# CONFIG_"*" is not set")
				opt=${line#\# }
				opt=${opt%% *}
				if grep -q "^$opt=" "$1"; then
					echo "  wanted $opt unset, got: $(grep "^$opt=" "$1")" >&2
					bad=1
				fi ;;
			esac
		done <"$f"
	done
	[ $bad = 0 ] || die "config fragments did not stick (see above)"
}

configure() {
	mkdir -p "$o"
	c=$o/lab-config.tmp
	remove_on_exit "$c"
	rm -rf "$c" && mkdir -p "$c"
	make -s -C "$LAB_TREE" O="$c" tinyconfig >/dev/null
	# shellcheck disable=SC2086
	(cd "$c" && "$LAB_TREE"/scripts/kconfig/merge_config.sh -m -O "$c" \
		"$c/.config" $frags >/dev/null)
	make -s -C "$LAB_TREE" O="$c" olddefconfig >/dev/null
	check_config "$c/.config"
	# Only replace .config when it changed, so kbuild sees no change.
	if ! cmp -s "$c/.config" "$o/.config"; then
		cp "$c/.config" "$o/.config"
		say "$variant: new kernel config"
	fi
	rm -rf "$c"
}

srcid="$(basename "$LAB_SRC_TARBALL") $(stat -c '%s %Y' "$LAB_SRC_TARBALL" 2>/dev/null || echo missing)"
# shellcheck disable=SC2086
key=$(
	{
		echo "$srcid"
		gcc --version | head -1
		hash_files $frags
		cat "$LAB_PATCHES/series"
		for p in "$LAB_PATCHES"/*.patch; do
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

unpack
"$LAB_ROOT/vm/patches.sh" "$LAB_TREE" "$LAB_PATCHES"
configure
rm -f "$o/lab-key"
say "building kernel $variant in $o with $LAB_JOBS jobs (cold: about 5 minutes)"
start=$(date +%s)
log=$o/build.log
if ! env -u MAKEFLAGS -u MAKELEVEL make -C "$LAB_TREE" O="$o" -j"$LAB_JOBS" all >"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -20 >&2
	die "kernel $variant failed to build; full log: $log"
fi
grep -cE "^ *(CC|LD|AS)" "$log" | {
	read -r n
	say "kernel $variant built in $(($(date +%s) - start)) s ($n objects compiled or linked)"
}
echo "$key" >"$o/lab-key"
