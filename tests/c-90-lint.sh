#!/bin/sh
# Shell scripts are clean under shellcheck; the C passes checkpatch.pl
# (the unpacked tree's, or vm/builders/checkpatch.sh's copy out of
# linux-source-6.1: no kernel tree needed); the README starts with the two
# commands and its scenario table is the one made from tests/scenarios.tsv.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
scripts=$(ls vm/*.sh vm/*/*.sh tests/*.sh bench/*.sh walkthroughs/*.sh .ci/run vm/guest/init)
# In LAB_JOBS shares, side by side (45 s in one, here): xargs says 123
# when one of them found something.
shellcheck_all() {
	# shellcheck disable=SC2086
	printf '%s\n' $scripts | xargs -P "$LAB_JOBS" -n $((($(echo $scripts | wc -w) + LAB_JOBS - 1) / LAB_JOBS)) shellcheck
}
# shellcheck disable=SC2086
check "shellcheck on $(echo $scripts | wc -w) scripts" shellcheck_all
py=$(ls gdb-scripts/*.py gdb-scripts/stackov_gdb/*.py libstackov/*.py drgn-scripts/*.py)
# shellcheck disable=SC2086
check "the gdb and drgn helpers compile ($(echo $py | wc -w) Python files)" \
	/usr/bin/python3 -c 'import sys, ast; [ast.parse(open(f).read(), f) for f in sys.argv[1:]]' $py

# checkpatch.pl on each file, LAB_JOBS at a time (a perl start-up and a
# read of the whole tree's spelling lists each: a minute, serially): its
# words in out/checkpatch/FILE.out and its status in FILE.rc. A patch is
# read from outside this git repository: inside one, checkpatch.pl reads
# a .patch file as a source file. Userspace has no
# <linux/compiler_attributes.h>: libstackov defines the kernel's
# __printf() itself, which checkpatch's PREFER_DEFINED_ATTRIBUTE_MACRO
# takes for a raw attribute.
cpd=$LAB_OUT/checkpatch
checkpatch_said() {
	d=$cpd/$(echo "$1" | tr / _)
	cat "$d.out" 2>/dev/null
	[ "$(cat "$d.rc" 2>/dev/null)" = 0 ]
}
if cp=$("$LAB_ROOT/vm/builders/checkpatch.sh"); then
	rm -rf "$cpd" && mkdir -p "$cpd"
	files=$(ls lkdtm-ext/*.c lkdtm-ext/*.h vm/guest/*.c vm/read/*.c crash-scripts/*.c libstackov/*.c libstackov/*.h bench/*.c \
		stackov-log/*.c stackov-log/*.h)
	patches=$(ls patches/*.patch patches/6.12/*.patch)
	# shellcheck disable=SC2016,SC2086 # sh -c's own $1..$4; names with no spaces
	printf '%s\n' $files $patches | xargs -P "$LAB_JOBS" -I{} sh -c '
		f=$1 d=$3/$(echo "$1" | tr / _)
		case $f in
		*.patch) (cd / && "$2" --no-tree --quiet "$4/$f") ;;
		libstackov/*) "$2" --no-tree --quiet --terse --ignore PREFER_DEFINED_ATTRIBUTE_MACRO -f "$f" ;;
		*) "$2" --no-tree --quiet --terse -f "$f" ;;
		esac >"$d.out" 2>&1
		echo $? >"$d.rc"' - {} "$cp" "$cpd" "$LAB_ROOT"
	for f in $files $patches; do
		check "checkpatch $f" checkpatch_said "$f"
	done
else
	fail "no checkpatch.pl (vm/builders/checkpatch.sh said why above)"
fi
readme_first_two() {
	# The first two command lines of the README's code blocks.
	[ "$(grep -E '^(    )?make ' README.md | sed 's/^ *//' | head -2 | tr '\n' ' ')" = "make overflow-demo make test " ]
}
check "README's first two commands are make overflow-demo and make test" readme_first_two
check ".ci/run runs make test" grep -qx 'exec make test' .ci/run
readme_table_is_made() {
	sed -n '/^<!-- scenario table -->$/,/^<!-- end of scenario table -->$/p' README.md |
		sed '1d;$d' >"$LAB_OUT/readme-table.txt"
	[ -s "$LAB_OUT/readme-table.txt" ] && tests/scenario-table.sh | cmp -s - "$LAB_OUT/readme-table.txt"
}
check "README's scenario table is tests/scenario-table.sh's, from tests/scenarios.tsv" readme_table_is_made
finish
