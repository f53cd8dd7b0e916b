// SPDX-License-Identifier: GPL-2.0
/*
 * stackov: a crash extension that explains a kernel stack overflow from
 * the dump alone: which stack the fault hit (task, IRQ, exception), its
 * bounds and guard page, where the fault was, the task and context, and
 * the frames of the overflowed stack with recursion folded into a cycle.
 *
 * Build against the defs.h of the crash that reads the dump:
 *   gcc -Wall -Wextra -shared -fPIC -nostartfiles -DX86_64 -I CRASH_SRC \
 *	-o stackov.so stackov.c
 * then in crash: extend stackov.so; help stackov.
 */
#include "defs.h"

#define STACKOV_END_MAGIC	0x57AC6E9DUL	/* include/uapi/linux/magic.h */
#define STACKOV_PF_KTHREAD	0x00200000UL	/* include/linux/sched.h */
#define STACKOV_PF_IDLE		0x00000002UL
#define STACKOV_PF_WQ_WORKER	0x00000020UL
#define STACKOV_MAX_FRAMES	1024
#define STACKOV_MAX_REGIONS	16
#define STACKOV_MAX_PERIOD	8

#ifndef ARRAY_SIZE	/* the kernel's, which crash's defs.h does not have */
#define ARRAY_SIZE(x)	(sizeof(x) / sizeof((x)[0]))
#endif

static void cmd_stackov(void);
static char *help_stackov[];

static struct command_table_entry command_table[] = {
	{ "stackov", cmd_stackov, help_stackov, 0 },
	{ NULL },
};

static void __attribute__((constructor)) stackov_init(void)
{
	register_extension(command_table);
}

/* A stack (or its guard page) of the CPU and task being explained. */
struct region {
	char name[32];
	ulong lo, hi;
	int guard;		/* the page(s) below a stack */
};

struct frame {
	ulong pc;
	ulong fp;		/* the frame pointer of this frame, 0 if unknown */
	long bytes;		/* the stack it uses, up to its own frame pointer, -1 if unknown */
	char name[64];
};

struct verdict {
	struct task_context *tc;
	int cpu;
	ulong task_stack;
	ulong task_vm;		/* task_struct.stack_vm_area */
	struct region regions[STACKOV_MAX_REGIONS];
	int nregions;
	int have_regs;
	ulong ip, sp, bp;
	ulong fault;		/* the address the faulting instruction touched */
	const char *fault_how;
	struct region *hit;	/* the region holding the fault, or NULL */
	struct region *stack;	/* the stack the fault overflowed (hit or above it) */
	struct frame frames[STACKOV_MAX_FRAMES];
	int nframes;
	int cyc_start, cyc_period, cyc_reps;
	long cyc_bytes;
	char context[128];
	char entry[128];
};

static struct verdict v;

static int read_ulong(ulong addr, ulong *val)
{
	return readmem(addr, KVADDR, val, sizeof(*val), "stackov", RETURN_ON_ERROR | QUIET);
}

static void add_region(const char *name, ulong lo, ulong hi, int guard)
{
	struct region *r;

	if (v.nregions >= STACKOV_MAX_REGIONS || lo >= hi)
		return;
	r = &v.regions[v.nregions++];
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->lo = lo;
	r->hi = hi;
	r->guard = guard;
}

static struct region *region_of(ulong addr)
{
	int i;

	for (i = 0; i < v.nregions; i++)
		if (addr >= v.regions[i].lo && addr < v.regions[i].hi)
			return &v.regions[i];
	return NULL;
}

/* The stack a guard page belongs to: the region just above it. */
static struct region *stack_above(struct region *g)
{
	int i;

	if (!g || !g->guard)
		return g;
	for (i = 0; i < v.nregions; i++)
		if (!v.regions[i].guard && v.regions[i].lo == g->hi)
			return &v.regions[i];
	return NULL;
}

static ulong percpu_ptr(const char *sym, int cpu)
{
	ulong val;

	if (!symbol_exists((char *)sym))
		return 0;
	if (!read_ulong(symbol_value((char *)sym) + kt->__per_cpu_offset[cpu], &val))
		return 0;
	return val;
}

/* The task's stack, this CPU's IRQ stack and exception stacks, each with its guard. */
static void find_regions(void)
{
	static const char * const ist[] = { "DF", "NMI", "DB", "MCE", "VC", "VC2" };
	ulong top, cea, size = STACKSIZE();
	long irq_size;
	char member[32];
	unsigned int i;

	v.nregions = 0;
	if (v.task_stack) {
		add_region("TASK", v.task_stack, v.task_stack + size, 0);
		add_region("TASK-GUARD", v.task_stack - PAGESIZE(), v.task_stack, 1);
	}
	top = percpu_ptr("hardirq_stack_ptr", v.cpu);
	irq_size = STRUCT_SIZE("irq_stack");
	if (top && irq_size > 0) {
		top += 8;	/* hardirq_stack_ptr is the top word */
		add_region("IRQ", top - irq_size, top, 0);
		add_region("IRQ-GUARD", top - irq_size - PAGESIZE(), top - irq_size, 1);
	}
	cea = percpu_ptr("cea_exception_stacks", v.cpu);
	for (i = 0; cea && i < ARRAY_SIZE(ist); i++) {
		long off, len, goff, glen;

		snprintf(member, sizeof(member), "%s_stack", ist[i]);
		off = MEMBER_OFFSET("cea_exception_stacks", member);
		len = MEMBER_SIZE("cea_exception_stacks", member);
		if (off < 0 || len <= 0)
			continue;
		add_region(ist[i], cea + off, cea + off + len, 0);
		snprintf(member, sizeof(member), "%s_stack_guard", ist[i]);
		goff = MEMBER_OFFSET("cea_exception_stacks", member);
		glen = MEMBER_SIZE("cea_exception_stacks", member);
		if (goff >= 0 && glen > 0) {
			snprintf(member, sizeof(member), "%s-GUARD", ist[i]);
			add_region(member, cea + goff, cea + goff + glen, 1);
		}
	}
}

/*
 * The registers the double-fault handler saved: the CPU pushed them at the
 * top of this CPU's DF stack. A real frame has a kernel CS and a text RIP.
 */
static void read_df_regs(void)
{
	struct region *df = NULL;
	long psize = STRUCT_SIZE("pt_regs");
	ulong regs, cs;
	int i;

	for (i = 0; i < v.nregions; i++)
		if (!strcmp(v.regions[i].name, "DF"))
			df = &v.regions[i];
	if (!df || psize <= 0)
		return;
	regs = df->hi - psize;
	if (!read_ulong(regs + MEMBER_OFFSET("pt_regs", "ip"), &v.ip) ||
	    !read_ulong(regs + MEMBER_OFFSET("pt_regs", "sp"), &v.sp) ||
	    !read_ulong(regs + MEMBER_OFFSET("pt_regs", "bp"), &v.bp) ||
	    !read_ulong(regs + MEMBER_OFFSET("pt_regs", "cs"), &cs))
		return;
	v.have_regs = (cs & 3) == 0 && value_search(v.ip, NULL);
}

/*
 * The address the kernel reports (CR2): a double fault on a full stack
 * comes from the CPU failing to push the page fault's frame, which it
 * pushes after aligning the stack pointer to 16 bytes. Whatever the
 * faulting instruction was (a push, a call, rep stos at %rdi, a read at
 * %rsp), that first push is at (rsp & ~15) - 8.
 */
static void find_fault(void)
{
	v.fault = (v.sp & ~15UL) - 8;
	v.fault_how = "the CPU's push of the page fault's frame";
	v.hit = region_of(v.fault);
	v.stack = stack_above(v.hit);
}

/*
 * A module's init text: crash names it _MODULE_INIT_START_<module>; the
 * kernel's own symbol table of the module (mod->kallsyms, whole while the
 * init function runs) has the function's name, as an oops would print it.
 */
static int module_init_name(ulong pc, char *name, size_t len)
{
	ulong head = symbol_value("modules"), node, mod, base, ks, symtab, strtab, best = 0;
	long list = MEMBER_OFFSET("module", "list"), init = MEMBER_OFFSET("module", "init_layout");
	unsigned int text = 0, num = 0, i, best_name = 0;
	struct { unsigned int name; unsigned char info, other; unsigned short shndx;
		 ulong value, size; } sym;

	if (list < 0 || init < 0 || !read_ulong(head, &node))
		return 0;
	for (; node != head && node; read_ulong(node, &node)) {
		mod = node - list;
		if (!read_ulong(mod + init + MEMBER_OFFSET("module_layout", "base"), &base) ||
		    !readmem(mod + init + MEMBER_OFFSET("module_layout", "text_size"), KVADDR, &text,
			     sizeof(text), "text_size", RETURN_ON_ERROR | QUIET) ||
		    pc < base || pc >= base + text)
			continue;
		if (!read_ulong(mod + MEMBER_OFFSET("module", "kallsyms"), &ks) || !ks ||
		    !read_ulong(ks + MEMBER_OFFSET("mod_kallsyms", "symtab"), &symtab) ||
		    !read_ulong(ks + MEMBER_OFFSET("mod_kallsyms", "strtab"), &strtab))
			return 0;
		readmem(ks + MEMBER_OFFSET("mod_kallsyms", "num_symtab"), KVADDR, &num, sizeof(num),
			"num_symtab", RETURN_ON_ERROR | QUIET);
		for (i = 1; i < num && i < 100000; i++) {
			if (!readmem(symtab + i * sizeof(sym), KVADDR, &sym, sizeof(sym), "sym",
				     RETURN_ON_ERROR | QUIET))
				break;
			if (sym.value >= base && sym.value <= pc && sym.value >= best) {
				best = sym.value;
				best_name = sym.name;
			}
		}
		return best && read_string(strtab + best_name, name, len - 1) > 0;
	}
	return 0;
}

static void name_frame(struct frame *f)
{
	ulong off = 0;
	struct syment *sp = value_search(f->pc, &off);

	if (sp && !strncmp(sp->name, "_MODULE_INIT_", 13) &&
	    module_init_name(f->pc, f->name, sizeof(f->name)))
		return;
	snprintf(f->name, sizeof(f->name), "%s", sp ? sp->name : "??");
}

/*
 * What each frame uses: from where its callee's frame ended (the stack
 * pointer at the fault, for the deepest) up to its return address, above
 * its saved frame pointer. A deepest frame caught in its prologue has
 * only its return address on the stack.
 */
static void frame_bytes(void)
{
	ulong low = v.sp;
	int i;

	for (i = 0; i < v.nframes; i++) {
		struct frame *f = &v.frames[i];

		/* A guard page counts as its stack's: the deepest frame is often there. */
		if (f->fp && stack_above(region_of(f->fp)) != stack_above(region_of(low))) {
			low = f->fp + 16;	/* a switch of stacks: its size is unknown */
		} else if (f->fp && f->fp + 16 > low) {
			f->bytes = f->fp + 16 - low;
			low = f->fp + 16;
		} else if (i == 0) {
			f->bytes = 8;
			low = v.sp + 8;
		} else {
			f->bytes = -1;
		}
	}
}

/*
 * Frame-pointer walk from the saved registers. Before a function's
 * "push %rbp" the caller is the word at the stack pointer and %rbp is
 * still the caller's frame.
 */
static void walk_frames(void)
{
	ulong off = 0, fp = v.bp, next, ret;
	unsigned char op = 0;
	struct frame *f;

	v.nframes = 0;
	f = &v.frames[v.nframes++];
	f->pc = v.ip;
	f->fp = 0;
	f->bytes = -1;
	name_frame(f);
	value_search(v.ip, &off);
	readmem(v.ip, KVADDR, &op, 1, "stackov insn", RETURN_ON_ERROR | QUIET);
	/* Not past "push %rbp" (0x55) yet: gcc may put other work before it. */
	if ((off == 0 || op == 0x55) && read_ulong(v.sp, &ret)) {
		f = &v.frames[v.nframes++];
		f->pc = ret;
		f->fp = fp;
		f->bytes = -1;
		name_frame(f);
	} else {
		v.frames[0].fp = fp;
	}
	while (v.nframes < STACKOV_MAX_FRAMES && region_of(fp)) {
		if (!read_ulong(fp, &next) || !read_ulong(fp + 8, &ret))
			break;
		if (!is_kernel_text(ret) && !value_search(ret, NULL))
			break;
		/*
		 * An entry stub's frame pointer has bit 0 set: it marks the
		 * pt_regs of an interrupt or exception; the chain ends there.
		 */
		f = &v.frames[v.nframes++];
		f->pc = ret;
		f->fp = (next & 1) ? 0 : next;
		f->bytes = -1;
		name_frame(f);
		if ((next & 1) || next <= fp)
			break;
		fp = next;
	}
	frame_bytes();
}

/* The longest run of frames that repeats with a period of 1..8 names. */
static void fold_cycle(void)
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

static void cycle_str(char *buf, size_t len)
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

/* Task, kthread, kworker (with its work function), hardirq or softirq. */
static void find_context(void)
{
	ulong flags = 0, pc = 0, kthread, worker, fn;
	long off;
	char sym[BUFSIZE];
	int hardirq;

	readmem(v.tc->task + MEMBER_OFFSET("task_struct", "flags"), KVADDR, &flags,
		sizeof(unsigned int), "flags", RETURN_ON_ERROR | QUIET);
	if (symbol_exists("__preempt_count"))
		readmem(symbol_value("__preempt_count") + kt->__per_cpu_offset[v.cpu], KVADDR,
			&pc, sizeof(int), "preempt_count", RETURN_ON_ERROR | QUIET);
	/* The double-fault handler's nmi_enter() added one hardirq level. */
	hardirq = (int)((pc >> 16) & 0xf) - ((pc & 0x00f00000) ? 1 : 0);
	if (v.stack && !strcmp(v.stack->name, "IRQ")) {
		if (hardirq > 0)
			snprintf(v.context, sizeof(v.context), "hardirq (on the IRQ stack, interrupting pid %ld \"%s\")",
				 v.tc->pid, v.tc->comm);
		else if (pc & 0x100)
			snprintf(v.context, sizeof(v.context), "softirq (from irq_exit() on the IRQ stack, interrupting pid %ld \"%s\")",
				 v.tc->pid, v.tc->comm);
		else
			snprintf(v.context, sizeof(v.context), "IRQ stack (preempt_count %#lx)", pc);
		return;
	}
	if (pc & 0x100) {
		snprintf(v.context, sizeof(v.context), "softirq (on the stack of pid %ld \"%s\")",
			 v.tc->pid, v.tc->comm);
		return;
	}
	if (!(flags & STACKOV_PF_KTHREAD)) {
		snprintf(v.context, sizeof(v.context), "task (pid %ld \"%s\")", v.tc->pid, v.tc->comm);
		return;
	}
	if (!(flags & STACKOV_PF_WQ_WORKER)) {
		snprintf(v.context, sizeof(v.context), "kthread (pid %ld \"%s\")", v.tc->pid, v.tc->comm);
		return;
	}
	/* kworker: task->worker_private is its struct kthread, whose data is the worker. */
	off = MEMBER_OFFSET("task_struct", "worker_private");
	fn = 0;
	if (off >= 0 && read_ulong(v.tc->task + off, &kthread) &&
	    read_ulong(kthread + MEMBER_OFFSET("kthread", "data"), &worker))
		read_ulong(worker + MEMBER_OFFSET("worker", "current_func"), &fn);
	snprintf(v.context, sizeof(v.context), "kworker (pid %ld \"%s\", work function %s)",
		 v.tc->pid, v.tc->comm, fn ? value_to_symstr(fn, sym, 0) : "unknown");
}

/* How the task came into the kernel: its syscall, its kthread function. */
static void find_entry(void)
{
	ulong flags = 0, kthread = 0, fn = 0, regs;
	long nr = -1, off;
	struct syment *sp;

	readmem(v.tc->task + MEMBER_OFFSET("task_struct", "flags"), KVADDR, &flags,
		sizeof(unsigned int), "flags", RETURN_ON_ERROR | QUIET);
	if (flags & STACKOV_PF_IDLE) {
		snprintf(v.entry, sizeof(v.entry), "the idle loop");
		return;
	}
	if (flags & STACKOV_PF_KTHREAD) {
		off = MEMBER_OFFSET("task_struct", "worker_private");
		if (off >= 0 && read_ulong(v.tc->task + off, &kthread) && kthread &&
		    MEMBER_OFFSET("kthread", "threadfn") >= 0)
			read_ulong(kthread + MEMBER_OFFSET("kthread", "threadfn"), &fn);
		sp = fn ? value_search(fn, NULL) : NULL;
		snprintf(v.entry, sizeof(v.entry), "kthread function %s", sp ? sp->name : "unknown");
		return;
	}
	regs = v.task_stack + STACKSIZE() - STRUCT_SIZE("pt_regs");
	read_ulong(regs + MEMBER_OFFSET("pt_regs", "orig_ax"), (ulong *)&nr);
	sp = NULL;
	if (symbol_exists("sys_call_table") && nr >= 0 && nr < 1024 &&
	    read_ulong(symbol_value("sys_call_table") + nr * sizeof(ulong), &fn))
		sp = value_search(fn, NULL);
	snprintf(v.entry, sizeof(v.entry), "syscall %ld (%s)", nr, sp ? sp->name : "?");
}

/* A stack's vm_struct: address, size, pages and their PFNs, caller. */
static void print_vm_struct(const char *indent, ulong vm)
{
	ulong addr = 0, size = 0, pages = 0, caller = 0, page, pfn;
	unsigned int nr = 0, i;
	char sym[BUFSIZE];
	physaddr_t pa;

	if (!vm || !read_ulong(vm + MEMBER_OFFSET("vm_struct", "addr"), &addr) ||
	    !read_ulong(vm + MEMBER_OFFSET("vm_struct", "size"), &size)) {
		fprintf(fp, "%svm_struct: none (not a vmalloc'd stack)\n", indent);
		return;
	}
	read_ulong(vm + MEMBER_OFFSET("vm_struct", "pages"), &pages);
	read_ulong(vm + MEMBER_OFFSET("vm_struct", "caller"), &caller);
	readmem(vm + MEMBER_OFFSET("vm_struct", "nr_pages"), KVADDR, &nr, sizeof(nr),
		"nr_pages", RETURN_ON_ERROR | QUIET);
	fprintf(fp, "%svm_struct: %lx, area %lx..%lx (%lu bytes, a guard page included), %u pages, caller %s\n",
		indent, vm, addr, addr + size, size, nr,
		caller ? value_to_symstr(caller, sym, 0) : "?");
	fprintf(fp, "%spfns:     ", indent);
	for (i = 0; i < nr && i < 16; i++) {
		pfn = 0;
		if (read_ulong(pages + i * sizeof(ulong), &page) &&
		    kvtop(NULL, addr + i * PAGESIZE(), &pa, 0))
			pfn = pa >> PAGESHIFT();
		fprintf(fp, "%s%lx", i ? " " : "", pfn);
	}
	fprintf(fp, "\n");
}

static const char *magic_state(ulong *word)
{
	*word = 0;
	if (!v.task_stack || !read_ulong(v.task_stack, word))
		return "unreadable";
	return *word == STACKOV_END_MAGIC ? "intact" : "overwritten";
}

static void print_text(void)
{
	char cyc[256];
	ulong word;
	const char *magic = magic_state(&word);
	struct region *r = NULL;
	int i;

	fprintf(fp, "stack overflow: %s stack, pid %ld \"%s\" (task %lx) on cpu %d\n",
		v.stack->name, v.tc->pid, v.tc->comm, v.tc->task, v.cpu);
	fprintf(fp, "  context:   %s\n", v.context);
	fprintf(fp, "  entry:     %s\n", v.entry);
	fprintf(fp, "  stack:     %lx..%lx (%ld bytes)\n", v.stack->lo, v.stack->hi,
		v.stack->hi - v.stack->lo);
	if (v.hit && v.hit->guard)
		fprintf(fp, "  guard:     %lx..%lx, hit\n", v.hit->lo, v.hit->hi);
	fprintf(fp, "  fault:     %lx, %ld bytes below the stack (%s; rsp %lx, rip %lx)\n",
		v.fault, (long)(v.stack->lo - v.fault), v.fault_how, v.sp, v.ip);
	fprintf(fp, "  task stack: %lx..%lx, STACK_END_MAGIC %s (%lx)\n", v.task_stack,
		v.task_stack + STACKSIZE(), magic, word);
	print_vm_struct("  ", v.task_vm);
	cycle_str(cyc, sizeof(cyc));
	fprintf(fp, "  cycle:     %s\n", v.cyc_reps ? cyc : "none");
	fprintf(fp, "  frames:    %d on the frame-pointer chain\n", v.nframes);
	for (i = 0; i < v.nframes; i++) {
		struct frame *f = &v.frames[i];

		/*
		 * A frame with no frame pointer of its own: the deepest (at the
		 * stack pointer) or the last (where its caller's frame was).
		 */
		if (f->fp || !i)
			r = region_of(f->fp ? f->fp : v.sp);

		/* One turn of the cycle is shown, then the last frame of the run. */
		if (v.cyc_reps && i >= v.cyc_start + v.cyc_period &&
		    i < v.cyc_start + v.cyc_period * v.cyc_reps - 1) {
			if (i == v.cyc_start + v.cyc_period)
				fprintf(fp, "    ... the cycle above, %d times in all\n", v.cyc_reps);
			continue;
		}
		fprintf(fp, "    #%-3d %lx %-32s", i, f->pc, f->name);
		if (f->bytes >= 0)
			fprintf(fp, " %5ld bytes", f->bytes);
		else
			fprintf(fp, "       ?    ");
		fprintf(fp, " [%s]\n", r ? r->name : "?");
	}
}

/* @s as a JSON string body: quotes and backslashes escaped. */
static const char *json_esc(const char *s)
{
	static char buf[4][256];
	static int n;
	char *o = buf[n++ % 4];
	size_t i = 0;

	for (; *s && i < sizeof(buf[0]) - 2; s++) {
		if (*s == '"' || *s == '\\')
			o[i++] = '\\';
		o[i++] = *s;
	}
	o[i] = '\0';
	return o;
}

static void print_json(void)
{
	char cyc[256];
	ulong word;
	const char *magic = magic_state(&word);

	cycle_str(cyc, sizeof(cyc));
	fprintf(fp, "{\"stack\":\"%s\",\"lo\":\"%lx\",\"hi\":\"%lx\",\"guard_hit\":%s,",
		v.stack->name, v.stack->lo, v.stack->hi, v.hit && v.hit->guard ? "true" : "false");
	fprintf(fp, "\"fault\":\"%lx\",\"below\":%ld,\"rsp\":\"%lx\",\"rip\":\"%lx\",",
		v.fault, (long)(v.stack->lo - v.fault), v.sp, v.ip);
	fprintf(fp, "\"pid\":%ld,\"comm\":\"%s\",\"task\":\"%lx\",\"cpu\":%d,\"context\":\"%s\",\"entry\":\"%s\",",
		v.tc->pid, json_esc(v.tc->comm), v.tc->task, v.cpu, json_esc(v.context),
		json_esc(v.entry));
	fprintf(fp, "\"end_magic\":\"%s\",\"frames\":%d,\"cycle\":\"%s\",\"cycle_function\":\"%s\",\"cycle_reps\":%d}\n",
		magic, v.nframes, json_esc(cyc), v.cyc_reps ? v.frames[v.cyc_start].name : "",
		v.cyc_reps);
}

/*
 * How deep a stack was ever used: it starts zeroed, so the lowest non-zero
 * word above STACK_END_MAGIC marks the high-water mark (what the kernel's
 * stack_not_used() computes for DEBUG_STACK_USAGE).
 */
static long stack_used(ulong stack)
{
	static ulong buf[65536 / sizeof(ulong)];
	ulong size = STACKSIZE(), i;

	if (!stack || size > sizeof(buf) ||
	    !readmem(stack, KVADDR, buf, size, "stack", RETURN_ON_ERROR | QUIET))
		return -1;
	for (i = 1; i < size / sizeof(ulong); i++)
		if (buf[i])
			return size - i * sizeof(ulong);
	return 0;
}

struct usage {
	struct task_context *tc;
	long used;
};

static int by_used(const void *a, const void *b)
{
	const struct usage *x = a, *y = b;

	return (y->used > x->used) - (y->used < x->used);
}

/* Every task's stack high-water mark, deepest first. */
static void print_all_usage(long off)
{
	struct task_context *tc = FIRST_CONTEXT();
	struct usage *u;
	ulong stack, i, n = RUNNING_TASKS();

	u = (struct usage *)GETBUF(n * sizeof(*u));
	for (i = 0; i < n; i++, tc++) {
		u[i].tc = tc;
		u[i].used = read_ulong(tc->task + off, &stack) ? stack_used(stack) : -1;
	}
	qsort(u, n, sizeof(*u), by_used);
	fprintf(fp, "%8s  %5s  %-16s  %s\n", "PID", "USED", "COMM", "OF");
	for (i = 0; i < n; i++)
		fprintf(fp, "%8ld  %5ld  %-16s  %lu\n", u[i].tc->pid, u[i].used,
			u[i].tc->comm, STACKSIZE());
	FREEBUF(u);
}

/* The task whose stack is at @addr: a cached stack should be no one's. */
static struct task_context *stack_owner(ulong addr)
{
	struct task_context *tc = FIRST_CONTEXT();
	long off = MEMBER_OFFSET("task_struct", "stack");
	ulong i, st;

	for (i = 0; i < RUNNING_TASKS(); i++, tc++)
		if (read_ulong(tc->task + off, &st) && st == addr)
			return tc;
	return NULL;
}

/* Each CPU's cached stacks (kernel/fork.c's cached_stacks[]). */
static void print_cached(void)
{
	struct task_context *owner;
	ulong base, vm, addr;
	int cpu, i, n;

	if (!symbol_exists("cached_stacks"))
		error(FATAL, "this kernel has no cached_stacks (no CONFIG_VMAP_STACK)\n");
	n = get_array_length("cached_stacks", NULL, 0);
	base = symbol_value("cached_stacks");
	for (cpu = 0; cpu < kt->cpus; cpu++)
		for (i = 0; i < n; i++) {
			if (!read_ulong(base + kt->__per_cpu_offset[cpu] + i * sizeof(ulong), &vm) || !vm)
				continue;
			addr = 0;
			read_ulong(vm + MEMBER_OFFSET("vm_struct", "addr"), &addr);
			owner = stack_owner(addr);
			fprintf(fp, "cpu %d  slot %d  %lx..%lx  used %ld of %lu", cpu, i, addr,
				addr + STACKSIZE(), stack_used(addr), STACKSIZE());
			if (owner)
				fprintf(fp, "  STILL the stack of pid %lu", owner->pid);
			fprintf(fp, "\n");
			print_vm_struct("    ", vm);
		}
}

/* Every CPU's IRQ and exception stacks, with their guards. */
static void print_cpu_stacks(void)
{
	int cpu, i;

	for (cpu = 0; cpu < kt->cpus; cpu++) {
		v.cpu = cpu;
		v.task_stack = 0;
		find_regions();
		for (i = 0; i < v.nregions; i++)
			fprintf(fp, "cpu %d  %-10s %lx..%lx %6ld bytes\n", cpu, v.regions[i].name,
				v.regions[i].lo, v.regions[i].hi, v.regions[i].hi - v.regions[i].lo);
	}
}

static void cmd_stackov(void)
{
	int c, json = 0, irq = 0, all = 0, cached = 0;
	ulong value;
	long off;

	while ((c = getopt(argcnt, args, "acij")) != EOF) {
		switch (c) {
		case 'a':
			all = 1;
			break;
		case 'c':
			cached = 1;
			break;
		case 'i':
			irq = 1;
			break;
		case 'j':
			json = 1;
			break;
		default:
			argerrs++;
			break;
		}
	}
	if (argerrs)
		cmd_usage(pc->curcmd, SYNOPSIS);
	if (!machine_type("X86_64"))
		error(FATAL, "only x86_64 dumps are supported\n");
	off = MEMBER_OFFSET("task_struct", "stack");
	if (off < 0 || !symbol_exists("cea_exception_stacks") || STRUCT_SIZE("pt_regs") <= 0)
		error(FATAL, "this dump lacks the symbols it needs (task_struct.stack, cea_exception_stacks, pt_regs)\n");
	if (irq) {
		print_cpu_stacks();
		return;
	}
	if (all) {
		print_all_usage(off);
		return;
	}
	if (cached) {
		print_cached();
		return;
	}

	BZERO(&v, sizeof(v));
	if (args[optind]) {
		switch (str_to_context(args[optind], &value, &v.tc)) {
		case STR_PID:
		case STR_TASK:
			break;
		default:
			error(FATAL, "no task or pid %s in this dump\n", args[optind]);
		}
	} else {
		if (!tt->panic_task)
			error(FATAL, "this dump has no panic task; name a pid or task\n");
		v.tc = task_to_context(tt->panic_task);
		if (!v.tc)
			error(FATAL, "the panic task %lx is not in the task list\n", tt->panic_task);
	}
	v.cpu = v.tc->processor;
	if (!read_ulong(v.tc->task + off, &v.task_stack))
		error(FATAL, "cannot read the stack pointer of task %lx\n", v.tc->task);
	if (MEMBER_OFFSET("task_struct", "stack_vm_area") >= 0)
		read_ulong(v.tc->task + MEMBER_OFFSET("task_struct", "stack_vm_area"), &v.task_vm);
	find_regions();
	if (v.tc->task != tt->panic_task)
		error(FATAL, "pid %ld \"%s\" is not the panic task: it did not overflow its stack\n",
		      v.tc->pid, v.tc->comm);
	read_df_regs();
	if (!v.have_regs)
		error(FATAL, "cpu %d took no double fault: no stack overflow to explain (see bt)\n",
		      v.cpu);
	find_fault();
	if (!v.stack || !v.hit || (!v.hit->guard && v.hit == v.stack && v.fault >= v.stack->lo))
		error(FATAL, "the double fault at %lx (rsp %lx) is not below a known stack: %s\n",
		      v.ip, v.sp, v.hit ? "inside a stack" : "outside every stack of cpu (a frame that skipped the guard?)");
	walk_frames();
	fold_cycle();
	find_context();
	find_entry();
	if (json)
		print_json();
	else
		print_text();
}

static char *help_stackov[] = {
	"stackov",
	"explain a kernel stack overflow",
	"[-a | -c | -i | -j] [pid | taskp]",
	"  Explains the stack overflow that brought the kernel down: which stack",
	"  the fault hit (the task's, this CPU's IRQ stack, an exception stack),",
	"  its bounds and guard page, the faulting address and how far below the",
	"  stack it is, the task and the context (task, kthread, kworker with its",
	"  work function, hardirq, softirq), the state of STACK_END_MAGIC, and the",
	"  frames on the frame-pointer chain from the registers the double-fault",
	"  handler saved, with the bytes each frame uses and recursion folded",
	"  into a cycle. The default task is the panic task.",
	"",
	"    -a  every task's stack high-water mark, deepest first",
	"    -c  each CPU's cached stacks, with their vm_structs",
	"    -i  every CPU's IRQ and exception stacks, with their guards",
	"    -j  the verdict as one JSON object on one line",
	"\nEXAMPLE",
	"  After RECURSE_TASK:\n",
	"    crash> stackov",
	"    stack overflow: TASK stack, pid 60 \"labtrig\" (task ffff8880002bcec0) on cpu 0",
	"      context:   task (pid 60 \"labtrig\")",
	"      entry:     syscall 1 (__x64_sys_write)",
	"      stack:     ffffc90000130000..ffffc90000134000 (16384 bytes)",
	"      guard:     ffffc9000012f000..ffffc90000130000, hit",
	"      fault:     ffffc9000012fff8, 8 bytes below the stack (push; ...)",
	"      cycle:     recurse_task_frame x53 (288 bytes per cycle)",
	NULL
};
