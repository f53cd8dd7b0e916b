// SPDX-License-Identifier: GPL-2.0
/*
 * libstackov: tasks: one task_struct's facts, the task on a CPU, every
 * thread, a task named by pid or address, and where a sleeping one resumes.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int so_task(struct stackov *s, uint64_t addr, struct so_task *k)
{
	uint32_t pid = 0, flags = 0, cpu = 0;
	long off;

	memset(k, 0, sizeof(*k));
	k->addr = addr;
	if (so_u32(s, addr + so_moff(s, "task_struct", "pid"), &pid) ||
	    so_read(s, addr + so_moff(s, "task_struct", "comm"), k->comm, 16) ||
	    so_u32(s, addr + so_moff(s, "task_struct", "flags"), &flags) ||
	    so_u64(s, addr + so_moff(s, "task_struct", "stack"), &k->stack))
		return -1;
	k->comm[16] = '\0';
	k->pid = (int32_t)pid;
	k->flags = flags;
	off = so_moff(s, "task_struct", "stack_vm_area");
	if (off >= 0)
		so_u64(s, addr + off, &k->vm);
	/* thread_info.cpu (x86 from 5.16, THREAD_INFO_IN_TASK), else task_struct.cpu. */
	off = so_moff(s, "task_struct", "thread_info");
	if (off >= 0 && so_moff(s, "thread_info", "cpu") >= 0)
		off += so_moff(s, "thread_info", "cpu");
	else
		off = so_moff(s, "task_struct", "cpu");
	if (off >= 0)
		so_u32(s, addr + off, &cpu);
	k->cpu = (int)cpu;
	return 0;
}

int so_current(struct stackov *s, int cpu, uint64_t *task)
{
	uint64_t a;

	if (so_percpu_hot(s, "current_task", "current_task", cpu, &a))
		return -1;
	return so_u64(s, a, task);
}

/* Whether @t is among the @n of @tasks. */
static int listed(const uint64_t *tasks, long n, uint64_t t)
{
	long i;

	for (i = 0; i < n; i++)
		if (tasks[i] == t)
			return 1;
	return 0;
}

/* Each CPU's idle task, appended to *@tasks where it is not there yet. */
static void idle_tasks(struct stackov *s, uint64_t **tasks, long *n, long *cap)
{
	long off = so_moff(s, "rq", "idle");
	uint64_t rq, idle;
	int cpu;

	for (cpu = 0; off >= 0 && *tasks && cpu < so_nr_cpus(s); cpu++) {
		if (so_percpu(s, "runqueues", cpu, &rq) || so_u64(s, rq + off, &idle) || !idle ||
		    listed(*tasks, *n, idle))
			continue;
		if (*n == *cap) {
			*cap = *cap ? 2 * *cap : 256;
			*tasks = realloc(*tasks, *cap * sizeof(**tasks));
			if (!*tasks)
				return;
		}
		(*tasks)[(*n)++] = idle;
	}
}

/* The containers of a list_head's entries, appended to *@out. */
static long list_entries(struct stackov *s, uint64_t head, long off, uint64_t **out, long n,
			 long *cap)
{
	uint64_t node;

	if (so_u64(s, head, &node))
		return n;
	while (node != head && node && n < SO_MAX_TASKS) {
		if (n == *cap) {
			*cap = *cap ? 2 * *cap : 256;
			*out = realloc(*out, *cap * sizeof(**out));
			if (!*out)
				return 0;
		}
		(*out)[n++] = node - off;
		if (so_u64(s, node, &node))
			break;
	}
	return n;
}

/*
 * Every thread: init_task's list of processes, each one's threads, and
 * each CPU's idle task (rq->idle: init_task is CPU 0's; the others are in
 * no list), as crash's ps lists them.
 */
long so_all_tasks(struct stackov *s, uint64_t **tasks)
{
	uint64_t init, *leaders = NULL, sig;
	long tasks_off = so_moff(s, "task_struct", "tasks");
	long sig_off = so_moff(s, "task_struct", "signal");
	long head_off = so_moff(s, "signal_struct", "thread_head");
	long node_off = so_moff(s, "task_struct", "thread_node");
	long nl = 0, lcap = 0, n = 0, cap = 0, i, before;

	*tasks = NULL;
	if (so_sym(s, "init_task", &init) || tasks_off < 0 || sig_off < 0)
		return 0;
	leaders = malloc(sizeof(*leaders));
	if (!leaders)
		return 0;
	leaders[nl++] = init;
	lcap = 1;
	nl = list_entries(s, init + tasks_off, tasks_off, &leaders, nl, &lcap);
	for (i = 0; i < nl; i++) {
		before = n;
		if (head_off >= 0 && node_off >= 0 && !so_u64(s, leaders[i] + sig_off, &sig) && sig)
			n = list_entries(s, sig + head_off, node_off, tasks, n, &cap);
		if (n == before) {
			if (n == cap) {
				cap = cap ? 2 * cap : 256;
				*tasks = realloc(*tasks, cap * sizeof(**tasks));
				if (!*tasks)
					break;
			}
			(*tasks)[n++] = leaders[i];
		}
	}
	free(leaders);
	idle_tasks(s, tasks, &n, &cap);
	return n;
}

/* A pid (decimal) or a task_struct address (hex), as crash takes them. */
int so_find_task(struct stackov *s, const char *arg, struct so_task *k)
{
	uint64_t *tasks, want;
	long n = so_all_tasks(s, &tasks), i;
	int digits = arg[0] != '\0' && strspn(arg, "0123456789") == strlen(arg);
	char *end;

	for (i = 0; digits && i < n; i++)
		if (!so_task(s, tasks[i], k) && k->pid == strtol(arg, NULL, 10)) {
			free(tasks);
			return 0;
		}
	want = strtoull(arg, &end, 16);
	for (i = 0; !*end && i < n; i++)
		if (tasks[i] == want && !so_task(s, tasks[i], k)) {
			free(tasks);
			return 0;
		}
	free(tasks);
	return -1;
}

/*
 * Where a task that is not running resumes: the inactive_task_frame that
 * __switch_to_asm left at thread.sp.
 */
int so_sleeping_regs(struct stackov *s, const struct so_task *k, uint64_t *ip, uint64_t *sp,
		     uint64_t *bp)
{
	long th = so_moff(s, "task_struct", "thread"), tsp = so_moff(s, "thread_struct", "sp");
	long ret = so_moff(s, "inactive_task_frame", "ret_addr");
	long fbp = so_moff(s, "inactive_task_frame", "bp");
	uint64_t frame;

	if (th < 0 || tsp < 0 || ret < 0 || fbp < 0 || so_u64(s, k->addr + th + tsp, &frame) ||
	    so_u64(s, frame + ret, ip) || so_u64(s, frame + fbp, bp))
		return -1;
	*sp = frame + ret;
	return 0;
}
