#!/bin/sh
# bench/peers-table.sh [TSV...] - the peers of each suite beside stackov,
# as a Markdown table (make bench-peers): a row per line, scenario and
# dump, a column per peer and version (crash's bt, drgn's stack_trace,
# drgn's StackKind), each cell the peer's status and, where the lab traced
# it, why. From the catalogue's out/peers-LINE.tsv (tests/catalogue.sh,
# other_agrees: written for the scenarios read by both suites; run it with
# OTHER_SCENARIOS=all for every fatal one); default: out/peers-vmap.tsv and
# out/peers-orc.tsv.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

[ $# -gt 0 ] || set -- "$LAB_OUT/peers-vmap.tsv" "$LAB_OUT/peers-orc.tsv"
for f in "$@"; do
	[ -s "$f" ] || die "no peers in $f (OTHER_SCENARIOS=all tests/run.sh t-30-catalogue-vmap t-33-catalogue-orc writes them)"
done
# A cell: the status, and the traced reason in a few words.
cat "$@" | awk -F '\t' '
	function why(k) {
		if (k == "-") return ""
		if (k ~ /finds the interrupted stack from the saved rsp/) return "rsp in the guard page: cannot leave the #DF stack"
		if (k ~ /x86_64_get_framesize/) return "one frame fewer: it counts the faulting push in the frame"
		if (k ~ /in no range/) return "UNKNOWN: the sp is in a guard page"
		if (k ~ /init text|init_module/) return "ends in init_module"
		if (k ~ /1024 frames/) return "stops at 1024 frames"
		if (k ~ /ORC_REG_SP_INDIRECT/) return "SP_INDIRECT misread (before 0.0.23)"
		if (k ~ /IST stack/) return "IST stack of size 0"
		return substr(k, 1, 50)
	}
	{
		row = $1 " | " $2 " | " $3
		col = ($4 == "drgn-stackkind" ? "drgn " $5 " StackKind" : $4 " " $5 ($4 == "crash" ? " bt" : " stack_trace"))
		w = why($7)
		cell[row, col] = $6 (w == "" ? "" : ": " w)
		if (!(row in seenr)) { seenr[row] = 1; rows[++nr] = row }
		if (!(col in seenc)) { seenc[col] = 1; cols[++nc] = col }
	}
	END {
		# Columns in a fixed order: crash, drgn, StackKind; versions rising.
		n = 0
		for (p = 1; p <= 3; p++)
			for (i = 1; i <= nc; i++) {
				c = cols[i]
				k = (c ~ /StackKind/) ? 3 : (c ~ /^drgn/) ? 2 : 1
				if (k == p) order[++n] = c
			}
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if ((order[i] ~ /StackKind/) == (order[j] ~ /StackKind/) &&
				    substr(order[i], 1, 4) == substr(order[j], 1, 4) && order[j] < order[i]) {
					t = order[i]; order[i] = order[j]; order[j] = t
				}
		printf "| line | scenario | dump |"
		for (i = 1; i <= n; i++) printf " %s |", order[i]
		printf "\n|---|---|---|"
		for (i = 1; i <= n; i++) printf "---|"
		printf "\n"
		for (r = 1; r <= nr; r++) {
			printf "| %s |", rows[r]
			for (i = 1; i <= n; i++) printf " %s |", ((rows[r], order[i]) in cell ? cell[rows[r], order[i]] : "-")
			printf "\n"
		}
	}'
