// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: the words. Every sentence the readers print and every JSON
 * key lives here, once, beside the one text writer and the one JSON
 * writer; crash, gdb, drgn and the log explainer print what these write.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The verdict's JSON keys, in the order they are written. */
enum so_key {
	K_STACK, K_LO, K_HI, K_GUARD_HIT, K_FAULT, K_BELOW, K_RSP, K_RIP, K_PID, K_COMM, K_TASK,
	K_CPU, K_CONTEXT, K_ATOMIC, K_PREEMPT, K_IRQS_OFF, K_ENTRY, K_KSTACK, K_MAGIC, K_FRAMES,
	K_CYCLE, K_CYCLE_FN, K_CYCLE_REPS, K_NKEYS
};

static const char * const json_key[K_NKEYS] = {
	[K_STACK] = "stack", [K_LO] = "lo", [K_HI] = "hi", [K_GUARD_HIT] = "guard_hit",
	[K_FAULT] = "fault", [K_BELOW] = "below", [K_RSP] = "rsp", [K_RIP] = "rip",
	[K_PID] = "pid", [K_COMM] = "comm", [K_TASK] = "task", [K_CPU] = "cpu",
	[K_CONTEXT] = "context", [K_ATOMIC] = "atomic", [K_PREEMPT] = "preempt_count",
	[K_IRQS_OFF] = "irqs_off", [K_ENTRY] = "entry", [K_KSTACK] = "kstack_offset",
	[K_MAGIC] = "end_magic", [K_FRAMES] = "frames", [K_CYCLE] = "cycle",
	[K_CYCLE_FN] = "cycle_function", [K_CYCLE_REPS] = "cycle_reps",
};

/* The verdict's text, line by line. */
#define W_HEAD		"stack overflow: %s stack, pid %ld \"%s\" (task %lx) on cpu %d\n"
#define W_CONTEXT	"  context:   %s\n"
#define W_ATOMIC	"  atomic:    %s\n"
#define W_ENTRY		"  entry:     %s\n"
#define W_OFFSET	"  offset:    %ld bytes, the random stack offset the syscall's entry put below its registers (kstack_offset)\n"
#define W_STACK		"  stack:     %lx..%lx (%lu bytes)\n"
#define W_GUARD		"  guard:     %lx..%lx, hit\n"
#define W_FAULT		"  fault:     %lx, %ld bytes below the stack (%s; rsp %lx, rip %lx)\n"
#define W_TASK_STACK	"  task stack: %lx..%lx, STACK_END_MAGIC %s (%lx)\n"
#define W_CYCLE		"  cycle:     %s\n"
#define W_NO_CYCLE	"none"
#define W_FRAMES	"  frames:    %d %s\n"
#define W_FOLDED	"    ... the cycle above, %d times in all\n"

void so_printf(struct stackov *s, const char *fmt, ...)
{
	struct so_out *o = s->out;
	va_list ap;
	int n;

	if (!o)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (o->len + n < o->cap) {
			o->len += n;
			return;
		}
		o->cap = 2 * (o->cap + n + 256);
		o->buf = realloc(o->buf, o->cap);
		if (!o->buf) {
			o->len = o->cap = 0;
			return;
		}
	}
}

/* A refusal: one line, "stackov: ...", and status 1. */
int so_refuse(struct stackov *s, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	so_printf(s, "stackov: %s\n", line);
	return 1;
}

/* Words for the text: a byte that prints nothing, or is no ASCII, as \xNN. */
void so_text_comm(const char *comm, char *buf, size_t len)
{
	size_t n = 0;
	const unsigned char *c = (const unsigned char *)comm;

	for (; *c && n + 5 < len; c++) {
		if (*c < 0x20 || *c > 0x7e)
			n += snprintf(buf + n, len - n, "\\x%02x", *c);
		else
			buf[n++] = (char)*c;
	}
	buf[n < len ? n : len - 1] = '\0';
}

void stackov_text_string(const char *s, char *buf, size_t len)
{
	so_text_comm(s, buf, len);
}

void stackov_json_string(const char *s, char *buf, size_t len)
{
	const unsigned char *c = (const unsigned char *)s;
	size_t n = 0;

	for (; *c && n + 7 < len; c++) {
		if (*c == '"' || *c == '\\') {
			buf[n++] = '\\';
			buf[n++] = (char)*c;
		} else if (*c < 0x20 || *c > 0x7e) {
			n += snprintf(buf + n, len - n, "\\u%04x", *c);
		} else {
			buf[n++] = (char)*c;
		}
	}
	buf[n < len ? n : len - 1] = '\0';
}

/* The frames, one turn of a cycle shown, then the last frame of its run. */
void so_print_frames(struct stackov *s, const struct so_walk *w, struct so_region *r, int nr)
{
	struct so_region *at = NULL;
	int i;

	so_printf(s, W_FRAMES, w->n, w->how);
	for (i = 0; i < w->n; i++) {
		const struct so_frame *f = &w->frames[i];

		/*
		 * A frame with no frame pointer of its own: the deepest (at the
		 * stack pointer) or the last (where its caller's frame was).
		 */
		if (f->fp || !i)
			at = so_region_of(r, nr, f->fp ? f->fp : w->sp);
		if (w->cyc_reps && i >= w->cyc_start + w->cyc_period &&
		    i < w->cyc_start + w->cyc_period * w->cyc_reps - 1) {
			if (i == w->cyc_start + w->cyc_period)
				so_printf(s, W_FOLDED, w->cyc_reps);
			continue;
		}
		so_printf(s, "    #%-3d %lx %-32s", i, (unsigned long)f->pc, f->name);
		if (f->bytes >= 0)
			so_printf(s, " %5ld bytes", f->bytes);
		else
			so_printf(s, "       ?    ");
		so_printf(s, " [%s]\n", at ? at->name : "?");
	}
}

void so_print_verdict(struct stackov *s, struct so_verdict *v)
{
	char cyc[512], atomic[192], comm[80], context[1024];
	uint64_t word;
	const char *magic = so_magic(s, &v->task, &word);

	so_text_comm(v->task.comm, comm, sizeof(comm));
	so_printf(s, W_HEAD, v->stack->name, v->task.pid, comm, (unsigned long)v->task.addr, v->cpu);
	so_atomic(v, atomic, sizeof(atomic));
	so_text_comm(v->context, context, sizeof(context));
	so_printf(s, W_CONTEXT, context);
	so_printf(s, W_ATOMIC, atomic);
	so_printf(s, W_ENTRY, v->entry);
	if (v->kstack_offset >= 0)
		so_printf(s, W_OFFSET, v->kstack_offset);
	so_printf(s, W_STACK, (unsigned long)v->stack->lo, (unsigned long)v->stack->hi,
		  (unsigned long)(v->stack->hi - v->stack->lo));
	if (v->hit && v->hit->guard)
		so_printf(s, W_GUARD, (unsigned long)v->hit->lo, (unsigned long)v->hit->hi);
	so_printf(s, W_FAULT, (unsigned long)v->fault, (long)(v->stack->lo - v->fault), v->fault_how,
		  (unsigned long)v->sp, (unsigned long)v->ip);
	so_printf(s, W_TASK_STACK, (unsigned long)v->task.stack,
		  (unsigned long)(v->task.stack + so_thread_size(s)), magic, (unsigned long)word);
	so_vm_struct(s, "  ", v->task.vm);
	so_cycle_str(&v->w, cyc, sizeof(cyc));
	so_printf(s, W_CYCLE, v->w.cyc_reps ? cyc : W_NO_CYCLE);
	so_print_frames(s, &v->w, v->regions, v->nregions);
}

/* One key and its value: a string, escaped (jstr), or as it is (jraw). */
static void jstr(struct stackov *s, enum so_key k, int last, const char *str)
{
	char esc[1024];

	stackov_json_string(str, esc, sizeof(esc));
	so_printf(s, "\"%s\":\"%s\"%s", json_key[k], esc, last ? "" : ",");
}

static void jraw(struct stackov *s, enum so_key k, int last, const char *raw)
{
	so_printf(s, "\"%s\":%s%s", json_key[k], raw, last ? "" : ",");
}

static const char *hex(char *buf, uint64_t v)
{
	sprintf(buf, "%lx", (unsigned long)v);
	return buf;
}

static const char *num(char *buf, long v)
{
	sprintf(buf, "%ld", v);
	return buf;
}

void so_print_json(struct stackov *s, struct so_verdict *v)
{
	char cyc[512], atomic[192], b[32];
	uint64_t word;
	const char *magic = so_magic(s, &v->task, &word);
	int at = so_atomic(v, atomic, sizeof(atomic));

	so_cycle_str(&v->w, cyc, sizeof(cyc));
	so_printf(s, "{");
	jstr(s, K_STACK, 0, v->stack->name);
	jstr(s, K_LO, 0, hex(b, v->stack->lo));
	jstr(s, K_HI, 0, hex(b, v->stack->hi));
	jraw(s, K_GUARD_HIT, 0, v->hit && v->hit->guard ? "true" : "false");
	jstr(s, K_FAULT, 0, hex(b, v->fault));
	jraw(s, K_BELOW, 0, num(b, (long)(v->stack->lo - v->fault)));
	jstr(s, K_RSP, 0, hex(b, v->sp));
	jstr(s, K_RIP, 0, hex(b, v->ip));
	jraw(s, K_PID, 0, num(b, v->task.pid));
	jstr(s, K_COMM, 0, v->task.comm);
	jstr(s, K_TASK, 0, hex(b, v->task.addr));
	jraw(s, K_CPU, 0, num(b, v->cpu));
	jstr(s, K_CONTEXT, 0, v->context);
	jraw(s, K_ATOMIC, 0, at > 0 ? "true" : at == 0 ? "false" : "null");
	jstr(s, K_PREEMPT, 0, v->panic_ran ? "" : hex(b, v->preempt));
	jraw(s, K_IRQS_OFF, 0, (v->flags & 0x200) ? "false" : "true");
	jstr(s, K_ENTRY, 0, v->entry);
	jraw(s, K_KSTACK, 0, v->kstack_offset >= 0 ? num(b, v->kstack_offset) : "null");
	jstr(s, K_MAGIC, 0, magic);
	jraw(s, K_FRAMES, 0, num(b, v->w.n));
	jstr(s, K_CYCLE, 0, cyc);
	jstr(s, K_CYCLE_FN, 0, v->w.cyc_reps ? v->w.frames[v->w.cyc_start].name : "");
	jraw(s, K_CYCLE_REPS, 1, num(b, v->w.cyc_reps));
	so_printf(s, "}\n");
}
