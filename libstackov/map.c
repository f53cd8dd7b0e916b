// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: the overflowed stack drawn as a column, top first (stackov
 * -m): the entry's pt_regs at the top of a task's stack, each frame as
 * many bytes as the verdict gives it, the cycle's turns, what was never
 * reached, the guard page and the fault. With no overflow, the crashing
 * task's stack, the frames walked from where the crash left its code,
 * and the crash's marks: the canary's slot, the exception frame, an
 * overwritten STACK_END_MAGIC. As text, or with -s as an SVG picture
 * whose every frame is one rect carrying its index and bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum block_kind { B_REGS, B_FRAME, B_UNKNOWN, B_GUARD };

struct block {
	enum block_kind kind;
	uint64_t lo, hi;
	int frame;		/* B_FRAME: its index in the walk */
	int turn;		/* B_FRAME: its turn of the cycle (1...), 0 if none */
};

struct map {
	struct so_verdict *v;
	const struct so_crash *c;	/* a crash that was no overflow, or NULL */
	struct block b[SO_MAX_FRAMES + 8];
	int n;
	int undrawn[SO_MAX_FRAMES];	/* the frames not drawn */
	int nundrawn;
};

static void add(struct map *m, enum block_kind kind, uint64_t lo, uint64_t hi, int frame, int turn)
{
	if (m->n >= (int)ARRAY_SIZE(m->b) || lo >= hi)
		return;
	m->b[m->n++] = (struct block){ kind, lo, hi, frame, turn };
}

/* Which turn of the cycle frame @i is in: 1 for the deepest, 0 if none. */
static int turn_of(const struct so_walk *w, int i)
{
	if (!w->cyc_reps || i < w->cyc_start || i >= w->cyc_start + w->cyc_period * w->cyc_reps)
		return 0;
	return (i - w->cyc_start) / w->cyc_period + 1;
}

/* The blocks of the overflowed stack and its guard page, top first. */
static void build(struct stackov *s, struct map *m)
{
	struct so_verdict *v = m->v;
	struct so_walk *w = &v->w;
	uint64_t top = v->stack->hi, regs = 0;
	long size = so_size(s, "pt_regs");
	int i;

	m->n = 0;
	m->nundrawn = 0;
	if (!strcmp(v->stack->name, "TASK") && size > 0) {
		regs = top - size;
		add(m, B_REGS, regs, top, -1, 0);
		top = regs;
	}
	for (i = w->n - 1; i >= 0; i--) {
		const struct so_frame *f = &w->frames[i];
		uint64_t hi = f->fp ? f->fp + 16 : w->sp + 8;

		/* Not drawn: no size known, another stack's, in the pt_regs. */
		if (f->bytes < 0 || so_stack_above(v->regions, v->nregions,
						   so_region_of(v->regions, v->nregions, hi - 1)) != v->stack ||
		    hi > top) {
			m->undrawn[m->nundrawn++] = i;
			continue;
		}
		add(m, B_UNKNOWN, hi, top, -1, 0);
		add(m, B_FRAME, hi - f->bytes, hi, i, turn_of(w, i));
		top = hi - f->bytes;
	}
	add(m, B_UNKNOWN, v->stack->lo, top > v->stack->lo ? top : v->stack->lo, -1, 0);
	if (v->hit && v->hit->guard)
		add(m, B_GUARD, v->hit->lo, v->hit->hi, -1, 0);
}

/* A block's words: "#62 do_syscall_64", "pt_regs", ... */
static void label(const struct map *m, const struct block *b, char *buf, size_t len)
{
	const struct so_walk *w = &m->v->w;

	switch (b->kind) {
	case B_REGS:
		snprintf(buf, len, "pt_regs (the entry's registers)");
		break;
	case B_FRAME:
		snprintf(buf, len, "#%d %s", b->frame, w->frames[b->frame].name);
		break;
	case B_UNKNOWN:
		snprintf(buf, len, b->lo != m->v->stack->lo ? "no frame known" :
			 m->c ? "below the frames walked: the crash's own (panic, kdump)" : "never reached");
		break;
	case B_GUARD:
		snprintf(buf, len, "guard page");
		break;
	}
}

/*
 * A crash's marks on its stack: the canary's slot, the exception frame,
 * the stack's end word overwritten. Their number; mark(@i)'s words.
 */
static int marks(const struct map *m)
{
	return m->c ? 3 : 0;
}

static const char *mark(const struct map *m, int i, uint64_t *at)
{
	const struct so_crash *c = m->c;

	*at = 0;
	if (i == 0 && c->kind == SO_CRASH_CANARY && c->have_slot) {
		*at = c->slot;
		return c->slot_value == c->canary ? "canary" : "canary, overwritten";
	}
	if (i == 1 && c->regs) {
		*at = c->regs;
		return "exception frame (pt_regs)";
	}
	if (i == 2 && c->magic_word != SO_END_MAGIC) {
		*at = c->lo;
		return "STACK_END_MAGIC, overwritten";
	}
	return NULL;
}

static void map_text(struct stackov *s, struct map *m)
{
	const struct so_walk *w = &m->v->w;
	char what[192];
	int i, j;

	so_printf(s, "map of the %s stack, %lx..%lx (%lu bytes), top first:\n", m->v->stack->name,
		  (unsigned long)m->v->stack->lo, (unsigned long)m->v->stack->hi,
		  (unsigned long)(m->v->stack->hi - m->v->stack->lo));
	for (i = 0; i < m->n; i++) {
		const struct block *b = &m->b[i];

		/* The cycle's turns in one line: from its last turn to its first. */
		if (b->kind == B_FRAME && b->turn) {
			for (j = i; j + 1 < m->n && m->b[j + 1].kind == B_FRAME && m->b[j + 1].turn; j++)
				;
			so_cycle_str(w, what, sizeof(what));
			so_printf(s, "  %lx..%lx %6lu  #%d..#%d the cycle: %s\n",
				  (unsigned long)m->b[j].lo, (unsigned long)b->hi,
				  (unsigned long)(b->hi - m->b[j].lo), m->b[j].frame, b->frame, what);
			i = j;
			continue;
		}
		label(m, b, what, sizeof(what));
		if (b->kind == B_GUARD && m->v->fault >= b->lo && m->v->fault < b->hi)
			so_printf(s, "  %lx..%lx %6lu  %s, the fault at %lx\n", (unsigned long)b->lo,
				  (unsigned long)b->hi, (unsigned long)(b->hi - b->lo), what,
				  (unsigned long)m->v->fault);
		else
			so_printf(s, "  %lx..%lx %6lu  %s\n", (unsigned long)b->lo, (unsigned long)b->hi,
				  (unsigned long)(b->hi - b->lo), what);
	}
	for (i = 0; i < marks(m); i++) {
		uint64_t at;
		const char *name = mark(m, i, &at);

		if (name)
			so_printf(s, "  %lx  %s\n", (unsigned long)at, name);
	}
}

/* @in with XML's five characters escaped. */
static void xml(const char *in, char *buf, size_t len)
{
	size_t o = 0;

	for (; *in && o + 7 < len; in++) {
		const char *e = *in == '&' ? "&amp;" : *in == '<' ? "&lt;" : *in == '>' ? "&gt;" :
				*in == '"' ? "&quot;" : *in == '\'' ? "&apos;" : NULL;

		if (e) {
			memcpy(buf + o, e, strlen(e));
			o += strlen(e);
		} else {
			buf[o++] = *in;
		}
	}
	buf[o] = '\0';
}

#define SVG_W		880
#define SVG_COL_X	160	/* the column's left edge */
#define SVG_COL_W	200
#define SVG_TOP		60
#define SVG_BPP		16	/* bytes per pixel */

static const char *fill(const struct block *b)
{
	switch (b->kind) {
	case B_REGS:
		return "#b2abd2";
	case B_FRAME:
		return b->turn ? "#f4a582" : "#92c5de";
	case B_GUARD:
		return "url(#hatch)";
	default:
		return "#ffffff";
	}
}

static const char *kind_name(const struct block *b)
{
	static const char * const names[] = { "pt_regs", "frame", "unknown", "guard" };

	return names[b->kind];
}

static void map_svg(struct stackov *s, struct map *m)
{
	const struct so_verdict *v = m->v;
	const struct so_walk *w = &v->w;
	uint64_t top = v->stack->hi;
	double y, h, height;
	char what[192], esc[512], comm[80];
	uint64_t chi = 0, clo = 0;	/* the cycle's span */
	int i;

	height = SVG_TOP + (double)(top - (m->n ? m->b[m->n - 1].lo : v->stack->lo)) / SVG_BPP + 40;
	so_printf(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	so_printf(s, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\"",
		  SVG_W, height);
	so_printf(s, " font-family=\"monospace\" font-size=\"11\" data-stack=\"%s\"", v->stack->name);
	so_printf(s, " data-lo=\"%lx\" data-hi=\"%lx\" data-frames=\"%d\">\n",
		  (unsigned long)v->stack->lo, (unsigned long)v->stack->hi, w->n);
	/* The guard page's hatching. */
	so_printf(s, "<defs><pattern id=\"hatch\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\">");
	so_printf(s, "<rect width=\"8\" height=\"8\" fill=\"#fddbc7\"/>");
	so_printf(s, "<path d=\"M0,8 L8,0\" stroke=\"#d6604d\"/></pattern></defs>\n");
	so_text_comm(v->task.comm, comm, sizeof(comm));
	snprintf(what, sizeof(what), "the %s stack of pid %ld \"%s\" on cpu %d, %lu bytes, 1 px per %d bytes",
		 v->stack->name, v->task.pid, comm, v->cpu, (unsigned long)(v->stack->hi - v->stack->lo),
		 SVG_BPP);
	xml(what, esc, sizeof(esc));
	so_printf(s, "<text x=\"10\" y=\"20\" font-size=\"13\">%s</text>\n", esc);
	so_printf(s, "<text x=\"%d\" y=\"%d\">%lx</text>\n", 10, SVG_TOP + 4, (unsigned long)top);
	for (i = 0; i < m->n; i++) {
		const struct block *b = &m->b[i];

		y = SVG_TOP + (double)(top - b->hi) / SVG_BPP;
		h = (double)(b->hi - b->lo) / SVG_BPP;
		label(m, b, what, sizeof(what));
		xml(what, esc, sizeof(esc));
		so_printf(s, "<rect class=\"%s\" x=\"%d\" y=\"%.3f\" width=\"%d\" height=\"%.3f\"",
			  kind_name(b), SVG_COL_X, y, SVG_COL_W, h);
		so_printf(s, " fill=\"%s\" stroke=\"#404040\" stroke-width=\"0.5\"", fill(b));
		so_printf(s, " data-lo=\"%lx\" data-hi=\"%lx\" data-bytes=\"%lu\"", (unsigned long)b->lo,
			  (unsigned long)b->hi, (unsigned long)(b->hi - b->lo));
		if (b->kind == B_FRAME)
			so_printf(s, " data-index=\"%d\" data-turn=\"%d\"", b->frame, b->turn);
		so_printf(s, "><title>%s, %lu bytes</title></rect>\n", esc, (unsigned long)(b->hi - b->lo));
		/* Words beside a block tall enough; the cycle's once, below. */
		if (b->kind == B_FRAME && b->turn) {
			chi = chi ? chi : b->hi;
			clo = b->lo;
			continue;
		}
		if (h < 9 && b->kind != B_GUARD)
			continue;
		so_printf(s, "<text x=\"%d\" y=\"%.1f\">%s (%lu)</text>\n", SVG_COL_X + SVG_COL_W + 8,
			  y + (h < 9 ? 4 : h / 2 + 4), esc, (unsigned long)(b->hi - b->lo));
		if (b->kind == B_GUARD)
			so_printf(s, "<text x=\"10\" y=\"%.1f\">%lx</text>\n", y + 4, (unsigned long)b->hi);
	}
	if (chi) {
		so_cycle_str(w, what, sizeof(what));
		xml(what, esc, sizeof(esc));
		y = SVG_TOP + (double)(top - (clo + (chi - clo) / 2)) / SVG_BPP;
		so_printf(s, "<text x=\"%d\" y=\"%.1f\">the cycle: %s</text>\n", SVG_COL_X + SVG_COL_W + 8,
			  y + 4, esc);
	}
	for (i = 0; i < m->nundrawn; i++) {
		const struct so_frame *f = &w->frames[m->undrawn[i]];

		xml(f->name, esc, sizeof(esc));
		so_printf(s, "<metadata class=\"undrawn\" data-index=\"%d\" data-bytes=\"%ld\">#%d %s: %s</metadata>\n",
			  m->undrawn[i], f->bytes, m->undrawn[i], esc,
			  f->bytes < 0 ? "no size known" : "not on this stack");
	}
	if (v->hit && v->hit->guard) {
		y = SVG_TOP + (double)(top - v->fault) / SVG_BPP;
		so_printf(s, "<line class=\"fault\" x1=\"%d\" y1=\"%.3f\" x2=\"%d\" y2=\"%.3f\"",
			  SVG_COL_X - 20, y, SVG_COL_X + SVG_COL_W + 4, y);
		so_printf(s, " stroke=\"#b2182b\" stroke-width=\"2\" data-addr=\"%lx\"/>\n",
			  (unsigned long)v->fault);
		so_printf(s, "<text x=\"10\" y=\"%.1f\" fill=\"#b2182b\">fault %lx</text>\n", y + 14,
			  (unsigned long)v->fault);
	}
	for (i = 0; i < marks(m); i++) {
		uint64_t at;
		const char *name = mark(m, i, &at);

		if (!name)
			continue;
		y = SVG_TOP + (double)(top - at) / SVG_BPP;
		so_printf(s, "<line class=\"mark\" x1=\"%d\" y1=\"%.3f\" x2=\"%d\" y2=\"%.3f\"",
			  SVG_COL_X - 20, y, SVG_COL_X + SVG_COL_W + 4, y);
		so_printf(s, " stroke=\"#b2182b\" stroke-width=\"2\" data-addr=\"%lx\" data-what=\"%s\"/>\n",
			  (unsigned long)at, name);
		so_printf(s, "<text x=\"10\" y=\"%.1f\" fill=\"#b2182b\">%s %lx</text>\n", y + 14, name,
			  (unsigned long)at);
	}
	so_printf(s, "</svg>\n");
}

/* stackov -m [-s]: the overflowed stack's map; -s as an SVG picture. */
int so_cmd_map(struct stackov *s, int svg)
{
	static struct so_verdict v;
	static struct map m;

	static struct so_crash c;

	m.c = NULL;
	switch (so_explain(s, NULL, -1, &v)) {
	case 0:
		break;
	case 2:
		/* no overflow: the panic task's stack, and the crash's marks */
		if (so_crash(s, &v.task, v.cpu, &c))
			return so_refuse(s, "cpu %d took no double fault, and pid %ld's stack cannot be read",
					 v.cpu, v.task.pid);
		memcpy(v.regions, c.regions, sizeof(v.regions));
		v.nregions = c.nregions;
		v.stack = so_region_of(v.regions, v.nregions, c.lo);
		if (!v.stack)
			return so_refuse(s, "pid %ld's stack is not among cpu %d's", v.task.pid, v.cpu);
		v.hit = NULL;
		v.w = c.w;
		if (!c.have_walk)
			v.w.n = 0;
		m.c = &c;
		break;
	default:
		return 1;
	}
	m.v = &v;
	build(s, &m);
	if (svg)
		map_svg(s, &m);
	else
		map_text(s, &m);
	return 0;
}
