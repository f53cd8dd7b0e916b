/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LKDTM_EXT_H
#define __LKDTM_EXT_H

#define pr_fmt(fmt) "lkdtm_ext: " fmt

#include <linux/kernel.h>
#include <linux/moduleparam.h>

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

/*
 * One scenario family: the table exported by one source file, and what
 * must be undone when the module goes (a timer or work item still queued).
 */
struct crashtype_category {
	const char *name;
	struct crashtype *crashtypes;
	size_t len;
	void (*exit)(void);
};

#define CRASHTYPE_CATEGORY_EXIT(_name, _table, _exit)		\
	struct crashtype_category _name ## _crashtypes = {	\
		.name = __stringify(_name),			\
		.crashtypes = _table,				\
		.len = ARRAY_SIZE(_table),			\
		.exit = _exit,					\
	}

#define CRASHTYPE_CATEGORY(_name, _table)			\
	CRASHTYPE_CATEGORY_EXIT(_name, _table, NULL)

extern struct crashtype_category recurse_crashtypes;
extern struct crashtype_category frame_crashtypes;
extern struct crashtype_category corrupt_crashtypes;
extern struct crashtype_category misuse_crashtypes;
extern struct crashtype_category lifecycle_crashtypes;

/* For scenarios that crash elsewhere: give the crash time, then say FAIL. */
void lkdtm_ext_wait_for_crash(const char *name);

/*
 * An int module parameter with bounds: a value outside them is refused
 * with -EINVAL and a message naming the range, at load time and when
 * written to /sys/module/lkdtm_ext/parameters/.
 */
struct bounded_int {
	int val;
	int min;
	int max;
	int step;	/* 0: any value in range; else min + k * step */
};

extern const struct kernel_param_ops bounded_int_ops;

#define BOUNDED_INT_PARAM_STEP(_name, _def, _min, _max, _step, _desc)	\
	static struct bounded_int _name = { _def, _min, _max, _step };		\
	module_param_cb(_name, &bounded_int_ops, &_name, 0644);			\
	MODULE_PARM_DESC(_name, _desc " (" #_min ".." #_max ", default " #_def ")")

#define BOUNDED_INT_PARAM(_name, _def, _min, _max, _desc)			\
	BOUNDED_INT_PARAM_STEP(_name, _def, _min, _max, 0, _desc)

#endif /* __LKDTM_EXT_H */
