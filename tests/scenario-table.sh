#!/bin/sh
# tests/scenario-table.sh [--update FILE] - the README's scenario table,
# made from tests/scenarios.tsv (the one place that says what each
# scenario does). Prints it; with --update, replaces the lines between
# FILE's "<!-- scenario table -->" and "<!-- end of scenario table -->".
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

table() {
	echo '| scenario | stack | a crash names | vmap (guard pages) | novmap (before 4.9) | what it shows |'
	echo '|---|---|---|---|---|---|'
	awk -F'\t' '
	function cell(o,   n, a, i, m, c, j, s, t) {
		n = split(o, a, / \|\| /)
		s = ""
		for (i = 1; i <= n; i++) {
			m = split(a[i], c, / && /)
			t = ""
			for (j = 1; j <= m; j++) {
				if (c[j] ~ /^result=/) {
					sub(/^result=/, "", c[j])
					c[j] = "ends by " c[j]
				} else if (c[j] ~ /^!/) {
					c[j] = "no `" substr(c[j], 2) "`"
				} else
					c[j] = "`" c[j] "`"
				t = t (j > 1 ? ", " : "") c[j]
			}
			s = s (i > 1 ? "; or " : "") t
		}
		gsub(/\|/, "\\|", s)
		return s
	}
	!/^#/ && NF {
		fn = ($3 == "-") ? "-" : "`" $3 "`"
		printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, fn, cell($5), cell($6), $7
	}' "$SCENARIOS"
}

case ${1:-} in
'') table ;;
--update)
	f=${2:?usage: scenario-table.sh [--update FILE]}
	grep -q '^<!-- scenario table -->$' "$f" || die "$f has no '<!-- scenario table -->' line"
	grep -q '^<!-- end of scenario table -->$' "$f" || die "$f has no '<!-- end of scenario table -->' line"
	table >"$f.table.$$"
	awk -v t="$f.table.$$" '
		/^<!-- scenario table -->$/ { print; while ((getline l < t) > 0) print l; skip = 1; next }
		/^<!-- end of scenario table -->$/ { skip = 0 }
		!skip' "$f" >"$f.new.$$"
	rm -f "$f.table.$$"
	mv "$f.new.$$" "$f" ;;
*) die "usage: scenario-table.sh [--update FILE]" ;;
esac
