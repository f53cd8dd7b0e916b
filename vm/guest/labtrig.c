// SPDX-License-Identifier: GPL-2.0
/*
 * labtrig - write a scenario name to the lkdtm_ext trigger file, from a
 * process of its own (never PID 1), optionally after dropping to another
 * uid, and say in one line what the kernel answered.
 *
 *   labtrig [-u UID] NAME
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#define TRIGGER "/sys/kernel/debug/lkdtm_ext/trigger"

static void drop_to(uid_t uid)
{
	if (setgroups(0, NULL) || setgid(uid) || setuid(uid)) {
		printf("labtrig: cannot drop to uid %u: %s\n", uid, strerror(errno));
		exit(2);
	}
}

int main(int argc, char **argv)
{
	const char *name;
	int fd, opt;
	ssize_t n;
	long uid = -1;

	while ((opt = getopt(argc, argv, "u:")) != -1) {
		if (opt != 'u')
			goto usage;
		uid = strtol(optarg, NULL, 10);
	}
	if (optind != argc - 1)
		goto usage;
	name = argv[optind];
	if (getpid() == 1) {
		printf("labtrig: refusing to trigger from PID 1\n");
		return 2;
	}
	if (uid >= 0)
		drop_to((uid_t)uid);

	setvbuf(stdout, NULL, _IONBF, 0);
	printf("labtrig: triggering %s as uid %u pid %d\n", name, getuid(), getpid());
	/*
	 * Let the serial line send that line before the kernel prints: printk
	 * writes to the console directly, and would land in the middle of it.
	 * (Not a tty: nothing to wait for.)
	 */
	tcdrain(STDOUT_FILENO);
	fd = open(TRIGGER, O_WRONLY);
	if (fd < 0) {
		printf("labtrig: open %s: %s (errno %d)\n", TRIGGER, strerror(errno), errno);
		return 1;
	}
	n = write(fd, name, strlen(name));
	if (n < 0) {
		printf("labtrig: write %s: %s (errno %d)\n", name, strerror(errno), errno);
		return 1;
	}
	printf("labtrig: %s returned\n", name);
	return 0;
usage:
	fprintf(stderr, "usage: labtrig [-u UID] NAME\n");
	return 2;
}
