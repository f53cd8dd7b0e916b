// SPDX-License-Identifier: GPL-2.0
/*
 * stackov-log: the verdict in the dump readers' words (the crash
 * extension's), as one JSON line, and as the facts a test compares.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stackov-log.h"
#include "stackov.h"

#define PAGE_SIZE	4096UL

static const char *kind_name(const struct sl_report *r)
{
	switch (r->kind) {
	case K_END_MAGIC:
		return "end-magic";
	case K_CANARY:
		return "canary";
	case K_BARE_DF:
		return "double-fault";
	case K_FREED:
		return "freed-stack";
	case K_KASAN_STACK:
		return "kasan-stack";
	default:
		return "guard";
	}
}

static const char *stack_of(const struct sl_report *r)
{
	return r->stack[0] ? r->stack : "unknown";
}

#define KERNEL_HALF	0xffff800000000000UL

/*
 * A guard page hit whose BUG line is hashed, from the register dump: the
 * fault address is CR2, and a vmap stack is THREAD_SIZE aligned, with an
 * unmapped page below it (the guard) and one after its top (vmalloc's
 * guard after every area). CR2 in the last page of a THREAD_SIZE block
 * is the guard below the stack of the next block: below, with RSP in or
 * near that stack. CR2 in the first page of a block is just past the top
 * of the stack of the block before, where RSP is: above, a write that
 * ran off the stack's end. 1 below, 2 above, 0 if the registers do not say.
 */
static int side_regs(const struct sl_report *r)
{
	unsigned long ts = sl_thread_size(r), off;

	if (r->have_bounds || r->kind != K_GUARD || r->cr2 < KERNEL_HALF || r->rsp < KERNEL_HALF)
		return 0;
	off = r->cr2 & (ts - 1);
	if (off >= ts - PAGE_SIZE && r->rsp + ts > r->cr2 && r->rsp < r->cr2 + ts + PAGE_SIZE)
		return 1;
	if (off < PAGE_SIZE && r->rsp < r->cr2 && r->cr2 - r->rsp <= ts)
		return 2;
	return 0;
}

/* below, above, or unknown: which side of the stack the fault lies on. */
static const char *side(const struct sl_report *r)
{
	if (r->have_bounds && r->arm64 && r->below >= 0)
		return "below";
	if (r->have_bounds)
		return r->fault < r->lo ? "below" : r->fault >= r->hi ? "above" : "inside";
	if (r->below >= 0)
		return "below";
	switch (side_regs(r)) {
	case 1:
		return "below";
	case 2:
		return "above";
	}
	return "unknown";
}

/* The cycle in the engine's words; without @counts, its functions alone. */
static void cycle_str(const struct sl_verdict *v, char *buf, size_t len, int counts)
{
	static const char *names[SL_MAX_ENTRIES + 1];
	char *x;
	int i;

	for (i = 0; i < v->nframes; i++)
		names[i] = v->frame[i]->func;
	stackov_cycle_words(names, v->cyc_start, v->cyc_period, v->cyc_reps,
			    counts ? v->cyc_bytes : 0, buf, len);
	x = strrchr(buf, 'x');
	if (!counts && v->cyc_reps && x && x > buf && x[-1] == ' ')
		x[-1] = '\0';
}

/*
 * The report's title for grouping (the engine's stackov_signature): what
 * happened, in the cycle from its smallest rotation, or in the deepest
 * function that comes back; a canary in the function the panic names.
 */
static void signature(const struct sl_verdict *v, char *buf, size_t len)
{
	static const char *names[SL_MAX_ENTRIES + 1];
	const struct sl_report *r = v->r;
	const char *what = "stack overflow";
	int i;

	switch (r->kind) {
	case K_CANARY:
		/* 4.x's panic names it by address: the frame the trace has first, then */
		if (r->canary_func[0] && strspn(r->canary_func, "0123456789abcdef") != strlen(r->canary_func)) {
			snprintf(buf, len, "stack-protector canary in %.*s",
				 (int)strcspn(r->canary_func, "."), r->canary_func);
			return;
		}
		snprintf(buf, len, "stack-protector canary in %.*s",
			 v->nframes ? (int)strcspn(v->frame[0]->func, ".") : 1, v->nframes ? v->frame[0]->func : "?");
		return;
	case K_END_MAGIC:
		what = "stack end overwritten";
		break;
	case K_KASAN_STACK:
		snprintf(buf, len, "KASAN stack access in %.*s", (int)strcspn(r->canary_func, "."),
			 r->canary_func[0] ? r->canary_func : "?");
		return;
	case K_FREED:
		what = "stack use after free";
		break;
	case K_BARE_DF:
		what = "double fault";
		break;
	default:
		if (!strcmp(side(r), "above"))
			what = "stack buffer overrun";
	}
	for (i = 0; i < v->nframes; i++)
		names[i] = v->frame[i]->func;
	stackov_signature(names, v->nframes, v->cyc_start, v->cyc_period, v->cyc_reps, what, buf, len);
}

static void verdict_line(const struct sl_verdict *v)
{
	const struct sl_report *r = v->r;
	const char *s = side(r);

	printf("  verdict:   ");
	switch (r->kind) {
	case K_CANARY:
		printf("the stack protector's canary in %s's frame was overwritten: an on-stack buffer overran; not exhaustion\n",
		       r->canary_func[0] ? r->canary_func : "a function");
		break;
	case K_END_MAGIC:
		printf("the word at the end of the task's stack (STACK_END_MAGIC) was found overwritten: an overflow\n"
		       "             with no guard page to stop it, or a stray write into the stack; the log alone cannot tell which\n");
		break;
	case K_FREED:
		printf("a page fault on %lx, unmapped vmalloc space: where a vmap stack read after its task exited\n"
		       "             faults, or another freed vmalloc area (the dump can say which); no overflow\n", r->fault);
		break;
	case K_KASAN_STACK:
		printf("KASAN caught an access outside a variable of %s's frame (or one out of scope, or returned):\n"
		       "             a bug in how the code uses its own stack; no overflow\n",
		       r->canary_func[0] ? r->canary_func : "a function");
		break;
	case K_BARE_DF:
		printf("a double fault, and no guard page was hit: the stack pointer went past every guard, as a frame\n"
		       "             larger than the guard page does, or somewhere else; the log alone cannot say which\n");
		break;
	default:
		if (!strcmp(s, "above"))
			printf("the fault is above the stack's top: something ran past the end of an on-stack buffer; not exhaustion\n");
		else if (!strcmp(s, "below"))
			printf("the %s stack ran out: the fault is in the guard page below it\n", stack_of(r));
		else
			printf("a guard page was hit: the %s stack ran out (the log gives no address to say which side)\n",
			       stack_of(r));
	}
	if (v->nframes && !v->reliable)
		printf("             it rests on unreliable entries: every entry of the trace is '?', a guess from what the stack held\n");
}

static void print_bytes(const struct sl_verdict *v)
{
	const struct sl_report *r = v->r;
	unsigned long ts = sl_thread_size(r);
	int top[5] = { -1, -1, -1, -1, -1 }, i, k;

	if (v->total < 0) {
		printf("  bytes:     unknown: no frame's size was found in vmlinux or the modules\n");
		return;
	}
	printf("  bytes:     %ld on the %d frames of known size (of %d), %.0f%% of THREAD_SIZE %lu\n",
	       v->total, v->known, v->nframes, 100.0 * v->total / ts, ts);
	for (i = 0; i < v->nframes; i++) {
		long b = v->frame[i]->bytes;

		for (k = 0; k < 5; k++)
			if (top[k] < 0 || b > v->frame[top[k]]->bytes) {
				memmove(&top[k + 1], &top[k], (4 - k) * sizeof(top[0]));
				top[k] = i;
				break;
			}
	}
	printf("  largest:  ");
	for (k = 0; k < 5 && top[k] >= 0 && v->frame[top[k]]->bytes > 0; k++)
		printf("%s #%d %s %ld", k ? "," : "", top[k], v->frame[top[k]]->func,
		       v->frame[top[k]]->bytes);
	printf("\n");
}

void sl_print_text(const struct sl_verdict *v, int have_vmlinux)
{
	const struct sl_report *r = v->r;
	char cyc[512], comm[4 * sizeof(r->comm) + 1], ctx[4 * sizeof(v->context) + 1];
	int i;

	printf("%s: %s stack, ", r->kind == K_GUARD || r->kind == K_DOUBLE_FAULT ? "stack overflow" :
	       r->kind == K_BARE_DF ? "double fault" : r->kind == K_FREED ? "stack use after free" :
	       r->kind == K_KASAN_STACK ? "stack access out of bounds" : "stack corruption", stack_of(r));
	stackov_text_string(r->comm, comm, sizeof(comm));
	if (r->pid >= 0)
		printf(r->cpu >= 0 ? "pid %d \"%s\" on cpu %d\n" : "pid %d \"%s\" on a cpu the log does not name\n",
		       r->pid, comm, r->cpu);
	else
		printf("pid ? (the log names no task)\n");
	stackov_text_string(v->context, ctx, sizeof(ctx));
	printf("  context:   %s\n", ctx);
	printf("  entry:     %s\n", v->entry);
	if (r->have_bounds) {
		printf("  stack:     %lx..%lx (%lu bytes)\n", r->lo, r->hi, r->hi - r->lo);
		if (r->fault < r->lo && r->fault >= r->lo - PAGE_SIZE)
			printf("  guard:     %lx..%lx, hit\n", r->lo - PAGE_SIZE, r->lo);
		if (r->fault < r->lo)
			printf("  fault:     %lx, %lu bytes below the stack (the BUG line's address)\n",
			       r->fault, r->lo - r->fault);
		else
			printf("  fault:     %lx, %lu bytes above the stack's top (the BUG line's address)\n",
			       r->fault, r->fault - r->hi);
	} else if (r->hashed) {
		printf("  stack:     unknown: the BUG line's addresses are hashed (booted without no_hash_pointers)\n");
		if (side_regs(r))
			printf("  fault:     %lx (CR2), %s (RSP %lx%s); vmap stacks are %lu-byte aligned\n", r->cr2,
			       side_regs(r) == 1 ? "in the guard page below a stack's base" :
			       "at or just past a stack's top: a write ran off its end",
			       r->rsp, r->rdi == r->cr2 ? ", RDI: the write's destination" : "",
			       sl_thread_size(r));
	} else if (r->stack_inferred) {
		printf("  stack:     no bounds; named by the trace's markers: the log has no BUG line\n");
	} else if (r->kind == K_GUARD || r->kind == K_DOUBLE_FAULT) {
		printf("  stack:     unknown: the log prints no bounds\n");
	}
	if (!r->have_bounds && r->below >= 0)
		printf("  fault:     %ld bytes below the stack (the kernel's own line)\n", r->below);
	cycle_str(v, cyc, sizeof(cyc), 1);
	printf("  cycle:     %s\n", v->cyc_reps ? cyc : "none");
	signature(v, cyc, sizeof(cyc));
	printf("  signature: %s\n", cyc);
	if (!v->cyc_reps)
		printf("  chain:     %s\n", v->chain[0] ? v->chain : "none (no subsystem the explainer knows)");
	printf("  frames:    %d on the log's trace%s%s\n", v->nframes,
	       v->reliable ? ", its reliable entries" : v->nframes ? ", every one unreliable ('?')" : "",
	       r->ended ? "" : "; the log ends before the trace does");
	if (v->dropped)
		printf("             %d other '?' entries are no frame of the chain: the instruction before each is no call, or a call of another function\n",
		       v->dropped);
	for (i = 0; i < v->nframes; i++) {
		const struct sl_entry *e = v->frame[i];
		char name[SL_NAME + 80];

		/* One turn of the cycle is shown, then the last frame of the run. */
		if (v->cyc_reps && i >= v->cyc_start + v->cyc_period &&
		    i < v->cyc_start + v->cyc_period * v->cyc_reps - 1) {
			if (i == v->cyc_start + v->cyc_period)
				printf("    ... the cycle above, %d times in all\n", v->cyc_reps);
			continue;
		}
		snprintf(name, sizeof(name), "%s+%#lx/%#lx%s%s%s", e->func, e->off, e->size,
			 e->mod[0] ? " [" : "", e->mod, e->mod[0] ? "]" : "");
		printf("    #%-3d %-48s", i, name);
		if (e->bytes >= 0)
			printf(" %5ld bytes\n", e->bytes);
		else
			printf("       ?\n");
	}
	for (i = 0; have_vmlinux && i + 1 < v->nframes; i++)
		if (v->frame[i]->realigns)
			printf("  note:      %s aligns %%rsp as it starts: the pad below its caller's frame is in no log, so neither its size nor %s's is known\n",
			       v->frame[i]->func, v->frame[i + 1]->func);
	if (have_vmlinux)
		print_bytes(v);
	else
		printf("  bytes:     each frame's size needs the kernel's vmlinux: make explain LOG=... VMLINUX=path\n");
	verdict_line(v);
}

/* A key and its string, escaped as the engine escapes every JSON string. */
static void json_str(const char *key, const char *s)
{
	char esc[2048];

	stackov_json_string(s, esc, sizeof(esc));
	printf("\"%s\":\"%s\",", key, esc);
}

void sl_print_json(const struct sl_verdict *v)
{
	const struct sl_report *r = v->r;
	char cyc[512];
	int i;

	printf("{");
	json_str("kind", kind_name(r));
	json_str("stack", stack_of(r));
	if (r->have_bounds) {
		printf("\"lo\":\"%lx\",\"hi\":\"%lx\",\"guard_hit\":%s,\"fault\":\"%lx\",\"below\":%ld,",
		       r->lo, r->hi, r->fault < r->lo && r->fault >= r->lo - PAGE_SIZE ? "true" : "false",
		       r->fault, (long)(r->lo - r->fault));
	} else if (r->kind == K_FREED) {
		printf("\"lo\":null,\"hi\":null,\"guard_hit\":false,\"fault\":\"%lx\",\"below\":null,", r->fault);
	} else {
		printf("\"lo\":null,\"hi\":null,\"guard_hit\":null,\"fault\":null,");
		if (r->below >= 0)
			printf("\"below\":%ld,", r->below);
		else
			printf("\"below\":null,");
	}
	printf("\"pid\":%d,", r->pid);
	json_str("comm", r->comm);
	printf("\"cpu\":%d,", r->cpu);
	json_str("context", v->context);
	json_str("entry", v->entry);
	cycle_str(v, cyc, sizeof(cyc), 1);
	printf("\"frames\":%d,", v->nframes);
	json_str("cycle", cyc);
	json_str("cycle_function", v->cyc_reps ? v->frame[v->cyc_start]->func : "");
	signature(v, cyc, sizeof(cyc));
	json_str("signature", cyc);
	printf("\"cycle_reps\":%d,\"reliable\":%s,\"ended\":%s,\"bytes\":[", v->cyc_reps,
	       v->reliable ? "true" : "false", r->ended ? "true" : "false");
	for (i = 0; i < v->nframes; i++)
		printf("%s%ld", i ? "," : "", v->frame[i]->bytes);
	printf("],\"names\":[");
	for (i = 0; i < v->nframes; i++) {
		char esc[512];

		stackov_json_string(v->frame[i]->func, esc, sizeof(esc));
		printf("%s\"%s\"", i ? "," : "", esc);
	}
	printf("]}\n");
}

/* The facts tests/logs/NAME.expect hold, one "key: value" a line. */
void sl_print_facts(const struct sl_verdict *v)
{
	const struct sl_report *r = v->r;
	char cyc[512], comm[4 * sizeof(r->comm) + 1];

	printf("kind: %s\n", kind_name(r));
	printf("stack: %s\n", stack_of(r));
	printf("side: %s\n", side(r));
	stackov_text_string(r->comm, comm, sizeof(comm));
	if (r->pid >= 0 && r->cpu >= 0)
		printf("task: pid %d \"%s\" on cpu %d\n", r->pid, comm, r->cpu);
	else if (r->pid >= 0)
		printf("task: pid %d \"%s\" on cpu ?\n", r->pid, comm);
	else
		printf("task: unknown\n");
	printf("context: %s\n", v->ctx_kind);
	printf("work: %s\n", r->wq_fn[0] ? r->wq_fn : "unknown");
	if (!strncmp(v->entry, "syscall", 7) && strchr(v->entry, '('))
		printf("entry: syscall %.*s\n", (int)strcspn(strchr(v->entry, '(') + 1, ")"),
		       strchr(v->entry, '(') + 1);
	else if (!strncmp(v->entry, "interrupt of user mode", 22))
		printf("entry: interrupt of user mode\n");
	else
		printf("entry: %s\n", strncmp(v->entry, "unknown", 7) ? v->entry : "unknown");
	cycle_str(v, cyc, sizeof(cyc), 0);
	printf("cycle: %s\n", v->cyc_reps ? cyc : "none");
	printf("reliable: %s\n", v->reliable ? "yes" : "no");
	signature(v, cyc, sizeof(cyc));
	printf("signature: %s\n", cyc);
}
