// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: every answer a reader gives the engine, recorded, and the
 * engine run again on the recording alone: a dump replayed in a fraction
 * of a second, with no dump, no vmlinux and no reader. The recording is
 * text, one answer a line (replayed as it is or gzip'd):
 *   R ADDR LEN HEX|-      memory (- when the read failed)
 *   S NAME VALUE          a symbol's address (-1: none)
 *   Z STRUCT N            a struct's size     O STRUCT MEMBER N  an offset
 *   M STRUCT MEMBER N     a member's size     A SYMBOL N         an array's length
 *   I KEY VALUE|-         VMCOREINFO          C crashed N        the reader's CPU
 *   G CPU IP SP BP|-      a CPU's registers   N PC START NAME|-  a text address's name
 *   P ADDR PFN            a page-table walk's answer
 * Lines starting with # are comments: what was recorded, and from what.
 *
 * The recording is written with stdio, never zlib: inside crash, zlib's
 * names are crash's own (its bundled gdb exports part of an older zlib,
 * gzopen among them, and a Debian crash's gzopen with the system's gzgets
 * corrupts the heap). The reader's caller gzips it (vm/read/report.sh);
 * stackov-replay, a program of its own, reads either.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "internal.h"

struct so_read_rec {
	uint64_t addr;
	size_t len;
	unsigned char *data;	/* NULL: the read failed */
};

struct so_ans {
	char *key;		/* "S name", "O st m" ... */
	char *val;
	struct so_ans *next;
};

#define TAPE_BUCKETS 1021
struct so_tape {
	struct so_read_rec *reads;
	long nreads, cap;
	struct so_ans *b[TAPE_BUCKETS];
};

static unsigned int hash(const char *k)
{
	unsigned int h = 2166136261u;

	while (*k)
		h = (h ^ (unsigned char)*k++) * 16777619u;
	return h % TAPE_BUCKETS;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int add_read(struct so_tape *t, char *line)
{
	unsigned long addr, len;
	char *hex, *end;
	size_t i;

	addr = strtoul(line, &end, 16);
	len = strtoul(end, &hex, 10);
	while (*hex == ' ')
		hex++;
	if (!len || len > (1 << 24))
		return -1;
	if (t->nreads == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->reads = realloc(t->reads, t->cap * sizeof(*t->reads));
		if (!t->reads)
			return -1;
	}
	t->reads[t->nreads].addr = addr;
	t->reads[t->nreads].len = len;
	t->reads[t->nreads].data = NULL;
	if (*hex != '-') {
		unsigned char *d = malloc(len);

		if (!d || strlen(hex) < 2 * len) {
			free(d);
			return -1;
		}
		for (i = 0; i < len; i++) {
			int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);

			if (hi < 0 || lo < 0) {
				free(d);
				return -1;
			}
			d[i] = hi << 4 | lo;
		}
		t->reads[t->nreads].data = d;
	}
	t->nreads++;
	return 0;
}

/*
 * "K KEY VALUE": the key is one word (two for O and M, a struct and a
 * member), the value the rest of the line.
 */
static int add_answer(struct so_tape *t, char kind, char *rest)
{
	struct so_ans *a;
	char key[512], *v = rest;
	int words = (kind == 'O' || kind == 'M') ? 2 : 1;
	unsigned int h;

	while (words--) {
		v = strchr(v, ' ');
		if (!v)
			return -1;
		v++;
	}
	if (!*v)
		return -1;
	snprintf(key, sizeof(key), "%c %.*s", kind, (int)(v - 1 - rest), rest);
	a = malloc(sizeof(*a));
	if (!a)
		return -1;
	a->key = strdup(key);
	a->val = strdup(v);
	h = hash(a->key);
	a->next = t->b[h];
	t->b[h] = a;
	return 0;
}

/*
 * The next line of @f, of any length (a read of a page is 8 KiB of hex),
 * into *@line (grown as needed): its length, 0 at the end.
 */
static size_t gz_line(gzFile f, char **line, size_t *cap)
{
	size_t n = 0;

	if (!*line) {
		*cap = 1 << 16;
		*line = malloc(*cap);
		if (!*line)
			return 0;
	}
	(*line)[0] = '\0';
	while (gzgets(f, *line + n, (int)(*cap - n))) {
		n += strlen(*line + n);
		if (n && (*line)[n - 1] == '\n')
			break;
		*cap *= 2;
		*line = realloc(*line, *cap);
		if (!*line)
			return 0;
	}
	return n;
}

struct so_tape *so_tape_load(const char *path, char *err, size_t errlen)
{
	gzFile f = gzopen(path, "rb");
	struct so_tape *t = NULL;
	size_t cap = 0, n;
	char *line = NULL;
	long lineno = 0;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : ENOENT));
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		goto fail;
	for (;;) {
		n = gz_line(f, &line, &cap);
		if (!n)
			break;
		lineno++;
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (!n || line[0] == '#')
			continue;
		if (n < 3 || line[1] != ' ' ||
		    (line[0] == 'R' ? add_read(t, line + 2) : add_answer(t, line[0], line + 2))) {
			snprintf(err, errlen, "%s: line %ld is not a replay line", path, lineno);
			goto fail;
		}
	}
	if (lineno == 0) {
		snprintf(err, errlen, "%s: empty, or not gzip'd text", path);
		goto fail;
	}
	free(line);
	gzclose(f);
	return t;
fail:
	if (!err[0])
		snprintf(err, errlen, "%s: out of memory", path);
	free(line);
	so_tape_free(t);
	gzclose(f);
	return NULL;
}

void so_tape_free(struct so_tape *t)
{
	struct so_ans *a, *n;
	long i;

	if (!t)
		return;
	for (i = 0; i < t->nreads; i++)
		free(t->reads[i].data);
	free(t->reads);
	for (i = 0; i < TAPE_BUCKETS; i++)
		for (a = t->b[i]; a; a = n) {
			n = a->next;
			free(a->key);
			free(a->val);
			free(a);
		}
	free(t);
}

/* A read the recording holds: the same one, else one that covers it. */
int so_tape_read(struct stackov *s, uint64_t addr, void *buf, size_t len)
{
	struct so_tape *t = s->tape;
	long i;

	for (i = 0; i < t->nreads; i++)
		if (t->reads[i].addr == addr && t->reads[i].len == len) {
			if (!t->reads[i].data)
				return -1;
			memcpy(buf, t->reads[i].data, len);
			return 0;
		}
	for (i = 0; i < t->nreads; i++)
		if (t->reads[i].data && t->reads[i].addr <= addr &&
		    addr + len <= t->reads[i].addr + t->reads[i].len) {
			memcpy(buf, t->reads[i].data + (addr - t->reads[i].addr), len);
			return 0;
		}
	s->misses++;
	return -1;
}

/* The answer of @kind for @key: 0 with it in @val, -1 (a miss) if none. */
int so_tape_lookup(struct stackov *s, const char *kind, const char *key, char *val, size_t len)
{
	struct so_ans *a;
	char k[512];

	snprintf(k, sizeof(k), "%s %s", kind, key);
	for (a = s->tape->b[hash(k)]; a; a = a->next)
		if (!strcmp(a->key, k)) {
			if (!strcmp(a->val, "-"))
				return -1;
			snprintf(val, len, "%s", a->val);
			return 0;
		}
	s->misses++;
	return -1;
}

void so_rec(struct stackov *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->rec)
		return;
	va_start(ap, fmt);
	vfprintf(s->rec, fmt, ap);
	va_end(ap);
}

void so_rec_read(struct stackov *s, uint64_t addr, const void *buf, size_t len, int ok)
{
	const unsigned char *p = buf;
	size_t i;

	if (!s->rec)
		return;
	fprintf(s->rec, "R %lx %zu ", (unsigned long)addr, len);
	if (!ok)
		fputc('-', s->rec);
	for (i = 0; ok && i < len; i++)
		fprintf(s->rec, "%02x", p[i]);
	fputc('\n', s->rec);
}

/*
 * Record into @path: the answers go to a temporary file as they come,
 * deduplicated into @path (text) when the handle closes.
 */
int stackov_record(struct stackov *s, const char *path)
{
	if (s->tape || s->rec)
		return -1;
	s->rec = tmpfile();
	if (!s->rec)
		return -1;
	snprintf(s->rec_path, sizeof(s->rec_path), "%s", path);
	fprintf(s->rec, "# stackov-replay 1: the answers a reader gave libstackov %s\n",
		STACKOV_VERSION);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

static int add_line(char ***lines, size_t *n, size_t *cap, const char *line)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 4096;
		*lines = realloc(*lines, *cap * sizeof(**lines));
		if (!*lines)
			return -1;
	}
	(*lines)[(*n)++] = strdup(line);
	return 0;
}

/*
 * The recording's lines, each once, into @path (text): with what the file
 * held already, so that each command a reader runs on one dump adds its
 * answers to one recording. A gzip'd file there is not merged into: -1.
 */
int so_rec_finish(struct stackov *s)
{
	char **lines = NULL, *buf = NULL, tmp[4200];
	size_t n = 0, cap = 0, lcap = 0, i;
	ssize_t got;
	FILE *g;
	int r = -1;

	if (!s->rec)
		return 0;
	g = fopen(s->rec_path, "r");
	if (g) {
		int gz = fgetc(g) == 0x1f && fgetc(g) == 0x8b;

		rewind(g);
		while (!gz && (got = getline(&buf, &lcap, g)) > 0)
			if (add_line(&lines, &n, &cap, buf))
				break;
		fclose(g);
		if (gz)
			goto out;
	}
	rewind(s->rec);
	while ((got = getline(&buf, &lcap, s->rec)) > 0)
		if (add_line(&lines, &n, &cap, buf))
			goto out;
	/* Comments first (what was recorded), then the answers, sorted. */
	qsort(lines, n, sizeof(*lines), cmp_str);
	snprintf(tmp, sizeof(tmp), "%s.tmp", s->rec_path);
	g = fopen(tmp, "w");
	if (!g)
		goto out;
	for (i = 0; i < n; i++)
		if (!i || strcmp(lines[i], lines[i - 1]))
			fputs(lines[i], g);
	if (!fclose(g) && !rename(tmp, s->rec_path))
		r = 0;
out:
	for (i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	free(buf);
	fclose(s->rec);
	s->rec = NULL;
	return r;
}

long stackov_replay_misses(const struct stackov *s)
{
	return s->misses;
}
