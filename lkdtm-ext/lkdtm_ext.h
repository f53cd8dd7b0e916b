/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LKDTM_EXT_H
#define __LKDTM_EXT_H

#define pr_fmt(fmt) "lkdtm_ext: " fmt

#include <linux/kernel.h>

/* One scenario: a name written to the trigger file, and what it does. */
struct crashtype {
	const char *name;
	const char *desc;
	void (*func)(void);
};

#define CRASHTYPE(_name, _desc)			\
	{					\
		.name = __stringify(_name),	\
		.desc = _desc,			\
		.func = lkdtm_ext_ ## _name,	\
	}

/* One scenario family: the table exported by one source file. */
struct crashtype_category {
	const char *name;
	struct crashtype *crashtypes;
	size_t len;
};

#define CRASHTYPE_CATEGORY(_name, _table)		\
	struct crashtype_category _name ## _crashtypes = {	\
		.name = __stringify(_name),			\
		.crashtypes = _table,				\
		.len = ARRAY_SIZE(_table),			\
	}

extern struct crashtype_category recurse_crashtypes;

#endif /* __LKDTM_EXT_H */
