// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: the reader's answers, as the rules ask for them: typed
 * reads, symbols, types, per-CPU variables, the kernel's version and
 * THREAD_SIZE. Each answer is recorded when the handle records, and comes
 * from the tape when it replays (record.c).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The reader's own read; through the page tables if it asked for that. */
static int target_read(struct stackov *s, uint64_t addr, void *buf, size_t len)
{
	uint64_t phys, po;
	size_t chunk;
	char *p = buf;

	if (s->t.read(s->t.ctx, addr, buf, len) == 0)
		return 0;
	if (!s->t.walk_on_fault || s->walking)
		return -1;
	s->walking = 1;
	po = so_page_offset(s);
	while (len > 0) {
		chunk = SO_PAGE - (addr & (SO_PAGE - 1));
		if (chunk > len)
			chunk = len;
		if (so_vtop(s, addr, &phys) || s->t.read(s->t.ctx, po + phys, p, chunk)) {
			s->walking = 0;
			return -1;
		}
		addr += chunk;
		p += chunk;
		len -= chunk;
	}
	s->walking = 0;
	return 0;
}

/* A read that is not recorded: the symbolizer's and the page walk's. */
int so_raw_read(struct stackov *s, uint64_t addr, void *buf, size_t len)
{
	if (s->tape)
		return so_tape_read(s, addr, buf, len);
	return target_read(s, addr, buf, len);
}

int so_read(struct stackov *s, uint64_t addr, void *buf, size_t len)
{
	int r;

	if (s->tape)
		return so_tape_read(s, addr, buf, len);
	r = target_read(s, addr, buf, len);
	if (s->rec)
		so_rec_read(s, addr, buf, len, r == 0);
	return r;
}

int so_u64(struct stackov *s, uint64_t addr, uint64_t *v)
{
	return so_read(s, addr, v, sizeof(*v));
}

int so_u32(struct stackov *s, uint64_t addr, uint32_t *v)
{
	return so_read(s, addr, v, sizeof(*v));
}

int so_u8(struct stackov *s, uint64_t addr, uint8_t *v)
{
	return so_read(s, addr, v, sizeof(*v));
}

/* A C string of at most @len - 1 bytes at @addr. */
int so_cstr(struct stackov *s, uint64_t addr, char *buf, size_t len)
{
	if (!len || so_read(s, addr, buf, len - 1))
		return -1;
	buf[len - 1] = '\0';
	return 0;
}

/* A lookup cache: key to a number, for symbols and types. */
struct so_kv {
	char *key;
	long long val;
	struct so_kv *next;
};

#define SO_KV_BUCKETS 509
static unsigned int kv_hash(const char *k)
{
	unsigned int h = 2166136261u;

	while (*k)
		h = (h ^ (unsigned char)*k++) * 16777619u;
	return h % SO_KV_BUCKETS;
}

struct so_cache {
	struct so_kv *b[SO_KV_BUCKETS];
};

static struct so_cache *cache_of(struct stackov *s)
{
	if (!s->cache)
		s->cache = calloc(1, sizeof(struct so_cache));
	return s->cache;
}

void so_cache_free(struct stackov *s)
{
	struct so_cache *c = s->cache;
	struct so_kv *e, *n;
	int i;

	if (!c)
		return;
	for (i = 0; i < SO_KV_BUCKETS; i++)
		for (e = c->b[i]; e; e = n) {
			n = e->next;
			free(e->key);
			free(e);
		}
	free(c);
	s->cache = NULL;
}

static int kv_get(struct stackov *s, const char *k, long long *v)
{
	struct so_cache *c = cache_of(s);
	struct so_kv *e;

	if (!c)
		return 0;
	for (e = c->b[kv_hash(k)]; e; e = e->next)
		if (!strcmp(e->key, k)) {
			*v = e->val;
			return 1;
		}
	return 0;
}

static void kv_put(struct stackov *s, const char *k, long long v)
{
	struct so_cache *c = cache_of(s);
	struct so_kv *e;
	unsigned int h;

	if (!c)
		return;
	e = malloc(sizeof(*e));
	if (!e)
		return;
	e->key = strdup(k);
	e->val = v;
	h = kv_hash(k);
	e->next = c->b[h];
	c->b[h] = e;
}

/* One answer of kind @kind for @key: cached, recorded, or replayed. */
static long long answer(struct stackov *s, char kind, const char *key,
			long long (*ask)(struct stackov *s, const char *key))
{
	char k[512], v[64];
	long long val;

	snprintf(k, sizeof(k), "%c %s", kind, key);
	if (kv_get(s, k, &val))
		return val;
	if (s->tape) {
		char kk[2] = { kind, 0 };

		val = so_tape_lookup(s, kk, key, v, sizeof(v)) ? -1 : strtoll(v, NULL, 0);
	} else {
		val = ask(s, key);
		if (s->rec)
			so_rec(s, "%c %s %lld\n", kind, key, val);
	}
	kv_put(s, k, val);
	return val;
}

static long long ask_sym(struct stackov *s, const char *name)
{
	uint64_t a;

	if (s->t.symbol(s->t.ctx, name, &a))
		return -1;
	return (long long)a;
}

int so_sym(struct stackov *s, const char *name, uint64_t *addr)
{
	long long v = answer(s, 'S', name, ask_sym);

	/* Every kernel symbol we ask for lies in the top half, or is a
	 * per-CPU offset (small, positive): -1 is no symbol.
	 */
	if (v == -1)
		return -1;
	*addr = (uint64_t)v;
	return 0;
}

int so_has_sym(struct stackov *s, const char *name)
{
	uint64_t a;

	return so_sym(s, name, &a) == 0;
}

static long long ask_size(struct stackov *s, const char *st)
{
	return s->t.struct_size(s->t.ctx, st);
}

long so_size(struct stackov *s, const char *st)
{
	return answer(s, 'Z', st, ask_size);
}

/* "STRUCT MEMBER": the member's offset (@size 0) or size (1). */
static long long ask_member(struct stackov *s, const char *key, int size)
{
	char st[256], *m;

	snprintf(st, sizeof(st), "%s", key);
	m = strchr(st, ' ');
	if (!m)
		return -1;
	*m++ = '\0';
	if (size)
		return s->t.member_size(s->t.ctx, st, m);
	return s->t.member_offset(s->t.ctx, st, m);
}

static long long ask_moff(struct stackov *s, const char *key)
{
	return ask_member(s, key, 0);
}

static long long ask_msize(struct stackov *s, const char *key)
{
	return ask_member(s, key, 1);
}

long so_moff(struct stackov *s, const char *st, const char *m)
{
	char key[256];

	snprintf(key, sizeof(key), "%s %s", st, m);
	return answer(s, 'O', key, ask_moff);
}

long so_msize(struct stackov *s, const char *st, const char *m)
{
	char key[256];

	snprintf(key, sizeof(key), "%s %s", st, m);
	return answer(s, 'M', key, ask_msize);
}

static long long ask_alen(struct stackov *s, const char *sym)
{
	return s->t.array_len ? s->t.array_len(s->t.ctx, sym) : -1;
}

long so_alen(struct stackov *s, const char *sym)
{
	return answer(s, 'A', sym, ask_alen);
}

int so_info(struct stackov *s, const char *key, char *buf, size_t len)
{
	int r;

	if (s->tape)
		return so_tape_lookup(s, "I", key, buf, len);
	r = s->t.vmcoreinfo ? s->t.vmcoreinfo(s->t.ctx, key, buf, len) : -1;
	if (s->rec)
		so_rec(s, "I %s %s\n", key, r ? "-" : buf);
	return r;
}

static long long ask_cpu(struct stackov *s, const char *key)
{
	(void)key;
	return s->t.crashed_cpu ? s->t.crashed_cpu(s->t.ctx) : -1;
}

/* The CPU that crashed: the dump's panic_cpu, else the reader's word. */
int so_crashed_cpu(struct stackov *s)
{
	uint64_t a;
	uint32_t cpu;

	if (!so_sym(s, "panic_cpu", &a) && !so_u32(s, a, &cpu) && cpu < (1U << 31))
		return (int)cpu;
	return (int)answer(s, 'C', "crashed", ask_cpu);
}

int so_cpu_regs(struct stackov *s, int cpu, uint64_t *ip, uint64_t *sp, uint64_t *bp)
{
	char key[32], v[128];
	int r;

	snprintf(key, sizeof(key), "%d", cpu);
	if (s->tape) {
		if (so_tape_lookup(s, "G", key, v, sizeof(v)) ||
		    sscanf(v, "%lx %lx %lx", (unsigned long *)ip, (unsigned long *)sp,
			   (unsigned long *)bp) != 3)
			return -1;
		return 0;
	}
	r = s->t.cpu_regs ? s->t.cpu_regs(s->t.ctx, cpu, ip, sp, bp) : -1;
	if (s->rec) {
		if (r)
			so_rec(s, "G %d -\n", cpu);
		else
			so_rec(s, "G %d %lx %lx %lx\n", cpu, (unsigned long)*ip, (unsigned long)*sp,
			       (unsigned long)*bp);
	}
	return r;
}

/*
 * A per-CPU variable's address on @cpu. Its symbol is an offset in
 * .data..percpu, linked at 0 (__per_cpu_start) and not moved by KASLR,
 * which a reader may have added to it anyway: the offset is taken from
 * __per_cpu_start, as the kernel takes it.
 */
int so_percpu(struct stackov *s, const char *sym, int cpu, uint64_t *addr)
{
	uint64_t base, start = 0, offs, off;

	if (so_sym(s, sym, &base) || so_sym(s, "__per_cpu_offset", &offs) ||
	    so_u64(s, offs + 8 * (uint64_t)cpu, &off))
		return -1;
	so_sym(s, "__per_cpu_start", &start);
	*addr = base - start + off;
	return 0;
}

/*
 * current_task, hardirq_stack_ptr, __preempt_count: a per-CPU variable of
 * its own up to 6.1, @member of the per-CPU struct pcpu_hot from 6.2.
 */
int so_percpu_hot(struct stackov *s, const char *sym, const char *member, int cpu, uint64_t *addr)
{
	uint64_t hot;
	long off;

	if (!so_percpu(s, sym, cpu, addr))
		return 0;
	if (!member || so_percpu(s, "pcpu_hot", cpu, &hot))
		return -1;
	off = so_moff(s, "pcpu_hot", member);
	if (off < 0)
		return -1;
	*addr = hot + off;
	return 0;
}

int so_nr_cpus(struct stackov *s)
{
	uint64_t a;
	uint32_t n;

	if (so_sym(s, "nr_cpu_ids", &a) || so_u32(s, a, &n) || !n || n > 8192)
		return 1;
	return (int)n;
}

/* The dump's kernel, from init_uts_ns's release: 0.0 when unreadable. */
void so_version(struct stackov *s, int *major, int *minor)
{
	uint64_t a;
	long o1, o2;
	char rel[65];

	if (!s->have_version) {
		s->have_version = 1;
		o1 = so_moff(s, "uts_namespace", "name");
		o2 = so_moff(s, "new_utsname", "release");
		if (!so_sym(s, "init_uts_ns", &a) && o1 >= 0 && o2 >= 0 &&
		    !so_cstr(s, a + o1 + o2, rel, sizeof(rel)))
			sscanf(rel, "%d.%d", &s->major, &s->minor);
	}
	*major = s->major;
	*minor = s->minor;
}

/*
 * THREAD_SIZE, from the linker script's end of init_stack: __end_init_task
 * up to 6.2, __end_init_stack from 6.3; 16 KiB (x86_64 without KASAN)
 * where neither is there.
 */
uint64_t so_thread_size(struct stackov *s)
{
	uint64_t start, end;

	if (!s->thread_size) {
		s->thread_size = 16384;
		if (!so_sym(s, "init_stack", &start) &&
		    (!so_sym(s, "__end_init_task", &end) || !so_sym(s, "__end_init_stack", &end)) &&
		    end > start && end - start <= (1 << 20))
			s->thread_size = end - start;
	}
	return s->thread_size;
}
