// SPDX-License-Identifier: GPL-2.0
/*
 * forkloop - fork N children that exit at once, one after the other, and
 * report the time per fork+wait and how the kstack_cache_* counters of
 * /proc/vmstat moved meanwhile (they exist with the lab's patch series).
 *
 *   forkloop [-1] [N]
 *
 * -1 pins the loop (and so every child, until it exits) to CPU 0: parent
 * and children then share one CPU's stack cache.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char * const names[] = {
	"kstack_cache_hit", "kstack_cache_miss", "kstack_cache_put", "kstack_cache_full",
};
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NR_COUNTERS ARRAY_SIZE(names)

/* Read the counters; return how many were found. */
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
		for (i = 0; i < NR_COUNTERS; i++)
			if (!strcmp(key, names[i])) {
				v[i] = val;
				found++;
			}
	fclose(f);
	return found;
}

int main(int argc, char **argv)
{
	long long before[NR_COUNTERS] = {0}, after[NR_COUNTERS] = {0}, d[NR_COUNTERS];
	struct timespec t0, t1;
	int have, pin = 0;
	double us;
	size_t k;
	long n, i;

	if (argc > 1 && !strcmp(argv[1], "-1")) {
		pin = 1;
		argv++;
		argc--;
	}
	n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	if (n < 1 || n > 10000000) {
		fprintf(stderr, "usage: forkloop [-1] [N], 1 <= N <= 10000000\n");
		return 2;
	}
	if (pin) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(0, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("forkloop: sched_setaffinity");
			return 1;
		}
	}
	have = read_counters(before);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("forkloop: fork");
			return 1;
		}
		if (pid == 0)
			_exit(0);
		waitpid(pid, NULL, 0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* Let the last RCU callbacks (stack frees) run before counting. */
	usleep(500000);
	read_counters(after);
	us = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 1e3 / n;
	printf("forkloop: result forks=%ld pinned=%d us_per_fork=%.1f", n, pin, us);
	if (have != (int)NR_COUNTERS) {
		printf(" counters=missing\n");
		return 0;
	}
	for (k = 0; k < NR_COUNTERS; k++) {
		d[k] = after[k] - before[k];
		printf(" %s=%lld", names[k], d[k]);
	}
	printf(" hit_rate=%.0f%%\n", d[0] + d[1] ? 100.0 * d[0] / (d[0] + d[1]) : 0.0);
	return 0;
}
