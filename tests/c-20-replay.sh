#!/bin/sh
# Dumps replayed: the engine (libstackov) run again, by stackov-replay, on
# the answers crash gave it while it read a real dump of the lab
# (tests/replay/NAME.gz, one per fatal scenario and kernel line), with no
# dump, vmlinux or reader, in milliseconds. Each replay must ask nothing
# the recording does not hold, give the verdict the readers gave then
# (NAME.json), and agree with what shares no code with the engine: the
# dump's own kernel log (NAME.facts: the BUG line's stack, fault and
# bounds, the oops's task), the compiler's frame sizes (NAME.facts' su:
# lines, -fstack-usage: a recursion's bytes per cycle) and what the
# scenario is known to do (its function in the cycle, from
# tests/scenarios.tsv). A dump with no guard-page hit gets the verdict on
# its crash (a canary, a stack end, a fault on a freed stack, an oops),
# held to the kernel's report of it, the compiler's frame size and what
# the scenario or test module is known to do (crash_agrees, crash_known).
# The stack drawn from the same answers (stackov -m -s) must be the
# verdict's: tests/svg-check.py.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
bin=$(vm/builders/host-tools.sh stackov-replay) || { fail "stackov-replay does not build"; finish; }
s=$(mktemp -d "$LAB_OUT/test-replay-XXXX")
n=0 t0=$(date +%s.%N)
for gz in tests/replay/*.gz; do
	[ -f "$gz" ] || continue
	name=$(basename "$gz" .gz)
	n=$((n + 1))
	rc=0
	"$bin" "$gz" stackov -j >"$s/$name.out" 2>"$s/$name.err" || rc=$?
	# A refusal is one line; the report keeps it as {"refusal": LINE}.
	if grep -q '^stackov: ' "$s/$name.out"; then
		jq -nc --arg l "$(head -1 "$s/$name.out")" '{refusal: $l}' >"$s/$name.json"
	else
		cp "$s/$name.out" "$s/$name.json"
	fi
	trc=0
	"$bin" "$gz" stackov >"$s/$name.txt" 2>>"$s/$name.err" || trc=$?
	check "$name: replayed with every answer on the recording (status $rc/$trc$(head -c 200 "$s/$name.err" | tr '\n' ' '))" \
		sh -c "[ $rc -le 1 ] && [ $trc -le 1 ] && [ $rc = $trc ]"
	check "$name: the verdict the readers gave on the dump, word for word" cmp -s "$s/$name.json" "tests/replay/$name.json"
	f=tests/replay/$name.facts
	bug=$(sed -n 's/^BUG: \([A-Z]*\) stack guard page was hit at \([0-9a-f]*\) (stack is \([0-9a-f]*\)\.\.\([0-9a-f]*\))$/\1 \2 \3..\4/p' "$f")
	# A module's own word on how deep it went: every stack's headroom
	# (stackov -u -j) has that stack, as deep, in that function.
	said=$(sed -n "s/^said: .* [0-9]* frames of \([a-z_0-9]*\), the deepest \([0-9]*\) bytes above the stack's end\$/\1 \2/p" "$f")
	if [ -n "$said" ]; then
		urc=0
		"$bin" "$gz" stackov -u -j >"$s/$name.u.json" 2>>"$s/$name.err" || urc=$?
		got=$(jq -r --arg f "${said% *}" '[.stacks[] | select(.deepest == $f)][0] | "\(.deepest) \(.left)"' \
			"$s/$name.u.json" 2>/dev/null || true)
		check "$name: stackov -u (status $urc) finds the stack the module dived in, as deep as it said ($said): $got" \
			[ "$got" = "$said" ]
	fi
	j=$s/$name.json
	# NAME is LINE-VARIANT-SCENARIO-DUMP (a test module's name in capitals).
	sc=$(echo "$name" | sed -n 's/^[a-z0-9.]*-[a-z]*-\([A-Z_]*\)-[a-z-]*$/\1/p')
	if [ -z "$bug" ]; then
		# No guard-page hit: the crash's verdict, against the kernel's
		# report, the compiler's frame size, what the scenario does.
		crash_agrees "$name" "$j" "$f" "$f"
		if is_refusal "$j"; then
			skip "$name: what $sc does, and the stack drawn" "a refusal: no stack the engine can name ($(jq -r .refusal "$j" | cut -c1-60))"
			continue
		fi
		crash_known "$name" "$sc" "$j" "$f"
		mrc=0
		"$bin" "$gz" stackov -m -s >"$s/$name.svg" 2>>"$s/$name.err" || mrc=$?
		so=$(python3 tests/svg-check.py "$s/$name.svg" "$j" "$s/$name.txt" 2>&1) && src=0 || src=$?
		check "$name: stackov -m -s draws the crash's stack and marks (status $mrc): $(printf '%s\n' "$so" | head -3 | paste -sd';' -)" \
			[ "$mrc $src" = "0 0" ]
		continue
	fi
	check "$name: the stack, fault and bounds of the kernel's BUG line ($bug)" \
		[ "$(jfield "$j" stack) $(jfield "$j" fault) $(jfield "$j" lo)..$(jfield "$j" hi)" = "$bug" ]
	oops=$(sed -n 's/^CPU: [0-9]* \(UID: [0-9]* \)\{0,1\}PID: \([0-9]*\) Comm: \([^ ]*\) .*/\2 \3/p' "$f")
	check "$name: the oops's task ($oops)" [ "$(jfield "$j" pid) $(jfield "$j" comm)" = "$oops" ]
	# The stack drawn (stackov -m -s), from the same answers.
	mrc=0
	"$bin" "$gz" stackov -m -s >"$s/$name.svg" 2>>"$s/$name.err" || mrc=$?
	so=$(python3 tests/svg-check.py "$s/$name.svg" "$j" "$s/$name.txt" 2>&1) && src=0 || src=$?
	check "$name: stackov -m -s draws the verdict (status $mrc): $(printf '%s\n' "$so" | head -3 | paste -sd';' -)" \
		[ "$mrc $src" = "0 0" ]
	# What the scenario recurses in.
	case $sc in
	RECURSE_*)
		fn=$(scenario_field "$sc" function)
		check "$name: the cycle folds $fn, the function $sc recurses in ($(jfield "$j" cycle))" \
			cycle_has "$(jfield "$j" cycle)" "$fn"
		# The bytes per cycle: the compiler's frame sizes of the
		# cycle's functions, kept beside the recording.
		su=$(awk '$1 == "su:" { t += $3; n++ } END { if (n) print t }' "$f")
		got=$(jfield "$j" cycle | sed -n 's/.*(\([0-9]*\) bytes per cycle)$/\1/p')
		if [ -n "$su" ]; then
			check "$name: $got bytes per cycle, the compiler's frame sizes of its functions (-fstack-usage: $su)" [ "$got" = "$su" ]
		else
			skip "$name: the bytes per cycle beside the compiler's frame sizes" "no frame sizes kept in $f (tests/replay/keep.sh keeps them)"
		fi ;;
	'') fail "$name: the name says no scenario (LINE-VARIANT-SCENARIO-DUMP)" ;;
	*) check "$name: $sc does not recurse: no cycle" [ "$(jfield "$j" cycle_reps)" = 0 ] ;;
	esac
done
took=$(echo "$(date +%s.%N) - $t0" | bc)
check "tests/replay holds recordings to replay ($n, replayed in $took s)" [ "$n" -ge 1 ]

# The engine the readers load is the engine of the sources as they are:
# a make for stackov-replay remakes libstackov.so beside it, and a source
# changed and put back (cp: a newer time, the same bytes) must not leave
# the library of the change behind (host-tools.sh keys one make's
# products together).
r=$s/root
mkdir -p "$r/libstackov"
cp -r vm "$r/"
cp libstackov/* "$r/libstackov/" 2>/dev/null || true
rm -f "$r/libstackov"/*.so "$r/libstackov"/*.a
ht() { STACKOV_CACHE=$s/cache "$r/vm/builders/host-tools.sh" "$@" 2>>"$s/ht.err"; }
ht libstackov >/dev/null || true
cp "$r/libstackov/fold.c" "$s/fold.c.orig"
echo 'const char stackov_changed[] __attribute__((used, visibility("default"))) = "CHANGED";' >>"$r/libstackov/fold.c"
changed=$(ht stackov-replay >/dev/null && strings "$s/cache/bin/libstackov.so" | grep -c '^CHANGED$')
cp "$s/fold.c.orig" "$r/libstackov/fold.c"
lib=$(ht libstackov || true)
check "host-tools.sh: a make for stackov-replay remakes libstackov.so ($changed with the change)" [ "$changed" = 1 ]
check "host-tools.sh: the change put back, libstackov.so is the sources' again ($lib)" \
	sh -c "[ -s '$lib' ] && ! strings '$lib' | grep -q '^CHANGED\$'"
[ "$failed" = 0 ] && rm -rf "$s"
finish
