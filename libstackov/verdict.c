// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: the handle, and the commands the readers run: the verdict on
 * the overflow (stackov [-j]) and its companions. A refusal is one line,
 * the same from every reader: no overflow to explain is an answer.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct stackov *stackov_open(const struct stackov_target *t, char *err, size_t errlen)
{
	struct stackov *s;

	if (!t || !t->read || !t->symbol || !t->struct_size || !t->member_offset ||
	    !t->member_size) {
		snprintf(err, errlen, "the reader gave no read, symbol or type lookups");
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->t = *t;
	return s;
}

struct stackov *stackov_replay_open(const char *path, char *err, size_t errlen)
{
	struct stackov *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	err[0] = '\0';
	s->tape = so_tape_load(path, err, errlen);
	if (!s->tape) {
		free(s);
		return NULL;
	}
	return s;
}

void stackov_close(struct stackov *s)
{
	if (!s)
		return;
	so_rec_finish(s);
	so_tape_free(s->tape);
	so_syms_free(s->syms);
	so_orc_free(s->orc);
	so_cache_free(s);
	free(s);
}

void stackov_free(void *p)
{
	free(p);
}

/*
 * The overflow of @who (NULL: the task on the crashed CPU, or on @cpu if
 * it is >= 0): 0 with the verdict in @v, 1 with the refusal written, or 2
 * (nothing written) when the panic task's CPU took no double fault: no
 * overflow, and @v->task and @v->cpu say whose crash it was.
 */
int so_explain(struct stackov *s, const struct so_task *who, int cpu, struct so_verdict *v)
{
	uint64_t panic_task;
	struct so_task panic;
	char comm[80];

	memset(v, 0, sizeof(*v));
	if (so_moff(s, "task_struct", "stack") < 0 || !so_has_sym(s, "cea_exception_stacks") ||
	    so_size(s, "pt_regs") <= 0)
		return so_refuse(s, "this dump lacks the symbols it needs (task_struct.stack, cea_exception_stacks, pt_regs)");
	if (cpu < 0)
		cpu = so_crashed_cpu(s);
	if (cpu < 0)
		return so_refuse(s, "this dump has no panic task; name a pid or task");
	if (so_current(s, cpu, &panic_task) || so_task(s, panic_task, &panic))
		return so_refuse(s, "cannot read the task on cpu %d", cpu);
	v->task = who ? *who : panic;
	v->cpu = who ? who->cpu : cpu;
	v->nregions = so_regions(s, v->cpu, v->task.stack, v->regions, SO_MAX_REGIONS);
	if (v->task.addr != panic.addr) {
		so_text_comm(v->task.comm, comm, sizeof(comm));
		return so_refuse(s, "pid %ld \"%s\" is not the panic task: it did not overflow its stack",
				 v->task.pid, comm);
	}
	if (so_df_regs(s, v))
		return 2;	/* no overflow: so_crash() says what it was */
	so_fault(v);
	if (!v->stack || !v->hit || (!v->hit->guard && v->hit == v->stack && v->fault >= v->stack->lo))
		return so_refuse(s, "the double fault at %lx (rsp %lx) is not below a known stack: %s",
				 (unsigned long)v->ip, (unsigned long)v->sp,
				 v->hit ? "inside a stack" : "outside every stack of cpu (a frame that skipped the guard?)");
	so_walk(s, v->regions, v->nregions, v->ip, v->sp, v->bp, &v->w);
	so_context(s, v);
	so_entry(s, v);
	v->panic_ran = so_panic_ran(s, v);
	return 0;
}

#define STACKOV_USAGE "usage: stackov [-a | -c | -i | -m [-s] | -u [-n BYTES] | -j] [pid | taskp]"

/* stackov -u [-j] [-n BYTES]: every stack's headroom. */
static int cmd_headroom(struct stackov *s, int argc, char **argv)
{
	long near = SO_NEAR_MISS;
	int json = 0, i;
	char *end;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-u"))
			continue;
		if (!strcmp(argv[i], "-j")) {
			json = 1;
			continue;
		}
		if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			near = strtol(argv[++i], &end, 0);
			if (*end || near < 0 || end == argv[i])
				return so_refuse(s, "-n takes a number of bytes, not '%s'", argv[i]), 2;
			continue;
		}
		return so_refuse(s, STACKOV_USAGE), 2;
	}
	return so_cmd_headroom(s, json, near);
}

/* stackov -m [-s]: the overflowed stack's map, as text or an SVG. */
static int cmd_map(struct stackov *s, int argc, char **argv)
{
	int svg = 0, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-m"))
			continue;
		if (!strcmp(argv[i], "-s")) {
			svg = 1;
			continue;
		}
		return so_refuse(s, STACKOV_USAGE), 2;
	}
	return so_cmd_map(s, svg);
}

/* stackov [-a | -c | -i | -m | -u | -j] [-C CPU] [pid | taskp] */
static int cmd_stackov(struct stackov *s, int argc, char **argv)
{
	static struct so_verdict v;
	struct so_task k, *who = NULL;
	int json = 0, i, cpu = -1;
	const char *arg = NULL;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-u"))
			return cmd_headroom(s, argc, argv);
		else if (!strcmp(argv[i], "-m"))
			return cmd_map(s, argc, argv);

	for (i = 1; i < argc; i++) {
		const char *o = argv[i];

		if (!strcmp(o, "-a") || !strcmp(o, "-c") || !strcmp(o, "-i")) {
			if (argc != 2)
				return so_refuse(s, STACKOV_USAGE), 2;
			if (o[1] == 'a')
				return so_cmd_usage(s);
			if (o[1] == 'c')
				return so_cmd_cached(s);
			return so_cmd_cpu_stacks(s, -1);
		}
		if (!strcmp(o, "-j")) {
			json = 1;
			continue;
		}
		if (!strcmp(o, "-C") && i + 1 < argc) {
			cpu = atoi(argv[++i]);
			continue;
		}
		if (o[0] == '-')
			return so_refuse(s, "invalid option -- '%s'", o + 1), 2;
		if (arg)
			return so_refuse(s, STACKOV_USAGE), 2;
		arg = o;
	}
	if (arg) {
		if (so_find_task(s, arg, &k))
			return so_refuse(s, "no task or pid %s in this dump", arg);
		who = &k;
	}
	i = so_explain(s, who, cpu, &v);
	if (i == 2) {
		static struct so_crash c;

		if (so_crash(s, &v.task, v.cpu, &c))
			return so_refuse(s, "cpu %d took no double fault, and pid %ld's stack cannot be read",
					 v.cpu, v.task.pid);
		if (json)
			so_print_crash_json(s, &c, SO_NEAR_MISS);
		else
			so_print_crash(s, &c, SO_NEAR_MISS);
		return 0;
	}
	if (i)
		return 1;
	if (json)
		so_print_json(s, &v);
	else
		so_print_verdict(s, &v);
	return 0;
}

/* A task named by @arg, else the panic task (live: the selected CPU's). */
static int task_arg(struct stackov *s, const char *arg, struct so_task *k)
{
	uint64_t task;
	int cpu;

	if (arg) {
		if (so_find_task(s, arg, k))
			return so_refuse(s, "no task or pid %s in this dump", arg);
		return 0;
	}
	cpu = so_crashed_cpu(s);
	if (cpu < 0)
		return so_refuse(s, "this dump has no panic task; name a pid or task");
	if (so_current(s, cpu, &task) || so_task(s, task, k))
		return so_refuse(s, "cannot read the task on cpu %d", cpu);
	return 0;
}

/* The cycle of a walk, its functions and turns, without its bytes. */
static void bt_cycle(struct stackov *s, const struct so_walk *w)
{
	static const char *names[SO_MAX_FRAMES];
	char cyc[512];
	int i;

	if (!w->cyc_reps)
		return;
	for (i = 0; i < w->n; i++)
		names[i] = w->frames[i].name;
	stackov_cycle_words(names, w->cyc_start, w->cyc_period, w->cyc_reps, 0, cyc, sizeof(cyc));
	so_printf(s, "  cycle:     %s\n", cyc);
}

/*
 * stackov-bt [pid | taskp]: a task's frames: the panic task's from the
 * registers the double-fault handler saved, a running one's from its
 * CPU's, a sleeping one's from its switch frame.
 */
static int cmd_bt(struct stackov *s, int argc, char **argv)
{
	static struct so_verdict v;
	static struct so_walk w;
	struct so_region r[SO_MAX_REGIONS];
	struct so_task k;
	uint64_t ip, sp, bp, cur;
	char comm[80];
	int nr;

	if (argc > 2)
		return so_refuse(s, "usage: stackov-bt [pid | taskp]"), 2;
	if (task_arg(s, argc > 1 ? argv[1] : NULL, &k))
		return 1;
	so_text_comm(k.comm, comm, sizeof(comm));
	so_printf(s, "pid %ld \"%s\" (task %lx) on cpu %d, stack %lx..%lx\n", k.pid, comm,
		  (unsigned long)k.addr, k.cpu, (unsigned long)k.stack,
		  (unsigned long)(k.stack + so_thread_size(s)));
	/* The panic task: what the verdict walked, without its words. */
	if (s->out) {
		struct so_out *save = s->out, quiet = { 0 };

		s->out = &quiet;
		nr = so_explain(s, &k, -1, &v);
		free(quiet.buf);
		s->out = save;
		if (!nr) {
			bt_cycle(s, &v.w);
			so_print_frames(s, &v.w, v.regions, v.nregions);
			return 0;
		}
	}
	nr = so_regions(s, k.cpu, k.stack, r, SO_MAX_REGIONS);
	if (so_current(s, k.cpu, &cur) || cur != k.addr || so_cpu_regs(s, k.cpu, &ip, &sp, &bp))
		if (so_sleeping_regs(s, &k, &ip, &sp, &bp))
			return so_refuse(s, "cannot find where pid %ld's frames start", k.pid);
	so_walk(s, r, nr, ip, sp, bp, &w);
	bt_cycle(s, &w);
	so_print_frames(s, &w, r, nr);
	return 0;
}

/* stackov-stacks [-j] [pid | taskp | -c CPU | -a] */
static int cmd_stacks(struct stackov *s, int argc, char **argv)
{
	struct so_region r[SO_MAX_REGIONS];
	struct so_task k;
	char comm[80];
	int n, i, json = 0;

	if (argc > 1 && !strcmp(argv[1], "-j")) {
		json = 1;
		argc--;
		argv++;
	}
	if (argc == 2 && !strcmp(argv[1], "-a") && !json)
		return so_cmd_cpu_stacks(s, -1);
	if (argc == 3 && !strcmp(argv[1], "-c") && !json)
		return so_cmd_cpu_stacks(s, atoi(argv[2]));
	if (argc > 2 || (argc == 2 && argv[1][0] == '-'))
		return so_refuse(s, "usage: stackov-stacks [-j] [pid | taskp | -c CPU | -a]"), 2;
	if (task_arg(s, argc > 1 ? argv[1] : NULL, &k))
		return 1;
	n = so_regions(s, k.cpu, k.stack, r, SO_MAX_REGIONS);
	if (json) {
		stackov_json_string(k.comm, comm, sizeof(comm));
		so_printf(s, "{\"pid\":%ld,\"comm\":\"%s\",\"task\":\"%lx\",\"cpu\":%d,\"regions\":[",
			  k.pid, comm, (unsigned long)k.addr, k.cpu);
		for (i = 0; i < n; i++)
			so_printf(s, "%s{\"name\":\"%s\",\"lo\":\"%lx\",\"hi\":\"%lx\",\"guard\":%s}",
				  i ? "," : "", r[i].name, (unsigned long)r[i].lo, (unsigned long)r[i].hi,
				  r[i].guard ? "true" : "false");
		so_printf(s, "]}\n");
		return 0;
	}
	so_text_comm(k.comm, comm, sizeof(comm));
	so_printf(s, "pid %ld \"%s\" (task %lx) on cpu %d\n", k.pid, comm, (unsigned long)k.addr, k.cpu);
	for (i = 0; i < n; i++)
		so_printf(s, "  %-10s %lx..%lx %6lu bytes\n", r[i].name, (unsigned long)r[i].lo,
			  (unsigned long)r[i].hi, (unsigned long)(r[i].hi - r[i].lo));
	return 0;
}

/* stackov-current [CPU]: the task on CPU (default: the crashed one), as JSON. */
static int cmd_current(struct stackov *s, int argc, char **argv)
{
	struct so_task k;
	uint64_t task;
	char comm[80];
	int cpu;

	if (argc > 2)
		return so_refuse(s, "usage: stackov-current [CPU]"), 2;
	cpu = argc > 1 ? atoi(argv[1]) : so_crashed_cpu(s);
	if (cpu < 0)
		return so_refuse(s, "this dump has no panic task; name a CPU");
	if (so_current(s, cpu, &task) || so_task(s, task, &k))
		return so_refuse(s, "no task on cpu %d", cpu);
	stackov_json_string(k.comm, comm, sizeof(comm));
	so_printf(s, "{\"cpu\":%d,\"pid\":%ld,\"comm\":\"%s\",\"task\":\"%lx\",\"stack\":\"%lx\",\"thread_size\":%lu}\n",
		  cpu, k.pid, comm, (unsigned long)k.addr, (unsigned long)k.stack,
		  (unsigned long)so_thread_size(s));
	return 0;
}

/* stackov-kind ADDRESS [CPU]: the name of the stack ADDRESS is on, or ?. */
static int cmd_kind(struct stackov *s, int argc, char **argv)
{
	struct so_region r[SO_MAX_REGIONS], *at;
	struct so_task k;
	uint64_t task;
	int cpu, n;

	if (argc < 2 || argc > 3)
		return so_refuse(s, "usage: stackov-kind ADDRESS [CPU]"), 2;
	cpu = argc > 2 ? atoi(argv[2]) : so_crashed_cpu(s);
	if (cpu < 0 || so_current(s, cpu, &task) || so_task(s, task, &k))
		return so_refuse(s, "no task on cpu %d", cpu);
	n = so_regions(s, cpu, k.stack, r, SO_MAX_REGIONS);
	at = so_region_of(r, n, strtoull(argv[1], NULL, 0));
	so_printf(s, "%s\n", at ? at->name : "?");
	return 0;
}

static int run(struct stackov *s, int argc, char **argv)
{
	if (argc < 1)
		return so_refuse(s, "no command"), 2;
	if (!strcmp(argv[0], "stackov"))
		return cmd_stackov(s, argc, argv);
	if (!strcmp(argv[0], "stackov-bt"))
		return cmd_bt(s, argc, argv);
	if (!strcmp(argv[0], "stackov-stacks"))
		return cmd_stacks(s, argc, argv);
	if (!strcmp(argv[0], "stackov-kind"))
		return cmd_kind(s, argc, argv);
	if (!strcmp(argv[0], "stackov-current"))
		return cmd_current(s, argc, argv);
	if (!strcmp(argv[0], "stackov-name")) {
		char name[128];
		uint64_t start;
		int i;

		/* The function of each ADDRESS, as the verdict names frames. */
		for (i = 1; i < argc; i++)
			if (so_name(s, strtoull(argv[i], NULL, 0), name, sizeof(name), &start))
				so_printf(s, "?\n");
			else
				so_printf(s, "%s\n", name);
		return 0;
	}
	if (!strcmp(argv[0], "stackov-where")) {
		if (argc != 2)
			return so_refuse(s, "usage: stackov-where ADDRESS"), 2;
		return so_cmd_where(s, strtoull(argv[1], NULL, 0));
	}
	return so_refuse(s, "unknown command %s", argv[0]), 2;
}

int stackov_command(struct stackov *s, int argc, char **argv, char **out)
{
	struct so_out o = { 0 };
	int r;

	s->out = &o;
	if (s->rec) {
		int i;

		so_rec(s, "# command:");
		for (i = 0; i < argc; i++)
			so_rec(s, " %s", argv[i]);
		so_rec(s, "\n");
	}
	r = run(s, argc, argv);
	s->out = NULL;
	if (!o.buf)
		o.buf = strdup("");
	*out = o.buf;
	return r;
}

int stackov_command_line(struct stackov *s, const char *line, char **out)
{
	char *copy = strdup(line ? line : ""), *argv[16], *tok, *save = NULL;
	int argc = 0, r;

	if (!copy)
		return 2;
	for (tok = strtok_r(copy, " \t\n", &save); tok && argc < 16; tok = strtok_r(NULL, " \t\n", &save))
		argv[argc++] = tok;
	r = stackov_command(s, argc, argv, out);
	free(copy);
	return r;
}
