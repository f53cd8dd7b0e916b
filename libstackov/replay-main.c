// SPDX-License-Identifier: GPL-2.0
/*
 * stackov-replay: the engine run again on a recording of a reader's
 * answers (stackov_record()), with no dump, vmlinux or reader:
 *
 *   stackov-replay FILE [COMMAND [ARG...]]
 *
 * Runs COMMAND (default: stackov -j) as the readers run it and prints what
 * it prints. Exit status: the command's (0, 1 for a refusal, 2 for a
 * usage error), or 3 when the engine asked for an answer the recording
 * does not hold: a rule changed what it reads, and the dump must be
 * recorded again; 4 when FILE is no recording.
 */
#include <stdio.h>
#include <string.h>

#include "stackov.h"

int main(int argc, char **argv)
{
	char err[512] = "", *out = NULL, *dflt[] = { "stackov", "-j" };
	struct stackov *s;
	long misses;
	int r;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(stderr, "usage: stackov-replay FILE [COMMAND [ARG...]]\n");
		return 2;
	}
	s = stackov_replay_open(argv[1], err, sizeof(err));
	if (!s) {
		fprintf(stderr, "stackov-replay: %s\n", err);
		return 4;
	}
	if (argc > 2)
		r = stackov_command(s, argc - 2, argv + 2, &out);
	else
		r = stackov_command(s, 2, dflt, &out);
	fputs(out, stdout);
	stackov_free(out);
	misses = stackov_replay_misses(s);
	stackov_close(s);
	if (misses) {
		fprintf(stderr, "stackov-replay: %s: the engine asked %ld questions the recording has no answer to: record the dump again\n",
			argv[1], misses);
		return 3;
	}
	return r;
}
