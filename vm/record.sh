# shellcheck shell=sh
# vm/record.sh - the run record, RUN_DIR/run.json: which kernel, variant,
# scenario or module and accelerator; each boot with its outcome and the
# reason (vm/boot/classify.sh decides them, nothing else does); each dump
# with its size, CRC and the check's result; the timings. Sourced by
# vm/lib.sh. Every step writes it through rec_set and reads it through
# rec_get; nothing else opens the file. jq does the JSON.

# rec_file RUN_DIR: the record of a run.
rec_file() {
	echo "$1/run.json"
}

# rec_has RUN_DIR: the run has a record.
rec_has() {
	[ -s "$1/run.json" ]
}

# rec_get RUN_DIR FILTER [JQ_ARGS...]: a value of the record, raw (a
# string as it is, null as the empty string); status 1, with one line on
# stderr, when the run has no record or the filter fails.
rec_get() {
	rg_run=$1 rg_f=$2
	shift 2
	[ -f "$rg_run/run.json" ] || {
		printf '%s: error: %s has no run.json\n' "${0##*/}" "$rg_run" >&2
		return 1
	}
	jq -r "$@" "($rg_f) | select(. != null)" "$rg_run/run.json"
}

# rec_set RUN_DIR FILTER [JQ_ARGS...]: change the record with a jq filter,
# atomically (a new file moved over the old) and one writer at a time
# (a lock on the run directory itself).
# A run without a record gets {} first.
rec_set() {
	rs_run=$1 rs_f=$2
	shift 2
	(
		exec 7<"$rs_run"
		flock 7
		[ -s "$rs_run/run.json" ] || echo '{}' >"$rs_run/run.json"
		jq "$@" "$rs_f" "$rs_run/run.json" >"$rs_run/run.json.tmp" &&
			mv "$rs_run/run.json.tmp" "$rs_run/run.json"
	) || {
		rm -f "$rs_run/run.json.tmp"
		printf '%s: error: cannot update %s/run.json with %s\n' "${0##*/}" "$rs_run" "$rs_f" >&2
		return 1
	}
}

# rec_boot_set RUN_DIR NAME FILTER [JQ_ARGS...]: change boot NAME's entry
# (FILTER is applied to it), made if it is not there yet.
rec_boot_set() {
	rb_run=$1 rb_name=$2 rb_f=$3
	shift 3
	rec_set "$rb_run" "
		.boots = ((.boots // []) | if any(.name == \$boot_name) then . else . + [{name: \$boot_name}] end)
		| .boots |= map(if .name == \$boot_name then ($rb_f) else . end)" \
		--arg boot_name "$rb_name" "$@"
}

# rec_dump_set RUN_DIR NAME FILTER [JQ_ARGS...]: the same for dump NAME.
rec_dump_set() {
	rd_run=$1 rd_name=$2 rd_f=$3
	shift 3
	rec_set "$rd_run" "
		.dumps = ((.dumps // []) | if any(.name == \$dump_name) then . else . + [{name: \$dump_name}] end)
		| .dumps |= map(if .name == \$dump_name then ($rd_f) else . end)" \
		--arg dump_name "$rd_name" "$@"
}

# run_outcome RUN_DIR [BOOT]: how the run's first boot (or BOOT) ended:
# kdump, capture-failed, panic, poweroff, triple-fault, reset, timeout,
# error; "running" while it runs; empty (status 1) with no record.
run_outcome() {
	if [ -n "${2:-}" ]; then
		rec_get "$1" '.boots[] | select(.name == $b) | .outcome' --arg b "$2"
	else
		rec_get "$1" '.boots[0].outcome'
	fi
}

# run_reason RUN_DIR [BOOT]: the classifier's reason for that outcome.
run_reason() {
	if [ -n "${2:-}" ]; then
		rec_get "$1" '.boots[] | select(.name == $b) | .reason' --arg b "$2"
	else
		rec_get "$1" '.boots[0].reason'
	fi
}

# dump_path RUN_DIR NAME: where dump NAME of the run is (its path from the
# record), if the record says it was captured; status 1 otherwise.
dump_path() {
	dp=$(rec_get "$1" '.dumps[] | select(.name == $n and .captured) | .path' --arg n "$2") || return 1
	[ -n "$dp" ] && echo "$1/$dp"
}
