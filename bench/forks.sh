#!/bin/sh
# bench/forks.sh - the series' experiment in the guest: forkloop N (fork +
# exit + wait, N times) under the default stack cache, kstack_cache=0 and
# kstack_free=rcu on the vmap kernel, and on novmap; µs per fork and the
# kstack_cache_* counters from /proc/vmstat. Each setting runs pinned to
# CPU 0 (forkloop -1: parent and children share a stack cache) and free. TCG: the µs are emulated
# time, comparable with each other, not with hardware.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

N=${N:-5000}
printf '%-26s %s\n' "setting" "forkloop $N result"
for pin in -1: ''; do
	for s in "vmap default" "vmap kstack_cache=0" "vmap kstack_free=rcu" "novmap default"; do
		v=${s%% *} opt=${s#* }
		[ "$opt" = default ] && opt=''
		run=$(mktemp -d "$LAB_OUT/bench-forks-XXXX")
		rmdir "$run"
		RUN_DIR=$run VARIANT=$v APPEND="lab.cmd=forkloop:$pin$N loglevel=4 $opt" SCENARIO='' \
			VM_TIMEOUT=900 "$LAB_ROOT/vm/qemu.sh" 2>/dev/null || true
		printf '%-26s %s\n' "$s" "$(tr -d '\r' <"$run/console.log" | sed -n 's/^forkloop: result //p')"
		rm -rf "$run"
	done
done
