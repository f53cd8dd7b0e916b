#!/bin/sh
# The 6.1 and 6.12 series are one change. Patch by patch, in patches/series
# and patches/6.12/series order: the same subject, the same files, and the
# same lines added and removed once line numbers, context and the
# index lines are stripped. A patch patches/6.12/README.md says "applies
# as it is" must have no other difference; each difference of the others
# (ported by hand) is named here, line by line, and the README must say
# why that patch differs.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
s=$(mktemp -d "$LAB_OUT/test-series-same-XXXX")
patches() { grep -v '^#' "$1" | grep .; }
a=$(patches patches/series | wc -l) b=$(patches patches/6.12/series | wc -l)
check "the two series have as many patches ($a and $b)" [ "$a" = "$b" ]
# The Subject: header, its folded lines joined.
subject() {
	awk '/^Subject: / { s = $0; f = 1; next } f && /^[ \t]/ { s = s $0; next } f { exit } END { print s }' "$1" |
		sed 's/^Subject: \[PATCH[^]]*\] //; s/[ \t][ \t]*/ /g'
}
# What a patch changes: file by file, its removed and added lines.
changes() {
	sed -n '/^diff --git /,$p' "$1" | awk '
		/^diff --git / { f = $3; sub(/^a\//, "", f); print "file " f; next }
		/^(index |--- |\+\+\+ |@@)/ { next }
		/^-- *$/ { exit }
		/^[-+]/ { print f ": " $0 }'
}
i=0
for p in $(patches patches/series); do
	i=$((i + 1))
	q=$(patches patches/6.12/series | sed -n "${i}p")
	[ -n "$q" ] || break
	n=$(printf '%04d' "$i")
	sa=$(subject "patches/$p") sb=$(subject "patches/6.12/$q")
	check "$n: the same subject on both lines ($sa)" [ "$sa" = "$sb" ]
	changes "patches/$p" >"$s/$n.a"
	changes "patches/6.12/$q" >"$s/$n.b"
	check "$n: the same files on both lines" sh -c "[ \"\$(grep '^file ' '$s/$n.a')\" = \"\$(grep '^file ' '$s/$n.b')\" ]"
	diff "$s/$n.a" "$s/$n.b" | grep '^[<>]' | sed 's/^</6.1: /; s/^>/6.12:/' >"$s/$n.diff" || true
	row=$(grep -F "| \`$sa\` |" patches/6.12/README.md || true)
	check "$n: patches/6.12/README.md says how it was ported" [ -n "$row" ]
	if echo "$row" | grep -q 'applies as it is'; then
		check "$n: applies as it is: the same lines added and removed ($(wc -l <"$s/$n.a") lines)" \
			sh -c "[ -s '$s/$n.a' ] && [ ! -s '$s/$n.diff' ]"
	else
		echo "    $n differs, as patches/6.12/README.md says ($(echo "$row" | cut -d'|' -f3 | cut -c1-70)...):"
		sed 's/^/      /' "$s/$n.diff"
		if [ -s "$s/$n.diff" ]; then
			d="its differences are named above ($(wc -l <"$s/$n.diff") lines)"
		else
			d="the same lines added and removed, their context moved"
		fi
		check "$n: ported by hand: $d" sh -c "[ -s '$s/$n.a' ] && [ -s '$s/$n.b' ]"
	fi
done
[ "$failed" = 0 ] && rm -rf "$s"
finish
