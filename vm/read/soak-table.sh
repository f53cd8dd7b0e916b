#!/bin/sh
# vm/read/soak-table.sh ROWS TITLE - make soak's table (vm/soak.sh), in
# Markdown, from ROWS: one line per run, tab-separated:
#   scenario run result stack task cycle agree wall
# A line per run, then per scenario: how many runs gave its usual answer
# (the one most runs gave; on a tie, the earliest run's), and the runs
# that differ. Runs are compared on result, stack, the task (a per-CPU
# thread's name without its CPU), the cycle's function (not its count,
# which the random stack offset moves) and whether the readers agreed;
# never on the wall time.
set -eu
rows=${1:?usage: soak-table.sh ROWS TITLE}
title=${2:?usage: soak-table.sh ROWS TITLE}
[ -s "$rows" ] || { echo "soak-table.sh: no runs in $rows" >&2; exit 1; }
echo "# make soak: $title"
echo
echo "| scenario | run | result | stack | task | cycle | readers agree | wall s |"
echo "|---|---|---|---|---|---|---|---|"
awk -F '\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8 }' "$rows"
echo
echo "| scenario | alike | usual answer (result, stack, task, cycle, agree) | runs that differ |"
echo "|---|---|---|---|"
awk -F '\t' '
{
	c = $6; sub(/ \(x[0-9]+\)$/, "", c)
	# A per-CPU thread is the same task on any CPU: swapper/0, swapper/1.
	t = $5; sub(/\/.*$/, "/", t)
	key = $3 ", " $4 ", " t ", " c ", " $7
	if (!($1 in nr)) order[++ns] = $1
	run[$1, ++nr[$1]] = $2; keyof[$1, nr[$1]] = key; cnt[$1, key]++
}
END {
	for (i = 1; i <= ns; i++) {
		s = order[i]; best = ""; bc = 0
		for (j = 1; j <= nr[s]; j++)
			if (cnt[s, keyof[s, j]] > bc) { bc = cnt[s, keyof[s, j]]; best = keyof[s, j] }
		diff = ""
		for (j = 1; j <= nr[s]; j++) if (keyof[s, j] != best) diff = diff " " run[s, j]
		printf "| %s | %d of %d | %s | %s |\n", s, bc, nr[s], best, diff == "" ? "-" : "run" diff
	}
}' "$rows"
