// SPDX-License-Identifier: GPL-2.0
/*
 * stackov: a crash extension that explains a kernel stack overflow from
 * the dump alone. crash answers libstackov's questions (readmem,
 * symbol_value, MEMBER_OFFSET, VMCOREINFO) and libstackov, the lab's one
 * engine, decides and words the verdict, as it does for gdb and drgn.
 *
 * Built with libstackov's sources, against the defs.h of the crash that
 * reads the dump (crash-scripts/Makefile; vm/builders/crash-ext.sh):
 *   make -C crash-scripts CRASH_INCLUDE=/usr/include/crash CRASH_VERSION=9.0.0
 * then in crash: extend stackov.so; help stackov. With STACKOV_RECORD=FILE
 * in crash's environment, every answer crash gave is recorded into FILE,
 * for stackov-replay.
 */
#include "defs.h"
#include "stackov.h"

static void cmd_stackov(void);
static char *help_stackov[];

static struct command_table_entry command_table[] = {
	{ "stackov", cmd_stackov, help_stackov, 0 },
	{ NULL },
};

static void __attribute__((constructor)) stackov_init(void)
{
#ifdef STACKOV_CRASH_VERSION
	/* Built against another crash's defs.h: its structures may differ. */
	if (strcmp(pc->program_version, STACKOV_CRASH_VERSION)) {
		error(INFO, "stackov: built for crash %s, this is crash %s; its defs.h may differ, so stackov is not loaded (rebuild it against this crash's defs.h)\n",
		      STACKOV_CRASH_VERSION, pc->program_version);
		return;
	}
#endif
	register_extension(command_table);
}

static int t_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	return readmem(addr, KVADDR, buf, len, "stackov", RETURN_ON_ERROR | QUIET) ? 0 : -1;
}

static int t_symbol(void *ctx, const char *name, uint64_t *addr)
{
	(void)ctx;
	if (!symbol_exists((char *)name))
		return -1;
	*addr = symbol_value((char *)name);
	return 0;
}

static long t_struct_size(void *ctx, const char *name)
{
	(void)ctx;
	return STRUCT_SIZE((char *)name);
}

static long t_member_offset(void *ctx, const char *s, const char *m)
{
	long off = MEMBER_OFFSET((char *)s, (char *)m);

	(void)ctx;
	return off >= 0 ? off : ANON_MEMBER_OFFSET((char *)s, (char *)m);
}

static long t_member_size(void *ctx, const char *s, const char *m)
{
	long size = MEMBER_SIZE((char *)s, (char *)m);

	(void)ctx;
	return size > 0 ? size : ANON_MEMBER_SIZE((char *)s, (char *)m);
}

static long t_array_len(void *ctx, const char *sym)
{
	(void)ctx;
	return symbol_exists((char *)sym) ? get_array_length((char *)sym, NULL, 0) : -1;
}

static int t_vmcoreinfo(void *ctx, const char *key, char *buf, size_t len)
{
	char *v = pc->read_vmcoreinfo ? pc->read_vmcoreinfo(key) : NULL;

	(void)ctx;
	if (!v)
		return -1;
	snprintf(buf, len, "%s", v);
	free(v);
	return 0;
}

static void cmd_stackov(void)
{
	struct stackov_target t = {
		.read = t_read,
		.symbol = t_symbol,
		.struct_size = t_struct_size,
		.member_offset = t_member_offset,
		.member_size = t_member_size,
		.array_len = t_array_len,
		.vmcoreinfo = t_vmcoreinfo,
		.vmlinux = pc->namelist,
	};
	char err[256], *out = NULL, *rec = getenv("STACKOV_RECORD");
	struct stackov *s;
	int r;

	if (!machine_type("X86_64"))
		error(FATAL, "only x86_64 dumps are supported\n");
	s = stackov_open(&t, err, sizeof(err));
	if (!s)
		error(FATAL, "%s\n", err);
	if (rec && *rec && stackov_record(s, rec))
		error(INFO, "stackov: cannot record into %s\n", rec);
	/* crash's own args: the command's name, then its words. */
	r = stackov_command(s, argcnt, args, &out);
	stackov_close(s);
	/* A refusal is crash's error: the one line, and the next command goes on. */
	if (r) {
		out[strcspn(out, "\n")] = '\0';
		error(INFO, "%s\n", out + (strncmp(out, "stackov: ", 9) ? 0 : 9));
		stackov_free(out);
		if (r == 2)
			cmd_usage(pc->curcmd, SYNOPSIS);
		return;
	}
	fputs(out, fp);
	stackov_free(out);
}

static char *help_stackov[] = {
	"stackov",
	"explain a kernel stack overflow",
	"[-a | -c | -i | -m [-s] | -u [-n bytes] | -j] [pid | taskp]",
	"  Explains the stack overflow that brought the kernel down: which stack",
	"  the fault hit (the task's, this CPU's IRQ stack, an exception stack),",
	"  its bounds and guard page, the faulting address and how far below the",
	"  stack it is, the task and the context (task, kthread, kworker with its",
	"  work function, hardirq, softirq), the state of STACK_END_MAGIC, and the",
	"  frames from the registers the double-fault handler saved (on the ORC",
	"  unwind, or the frame-pointer chain), with the bytes each frame uses and",
	"  recursion folded into a cycle. The default task is the panic task.",
	"  With no double fault, the verdict is on the crash the dump holds,",
	"  beginning \"no stack overflow:\": a smashed stack-protector canary (the",
	"  function, its frame, the canary's slot from its code, what the slot",
	"  holds against the task's canary), an overwritten STACK_END_MAGIC (a",
	"  stray write, or an overflow past the end), a fault on a freed stack,",
	"  any other oops or panic; with the task's headroom and the near misses.",
	"  The words are libstackov's: gdb's and drgn's stackov say the same.",
	"",
	"    -a  every task's stack high-water mark, deepest first",
	"    -c  each CPU's cached stacks, with their vm_structs",
	"    -i  every CPU's IRQ and exception stacks, with their guards",
	"    -u  every stack's headroom (tasks', IRQ and exception stacks), deepest",
	"        first: bytes never used, STACK_END_MAGIC, the deepest code still",
	"        there, and those left with under -n bytes (2048); -j as JSON",
	"    -m  the overflowed stack drawn, top first: pt_regs, each frame, the",
	"        cycle, what was never reached, the guard page and the fault (or",
	"        the crashing task's, its canary slot, exception frame or end",
	"        word marked); -s as an SVG picture",
	"    -j  the verdict as one JSON object on one line",
	"\nEXAMPLE",
	"  After RECURSE_TASK:\n",
	"    crash> stackov",
	"    stack overflow: TASK stack, pid 60 \"labtrig\" (task ffff8880002bcec0) on cpu 0",
	"      context:   task (pid 60 \"labtrig\")",
	"      entry:     syscall 1 (__x64_sys_write)",
	"      stack:     ffffc90000130000..ffffc90000134000 (16384 bytes)",
	"      guard:     ffffc9000012f000..ffffc90000130000, hit",
	"      fault:     ffffc9000012fff8, 8 bytes below the stack (push; ...)",
	"      cycle:     recurse_task_frame x53 (288 bytes per cycle)",
	NULL
};
