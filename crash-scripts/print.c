// SPDX-License-Identifier: GPL-2.0
/*
 * stackov: the verdict in words and as one JSON line, with the stack's
 * vm_struct; every CPU's IRQ and exception stacks (-i).
 */
#include "verdict.h"

/* A stack's vm_struct: address, size, pages and their PFNs, caller. */
void print_vm_struct(const char *indent, ulong vm)
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

void print_text(void)
{
	char cyc[256], atomic[128];
	ulong word;
	const char *magic = magic_state(&word);
	struct region *r = NULL;
	int i;

	fprintf(fp, "stack overflow: %s stack, pid %ld \"%s\" (task %lx) on cpu %d\n",
		v.stack->name, v.tc->pid, v.tc->comm, v.tc->task, v.cpu);
	atomic_str(atomic, sizeof(atomic));
	fprintf(fp, "  context:   %s\n", v.context);
	fprintf(fp, "  atomic:    %s\n", atomic);
	fprintf(fp, "  entry:     %s\n", v.entry);
	if (v.kstack_offset >= 0)
		fprintf(fp, "  offset:    %ld bytes, the random stack offset the syscall's entry put below its registers (kstack_offset)\n",
			v.kstack_offset);
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
	fprintf(fp, "  frames:    %d %s\n", v.nframes, v.how);
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

void print_json(void)
{
	char cyc[256], atomic[128];
	ulong word;
	const char *magic = magic_state(&word);

	cycle_str(cyc, sizeof(cyc));
	fprintf(fp, "{\"stack\":\"%s\",\"lo\":\"%lx\",\"hi\":\"%lx\",\"guard_hit\":%s,",
		v.stack->name, v.stack->lo, v.stack->hi, v.hit && v.hit->guard ? "true" : "false");
	fprintf(fp, "\"fault\":\"%lx\",\"below\":%ld,\"rsp\":\"%lx\",\"rip\":\"%lx\",",
		v.fault, (long)(v.stack->lo - v.fault), v.sp, v.ip);
	fprintf(fp, "\"pid\":%ld,\"comm\":\"%s\",\"task\":\"%lx\",\"cpu\":%d,\"context\":\"%s\",",
		v.tc->pid, json_esc(v.tc->comm), v.tc->task, v.cpu, json_esc(v.context));
	switch (atomic_str(atomic, sizeof(atomic))) {
	case 1:
		fprintf(fp, "\"atomic\":true,");
		break;
	case 0:
		fprintf(fp, "\"atomic\":false,");
		break;
	default:
		fprintf(fp, "\"atomic\":null,");
	}
	if (panic_ran())
		fprintf(fp, "\"preempt_count\":\"\",");
	else
		fprintf(fp, "\"preempt_count\":\"%x\",", v.preempt);
	fprintf(fp, "\"irqs_off\":%s,\"entry\":\"%s\",", (v.flags & 0x200) ? "false" : "true",
		json_esc(v.entry));
	if (v.kstack_offset >= 0)
		fprintf(fp, "\"kstack_offset\":%ld,", v.kstack_offset);
	else
		fprintf(fp, "\"kstack_offset\":null,");
	fprintf(fp, "\"end_magic\":\"%s\",\"frames\":%d,\"cycle\":\"%s\",\"cycle_function\":\"%s\",\"cycle_reps\":%d}\n",
		magic, v.nframes, json_esc(cyc), v.cyc_reps ? v.frames[v.cyc_start].name : "",
		v.cyc_reps);
}

/* Every CPU's IRQ and exception stacks, with their guards. */
void print_cpu_stacks(void)
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
