#!/bin/sh
# vm/read/agree.sh RUN_DIR DUMP... - do the three stackovs agree on each
# DUMP (vmcore, qemu-vmcore)? From their verdicts in RUN_DIR
# (stackov-READER-DUMP.json, and the text beside it, .txt): a JSON array,
# an object per dump: how many of the three gave a verdict, which, whether
# those are the same word for word (JSON and text; a refusal has no text),
# and "agree", true only when all three gave one and they are the same.
# A reader that gave nothing never counts as agreeing.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

run=${1:?usage: agree.sh RUN_DIR DUMP...}
shift
# same_file A B: both missing, or both there and byte for byte the same.
same_file() {
	if [ -e "$1" ] || [ -e "$2" ]; then
		cmp -s "$1" "$2"
	fi
}
for d in "$@"; do
	set --
	for r in crash gdb drgn; do
		[ -s "$run/stackov-$r-$d.json" ] && set -- "$@" "$r"
	done
	same=false
	if [ $# -ge 1 ]; then
		same=true
		for r in "$@"; do
			same_file "$run/stackov-$1-$d.json" "$run/stackov-$r-$d.json" &&
				same_file "$run/stackov-$1-$d.txt" "$run/stackov-$r-$d.txt" || same=false
		done
	fi
	jq -nc --arg d "$d" --arg who "$*" --argjson same "$same" '
		($who | split(" ") | map(select(. != ""))) as $r
		| {dump: $d, verdicts: ($r | length), of: 3, readers: $r, same: $same,
		   agree: ($same and ($r | length) == 3)}'
done | jq -s .
