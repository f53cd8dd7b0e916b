#!/bin/sh
# walkthroughs/screenshot.sh SVG PNG - a run's stack.svg as headless
# Chromium draws it, into PNG: how walkthroughs/img/ was made. Installs
# Debian's chromium with apt when it is missing (as root). Not run by make
# test: tests/svg-check.py checks the SVG itself.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../vm/lib.sh"

svg=${1:?usage: walkthroughs/screenshot.sh SVG PNG}
png=${2:?usage: walkthroughs/screenshot.sh SVG PNG}
[ -f "$svg" ] || die "$svg: no such file"
if ! command -v chromium >/dev/null; then
	[ "$(id -u)" = 0 ] || die "no chromium; run: sudo apt-get install chromium"
	echo "==> installing chromium" >&2
	log=${TMPDIR:-/tmp}/stackov-chromium-apt.$$.log
	{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium; } \
		>"$log" 2>&1 || { tail -5 "$log" >&2; die "apt-get install chromium failed (log: $log)"; }
	rm -f "$log"
fi
# The window is the picture's own size (the svg element's width and height).
size=$(sed -n 's/^<svg [^>]* width="\([0-9]*\)" height="\([0-9]*\)".*/\1,\2/p' "$svg" | head -1)
[ -n "$size" ] || die "$svg: no width and height on its svg element"
dir=$(mktemp -d "${TMPDIR:-/tmp}/stackov-chromium.XXXXXX")
remove_on_exit "$dir"
timeout -k 5 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--user-data-dir="$dir" --window-size="$size" --screenshot="$png" "file://$(realpath "$svg")" \
	>"$dir/log" 2>&1 || { tail -5 "$dir/log" >&2; die "chromium drew no picture of $svg"; }
[ -s "$png" ] || die "chromium left no $png"
echo "$png: $svg as headless Chromium draws it ($size px)"
