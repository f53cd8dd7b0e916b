// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: the headroom of every stack in a dump (stackov -u): each
 * task's stack, each CPU's IRQ and exception stacks, how deep it was
 * ever used, the bytes it had left, its STACK_END_MAGIC, and the code it
 * still holds at its deepest. Deepest first; a near miss is a stack left
 * with fewer bytes than a threshold (2 KiB unless told).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define CHUNK	4096	/* bytes read at a time, up from a stack's end: a page */
#define LOOK	1024	/* bytes looked at above the deepest word for code */

struct headroom {
	char stack[40];		/* TASK, IRQ, DF, ... */
	struct so_task k;	/* a task's stack: whose */
	int cpu;
	uint64_t lo, hi;
	long left;		/* bytes never used (the kernel's stack_not_used()), -1 unreadable */
	const char *magic;	/* a task's STACK_END_MAGIC: intact or overwritten; else NULL */
	char deepest[128];	/* the first code address above the deepest word */
	long order;
};

/*
 * Bytes of [@lo, @hi) never used: stacks start zeroed (a task's, cleared
 * when it is reused too; the IRQ and exception stacks, per-CPU memory), so
 * the lowest non-zero word marks the deepest use. A task's stack holds
 * STACK_END_MAGIC in its lowest word and is looked at from the next, as
 * the kernel's stack_not_used() does, whose count this is. -1 if unread.
 */
long so_stack_left(struct stackov *s, uint64_t lo, uint64_t hi, int magic)
{
	uint64_t buf[CHUNK / 8], at, len;
	size_t i;

	for (at = lo; at < hi; at += len) {
		len = hi - at < CHUNK ? hi - at : CHUNK;
		if (so_read(s, at, buf, len))
			return -1;
		for (i = 0; i < len / 8; i++)
			if (buf[i] && !(magic && at == lo && i == 0))
				return (long)(at + 8 * i - lo);
	}
	return (long)(hi - lo);
}

/* The first code address at or above @from, within LOOK bytes and @hi. */
void so_deepest_code(struct stackov *s, uint64_t from, uint64_t hi, char *name, size_t len)
{
	uint64_t buf[LOOK / 8], start, end = from + LOOK < hi ? from + LOOK : hi;
	size_t i;

	snprintf(name, len, "?");
	if (from >= end || so_read(s, from, buf, end - from))
		return;
	for (i = 0; i < (end - from) / 8; i++)
		if (buf[i] && !so_name(s, buf[i], name, len, &start))
			return;
	snprintf(name, len, "?");
}

/* @h's bytes never used, and with @code the deepest code it holds. */
static void measure(struct stackov *s, struct headroom *h, int code)
{
	h->left = h->lo ? so_stack_left(s, h->lo, h->hi, h->magic != NULL) : -1;
	if (!code)
		return;
	if (h->left >= 0 && h->left < (long)(h->hi - h->lo))
		so_deepest_code(s, h->lo + h->left, h->hi, h->deepest, sizeof(h->deepest));
	else
		snprintf(h->deepest, sizeof(h->deepest), "%s",
			 h->left >= 0 ? "-" : h->lo ? "unreadable" : "no stack (it exited)");
}

static int by_left(const void *a, const void *b)
{
	const struct headroom *x = a, *y = b;
	long l = x->left < 0 ? 1L << 40 : x->left, r = y->left < 0 ? 1L << 40 : y->left;

	if (l != r)
		return (l > r) - (l < r);
	return (x->order > y->order) - (x->order < y->order);
}

/*
 * Every stack of the dump, measured, deepest first: @*out, their number
 * (-1: no memory). @tasks_only (stackov -a): the tasks' stacks, each task
 * listed (one that cannot be read as unreadable), with no deepest code.
 */
static long headroom_all(struct stackov *s, struct headroom **out, int tasks_only)
{
	struct so_region r[SO_MAX_REGIONS];
	uint64_t *tasks, word;
	long n = so_all_tasks(s, &tasks), cap = n + 16L * so_nr_cpus(s) + 1, m = 0, i;
	struct headroom *h = calloc(cap, sizeof(*h));
	int cpu, nr, j;

	*out = h;
	if (!h) {
		free(tasks);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (so_task(s, tasks[i], &h[m].k)) {
			if (tasks_only) {
				h[m].left = -1;
				h[m].order = m;
				m++;
			}
			continue;
		}
		snprintf(h[m].stack, sizeof(h[m].stack), "TASK");
		h[m].cpu = h[m].k.cpu;
		h[m].lo = h[m].k.stack;
		h[m].hi = h[m].lo ? h[m].lo + so_thread_size(s) : 0;
		h[m].magic = so_magic(s, &h[m].k, &word);
		h[m].order = m;
		measure(s, &h[m], !tasks_only);
		m++;
	}
	free(tasks);
	for (cpu = 0; !tasks_only && cpu < so_nr_cpus(s); cpu++) {
		nr = so_regions(s, cpu, 0, r, SO_MAX_REGIONS);
		for (j = 0; j < nr && m < cap; j++) {
			if (r[j].guard)
				continue;
			memcpy(h[m].stack, r[j].name, sizeof(h[m].stack));
			h[m].stack[sizeof(h[m].stack) - 1] = '\0';
			h[m].cpu = cpu;
			h[m].lo = r[j].lo;
			h[m].hi = r[j].hi;
			h[m].order = m;
			measure(s, &h[m], 1);
			m++;
		}
	}
	qsort(h, m, sizeof(*h), by_left);
	return m;
}

/* "TASK of pid 87 "sh"" or "IRQ of cpu 0": whose stack @h is. */
static void owner(const struct headroom *h, char *buf, size_t len)
{
	char comm[80];

	if (h->magic) {
		so_text_comm(h->k.comm, comm, sizeof(comm));
		snprintf(buf, len, "TASK of pid %ld \"%s\"", h->k.pid, comm);
	} else {
		snprintf(buf, len, "%s of cpu %d", h->stack, h->cpu);
	}
}

static void print_json(struct stackov *s, const struct headroom *h, long n, long near)
{
	char comm[80];
	long i;

	so_printf(s, "{\"near\":%ld,\"stacks\":[", near);
	for (i = 0; i < n; i++) {
		so_printf(s, "%s{\"stack\":\"%s\",\"cpu\":%d,", i ? "," : "", h[i].stack, h[i].cpu);
		if (h[i].magic) {
			stackov_json_string(h[i].k.comm, comm, sizeof(comm));
			so_printf(s, "\"pid\":%ld,\"comm\":\"%s\",\"end_magic\":\"%s\",", h[i].k.pid,
				  comm, h[i].magic);
		}
		so_printf(s, "\"lo\":\"%lx\",\"hi\":\"%lx\",\"left\":%ld,\"deepest\":\"%s\"}",
			  (unsigned long)h[i].lo, (unsigned long)h[i].hi, h[i].left, h[i].deepest);
	}
	so_printf(s, "]}\n");
}

static void print_text(struct stackov *s, const struct headroom *h, long n, long near)
{
	char who[128];
	long i, misses = 0;

	so_printf(s, "every stack's headroom, deepest first (bytes never used; a near miss: under %ld)\n",
		  near);
	so_printf(s, "%6s %6s  %-11s %-40s %s\n", "LEFT", "OF", "END MAGIC", "STACK", "DEEPEST CODE");
	for (i = 0; i < n; i++) {
		owner(&h[i], who, sizeof(who));
		if (h[i].left < 0)
			so_printf(s, "%6s %6lu  %-11s %-40s %s\n", "?", (unsigned long)(h[i].hi - h[i].lo),
				  h[i].magic ? h[i].magic : "-", who, h[i].deepest);
		else
			so_printf(s, "%6ld %6lu  %-11s %-40s %s\n", h[i].left,
				  (unsigned long)(h[i].hi - h[i].lo), h[i].magic ? h[i].magic : "-", who,
				  h[i].deepest);
	}
	for (i = 0; i < n; i++) {
		if (h[i].left < 0 || h[i].left >= near)
			continue;
		owner(&h[i], who, sizeof(who));
		so_printf(s, "under %ld bytes left: %s, %ld bytes, in %s\n", near, who, h[i].left,
			  h[i].deepest);
		misses++;
	}
	if (!misses)
		so_printf(s, "under %ld bytes left: no stack\n", near);
}

/*
 * The deepest stack of the dump but @except's (a task): whose in @who,
 * the code at its deepest in @code ("" if none), its bytes left in @left.
 */
void so_near_miss(struct stackov *s, uint64_t except, char *who, size_t len, char *code,
		  size_t clen, long *left)
{
	struct headroom *h;
	long n, i;

	who[0] = code[0] = '\0';
	*left = -1;
	n = headroom_all(s, &h, 0);
	for (i = 0; i < n; i++) {
		if (h[i].left < 0 || (h[i].magic && h[i].k.addr == except))
			continue;
		owner(&h[i], who, len);
		snprintf(code, clen, "%s", h[i].deepest);
		*left = h[i].left;
		break;
	}
	free(h);
}

/* stackov -u [-j] [-n BYTES] */
int so_cmd_headroom(struct stackov *s, int json, long near)
{
	struct headroom *h;
	long n;

	if (so_moff(s, "task_struct", "stack") < 0)
		return so_refuse(s, "this dump lacks the symbols it needs (task_struct.stack)");
	n = headroom_all(s, &h, 0);
	if (n < 0)
		return so_refuse(s, "out of memory");
	if (json)
		print_json(s, h, n, near);
	else
		print_text(s, h, n, near);
	free(h);
	return 0;
}

/* stackov -a: every task's stack high-water mark, deepest first. */
int so_cmd_usage(struct stackov *s)
{
	long size = (long)so_thread_size(s), n, i;
	struct headroom *h;
	char comm[80];

	n = headroom_all(s, &h, 1);
	if (n < 0)
		return so_refuse(s, "out of memory");
	so_printf(s, "%8s  %5s  %-16s  %s\n", "PID", "USED", "COMM", "OF");
	for (i = 0; i < n; i++) {
		so_text_comm(h[i].k.comm, comm, sizeof(comm));
		so_printf(s, "%8ld  %5ld  %-16s  %ld\n", h[i].k.pid, h[i].left < 0 ? -1 : size - h[i].left,
			  comm, size);
	}
	free(h);
	return 0;
}
