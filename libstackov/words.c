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

/* The crashes that are no overflow (crashes.c): their words. */
static const char * const crash_kind[] = {
	[SO_CRASH_CANARY] = "canary", [SO_CRASH_END] = "end-magic",
	[SO_CRASH_FREED] = "freed-stack", [SO_CRASH_BUG] = "bug",
	[SO_CRASH_OOPS] = "oops", [SO_CRASH_PANIC] = "panic",
};

static const char * const at_kind[] = {
	[SO_AT_NOWHERE] = "nowhere", [SO_AT_CPU_STACK] = "cpu-stack",
	[SO_AT_TASK_STACK] = "task-stack", [SO_AT_VMALLOC] = "vmalloc",
	[SO_AT_CACHED] = "cached-stack", [SO_AT_UNMAPPED] = "unmapped",
	[SO_AT_NULL] = "null",
};

#define W_CR_HEAD	"no stack overflow: %s; pid %ld \"%s\" (task %lx) on cpu %d\n"
#define W_CR_CANARY	"the stack protector's canary in %s's frame was overwritten (an on-stack buffer overran), caught at %s"
#define W_CR_END	"the word at the end of the task's stack (STACK_END_MAGIC) was overwritten"
#define W_CR_FREED	"a fault at %lx, an address of a freed stack, at %s"
#define W_CR_BUG	"BUG() at %s"
#define W_CR_OOPS	"an oops at %s"
#define W_CR_PANIC	"a panic, called from %s"
#define W_CR_SLOT	"  canary:    slot %lx, %s in %s's frame (the store of %%gs:0x28 in its code), holds %lx;\n" \
			"             the task's canary is %lx: %s\n"
#define W_CR_NO_SLOT	"  canary:    its slot is not found in %s's code; the task's canary is %lx\n"
#define W_CR_FRAME	"  frame:     %s, %lx..%lx (%ld bytes)\n"
#define W_CR_BELOW	"  below:     %lx..%lx (%ld bytes) below the slot, from the frame's bottom, hold:%s\n"
#define W_CR_LOCAL	"  buffer:    %s, %ld bytes at %lx (CFA-%#lx), below the slot: its DWARF\n"
#define W_CR_NO_LOCAL	"  buffer:    no DWARF at hand names what lies below the slot\n"
#define W_CR_WORD	"  stack end: %lx holds %lx, not STACK_END_MAGIC %lx\n"
#define W_CR_PAST	"  how:       the stack was used to its last word: an overflow that ran past the end\n"
#define W_CR_STRAY	"  how:       its deepest use is %ld bytes above the end: a stray write, not an overflow\n"
#define W_CR_ENTRY	"  entry:     %s, its exception frame at %lx (rip %lx, rsp %lx)\n"
#define W_CR_FAULT	"  fault:     %lx, the address %s touched at %s\n"
#define W_CR_NO_FAULT	"  fault:     the instruction at %s touches no address decoded here\n"
#define W_CR_WHERE	"  address:   %s\n"
#define W_CR_TASK	"  task stack: %lx..%lx, STACK_END_MAGIC %s (%lx), %ld bytes never used, deepest in %s\n"
#define W_CR_NEAR	"  near miss: %s came within %ld bytes of its end, in %s\n"
#define W_CR_NO_NEAR	"  near miss: none under %ld bytes; the deepest other stack: %s, %ld bytes left, in %s\n"

static void crash_head(const struct so_crash *c, char *buf, size_t len)
{
	switch (c->kind) {
	case SO_CRASH_CANARY:
		snprintf(buf, len, W_CR_CANARY, c->func_name[0] ? c->func_name : "?", c->func);
		break;
	case SO_CRASH_END:
		snprintf(buf, len, W_CR_END);
		break;
	case SO_CRASH_FREED:
		snprintf(buf, len, W_CR_FREED, (unsigned long)c->fault, c->func);
		break;
	case SO_CRASH_BUG:
		snprintf(buf, len, W_CR_BUG, c->func);
		break;
	case SO_CRASH_OOPS:
		snprintf(buf, len, W_CR_OOPS, c->func);
		break;
	default:
		snprintf(buf, len, W_CR_PANIC, c->func[0] ? c->func : "?");
	}
}

/* The words between the frame's bottom and the canary's slot: the buffer's. */
static void crash_below(struct stackov *s, const struct so_crash *c)
{
	uint64_t words[4];
	long n = (long)(c->slot - c->frame_lo) / 8, i;
	char buf[96] = "";

	if (n > 4)
		n = 4;
	if (so_read(s, c->slot - 8 * n, words, 8 * n))
		return;
	for (i = 0; i < n; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " %lx",
			 (unsigned long)words[i]);
	so_printf(s, W_CR_BELOW, (unsigned long)c->frame_lo, (unsigned long)c->slot,
		  (long)(c->slot - c->frame_lo), buf);
}

void so_print_crash(struct stackov *s, struct so_crash *c, long near)
{
	char head[512], comm[80];

	crash_head(c, head, sizeof(head));
	so_text_comm(c->task.comm, comm, sizeof(comm));
	so_printf(s, W_CR_HEAD, head, c->task.pid, comm, (unsigned long)c->task.addr, c->cpu);
	if (c->kind == SO_CRASH_CANARY) {
		if (c->slot_how[0] && c->have_slot)
			so_printf(s, W_CR_SLOT, (unsigned long)c->slot, c->slot_how, c->func_name,
				  (unsigned long)c->slot_value, (unsigned long)c->canary,
				  !c->have_canary ? "no canary to compare" :
				  c->slot_value == c->canary ? "intact" : "overwritten");
		else
			so_printf(s, W_CR_NO_SLOT, c->func_name, (unsigned long)c->canary);
		if (c->frame_hi)
			so_printf(s, W_CR_FRAME, c->func_name, (unsigned long)c->frame_lo,
				  (unsigned long)c->frame_hi, (long)(c->frame_hi - c->frame_lo));
		if (c->have_slot && c->slot > c->frame_lo)
			crash_below(s, c);
		if (c->local[0])
			so_printf(s, W_CR_LOCAL, c->local, c->local_size,
				  (unsigned long)(c->frame_hi + c->local_at), (unsigned long)-c->local_at);
		else if (c->have_slot && c->frame_hi)
			so_printf(s, W_CR_NO_LOCAL);
	}
	if (c->kind == SO_CRASH_END) {
		so_printf(s, W_CR_WORD, (unsigned long)c->lo, (unsigned long)c->magic_word, SO_END_MAGIC);
		if (c->left == 0)
			so_printf(s, W_CR_PAST);
		else
			so_printf(s, W_CR_STRAY, c->left);
	}
	if (c->regs) {
		so_printf(s, W_CR_ENTRY, c->entry[0] ? c->entry : "?", (unsigned long)c->regs,
			  (unsigned long)c->ip, (unsigned long)c->sp);
		if (c->have_fault) {
			so_printf(s, W_CR_FAULT, (unsigned long)c->fault, c->fault_how, c->func);
			so_printf(s, W_CR_WHERE, c->where_kind == SO_AT_NULL ? "the NULL page" : c->where);
		} else if (c->kind != SO_CRASH_BUG) {
			so_printf(s, W_CR_NO_FAULT, c->func);
		}
	}
	so_printf(s, W_CR_TASK, (unsigned long)c->lo, (unsigned long)c->hi, c->magic,
		  (unsigned long)c->magic_word, c->left, c->deepest);
	if (c->near_left >= 0 && c->near_left < near)
		so_printf(s, W_CR_NEAR, c->near, c->near_left, c->near_in);
	else if (c->near_left >= 0)
		so_printf(s, W_CR_NO_NEAR, near, c->near, c->near_left, c->near_in);
	if (c->have_walk)
		so_print_frames(s, &c->w, c->regions, c->nregions);
}

static void kv(struct stackov *s, const char *k, const char *v, int last)
{
	char esc[1024];

	stackov_json_string(v, esc, sizeof(esc));
	so_printf(s, "\"%s\":\"%s\"%s", k, esc, last ? "" : ",");
}

static void kn(struct stackov *s, const char *k, long v)
{
	so_printf(s, "\"%s\":%ld,", k, v);
}

static const char *xs(char *buf, uint64_t v, int have)
{
	if (have)
		sprintf(buf, "%lx", (unsigned long)v);
	else
		buf[0] = '\0';
	return buf;
}

void so_print_crash_json(struct stackov *s, const struct so_crash *c, long near)
{
	char head[512], b[32];
	int canary = c->kind == SO_CRASH_CANARY && c->have_slot;

	crash_head(c, head, sizeof(head));
	so_printf(s, "{");
	kv(s, "kind", crash_kind[c->kind], 0);
	kv(s, "summary", head, 0);
	kn(s, "pid", c->task.pid);
	kv(s, "comm", c->task.comm, 0);
	kv(s, "task", xs(b, c->task.addr, 1), 0);
	kn(s, "cpu", c->cpu);
	kv(s, "lo", xs(b, c->lo, 1), 0);
	kv(s, "hi", xs(b, c->hi, 1), 0);
	kn(s, "left", c->left);
	kv(s, "deepest", c->deepest, 0);
	kv(s, "end_magic", c->magic, 0);
	kv(s, "end_word", xs(b, c->magic_word, 1), 0);
	kv(s, "at", c->func, 0);
	kv(s, "function", c->func_name, 0);
	kv(s, "slot", xs(b, c->slot, canary), 0);
	kv(s, "slot_how", canary ? c->slot_how : "", 0);
	kv(s, "slot_value", xs(b, c->slot_value, canary), 0);
	kv(s, "canary", xs(b, c->canary, c->have_canary && c->kind == SO_CRASH_CANARY), 0);
	kv(s, "frame_lo", xs(b, c->frame_lo, c->frame_hi), 0);
	kv(s, "buffer", c->local, 0);
	kv(s, "buffer_lo", xs(b, c->frame_hi + c->local_at, c->local[0]), 0);
	kn(s, "buffer_bytes", c->local[0] ? c->local_size : 0);
	kv(s, "frame_hi", xs(b, c->frame_hi, c->frame_hi), 0);
	kv(s, "entry", c->entry, 0);
	kv(s, "regs", xs(b, c->regs, c->regs), 0);
	kv(s, "rip", xs(b, c->ip, c->regs), 0);
	kv(s, "rsp", xs(b, c->sp, c->regs), 0);
	kv(s, "fault", xs(b, c->fault, c->have_fault), 0);
	kv(s, "fault_how", c->have_fault ? c->fault_how : "", 0);
	kv(s, "where", c->have_fault ? at_kind[c->where_kind] : "", 0);
	kv(s, "near", c->near_left >= 0 && c->near_left < near ? c->near : "", 0);
	kv(s, "near_in", c->near_left >= 0 && c->near_left < near ? c->near_in : "", 0);
	kn(s, "frames", c->have_walk ? c->w.n : 0);
	so_printf(s, "\"near_left\":%ld}\n", c->near_left >= 0 && c->near_left < near ? c->near_left : -1);
}
