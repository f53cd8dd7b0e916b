#!/bin/sh
# bench/explain-size.sh - how long stackov-log takes on a log of 1, 10 and
# 100 MB of ordinary boot lines with one real report at its end
# (tests/logs/syzbot-bond-netdev-features-recursion.log), beside the time
# cat(1) takes to read the same file: the ratio is what to compare across
# machines. Best of 3 runs each.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

bin=$("$LAB_ROOT/vm/builders/host-tools.sh" stackov-log)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stackov-explain-size.XXXXXX")
remove_on_exit "$tmp"
grep -v '^# ' "$LAB_ROOT/tests/logs/syzbot-bond-netdev-features-recursion.log" >"$tmp/report.log"
# best CMD...: the best wall time of three runs of CMD, in seconds.
best() {
	b=''
	for _ in 1 2 3; do
		t0=$(date +%s.%N)
		"$@" >/dev/null
		t=$(echo "$(date +%s.%N) - $t0" | bc)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
	done
	echo "$b"
}
echo "stackov-log -f on a log with one report at its end (best of 3)"
printf '%8s %12s %12s %8s\n' MB stackov-log cat ratio
for mb in 1 10 100; do
	yes '[  12.345678] ata1.00: a line of an ordinary boot, nothing to see here, move on please' |
		head -c $((mb * 1000000)) >"$tmp/big.log"
	cat "$tmp/report.log" >>"$tmp/big.log"
	s=$(best "$bin" -f "$tmp/big.log")
	c=$(best cat "$tmp/big.log")
	printf '%8d %11.3fs %11.3fs %8.0f\n' "$mb" "$s" "$c" "$(echo "$s / $c" | bc -l)"
done
