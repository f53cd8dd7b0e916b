#!/bin/sh
# The second kernel line (LINUX=6.12): Debian's linux-source-6.12 with
# patches/6.12/series, built into its own directory of the cache. Its
# banner says 6.12 and the series is in it; a subset of the fatal
# scenarios through make overflow-demo, checked against their vmap line in
# tests/scenarios.tsv with t-30's checks (tests/catalogue.sh: the three
# readers word for word on both dumps, and against the kernel's report and
# drgn's own unwinder; CANARY_SMASH, a crash that is no overflow, against
# the kernel's report of it: on 6.12 canary_victim is in .text, which gdb
# once answered from the .ko, not the dump), and one MODULE= example.
# ONLY="NAME..." runs just those scenarios.
LINUX=6.12
export LINUX
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"
# shellcheck source=tests/catalogue.sh
. "$LAB_ROOT/tests/catalogue.sh"

# linux-source-6.12 is the one package 6.1's make deps did not install.
"$LAB_ROOT/vm/builders/deps.sh" >"$LAB_OUT/deps-6.12.log" 2>&1 ||
	{ cat "$LAB_OUT/deps-6.12.log"; fail "make deps LINUX=6.12 failed"; finish; }
check "6.12: make deps installed linux-source-6.12" [ -f /usr/src/linux-source-6.12.tar.xz ]
"$LAB_ROOT/vm/builders/kernel.sh" vmap >"$LAB_OUT/build-vmap-6.12.log" 2>&1 ||
	{ tail -20 "$LAB_OUT/build-vmap-6.12.log"; fail "the 6.12 kernel did not build (see $LAB_OUT/build-vmap-6.12.log)"; finish; }
grep -E 'built in|up to date' "$LAB_OUT/build-vmap-6.12.log"
vml=$(kernel_vmlinux vmap)
check "6.12: its build is in the cache's lab-6.12/, apart from 6.1's" \
	sh -c "case '$vml' in '$STACKOV_CACHE/lab-6.12/'*) exit 0 ;; esac; exit 1"
check "6.12: vmlinux says Linux version 6.12" sh -c "strings '$vml' | grep -q '^Linux version 6\\.12\\.[0-9]*-stackov'"
check "6.12: the series is in it (vmap_stack_cache_size, patch 0006)" sh -c "nm '$vml' | grep -q ' vmap_stack_cache_size\$'"

# Two scenarios, the task stack's guard page and the IRQ stack, to keep
# make test within its hour: x-30 (make test-full) runs them all.
catalogue vmap "${ONLY:-RECURSE_TASK RECURSE_HARDIRQ CANARY_SMASH}" vmap

if [ -z "${ONLY:-}" ]; then
	module_cycle 6.12 lab-6.12 6.12
	explain_agrees mutual_recursion "$mrun"
fi
finish
