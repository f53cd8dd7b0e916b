#!/bin/sh
# bench/doc.sh [FILE] - make bench-doc: put the last record of each
# measurement (out/bench/NAME.txt, made by bench/record.sh) into FILE
# (bench/README.md), between its "<!-- bench NAME -->" and
# "<!-- end bench NAME -->" lines. A record that prints a Markdown table is
# put in as it is, its headings two levels down so that they sit under the
# page's own; any other goes in a code block. Paths inside the clone are
# written relative to it. A section with no record keeps what it had, and
# says so.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

doc=${1:-$LAB_ROOT/bench/README.md}
[ -f "$doc" ] || die "no $doc"
tmp=$doc.tmp.$$
remove_on_exit "$tmp"
names=$(sed -n 's/^<!-- bench \([a-z0-9.-]*\) -->$/\1/p' "$doc")
[ -n "$names" ] || die "$doc has no <!-- bench NAME --> sections"
cp "$doc" "$tmp"
for n in $names; do
	rec=$LAB_OUT/bench/$n.txt
	if [ ! -s "$rec" ]; then
		say "bench-doc: no record of make $n (run it first); its section stays as it was"
		continue
	fi
	body=$tmp.$n
	remove_on_exit "$body"
	{
		head -1 "$rec" | sed 's/^/Measured by /; s/$/:/'
		echo
		if sed 1d "$rec" | grep -q '^|'; then
			sed '1d; s/^#/###/' "$rec"
		else
			echo '```'
			sed 1d "$rec"
			echo '```'
		fi
	} | sed "s|$LAB_ROOT/||g" >"$body"
	awk -v n="$n" -v body="$body" '
		$0 == "<!-- bench " n " -->" { print; while ((getline l < body) > 0) print l; skip = 1; next }
		$0 == "<!-- end bench " n " -->" { skip = 0 }
		!skip' "$tmp" >"$tmp.new"
	mv "$tmp.new" "$tmp"
	say "bench-doc: make $n, $(head -1 "$rec" | cut -d, -f2 | sed 's/^ //')"
done
mv "$tmp" "$doc"
