// SPDX-License-Identifier: GPL-2.0
/*
 * canary_copy - a test module for MODULE=: its init copies a name into a
 * 16-byte buffer with a loop that stops at the name's end, not the
 * buffer's, as a parser might. The 22-byte name and its NUL run 7 bytes
 * into the stack protector's canary above the buffer (its top byte is
 * left), and the check at the function's return panics.
 * No overflow of the stack: a smashed canary, which the readers must name
 * as such, with its slot, from a dump.
 */
#include <linux/module.h>

static const char name[] = "labtrig-canary-copy-22";

static noinline int copy_name(const char *src)
{
	char buf[16];
	int i;

	/* %p is the address itself: the lab boots with no_hash_pointers */
	pr_info("canary_copy: copying %zu bytes into the 16-byte buffer at %p\n",
		strlen(src) + 1, buf);
	/* The bug: bounded by the source, not the buffer. */
	for (i = 0; src[i]; i++)
		buf[i] = src[i];
	buf[i] = '\0';
	barrier_data(buf);
	return buf[0];
}

static int __init canary_copy_init(void)
{
	copy_name(name);
	pr_err("canary_copy: copy_name() returned; the stack protector did not fire\n");
	return -EINVAL;
}

module_init(canary_copy_init);
MODULE_DESCRIPTION("MODULE= test: a buffer copy over the stack protector's canary");
MODULE_LICENSE("GPL");
