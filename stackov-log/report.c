// SPDX-License-Identifier: GPL-2.0
/*
 * stackov-log: the overflow reports of a log, found and read. A report
 * opens at the kernel's first line about the overflow (the BUG line of a
 * guard page hit, the double fault's die() line, a stack-protector panic,
 * an overwritten STACK_END_MAGIC) and holds the lines of the same caller
 * id up to the end of the trace. Lines from another CPU, interleaved, go
 * to the report of their own caller id, when the log has caller ids.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stackov-log.h"

#define SL_MAX_OPEN	8
#define SL_MAX_LINES	8192	/* of one report: past it, the report ends */

static struct sl_report *open_r[SL_MAX_OPEN];
static long open_lines[SL_MAX_OPEN];
static int in_trace[SL_MAX_OPEN];
static enum sl_section sec[SL_MAX_OPEN];
static int nopen;

static struct sl_report **out;
static int nout;
/* The report whose trace another CPU's report broke into, or NULL. */
static struct sl_report *kept;

static const char *skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static void close_at(int i)
{
	if (open_r[i] == kept)
		kept = NULL;
	/* A KASAN report of no stack's address: none of the explainer's. */
	if (open_r[i]->kind == K_KASAN_STACK && open_r[i]->kasan_other && !open_r[i]->stack[0])
		free(open_r[i]);
	else if (nout < SL_MAX_REPORTS)
		out[nout++] = open_r[i];
	else
		free(open_r[i]);
	memmove(&open_r[i], &open_r[i + 1], (nopen - i - 1) * sizeof(open_r[0]));
	memmove(&open_lines[i], &open_lines[i + 1], (nopen - i - 1) * sizeof(open_lines[0]));
	memmove(&in_trace[i], &in_trace[i + 1], (nopen - i - 1) * sizeof(in_trace[0]));
	memmove(&sec[i], &sec[i + 1], (nopen - i - 1) * sizeof(sec[0]));
	nopen--;
}

/* The open report that @caller's line belongs to, -1 if none. */
static int find_open(const char *caller)
{
	int i;

	for (i = nopen - 1; i >= 0; i--)
		if (!caller[0] || !open_r[i]->caller[0] || !strcmp(caller, open_r[i]->caller))
			return i;
	return -1;
}

static int open_new(enum sl_kind kind, const char *text, const char *caller, long lineno)
{
	struct sl_report *r;
	int i = kept ? -1 : find_open(caller);

	if (i >= 0)	/* a new report ends the one this caller had open */
		close_at(i);
	if (nopen == SL_MAX_OPEN)
		close_at(0);
	r = calloc(1, sizeof(*r));
	if (!r)
		return -1;
	r->kind = kind;
	r->first_line = r->last_line = lineno;
	r->cpu = r->pid = -1;
	r->below = -1;
	r->orig_rax = -1;
	snprintf(r->title, sizeof(r->title), "%s", strstr(text, "BUG: ") ? strstr(text, "BUG: ") : text);
	snprintf(r->caller, sizeof(r->caller), "%s", caller);
	open_r[nopen] = r;
	open_lines[nopen] = 0;
	in_trace[nopen] = 0;
	sec[nopen] = SEC_NONE;
	return nopen++;
}

static int index_of(const struct sl_report *r)
{
	int i;

	for (i = 0; r && i < nopen; i++)
		if (open_r[i] == r)
			return i;
	return -1;
}

/* The line that ends a trace: its end marker, or the panic's offset line. */
static int trace_end(const char *s)
{
	return !strncmp(s, "---[ end trace", 14) || !strncmp(s, "---[ end Kernel panic", 21) ||
	       !strncmp(s, "Kernel Offset:", 14);
}

static int end_marker(const char *s)
{
	return trace_end(s) || !strncmp(s, "Kernel panic - not syncing", 26);
}

/*
 * Which open report line @s belongs to when another CPU's report broke
 * into a trace (kept): while the newer report @i has begun no trace of
 * its own, every trace entry, and the end of the trace, is the kept
 * report's; once it has, an entry of a function the kept trace already
 * holds is the kept report's. Everything else is @i's.
 */
static int interleaved(int i, const char *s)
{
	int k = index_of(kept), j;
	struct sl_report *r = kept;
	struct sl_entry e;

	if (k < 0 || k == i)
		return i;
	if (!sl_parse_entry(s, &e))
		return !in_trace[i] && end_marker(s) ? k : i;
	if (!in_trace[i])
		return k;
	for (j = r->n - 1; j >= 0 && j >= r->n - 64; j--)
		if (!strcmp(r->e[j].func, e.func))
			return k;
	return i;
}

/* The kernel's stack_type_name() in the dump readers' words. */
static void stack_name(char *dst, size_t len, const char *name, size_t n)
{
	static const char * const map[][2] = {
		{ "#DF", "DF" }, { "#MC", "MCE" }, { "#DB", "DB" }, { "#VC", "VC" },
		{ "#VC2", "VC2" }, { "SOFTIRQ", "SOFTIRQ" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (strlen(map[i][0]) == n && !strncmp(name, map[i][0], n)) {
			snprintf(dst, len, "%s", map[i][1]);
			return;
		}
	snprintf(dst, len, "%.*s", (int)n, name);
}

/* "BUG: TASK stack guard page was hit at A (stack is B..C)" */
static void guard_line(struct sl_report *r, const char *s)
{
	const char *w, *p = strstr(s, " stack guard page was hit at ");
	unsigned long a, b, c;
	int old = 0;

	/* The console may have put other text first: "host login: BUG: ..." */
	w = strstr(s, "BUG: ");
	if (w)
		w += 5;
	if (w && p && p > w) {
		stack_name(r->stack, sizeof(r->stack), w, p - w);
	} else {
		/*
		 * Before 5.14, handle_stack_overflow() printed only the task's
		 * own stack, current->stack..current->stack + THREAD_SIZE - 1.
		 */
		snprintf(r->stack, sizeof(r->stack), "TASK");
		old = 1;
	}
	p = strstr(s, "was hit at ");
	if (p && sscanf(p, "was hit at %lx (stack is %lx..%lx)", &a, &b, &c) == 3) {
		if (old && (c & 0xfff) == 0xfff)
			c++;
		r->fault = a;
		r->lo = b;
		r->hi = c;
		/* %p without no_hash_pointers: no kernel address, only a hash */
		r->hashed = a < 0xffff800000000000UL || b < 0xffff800000000000UL;
		r->have_bounds = !r->hashed;
	} else if (p && strstr(p, "ptrval")) {
		r->hashed = 1;	/* "(____ptrval____)": hashing not yet ready at boot */
	} else if (p && sscanf(p, "was hit at %lx", &a) == 1) {
		/* A mail client wrapped the line: "(stack is ...)" comes next. */
		r->fault = a;
		r->hashed = a < 0xffff800000000000UL;
		r->wrapped = !r->hashed;
	} else if (p && !p[11 + strspn(p + 11, " ")]) {
		r->wrapped = 2;	/* wrapped before the address, too */
	}
}

/* The "(stack is B..C)" a wrapped BUG line left on a line of its own. */
static int wrapped_bounds(struct sl_report *r, const char *s)
{
	unsigned long b, c;

	if (r->wrapped == 2 && sscanf(s, "%lx (stack is %lx..%lx)", &r->fault, &b, &c) != 3)
		return 0;
	if (r->wrapped == 1 && sscanf(s, "(stack is %lx..%lx)", &b, &c) != 2)
		return 0;
	if (!r->wrapped)
		return 0;
	r->wrapped = 0;
	if ((c & 0xfff) == 0xfff)
		c++;
	r->lo = b;
	r->hi = c;
	r->have_bounds = b >= 0xffff800000000000UL;
	return 1;
}

/* "NAME: value" of a register dump line ("RDX: 0 RSI: 1 RDI: 2"); 0 if not there. */
static unsigned long reg_of(const char *s, const char *name)
{
	const char *p = strstr(s, name);

	return p ? strtoul(p + strlen(name), NULL, 16) : 0;
}

static enum sl_section marker(const char *s, enum sl_section cur, int *is)
{
	static const struct { const char *m; enum sl_section s; } m[] = {
		{ "<IRQ>", SEC_IRQ }, { "</IRQ>", SEC_NONE }, { "<EOI>", SEC_NONE },
		{ "<SOFTIRQ>", SEC_SOFTIRQ }, { "</SOFTIRQ>", SEC_NONE },
		{ "<NMI>", SEC_NMI }, { "</NMI>", SEC_NONE },
		{ "<#DF>", SEC_DF }, { "</#DF>", SEC_NONE }, { "<EOE>", SEC_NONE },
		{ "<TASK>", SEC_TASK }, { "</TASK>", SEC_NONE },
		{ "<#DB>", SEC_EXC }, { "</#DB>", SEC_NONE }, { "<#MC>", SEC_EXC },
		{ "</#MC>", SEC_NONE }, { "<#VC>", SEC_EXC }, { "</#VC>", SEC_NONE },
		{ "<#VC2>", SEC_EXC }, { "</#VC2>", SEC_NONE },
	};
	size_t i, n;

	*is = 0;
	for (i = 0; i < ARRAY_SIZE(m); i++) {
		n = strlen(m[i].m);
		if (!strncmp(s, m[i].m, n) && (!s[n] || s[n] == ' ')) {
			*is = 1;
			return m[i].s;
		}
	}
	return cur;
}

/*
 * A comm as a log escapes its bytes, back to the bytes: "\xNN" (the
 * kernel's /dev/kmsg), and "\xffffffNN", a byte sign-extended
 * (makedumpfile's --dump-dmesg, which prints a char with %02x).
 */
static void unescape_comm(char *c)
{
	char *w = c, hex[3] = "";

	while (*c) {
		if (c[0] == '\\' && c[1] == 'x') {
			int n = strncmp(c + 2, "ffffff", 6) ? 2 : 8;

			if (isxdigit((unsigned char)c[n]) && isxdigit((unsigned char)c[n + 1])) {
				memcpy(hex, c + n, 2);
				*w++ = (char)strtoul(hex, NULL, 16);
				c += n + 2;
				continue;
			}
		}
		*w++ = *c++;
	}
	*w = '\0';
}

/*
 * The stack arm64's panic_bad_stack() found exhausted: of the stacks it
 * printed, the one the interrupted sp is in, else the one whose base is
 * the nearest above it (the sp ran off its bottom).
 */
static int arm64_range(const struct sl_report *r, unsigned long a)
{
	int k, best = -1;

	for (k = 0; k < r->nranges; k++) {
		if (a >= r->range[k].lo && a < r->range[k].hi)
			return k;
		if (r->range[k].lo > a && r->range[k].lo - a <= 65536 &&
		    (best < 0 || r->range[k].lo < r->range[best].lo))
			best = k;
	}
	return best;
}

/*
 * The address: FAR, when the exception was a data abort on a stack (it
 * lies below one), else the interrupted sp. An sp still inside a stack,
 * within ARM64_FRAME of its base, is one whose exception frame (struct
 * pt_regs) did not fit: the entry code checks the sp after making room
 * for it, so the stack is exhausted all the same.
 */
#define ARM64_FRAME 1024
static void arm64_stack(struct sl_report *r)
{
	unsigned long a = r->rsp;
	int k = -1;

	if (r->cr2)
		k = arm64_range(r, r->cr2);
	if (k >= 0 && r->cr2 < r->range[k].lo)
		a = r->cr2;
	else
		k = arm64_range(r, a);
	if (k < 0)
		return;
	snprintf(r->stack, sizeof(r->stack), "%s", r->range[k].name);
	r->lo = r->range[k].lo;
	r->hi = r->range[k].hi;
	r->fault = a;
	r->have_bounds = 1;
	if (a >= r->lo && a - r->lo < ARM64_FRAME)
		r->below = ARM64_FRAME;	/* "no room below": side() says below */
}

/*
 * arm64's lines: "Task stack:     [0x..0x]" (and IRQ, Overflow, SDEI,
 * shadow call stacks), "sp : ", "pc : ", its lowercase "Call trace:",
 * the panic that comes before the trace. 1 if @s was one of them.
 */
static int arm64_line(int i, const char *s)
{
	struct sl_report *r = open_r[i];
	const char *b = strstr(s, " stack:");
	struct sl_entry e;
	unsigned long lo, hi;
	size_t n;

	if (b)
		b += 7 + strspn(b + 7, " ");
	if (b && r->nranges < (int)ARRAY_SIZE(r->range) && sscanf(b, "[0x%lx..0x%lx]", &lo, &hi) == 2) {
		n = strcspn(s, " ");
		snprintf(r->range[r->nranges].name, sizeof(r->range[0].name), "%.*s", (int)n, s);
		for (n = 0; r->range[r->nranges].name[n]; n++)
			r->range[r->nranges].name[n] = toupper((unsigned char)r->range[r->nranges].name[n]);
		r->range[r->nranges].lo = lo;
		r->range[r->nranges++].hi = hi;
		return 1;
	}
	if (!strncmp(s, "sp : ", 5) && !r->n) {
		r->rsp = strtoul(s + 5, NULL, 16);
		return 1;
	}
	if (!strncmp(s, "FAR: 0x", 7) && !r->n) {
		r->cr2 = strtoul(s + 7, NULL, 16);
		return 1;
	}
	if (!strncmp(s, "pc : ", 5) && !r->have_rip && sl_parse_entry(s + 5, &e)) {
		r->rip = e;
		r->have_rip = 1;
		return 1;
	}
	if (!strncmp(s, "Kernel panic - not syncing", 26))
		return 1;	/* panic() prints the trace after it */
	if (!strncmp(s, "Call trace:", 11)) {
		arm64_stack(r);
		in_trace[i] = 1;
		sec[i] = !strcmp(r->stack, "IRQ") ? SEC_IRQ : SEC_TASK;
		return 1;
	}
	/* Off the IRQ stack: the entries below are the interrupted task's. */
	if (in_trace[i] && sec[i] == SEC_IRQ && sl_parse_entry(s, &e) &&
	    (!strcmp(e.func, "call_on_irq_stack") || !strncmp(e.func, "el1_interrupt", 13) ||
	     !strncmp(e.func, "el0_interrupt", 13)))
		sec[i] = SEC_TASK;
	return 0;
}

/* A line of an open report. 1 if the report ended with it. */
static int report_line(int i, const char *raw, long lineno)
{
	struct sl_report *r = open_r[i];
	const char *s = skip_blank(raw);
	const char *p;
	struct sl_entry e;
	int is;

	r->last_line = lineno;
	if (r->kind == K_KASAN_STACK && !strncmp(s, "=========", 9)) {
		r->ended = 1;
		return 1;
	}
	/* "Read of size 28 at addr ... by task mount.nfs/4628": before any CPU: line */
	p = strstr(s, " by task ");
	if (r->kind == K_KASAN_STACK && r->pid < 0 && p && strchr(p + 9, '/')) {
		snprintf(r->comm, sizeof(r->comm), "%.*s", (int)(strrchr(p + 9, '/') - (p + 9)), p + 9);
		r->pid = atoi(strrchr(p + 9, '/') + 1);
		return 0;
	}
	if (r->kind == K_KASAN_STACK && (strstr(s, "belongs to stack of task") ||
					 strstr(s, "is located in stack of task"))) {
		snprintf(r->stack, sizeof(r->stack), "TASK");
		in_trace[i] = 0;	/* the frame's objects follow, no entries */
		return 0;
	}
	if (trace_end(s)) {
		r->ended = 1;
		return 1;
	}
	if (r->arm64 && arm64_line(i, s))
		return 0;
	if (!strncmp(s, "Kernel panic - not syncing", 26) && r->kind != K_CANARY) {
		r->ended = 1;
		return 1;
	}
	p = strstr(s, "PID: ");
	if (r->cpu < 0 && !strncmp(s, "CPU: ", 5) && p && strstr(s, " Comm: ")) {
		r->cpu = atoi(s + 5);
		r->pid = atoi(p + 5);
		if (sscanf(strstr(s, " Comm: ") + 7, "%63s", r->comm) != 1)
			r->comm[0] = '\0';
		unescape_comm(r->comm);
		p = strstr(s, "ainted ");
		if (p) {
			p += 7;
			/* "Tainted: G      D    6.1.0 #1": the flags, then the release */
			while (*p && (*p == ' ' || (p[1] == ' ' && !isdigit((unsigned char)*p))))
				p++;
			snprintf(r->release, sizeof(r->release), "%s", p);
		}
		return 0;
	}
	if (!r->hardware[0] && !strncmp(s, "Hardware name: ", 15)) {
		snprintf(r->hardware, sizeof(r->hardware), "%s", s + 15);
		return 0;
	}
	if (!r->wq[0] && !strncmp(s, "Workqueue: ", 11)) {
		if (sscanf(s + 11, "%63s %127s", r->wq, r->wq_fn) != 2)
			r->wq_fn[0] = '\0';
		/* "Workqueue:  0x0 (bat_events)": no work function known */
		if (r->wq_fn[0] == '(') {
			snprintf(r->wq, sizeof(r->wq), "%.*s", (int)strcspn(r->wq_fn + 1, ")"), r->wq_fn + 1);
			r->wq_fn[0] = '\0';
		}
		return 0;
	}
	if (!r->have_rip && !r->n && !strncmp(s, "RIP: ", 5) && strchr(s + 5, ':')) {
		if (sl_parse_entry(strchr(s + 5, ':') + 1, &e)) {
			r->rip = e;
			r->have_rip = 1;
		}
		return 0;
	}
	if (!r->rsp && !r->n && !strncmp(s, "RSP: ", 5) && strchr(s + 5, ':')) {
		r->rsp = strtoul(strchr(s + 5, ':') + 1, NULL, 16);
		return 0;
	}
	if (!r->rbp && !r->n && !strncmp(s, "RBP: ", 5)) {
		r->rbp = strtoul(s + 5, NULL, 16);
		return 0;
	}
	if (!r->rdi && !r->n && !strncmp(s, "RDX: ", 5) && strstr(s, " RDI: ")) {
		r->rdi = reg_of(s, " RDI: ");
		return 0;
	}
	if (!r->cr2 && !r->n && !strncmp(s, "CR2: ", 5)) {
		r->cr2 = strtoul(s + 5, NULL, 16);
		return 0;
	}
	if (wrapped_bounds(r, s))
		return 0;
	/* The user registers a syscall saved: "RSP: 002b:... ORIG_RAX: 0000000000000141" */
	if (r->orig_rax_next) {
		r->orig_rax_next = 0;
		if (isxdigit((unsigned char)*s)) {
			r->orig_rax = strtol(s, NULL, 16);
			return 0;
		}
	}
	p = strstr(s, "ORIG_RAX:");
	if (p && !strncmp(s, "RSP: 002b:", 10)) {
		p += 9 + strspn(p + 9, " ");
		if (*p)
			r->orig_rax = strtol(p, NULL, 16);
		else
			r->orig_rax_next = 1;
		return 0;
	}
	p = strstr(s, " stack overflow: ");
	if (p && strstr(p, " bytes below the stack")) {
		r->below = atol(p + 17);
		return 0;
	}
	if (!strncmp(s, "Call Trace:", 11)) {
		in_trace[i] = 1;
		sec[i] = SEC_NONE;
		return 0;
	}
	sec[i] = marker(s, sec[i], &is);
	if (is || !in_trace[i])
		return 0;
	/*
	 * Only entries are taken from the trace; what else it holds (an
	 * exception frame's registers, decode_stacktrace.sh's disassembly, a
	 * poster's "(lines omitted)") is passed over. The report ends at its
	 * end marker or at the next oops.
	 */
	if (sl_parse_entry(s, &e)) {
		if (r->n < SL_MAX_ENTRIES) {
			e.sec = sec[i];
			r->e[r->n++] = e;
		} else {
			r->dropped++;
		}
	}
	return 0;
}

/* The line @s (plain, blanks at its start skipped) opens a report: which. */
static int opener(const char *s, enum sl_kind *kind)
{
	/* "BUG: TASK stack guard page was hit", 4.9-5.13's "BUG: stack guard ...", or a panic's */
	if (strstr(s, "stack guard page was hit at ")) {
		*kind = K_GUARD;
		return 1;
	}
	if (strstr(s, "kernel stack overflow (double-fault)")) {
		*kind = K_DOUBLE_FAULT;
		return 2;	/* or the die() line of an open guard report */
	}
	if ((!strncmp(s, "stack guard page: ", 18) || !strncmp(s, "Oops: stack guard page", 22))) {
		*kind = K_GUARD;
		return 2;
	}
	/* A double fault no guard page explains (5.x and 6.x: "traps: PANIC: ...") */
	if (strstr(s, "PANIC: double fault, error_code: ")) {
		*kind = K_BARE_DF;
		return 1;
	}
	/* arm64's panic_bad_stack(), and the lines after it say which stack */
	if (strstr(s, "Insufficient stack space to handle exception!")) {
		*kind = K_GUARD;
		return 3;
	}
	/*
	 * KASAN's stack-out-of-bounds, -use-after-return, -use-after-scope;
	 * any other KASAN report is kept only if it says the address is in
	 * a task's stack (close_at()).
	 */
	if (strstr(s, "BUG: KASAN: ")) {
		*kind = K_KASAN_STACK;
		return strstr(s, "BUG: KASAN: stack-") ? 1 : 4;
	}
	if (strstr(s, "Kernel stack is corrupted in: ")) {
		*kind = K_CANARY;
		return 1;
	}
	/*
	 * A fault on an unmapped address of vmalloc space (its default place,
	 * without RANDOMIZE_MEMORY or with nokaslr): where a vmap stack read
	 * after its task exited and vfree() ran faults.
	 */
	if (!strncmp(s, "BUG: unable to handle page fault for address: ", 46)) {
		unsigned long a = strtoul(s + 46, NULL, 16);

		if (a >= VMALLOC_DEFAULT && a < VMALLOC_DEFAULT_END) {
			*kind = K_FREED;
			return 1;
		}
	}
	if (strstr(s, "Thread overran stack, or stack corrupted") ||
	    strstr(s, "corrupted stack end detected inside scheduler")) {
		*kind = K_END_MAGIC;
		return 1;
	}
	return 0;
}

static void log_line(char *buf, long lineno)
{
	char caller[16];
	const char *raw = sl_plain(buf, caller, sizeof(caller));
	const char *s = skip_blank(raw);
	enum sl_kind kind;
	int i, how = opener(s, &kind);

	i = find_open(caller);
	if (how == 2 && i >= 0 && open_r[i]->kind == K_GUARD && !open_r[i]->has_oops &&
	    !open_r[i]->n) {
		open_r[i]->has_oops = 1;
		open_r[i]->kasan = strstr(s, " KASAN") != NULL;
		return;
	}
	/*
	 * With no caller ids, another CPU's report may open in the middle
	 * of a trace (each CPU that hits a guard page prints its BUG line):
	 * the trace is kept open, and its entries are told from the new
	 * report's by what they hold (interleaved()).
	 */
	if (how && !caller[0]) {
		int k = index_of(kept);

		if (k < 0 && i >= 0 && in_trace[i] && open_r[i]->n && !open_r[i]->ended)
			kept = open_r[k = i];
		/* The interleaved report before this one, if it is still open. */
		if (k >= 0 && nopen > 1 && open_r[nopen - 1] != kept)
			close_at(nopen - 1);
	}
	if (how) {
		i = open_new(kind, s, caller, lineno);
		if (i < 0)
			return;
		if (how == 2) {
			open_r[i]->has_oops = 1;
			open_r[i]->kasan = strstr(s, " KASAN") != NULL;
		}
		if (kind == K_GUARD && how == 1)
			guard_line(open_r[i], s);
		if (how == 3)
			open_r[i]->arm64 = 1;
		if (how == 4)
			open_r[i]->kasan_other = 1;
		if (kind == K_END_MAGIC)	/* it sits at the end of the task's stack */
			snprintf(open_r[i]->stack, sizeof(open_r[i]->stack), "TASK");
		if (kind == K_CANARY)
			sscanf(strstr(s, "corrupted in: ") + 14, "%127[A-Za-z0-9_.$]", open_r[i]->canary_func);
		if (kind == K_KASAN_STACK && strstr(s, " in "))
			sscanf(strstr(s, " in ") + 4, "%127[A-Za-z0-9_.$]", open_r[i]->canary_func);
		if (kind == K_FREED)
			open_r[i]->fault = strtoul(s + 46, NULL, 16);
		return;
	}
	if (i < 0)
		return;
	i = interleaved(i, s);
	/* The fault's own Oops line, after its #PF lines: the report goes on. */
	if (open_r[i]->kind == K_FREED && !open_r[i]->has_oops && !strncmp(s, "Oops: ", 6)) {
		open_r[i]->has_oops = 1;
		return;
	}
	/* Another oops of the same caller: the report is over. */
	if (!strncmp(s, "BUG: ", 5) || !strncmp(s, "WARNING: ", 9) || !strncmp(s, "Oops: ", 6) ||
	    !strncmp(s, "general protection fault", 24) ||
	    (!strncmp(s, "double fault: ", 14) && open_r[i]->kind != K_BARE_DF)) {
		open_r[i]->ended = 1;
		close_at(i);
		return;
	}
	if (report_line(i, raw, lineno) || ++open_lines[i] > SL_MAX_LINES)
		close_at(i);
}

/*
 * Every overflow report of the log @path, in the order they opened. 0, or
 * -1 with @err saying why the log could not be read.
 */
int sl_read_log(const char *path, struct sl_report **reports, int *nreports,
		long *lines, char *err, size_t errlen)
{
	char buf[4096];
	FILE *f = fopen(path, "r");
	long lineno = 0;
	size_t l;
	int c;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	out = reports;
	nout = nopen = 0;
	kept = NULL;
	while (fgets(buf, sizeof(buf), f)) {
		l = strlen(buf);
		/* A line longer than the buffer: its first 4095 bytes, the rest dropped. */
		if (l == sizeof(buf) - 1 && buf[l - 1] != '\n')
			while ((c = getc(f)) != EOF && c != '\n')
				;
		log_line(buf, ++lineno);
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		fclose(f);
		while (nopen)
			close_at(0);
		return -1;
	}
	fclose(f);
	while (nopen)
		close_at(0);
	/* In the order they opened: close_at() keeps them as they closed. */
	for (l = 1; l < (size_t)nout; l++) {
		struct sl_report *t = out[l];
		size_t j = l;

		for (; j > 0 && out[j - 1]->first_line > t->first_line; j--)
			out[j] = out[j - 1];
		out[j] = t;
	}
	*nreports = nout;
	*lines = lineno;
	return 0;
}
