// SPDX-License-Identifier: GPL-2.0
/*
 * stackbench - the series' experiment, in the guest: how long it takes to
 * create a task and wait for it, each task getting (and freeing) a kernel
 * stack, and how the stack cache's counters move meanwhile.
 *
 *   stackbench [-1] OP N      OP: pthread (pthread_create + join),
 *                                 fork (fork + _exit + waitpid),
 *                                 clone (a bare CLONE_VM thread + wait)
 *   stackbench all N          each OP pinned, then each unpinned, with
 *                             every task's stack use (SysRq-t) before and
 *                             after
 *
 * -1 pins the loop to CPU 0 (the new tasks start there, and their stacks
 * come from and go back to CPU 0's cache). One line per run:
 *
 *   stackbench: result op=pthread pinned=1 n=2000 ns_per_op=51234
 *     kstack_cache_hit=... kstack_cache_miss=... kstack_cache_put=...
 *     kstack_cache_full=... kernelstack_kb=... kernelstack_kb_after=...
 *
 * The time is CLOCK_MONOTONIC: under QEMU's -icount it follows the
 * instructions the guest executed, so runs repeat; under plain TCG it is
 * the host's time, which moves with the host's load.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define CLONE_STACK (64 * 1024)

static const char * const counters[] = {
	"kstack_cache_hit", "kstack_cache_miss", "kstack_cache_put", "kstack_cache_full",
};

/* Read the counters from /proc/vmstat; return how many were found. */
static int read_counters(long long *v)
{
	char key[64];
	long long val;
	FILE *f = fopen("/proc/vmstat", "r");
	int found = 0;
	size_t i;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &val) == 2)
		for (i = 0; i < ARRAY_SIZE(counters); i++)
			if (!strcmp(key, counters[i])) {
				v[i] = val;
				found++;
			}
	fclose(f);
	return found;
}

/* KernelStack: of /proc/meminfo, in KiB, or -1. */
static long kernel_stack_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "KernelStack: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static void *thread_fn(void *arg)
{
	return arg;
}

static int clone_fn(void *arg)
{
	(void)arg;
	return 0;
}

/* One task created and waited for; 0 on success. */
static int one_pthread(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, thread_fn, NULL))
		return -1;
	return pthread_join(t, NULL);
}

static int one_fork(void)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(0);
	return waitpid(pid, NULL, 0) == pid ? 0 : -1;
}

static char *clone_stack;

static int one_clone(void)
{
	pid_t pid = clone(clone_fn, clone_stack + CLONE_STACK,
			  CLONE_VM | CLONE_FS | CLONE_FILES | SIGCHLD, NULL);

	if (pid < 0)
		return -1;
	return waitpid(pid, NULL, 0) == pid ? 0 : -1;
}

/*
 * Our lines out to the serial console before the kernel prints: printk
 * does not wait for the tty, and would land inside a line still queued.
 */
static void flush(void)
{
	fflush(stdout);
	tcdrain(STDOUT_FILENO);
}

/*
 * Every task's stack use: with DEBUG_STACK_USAGE, SysRq-t prints each
 * task's free stack ("stack:N") on the console.
 */
static void show_stack_use(const char *when)
{
	FILE *f = fopen("/proc/sysrq-trigger", "w");

	printf("stackbench: highwater %s\n", when);
	flush();
	if (!f || fputs("t", f) < 0 || fclose(f))
		perror("stackbench: /proc/sysrq-trigger");
	sleep(1);
	printf("stackbench: highwater end\n");
	flush();
}

static void pin_to(int cpu)
{
	cpu_set_t set;
	long i;

	CPU_ZERO(&set);
	for (i = 0; i < sysconf(_SC_NPROCESSORS_ONLN); i++)
		if (cpu < 0 || i == cpu)
			CPU_SET(i, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("stackbench: sched_setaffinity");
}

static const struct {
	const char *name;
	int (*one)(void);
} ops[] = {
	{ "pthread", one_pthread }, { "fork", one_fork }, { "clone", one_clone },
};

/* One measurement: N tasks created and waited for, one result line. */
static int measure(const char *name, int (*one)(void), int pin, long n)
{
	long long before[ARRAY_SIZE(counters)] = {0}, after[ARRAY_SIZE(counters)] = {0};
	struct timespec t0, t1;
	int have;
	long i, kb;
	size_t k;

	pin_to(pin ? 0 : -1);
	/* Warm up: the first tasks fill the cache and fault in the code. */
	for (i = 0; i < 16; i++)
		if (one()) {
			perror("stackbench: warm-up");
			return 1;
		}
	kb = kernel_stack_kb();
	have = read_counters(before);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++)
		if (one()) {
			perror("stackbench");
			return 1;
		}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	read_counters(after);
	printf("stackbench: result op=%s pinned=%d n=%ld ns_per_op=%.0f", name, pin, n,
	       ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / n);
	for (k = 0; k < ARRAY_SIZE(counters); k++)
		if (have == (int)ARRAY_SIZE(counters))
			printf(" %s=%lld", counters[k], after[k] - before[k]);
		else
			printf(" %s=-", counters[k]);
	printf(" kernelstack_kb=%ld kernelstack_kb_after=%ld\n", kb, kernel_stack_kb());
	flush();
	return 0;
}

static int bad_usage(void)
{
	fprintf(stderr, "usage: stackbench [-1] pthread|fork|clone N (1 <= N <= 1000000)\n");
	return 2;
}

int main(int argc, char **argv)
{
	int pin = 0, all, rc = 0;
	size_t k, op = 0;
	long n;

	if (argc > 1 && !strcmp(argv[1], "-1")) {
		pin = 1;
		argv++;
		argc--;
	}
	if (argc != 3)
		return bad_usage();
	all = !pin && !strcmp(argv[1], "all");
	for (k = 0; k < ARRAY_SIZE(ops) && !all; k++)
		if (!strcmp(argv[1], ops[k].name))
			break;
	if (k == ARRAY_SIZE(ops))
		return bad_usage();
	op = k;
	n = strtol(argv[2], NULL, 10);
	if (n < 1 || n > 1000000)
		return bad_usage();
	clone_stack = mmap(NULL, CLONE_STACK, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (clone_stack == MAP_FAILED) {
		perror("stackbench: mmap");
		return 1;
	}
	if (!all)
		return measure(ops[op].name, ops[op].one, pin, n);
	show_stack_use("boot");
	for (pin = 1; pin >= 0; pin--)
		for (k = 0; k < ARRAY_SIZE(ops); k++)
			rc |= measure(ops[k].name, ops[k].one, pin, n);
	show_stack_use("workload");
	return rc;
}
