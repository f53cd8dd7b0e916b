// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: recursion folded into a cycle of up to SO_MAX_PERIOD
 * functions, and the cycle in words, in call order. The dump readers fold
 * their frames with it, and the log explainer the frames of its trace.
 */
#include <string.h>

#include "internal.h"

/* The longest run of frames that repeats with a period of 1..8 names. */
void stackov_fold(const char * const *names, const long *bytes, int n, int *start, int *period,
		  int *reps, long *cyc_bytes)
{
	int p, i, j, best = 0;

	*start = *period = *reps = 0;
	for (p = 1; p <= SO_MAX_PERIOD; p++)
		for (i = 0; i + p < n; i++) {
			for (j = i; j + p < n && !strcmp(names[j], names[j + p]); j++)
				;
			if ((j - i + p) / p >= 3 && j - i + p > best) {
				best = j - i + p;
				*start = i;
				*period = p;
				*reps = best / p;
			}
			if (j > i)
				i = j - 1;
		}
	/* One turn's bytes: the turn after the first, whose deepest frame
	 * (caught at the fault) may be short.
	 */
	*cyc_bytes = 0;
	for (i = 0; *reps && i < *period; i++) {
		long b = bytes[*start + *period + i];

		if (b < 0) {
			*cyc_bytes = -1;
			break;
		}
		*cyc_bytes += b;
	}
}

/* "c -> b -> a xN (M bytes per cycle)": a calls b; the frames run callee first. */
void stackov_cycle_words(const char * const *names, int start, int period, int reps,
			 long cyc_bytes, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	if (!len)
		return;
	buf[0] = '\0';
	if (!reps)
		return;
	for (i = period - 1; i >= 0 && n < len; i--)
		n += snprintf(buf + n, len - n, "%s%s", i < period - 1 ? " -> " : "", names[start + i]);
	if (n < len)
		n += snprintf(buf + n, len - n, " x%d", reps);
	if (n < len && cyc_bytes > 0)
		snprintf(buf + n, len - n, " (%ld bytes per cycle)", cyc_bytes);
}

/* @a and @b, compared as names without gcc's suffixes (.cold, .isra.0). */
static int plain_cmp(const char *a, const char *b)
{
	size_t la = strcspn(a, "."), lb = strcspn(b, ".");
	int c = strncmp(a, b, la < lb ? la : lb);

	return c ? c : (la > lb) - (la < lb);
}

void stackov_signature(const char * const *names, int n, int start, int period, int reps,
		       const char *what, char *buf, size_t len)
{
	const char *c[SO_MAX_PERIOD];
	size_t k = 0;
	int i, j, r = 0, best = 0;

	if (!len)
		return;
	buf[0] = '\0';
	if (reps && period > 0 && period <= SO_MAX_PERIOD) {
		/* In call order: the frames run callee first. */
		for (i = 0; i < period; i++)
			c[i] = names[start + period - 1 - i];
		for (r = 1; r < period; r++)
			for (i = 0; i < period; i++) {
				int d = plain_cmp(c[(r + i) % period], c[(best + i) % period]);

				if (d) {
					if (d < 0)
						best = r;
					break;
				}
			}
		k = snprintf(buf, len, "%s in ", what);
		for (i = 0; i < period && k < len; i++)
			k += snprintf(buf + k, len - k, "%s%.*s", i ? " -> " : "",
				      (int)strcspn(c[(best + i) % period], "."), c[(best + i) % period]);
		return;
	}
	/* No cycle: the deepest function that comes back, else the deepest. */
	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n && plain_cmp(names[i], names[j]); j++)
			;
		if (j < n)
			break;
	}
	if (i == n)
		i = 0;
	if (n)
		snprintf(buf, len, "%s in %.*s", what, (int)strcspn(names[i], "."), names[i]);
	else
		snprintf(buf, len, "%s", what);
}

void so_fold(struct so_walk *w)
{
	static const char *names[SO_MAX_FRAMES];
	static long bytes[SO_MAX_FRAMES];
	int i;

	for (i = 0; i < w->n; i++) {
		names[i] = w->frames[i].name;
		bytes[i] = w->frames[i].bytes;
	}
	stackov_fold(names, bytes, w->n, &w->cyc_start, &w->cyc_period, &w->cyc_reps,
		     &w->cyc_bytes);
}

void so_cycle_str(const struct so_walk *w, char *buf, size_t len)
{
	static const char *names[SO_MAX_FRAMES];
	int i;

	for (i = 0; i < w->n; i++)
		names[i] = w->frames[i].name;
	stackov_cycle_words(names, w->cyc_start, w->cyc_period, w->cyc_reps, w->cyc_bytes, buf, len);
}
