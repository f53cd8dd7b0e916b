// SPDX-License-Identifier: GPL-2.0
/*
 * stackov: recursion folded into a cycle of up to STACKOV_MAX_PERIOD
 * functions, and the cycle in words, in call order.
 */
#include "verdict.h"

/* The longest run of frames that repeats with a period of 1..8 names. */
void fold_cycle(void)
{
	int p, i, j, best = 0;

	v.cyc_reps = 0;
	for (p = 1; p <= STACKOV_MAX_PERIOD; p++)
		for (i = 0; i + p < v.nframes; i++) {
			for (j = i; j + p < v.nframes && !strcmp(v.frames[j].name, v.frames[j + p].name); j++)
				;
			if ((j - i + p) / p >= 3 && j - i + p > best) {
				best = j - i + p;
				v.cyc_start = i;
				v.cyc_period = p;
				v.cyc_reps = best / p;
			}
			if (j > i)
				i = j - 1;
		}
	v.cyc_bytes = 0;
	for (i = 0; v.cyc_reps && i < v.cyc_period; i++) {
		struct frame *f = &v.frames[v.cyc_start + v.cyc_period + i];

		if (f->bytes < 0) {
			v.cyc_bytes = -1;
			break;
		}
		v.cyc_bytes += f->bytes;
	}
}

void cycle_str(char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	if (!v.cyc_reps)
		return;
	/* In call order, "a -> b": a calls b; the frames run callee first. */
	for (i = v.cyc_period - 1; i >= 0 && n < len; i--)
		n += snprintf(buf + n, len - n, "%s%s", i < v.cyc_period - 1 ? " -> " : "",
			      v.frames[v.cyc_start + i].name);
	if (n < len)
		n += snprintf(buf + n, len - n, " x%d", v.cyc_reps);
	if (n < len && v.cyc_bytes > 0)
		snprintf(buf + n, len - n, " (%ld bytes per cycle)", v.cyc_bytes);
}
