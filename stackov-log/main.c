// SPDX-License-Identifier: GPL-2.0
/*
 * stackov-log - explain the kernel stack overflows of a log, as the dump
 * readers explain a dump: which stack, whose, the entry, the cycle, and,
 * given vmlinux, where the stack went.
 *
 *   stackov-log [-j | -f] [-v VMLINUX] [-m MODULES] LOG
 *
 * -j: one JSON line a report, with the dump readers' keys; -f: the facts
 * a test compares (tests/logs/NAME.expect). Exit status 0 when the log
 * has an overflow report, 1 when it has none, 2 on an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stackov-log.h"

static const char synopsis[] = "stackov-log [-j | -f] [-v VMLINUX] [-m MODULES] LOG";

static void die_usage(void)
{
	fprintf(stderr, "usage: %s\n", synopsis);
	exit(2);
}

/* "6.1.0-lab #1 ..." and "Linux version 6.1.0-lab (...) #1 ...": the same release? */
static int same_release(const char *log, const char *banner)
{
	size_t n = strcspn(log, " ");

	if (!log[0] || strncmp(banner, "Linux version ", 14))
		return 1;	/* nothing to compare */
	return !strncmp(banner + 14, log, n) && banner[14 + n] == ' ';
}

/* A report that is its opening line alone: no task, no registers, no trace. */
static int bare(const struct sl_report *r)
{
	return !r->n && r->pid < 0 && !r->have_rip;
}

static int done(struct sl_report **reports, int n, struct sl_verdict *v, int status)
{
	int i;

	for (i = 0; i < n; i++)
		free(reports[i]);
	free(reports);
	free(v);
	sl_frames_close();
	return status;
}

int main(int argc, char **argv)
{
	const char *vmlinux = NULL, *modules = NULL;
	struct sl_report **reports;
	struct sl_verdict *v;
	char err[512];
	int opt, json = 0, facts = 0, n = 0, i;
	long lines = 0;

	while ((opt = getopt(argc, argv, "jfv:m:h")) != -1) {
		switch (opt) {
		case 'j':
			json = 1;
			break;
		case 'f':
			facts = 1;
			break;
		case 'v':
			vmlinux = optarg;
			break;
		case 'm':
			modules = optarg;
			break;
		default:
			die_usage();
		}
	}
	if (optind != argc - 1)
		die_usage();
	reports = calloc(SL_MAX_REPORTS, sizeof(*reports));
	v = malloc(sizeof(*v));
	if (!reports || !v) {
		fprintf(stderr, "stackov-log: out of memory\n");
		return 2;
	}
	if (sl_read_log(argv[optind], reports, &n, &lines, err, sizeof(err))) {
		fprintf(stderr, "stackov-log: %s\n", err);
		return done(reports, n, v, 2);
	}
	if (!n) {
		printf("no stack overflow in this log (%ld lines read)\n", lines);
		return done(reports, n, v, 1);
	}
	if (vmlinux && sl_frames_open(vmlinux, modules, err, sizeof(err))) {
		fprintf(stderr, "stackov-log: %s\n", err);
		return done(reports, n, v, 2);
	}
	for (i = 0; i < n; i++) {
		struct sl_report *r = reports[i];
		int sizes = vmlinux != NULL, more = 0;

		/* Other CPUs' bare BUG lines, one after another: said once. */
		while (!json && !facts && i > 0 && bare(r) && bare(reports[i - 1]) &&
		       !strcmp(r->stack, reports[i - 1]->stack)) {
			more++;
			if (++i == n)
				break;
			r = reports[i];
		}
		if (more)
			printf("  ... and %d more reports like it to log line %ld: a BUG line each, no task and no trace of its own (other CPUs')\n",
			       more, reports[i - 1]->last_line);
		if (i == n)
			break;
		if (!json && !facts)
			printf("%sreport %d of %d, log lines %ld..%ld: %s\n", i ? "\n" : "", i + 1, n,
			       r->first_line, r->last_line, r->title);
		if (sizes && !same_release(r->release, sl_vmlinux_banner())) {
			printf("vmlinux is another kernel's: the log's is %s, vmlinux says \"%s\"; no frame sizes\n",
			       r->release, sl_vmlinux_banner());
			sizes = 0;
		}
		if (sizes) {
			sl_frames_measure(r, err, sizeof(err));
			if (err[0] && !json && !facts)
				printf("  note:      %s\n", err);
		}
		sl_verdict(r, v);
		if (json)
			sl_print_json(v);
		else if (facts)
			sl_print_facts(v);
		else
			sl_print_text(v, sizes);
		if (r->dropped && !json && !facts)
			printf("  note:      %d more entries than the %d read\n", r->dropped, SL_MAX_ENTRIES);
	}
	return done(reports, n, v, 0);
}
