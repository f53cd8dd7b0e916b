#!/bin/sh
# Shell scripts are clean under shellcheck; the C passes checkpatch.pl
# (the unpacked tree's, or vm/builders/checkpatch.sh's copy out of
# linux-source-6.1: no kernel tree needed); the README starts with the two
# commands and its scenario table is the one made from tests/scenarios.tsv.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
scripts=$(ls vm/*.sh vm/*/*.sh tests/*.sh bench/*.sh .ci/run vm/guest/init)
# shellcheck disable=SC2086
check "shellcheck on $(echo $scripts | wc -w) scripts" shellcheck $scripts
py=$(ls gdb-scripts/*.py gdb-scripts/stackov_gdb/*.py libstackov/*.py drgn-scripts/*.py)
# shellcheck disable=SC2086
check "the gdb and drgn helpers compile ($(echo $py | wc -w) Python files)" \
	/usr/bin/python3 -c 'import sys, ast; [ast.parse(open(f).read(), f) for f in sys.argv[1:]]' $py

checkpatch_outside() { (cd / && "$cp" --no-tree --quiet "$1"); }
if cp=$("$LAB_ROOT/vm/builders/checkpatch.sh"); then
	for f in lkdtm-ext/*.c lkdtm-ext/*.h vm/guest/*.c vm/read/*.c crash-scripts/*.c libstackov/*.c libstackov/*.h bench/*.c \
		stackov-log/*.c stackov-log/*.h; do
		# Userspace has no <linux/compiler_attributes.h>: libstackov
		# defines the kernel's __printf() itself, which checkpatch's
		# PREFER_DEFINED_ATTRIBUTE_MACRO takes for a raw attribute.
		case $f in
		libstackov/*) set -- --ignore PREFER_DEFINED_ATTRIBUTE_MACRO ;;
		*) set -- ;;
		esac
		check "checkpatch $f" "$cp" --no-tree --quiet --terse "$@" -f "$f"
	done
	for p in patches/*.patch patches/6.12/*.patch; do
		# From outside this git repository: inside one, checkpatch.pl reads
		# a .patch file as a source file.
		check "checkpatch $p" checkpatch_outside "$LAB_ROOT/$p"
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
