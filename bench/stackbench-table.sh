#!/bin/sh
# bench/stackbench-table.sh OUTDIR - the tables and the plot of
# bench/stackbench.sh, from OUTDIR/stackbench.raw (and highwater.raw and
# lines.raw): OUTDIR/table.md, OUTDIR/plot.svg, OUTDIR/highwater.md. The
# rows of another kernel line (vmap@6.12) are left out of the first line's
# tables and set beside it in their own.
set -eu
out=${1:?usage: stackbench-table.sh OUTDIR}
raw=$out/stackbench.raw
[ -s "$raw" ] || { echo "stackbench-table.sh: no results in $raw" >&2; exit 1; }

# One line per (row, clock, op, pinned): min median max of ns_per_op over
# the runs, and run 1's counters and KernelStack.
summary=$out/summary.txt
awk '
function val(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
{
	key = val("row") " " val("clock") " " val("op") " " val("pinned")
	if (!(key in n)) order[++keys] = key
	ns[key, ++n[key]] = val("ns_per_op")
	if (val("run") == 1)
		extra[key] = val("kstack_cache_hit") " " val("kstack_cache_miss") " " val("kstack_cache_put") " " \
			val("kstack_cache_full") " " val("kernelstack_kb") " " val("kernelstack_kb_after")
}
END {
	for (k = 1; k <= keys; k++) {
		key = order[k]; m = n[key]
		for (i = 1; i <= m; i++) v[i] = ns[key, i] + 0
		for (i = 2; i <= m; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
		med = (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
		printf "%s %d %d %d %d %s\n", key, v[1], med, v[m], m, extra[key]
	}
}' "$raw" >"$summary"

clocks=$(awk '{ print $2 }' "$summary" | awk '!s[$0]++' | tr '\n' ' ')

# stock_table: the stock row (Debian's kernel) beside vmap, when it ran.
stock_table() {
	echo
	echo "stock is Debian 12's kernel, unpatched (KERNEL=debian): a whole distribution"
	echo "config (audit, LSMs, KASLR, the stack offset), so the baseline a user knows,"
	echo "not a like-for-like comparison. It has no cache counters (patch 0001)."
	echo
	echo "| operation | clock | stock ns | vmap ns | vmap / stock |"
	echo "|---|---|---|---|---|"
	awk '
	$4 == 1 { med[$1, $2, $3] = $6; if (!($2 in seen)) { seen[$2] = 1; c[++nc] = $2 } }
	END {
		split("pthread fork clone", ops, " ")
		for (o = 1; o <= 3; o++)
			for (i = 1; i <= nc; i++) {
				s = med["stock", c[i], ops[o]]; v = med["vmap", c[i], ops[o]]
				if (s == "" || v == "") continue
				printf "| %s | %s | %d | %d | %.2f |\n", ops[o], c[i], s, v, s ? v / s : 0
			}
	}' "$summary"
}
# lines_table: each row of the first line beside the same row on the
# others, under -icount (pinned, medians), then the guest's boot to /init,
# and each line's build and kdump (lines.raw).
lines_table() {
	first=$(sed -n '1s/^line=\([^ ]*\) .*/\1/p' "$out/lines.raw" 2>/dev/null)
	others=$(sed -n 's/^[^ @]*@\([^ ]*\) .*/\1/p' "$summary" | awk '!s[$0]++' | tr '\n' ' ')
	echo "## ${first:-6.1} and ${others% } side by side (-icount, pinned, medians)"
	echo
	echo "The same rows on each line: the lab's kernel with the line's own port"
	echo "of the series (patches/, patches/6.12/), and Debian's own image of each"
	echo "line as stock. Guest time under -icount, one CPU: the instructions each"
	echo "operation costs, not the host's speed."
	echo
	printf '| row | operation | %s ns |' "${first:-6.1}"
	for l in $others; do printf ' %s ns | %s / %s |' "$l" "$l" "${first:-6.1}"; done
	echo
	printf '|---|---|---|'
	for l in $others; do printf -- '---|---|'; done
	echo
	awk -v others="$others" '
	$2 == "icount" && $4 == 1 {
		r = $1; l = ""
		if (index(r, "@")) { l = substr(r, index(r, "@") + 1); r = substr(r, 1, index(r, "@") - 1) }
		if (l == "" && !(r in seen)) { seen[r] = 1; rows[++nr] = r }
		med[r, l, $3] = $6
	}
	END {
		no = split(others, ol, " "); split("pthread fork clone", ops, " ")
		for (i = 1; i <= nr; i++)
			for (o = 1; o <= 3; o++) {
				a = med[rows[i], "", ops[o]]
				printf "| %s | %s | %s |", rows[i], ops[o], a == "" ? "-" : a
				for (j = 1; j <= no; j++) {
					b = med[rows[i], ol[j], ops[o]]
					printf " %s | %s |", b == "" ? "-" : b, (a != "" && b != "" && a > 0) ? sprintf("%.2f", b / a) : "-"
				}
				print ""
			}
	}' "$summary"
	echo
	echo "Boot to /init (the kernel's own timestamp on \"Run /init\"), guest seconds"
	echo "under -icount, median over the row's boots:"
	echo
	printf '| row | %s s |' "${first:-6.1}"
	for l in $others; do printf ' %s s |' "$l"; done
	echo
	printf '|---|---|'
	for l in $others; do printf -- '---|'; done
	echo
	awk -v others="$others" '
	function val(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
	val("clock") == "icount" && val("op") == "pthread" && val("pinned") == 1 && val("boot_s") != "-" {
		r = val("row"); l = ""
		if (index(r, "@")) { l = substr(r, index(r, "@") + 1); r = substr(r, 1, index(r, "@") - 1) }
		if (l == "" && !(r in seen)) { seen[r] = 1; rows[++nr] = r }
		b[r, l, ++n[r, l]] = val("boot_s") + 0
	}
	function median(r, l,   m, i, j, x, v) {
		m = n[r, l]; if (!m) return "-"
		for (i = 1; i <= m; i++) v[i] = b[r, l, i]
		for (i = 2; i <= m; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
		return sprintf("%.3f", (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2)
	}
	END {
		no = split(others, ol, " ")
		for (i = 1; i <= nr; i++) {
			printf "| %s | %s |", rows[i], median(rows[i], "")
			for (j = 1; j <= no; j++) printf " %s |", median(rows[i], ol[j])
			print ""
		}
	}' "$out/stackbench.raw"
	[ -s "$out/lines.raw" ] || return 0
	echo
	echo "Each line's vmap kernel: its last build (host seconds and objects, as the build"
	echo "recorded it, on the date shown; \"not recorded\" for a kernel cached before"
	echo "builds recorded their time), and one kdump of RECURSE_TASK under"
	echo "-icount: the vmcore's size at the line's makedumpfile dump level (6.12"
	echo "needs -d 1: vm/kernels/lab-6.12.sh) and the capture kernel's guest time"
	echo "from its start to the vmcore written."
	echo
	echo "| line | kernel | last build | vmcore | dump level | capture kernel to vmcore, guest s |"
	echo "|---|---|---|---|---|---|"
	awk '
	function val(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
	{
		bd = val("build"); gsub(",", " ", bd)
		split(bd, f, " ")
		build = (bd == "-" || bd == "") ? "not recorded" : sprintf("%s s, %s objects (%s)", f[1], f[3], f[5])
		printf "| %s | %s | %s | %.1f MiB | -d %s | %s |\n", val("line"), val("kernel"), build,
			val("vmcore_bytes") / 1048576, val("dumplevel"), val("capture_s")
	}' "$out/lines.raw"
}
{
	echo "# stackbench: ns per operation in the guest"
	echo
	echo "Made by \`make bench\` (bench/stackbench.sh) from $(awk 'END { print NR }' "$raw") result lines;"
	echo "$(sed -n 's/.* n=\([0-9]*\) .*/\1/p' "$raw" | head -1) operations per measurement, min / median / max over the boots."
	echo "wall: plain TCG, 2 CPUs, the host's time; icount: TCG with -icount, 1 CPU"
	echo "(QEMU 7.2 brings up no second CPU under -icount), guest time following the"
	echo "instructions executed, one ns each at shift 0. spread: (max - min) / median."
	echo "Counters and KernelStack (kB, before and after the loop) are run 1's, wall"
	echo "clock (2 CPUs: unpinned, a child may exit on the other CPU and fill its cache)."
	for op in pthread fork clone; do
		for pin in 1 0; do
			echo
			echo "## $op, $([ $pin = 1 ] && echo "pinned to CPU 0" || echo "not pinned")"
			echo
			printf '| row |'
			for c in $clocks; do printf ' %s ns (min / median / max) | spread |' "$c"; done
			echo ' hit | miss | put | full | KernelStack kB |'
			printf '|---|'
			for c in $clocks; do printf -- '---|---|'; done
			echo '---|---|---|---|---|'
			awk -v op="$op" -v pin="$pin" -v clocks="$clocks" '
			$3 == op && $4 == pin && $1 !~ /@/ {
				if (!($1 in seen)) { seen[$1] = 1; rows[++r] = $1 }
				cell[$1, $2] = $5 " / " $6 " / " $7
				spread[$1, $2] = $6 ? sprintf("%.1f%%", 100 * ($7 - $5) / $6) : "-"
				if ($2 == "wall" || !($1 in ctr)) ctr[$1] = $9 " | " $10 " | " $11 " | " $12 " | " $13 " -> " $14
			}
			END {
				nc = split(clocks, c, " ")
				for (i = 1; i <= r; i++) {
					printf "| %s |", rows[i]
					for (j = 1; j <= nc; j++) printf " %s | %s |", cell[rows[i], c[j]], spread[rows[i], c[j]]
					printf " %s |\n", ctr[rows[i]]
				}
			}' "$summary"
		done
	done
	echo
	echo "## Against the series (pthread_create+join, pinned, medians)"
	echo
	echo "| comparison | the series | ours, icount | ours, wall | ratio (icount / series) |"
	echo "|---|---|---|---|---|"
	awk '
	$3 == "pthread" && $4 == 1 { med[$1, $2] = $6 }
	function d(a, b, c) { return (med[a, c] != "" && med[b, c] != "") ? med[a, c] - med[b, c] : "" }
	function line(what, series_us, a, b,   i, w) {
		i = d(a, b, "icount"); w = d(a, b, "wall")
		printf "| %s | %+.1f us | %s | %s | %s |\n", what, series_us,
			i == "" ? "-" : sprintf("%+.2f us", i / 1000), w == "" ? "-" : sprintf("%+.2f us", w / 1000),
			i == "" ? "-" : sprintf("%.1f", (i / 1000) / series_us)
	}
	END {
		line("vmap without a cache, against novmap", 1.5, "kstack_cache=0", "novmap")
		line("vmap with the cache of 2, against without", -2.0, "vmap", "kstack_cache=0")
		line("vmap with the cache of 2, against novmap", -0.75, "vmap", "novmap")
	}' "$summary"
	echo
	echo "The series gave 1.5 us (the cost without a cache), about 2 us (what the"
	echo "cache saves) and 0.5 to 1 us (the gain over the old allocator, 0.75 taken"
	echo "here) on 2016 hardware. A ratio above 1 means the effect is larger here."
	if grep -q '^[^ ]*@' "$summary"; then
		echo
		lines_table
	fi
	if grep -q '^stock ' "$summary"; then
		echo
		echo "## Against Debian's own kernel (pinned, medians)"
		stock_table
	fi
} >"$out/table.md"

# The plot: one group per row, one bar per operation (pinned, median of
# the first clock that is icount, else wall).
pc=wall
case " $clocks " in *" icount "*) pc=icount ;; esac
awk -v pc="$pc" '
$2 == pc && $4 == 1 && $1 !~ /@/ {
	if (!($1 in seen)) { seen[$1] = 1; rows[++r] = $1 }
	med[$1, $3] = $6; if ($6 > max) max = $6
}
END {
	split("pthread fork clone", ops, " "); split("#4477aa #ee6677 #228833", col, " ")
	W = 120; H = 300; top = 40; left = 70
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", left + r * W + 20, H + 100
	printf "<text x=\"%d\" y=\"20\">ns per operation, pinned, median (%s clock)</text>\n", left, pc
	printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", left, top + H, left + r * W, top + H
	for (i = 1; i <= r; i++) {
		for (o = 1; o <= 3; o++) {
			v = med[rows[i], ops[o]] + 0; h = max ? H * v / max : 0
			x = left + (i - 1) * W + 10 + (o - 1) * 32
			printf "<rect x=\"%d\" y=\"%.1f\" width=\"28\" height=\"%.1f\" fill=\"%s\"><title>%s %s %d ns</title></rect>\n", x, top + H - h, h, col[o], rows[i], ops[o], v
			printf "<text x=\"%d\" y=\"%.1f\" font-size=\"9\">%d</text>\n", x, top + H - h - 3, v
		}
		printf "<text x=\"%d\" y=\"%d\">%s</text>\n", left + (i - 1) * W + 10, top + H + 18, rows[i]
	}
	for (o = 1; o <= 3; o++)
		printf "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n", left + (o - 1) * 110, top + H + 40, col[o], left + (o - 1) * 110 + 16, top + H + 51, ops[o]
	print "</svg>"
}' "$summary" >"$out/plot.svg"

# How much of each stack the tasks used: SysRq-t's "stack:" is the free
# part (stack_not_used()), of THREAD_SIZE 16 KiB.
if [ -s "$out/highwater.raw" ]; then
	awk '
	{ for (i = 1; i <= NF; i++) if ($i ~ /^stack:/) { f = substr($i, 7); if (f == "") f = $(i + 1) }
	  used = 16384 - f; n[$1]++; sum[$1] += used; v[$1, n[$1]] = used
	  if (used > mx[$1]) mx[$1] = used }
	END {
		print "# How much of its 16 KiB stack each task used"
		print ""
		print "Every task'\''s high-water mark (SysRq-t with DEBUG_STACK_USAGE: 16384 minus"
		print "the stack never written), vmap kernel, after boot and after stackbench."
		print "A 2024 proposal for dynamic kernel stacks says about 4 KiB of each stack"
		print "is in use on idle machines, so 70-75% could be saved."
		print ""
		print "| when | tasks | median used | mean used | max used | could be saved (mean) |"
		print "|---|---|---|---|---|---|"
		split("boot workload", w, " ")
		for (k = 1; k <= 2; k++) {
			m = n[w[k]]; if (!m) continue
			for (i = 1; i <= m; i++) a[i] = v[w[k], i]
			for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
			med = (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
			printf "| after %s | %d | %d B | %d B | %d B | %.0f%% |\n", w[k], m, med, sum[w[k]] / m, mx[w[k]], 100 * (1 - sum[w[k]] / m / 16384)
		}
	}' "$out/highwater.raw" >"$out/highwater.md"
fi
echo "stackbench: $out/table.md, $out/plot.svg${out:+, $out/highwater.md}"
