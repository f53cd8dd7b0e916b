#!/bin/sh
# tests/walkthrough.sh [--show] FILE.md - run every fenced sh block of a
# walkthrough, in order, from the repository's root, each under a timeout
# (WALK_TIMEOUT, 900 s), and compare what it printed (stdout and stderr)
# with the text block that follows it, if any: after tests/normalise.sh,
# the shown lines must all be there, in that order (a walkthrough shows
# real output trimmed to what matters; a line "..." marks a cut). Prints a
# PASS or FAIL line per block; exits 1 on any FAIL. --show prints what
# each block printed instead, for writing the text blocks.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

show=0
[ "${1:-}" = --show ] && { show=1; shift; }
md=${1:?usage: walkthrough.sh [--show] FILE.md}
[ -f "$md" ] || die "no such walkthrough: $md"
name=$(basename "$md" .md)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stackov-walk.XXXXXX")
remove_on_exit "$tmp"

# Split: $tmp/N.sh for the Nth sh block, $tmp/N.want for the text block
# that follows it.
awk -v dir="$tmp" '
/^```/ {
	if (inblock) { inblock = 0; next }
	info = substr($0, 4)
	if (info == "sh") { n++; f = dir "/" n ".sh"; inblock = 1; printf "" > f; next }
	if (info == "text" && n && !(n in want)) { want[n] = 1; f = dir "/" n ".want"; inblock = 1; printf "" > f; next }
	f = "/dev/null"; inblock = 1; next
}
inblock { print > f }
' "$md"

status=0
n=1
while [ -f "$tmp/$n.sh" ]; do
	cmd=$(head -1 "$tmp/$n.sh" | cut -c1-70)
	rc=0
	(cd "$LAB_ROOT" && timeout -k 10 "${WALK_TIMEOUT:-900}" sh -e "$tmp/$n.sh") >"$tmp/$n.out" 2>&1 </dev/null || rc=$?
	if [ "$show" = 1 ]; then
		printf '===== block %d (status %d): %s\n' "$n" "$rc" "$cmd"
		cat "$tmp/$n.out"
	elif [ "$rc" != 0 ]; then
		printf 'FAIL %s: block %d (%s) exited with status %d\n' "$name" "$n" "$cmd" "$rc"
		tail -5 "$tmp/$n.out" | sed 's/^/    /'
		status=1
	elif [ -f "$tmp/$n.want" ]; then
		"$LAB_ROOT/tests/normalise.sh" <"$tmp/$n.out" >"$tmp/$n.got"
		"$LAB_ROOT/tests/normalise.sh" <"$tmp/$n.want" | grep -vx '\.\.\.' >"$tmp/$n.wantn" || true
		missing=$(awk 'NR == FNR { want[++w] = $0; next }
			i < w && $0 == want[i + 1] { i++ }
			END { if (i < w) print want[i + 1] }' "$tmp/$n.wantn" "$tmp/$n.got")
		if [ -z "$missing" ] && [ -s "$tmp/$n.wantn" ]; then
			printf 'PASS %s: block %d (%s) printed the %d lines shown\n' "$name" "$n" "$cmd" "$(wc -l <"$tmp/$n.wantn")"
		else
			printf 'FAIL %s: block %d (%s): not printed (in this order): %s\n' "$name" "$n" "$cmd" "${missing:-the text block is empty}"
			status=1
		fi
	else
		printf 'PASS %s: block %d (%s) ran (no output shown)\n' "$name" "$n" "$cmd"
	fi
	n=$((n + 1))
done
[ "$n" -gt 1 ] || { echo "FAIL $name: no sh block"; status=1; }
exit "$status"
