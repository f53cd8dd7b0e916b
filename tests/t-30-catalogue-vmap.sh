#!/bin/sh
# Every scenario of make list on the vmap kernel, through make
# overflow-demo, checked against tests/scenarios.tsv (tests/catalogue.sh
# says what is checked). Writes out/catalogue-vmap.txt. ONLY="NAME..."
# runs just those scenarios.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"
# shellcheck source=tests/catalogue.sh
. "$LAB_ROOT/tests/catalogue.sh"

names=$("$LAB_ROOT/vm/list.sh" | cut -d' ' -f1)
check "tests/scenarios.tsv has exactly the scenarios of make list, in order" \
	[ "$(scenario_names | tr '\n' ' ')" = "$(echo "$names" | tr '\n' ' ')" ]
catalogue vmap "${ONLY:-$names}"
finish
