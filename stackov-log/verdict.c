// SPDX-License-Identifier: GPL-2.0
/*
 * stackov-log: the verdict on one report, as the dump readers give it and
 * as far as the log tells: the frames of the stack that overflowed, the
 * context, the entry, the cycle (folded as fold.c folds it in crash), and
 * for a deep chain with no cycle the subsystems it went through.
 */
#include <stdio.h>
#include <string.h>

#include "stackov-log.h"
#include "stackov.h"

/* x86-64's syscalls by number (the Makefile makes the list). */
static const char * const x64_syscalls[] = {
#include "syscalls-x64.h"
};

static int is(const char *name, const char * const *list)
{
	for (; *list; list++)
		if (!strcmp(name, *list))
			return 1;
	return 0;
}

static int prefixed(const char *name, const char * const *list)
{
	for (; *list; list++)
		if (!strncmp(name, *list, strlen(*list)))
			return 1;
	return 0;
}

/* The oops machinery printed at the top of the trace: no frames of the overflow. */
static const char * const machinery[] = {
	"dump_stack", "dump_stack_lvl", "show_stack", "show_trace_log_lvl", "show_regs",
	"__die", "__die_body", "die", "oops_begin", "oops_end", "handle_stack_overflow",
	"exc_double_fault", "do_double_fault", "asm_exc_double_fault", "double_fault",
	"panic", "__stack_chk_fail", "__warn", "report_bug", "handle_bug", "exc_invalid_op",
	"asm_exc_invalid_op", "invalid_op", "__schedule_bug", "schedule_debug",
	/* KASAN's report */
	"kasan_report", "__kasan_report", "print_report", "print_address_description",
	"kasan_check_range", "check_memory_region", "__asan_report_load1_noabort",
	"__asan_report_load2_noabort", "__asan_report_load4_noabort", "__asan_report_load8_noabort",
	"__asan_report_store1_noabort", "__asan_report_store2_noabort", "__asan_report_store4_noabort",
	"__asan_report_store8_noabort", "__asan_load1", "__asan_load2", "__asan_load4", "__asan_load8",
	"__asan_store1", "__asan_store2", "__asan_store4", "__asan_store8", "kasan_report_invalid_free",
	/* arm64's */
	"dump_backtrace", "nmi_panic", "vpanic", "panic_bad_stack", "handle_bad_stack", "__bad_stack", NULL
};

static const char * const softirq_fns[] = {
	"__do_softirq", "handle_softirqs", "do_softirq_own_stack", "run_ksoftirqd", NULL
};

/*
 * A syscall's own functions; ksys_write() and __sys_sendmsg() are what
 * __x64_sys_write() and __x64_sys_sendmsg() call, often as a tail call
 * that leaves no frame of the syscall's own.
 */
static const char * const syscall_prefixes[] = {
	"__x64_sys_", "__do_sys_", "__se_sys_", "__ia32_sys_", "__x32_compat_sys_",
	"__do_compat_sys_", "__ia32_compat_sys_", "__se_compat_sys_", "ksys_", "__sys_",
	"__arm64_sys_", "__arm64_compat_sys_", "SyS_", "sys_", NULL
};

static int in_section(enum sl_section want, enum sl_section got)
{
	if (want == SEC_TASK)
		return got == SEC_TASK || got == SEC_NONE;
	return want == got;
}

/* __do_sys_write, __se_sys_write: as the syscall table names it, __x64_sys_write. */
const char *sl_syscall_name(const char *func, char *buf, size_t len)
{
	const char * const *p;

	for (p = syscall_prefixes; *p; p++)
		if (!strncmp(func, *p, strlen(*p))) {
			snprintf(buf, len, "__x64_sys_%s", func + strlen(*p));
			return buf;
		}
	return NULL;
}

/*
 * With no BUG line to name it, the stack that overflowed is the one the
 * trace shows first after the double fault's own (<#DF>): its marker
 * says which. A trace with no markers is the task's.
 */
static void infer_stack(struct sl_report *r)
{
	static const char * const names[] = {
		[SEC_NONE] = "", [SEC_TASK] = "TASK", [SEC_IRQ] = "IRQ", [SEC_SOFTIRQ] = "SOFTIRQ",
		[SEC_NMI] = "NMI", [SEC_DF] = "DF", [SEC_EXC] = "",
	};
	int i;

	if (r->kind == K_CANARY && !r->stack[0]) {
		/* The canary was in the frame the trace has first: its stack's. */
		for (i = 0; i < r->n && (is(r->e[i].func, machinery) || r->e[i].unreliable); i++)
			;
		if (i < r->n && r->e[i].sec != SEC_DF && r->e[i].sec != SEC_EXC) {
			snprintf(r->stack, sizeof(r->stack), "%s",
				 r->e[i].sec == SEC_NONE ? "TASK" : names[r->e[i].sec]);
			r->stack_inferred = 1;
		}
		return;
	}
	if (r->stack[0] || r->kind == K_CANARY || r->kind == K_BARE_DF || r->kind == K_KASAN_STACK)
		return;
	for (i = 0; i < r->n; i++)
		if (r->e[i].sec != SEC_DF && r->e[i].sec != SEC_NONE) {
			snprintf(r->stack, sizeof(r->stack), "%s", names[r->e[i].sec]);
			r->stack_inferred = 1;
			return;
		}
}

/* @a and @b are the same function, a .cold or .constprop piece aside. */
static int same_fn(const char *a, const char *b)
{
	size_t n = strcspn(a, ".");

	return n == strcspn(b, ".") && !strncmp(a, b, n);
}

/*
 * A trace of '?' entries is every text address the stack held. Given
 * vmlinux, one is a frame of the chain only if the instruction before it
 * is a call, and, when the call is direct, a call of the frame below it.
 */
static int calls(const struct sl_entry *e, const struct sl_entry *below)
{
	return e->call == CALL_DIRECT && below && same_fn(e->callee, below->func);
}

/*
 * An indirect call (or one not decoded) may be the caller; it is taken
 * unless a later entry of the same stack is a direct call of the frame
 * below: a stale word left by some other call chain is passed over.
 */
static int chained(const struct sl_verdict *v, const struct sl_report *r, int i)
{
	const struct sl_entry *e = &r->e[i];
	const struct sl_entry *below = v->nframes ? v->frame[v->nframes - 1] : NULL;
	int j;

	if (v->reliable)
		return 1;
	if (e->call == CALL_NONE || (e->call == CALL_DIRECT && below && !calls(e, below)))
		return 0;
	if (e->call == CALL_DIRECT)
		return 1;
	for (j = i + 1; j < r->n && below; j++)
		if (r->e[j].sec == e->sec && calls(&r->e[j], below))
			return 0;
	return 1;
}

static void pick_frames(struct sl_report *r, struct sl_verdict *v)
{
	int i, reliable = 0, skipping = 1;

	infer_stack(r);
	v->sec = SEC_TASK;
	if (!r->n && r->have_rip && r->kind != K_CANARY && r->kind != K_END_MAGIC) {
		v->frame[v->nframes++] = &r->rip;	/* an empty trace: the fault is all there is */
		v->reliable = 1;			/* the RIP: line is the CPU's own word */
		return;
	}

	if (!strcmp(r->stack, "IRQ"))
		v->sec = SEC_IRQ;
	else if (!strcmp(r->stack, "SOFTIRQ"))
		v->sec = SEC_SOFTIRQ;
	else if (!strcmp(r->stack, "DF"))
		v->sec = SEC_DF;
	else if (!strcmp(r->stack, "NMI"))
		v->sec = SEC_NMI;
	else if (r->stack[0] && strcmp(r->stack, "TASK"))
		v->sec = SEC_EXC;
	else
		v->sec = SEC_TASK;
	for (i = 0; i < r->n; i++)
		if (in_section(v->sec, r->e[i].sec) && !r->e[i].unreliable)
			reliable++;
	v->reliable = reliable > 0;
	for (i = 0; i < r->n; i++) {
		struct sl_entry *e = &r->e[i];

		if (!in_section(v->sec, e->sec) || (v->reliable && e->unreliable))
			continue;
		if (skipping && is(e->func, machinery))
			continue;
		/*
		 * The faulting function first, from the RIP: line, as the dump
		 * readers have it, unless the trace starts at it.
		 */
		if (skipping && r->have_rip && (strcmp(e->func, r->rip.func) || e->off != r->rip.off) &&
		    (r->kind == K_GUARD || r->kind == K_DOUBLE_FAULT || r->kind == K_BARE_DF))
			v->frame[v->nframes++] = &r->rip;
		skipping = 0;
		if (chained(v, r, i))
			v->frame[v->nframes++] = e;
		else
			v->dropped++;
	}
}

/* The recursion folded into a cycle: the engine's fold, as the dump readers fold. */
void sl_cycle(struct sl_verdict *v)
{
	static const char *names[SL_MAX_ENTRIES + 1];
	static long bytes[SL_MAX_ENTRIES + 1];
	int i;

	for (i = 0; i < v->nframes; i++) {
		names[i] = v->frame[i]->func;
		bytes[i] = v->frame[i]->bytes;
	}
	stackov_fold(names, bytes, v->nframes, &v->cyc_start, &v->cyc_period, &v->cyc_reps,
		     &v->cyc_bytes);
}

/*
 * A '?' entry printed as func+size/size is the first byte of the function
 * after func: a pointer to that function left on the stack (6.12's
 * kthread() keeps its threadfn there, and it prints as the function
 * before it), unless the byte before it ends a call. Given vmlinux, the
 * call is known.
 */
static int pointer_to_next(const struct sl_entry *e)
{
	if (e->call == CALL_NONE)
		return 1;
	return e->call == CALL_UNKNOWN && e->unreliable && e->size && e->off == e->size;
}

/* Where the task came in: its syscall, its kthread function, the idle loop. */
static void find_entry(const struct sl_report *r, struct sl_verdict *v)
{
	static const char * const idle[] = {
		"cpu_startup_entry", "do_idle", "start_secondary", "rest_init",
		"secondary_startup_64", "secondary_startup_64_no_verify", NULL
	};
	/* The way back to user mode after an interrupt (x86 before and after 5.8). */
	static const char * const user_return[] = {
		"retint_user", "ret_from_intr", "irqentry_exit_to_user_mode", NULL
	};
	int i, rel = 0, sys = -1, kthread = -1, syscall_entry = 0, idle_seen = 0;
	char name[SL_NAME + 16];
	long nr;

	for (i = 0; i < r->n; i++)
		rel += !r->e[i].unreliable && in_section(SEC_TASK, r->e[i].sec);
	for (i = 0; i < r->n; i++) {
		const struct sl_entry *e = &r->e[i];

		if (!in_section(SEC_TASK, e->sec) || (rel && e->unreliable))
			continue;
		if (prefixed(e->func, syscall_prefixes))
			sys = i;	/* the outermost one wins */
		if (!strncmp(e->func, "entry_SYSCALL_64", 16) || !strcmp(e->func, "do_syscall_64") ||
		    !strcmp(e->func, "el0_svc") || !strcmp(e->func, "el0_svc_common") ||
		    !strcmp(e->func, "invoke_syscall") ||
		    !strncmp(e->func, "entry_SYSENTER", 14) || !strcmp(e->func, "do_fast_syscall_32") ||
		    !strcmp(e->func, "do_int80_syscall_32"))
			syscall_entry = 1;
		if (!strcmp(e->func, "kthread") && kthread < 0 && i > 0)
			kthread = i;
		if (is(e->func, idle))
			idle_seen = 1;
	}
	if (sys >= 0) {
		sl_syscall_name(r->e[sys].func, name, sizeof(name));
		if (r->arm64) {	/* the syscall table's name on arm64 */
			char x64[sizeof(name)];

			snprintf(x64, sizeof(x64), "%s", name);
			snprintf(name, sizeof(name), "__arm64_sys_%.120s", x64 + strlen("__x64_sys_"));
		}
		nr = sl_syscall_nr(name);
		if (nr >= 0)
			snprintf(v->entry, sizeof(v->entry), "syscall %ld (%s)", nr, name);
		else
			snprintf(v->entry, sizeof(v->entry), "syscall ? (%s)", name);
		return;
	}
	/* No syscall's frame: the number its user registers saved (ORIG_RAX). */
	if (r->orig_rax >= 0 && !r->arm64) {
		const char *n = r->orig_rax < (long)ARRAY_SIZE(x64_syscalls) ? x64_syscalls[r->orig_rax] : NULL;

		if (n)
			snprintf(v->entry, sizeof(v->entry), "syscall %ld (__x64_sys_%s)", r->orig_rax, n);
		else
			snprintf(v->entry, sizeof(v->entry), "syscall %ld (?)", r->orig_rax);
		return;
	}
	if (syscall_entry) {
		snprintf(v->entry, sizeof(v->entry), "syscall ? (?)");
		return;
	}
	/* An interrupt of user mode, on its way back there: a user task's. */
	for (i = 0; i < r->n; i++)
		if (in_section(SEC_TASK, r->e[i].sec) && !(rel && r->e[i].unreliable) &&
		    is(r->e[i].func, user_return)) {
			snprintf(v->entry, sizeof(v->entry), "interrupt of user mode (%s)", r->e[i].func);
			return;
		}
	if (kthread > 0) {
		/* The entry just inside kthread(): its threadfn. */
		for (i = kthread - 1; i >= 0; i--)
			if (in_section(SEC_TASK, r->e[i].sec) && !(rel && r->e[i].unreliable) &&
			    !(!rel && pointer_to_next(&r->e[i])))
				break;
		snprintf(v->entry, sizeof(v->entry), "kthread function %s", i >= 0 ? r->e[i].func : "unknown");
		return;
	}
	if (idle_seen) {
		snprintf(v->entry, sizeof(v->entry), "the idle loop");
		return;
	}
	snprintf(v->entry, sizeof(v->entry), "unknown (%s)",
		 r->ended && !r->dropped ? "the trace names no syscall, kthread or idle loop" :
		 "the trace is cut off before its entry");
}

/* An entry of the trace is one of @names, or, with @prefix, begins with one. */
static int any_frame(const struct sl_report *r, const char * const *names, int prefix)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (prefix ? prefixed(r->e[i].func, names) : is(r->e[i].func, names))
			return 1;
	return 0;
}

/*
 * A kernel thread known by its name: pid 1 before it execs init
 * ("swapper", running kernel_init), and the kernel's own threads.
 */
static int kthread_name(const struct sl_report *r)
{
	static const char * const names[] = {
		"kthreadd", "ksoftirqd/", "kswapd", "kcompactd", "khugepaged", "migration/",
		"rcu_", "jbd2/", "xfsaild/", "kauditd", "watchdog/", "irq/", "khungtaskd",
		"oom_reaper", "kblockd", "cpuhp/", "idle_inject/", "napi/", "scsi_eh_", NULL
	};

	if (r->pid == 1 && !strcmp(r->comm, "swapper"))
		return 1;
	return r->pid > 0 && prefixed(r->comm, names);
}

static void find_context(const struct sl_report *r, struct sl_verdict *v)
{
	static const char * const irq_exit[] = { "irq_exit_rcu", "__irq_exit_rcu", "irq_exit", NULL };
	/* How an interrupt came in: the frames of its entry, x86's and arm64's. */
	static const char * const irq_entry[] = {
		"common_interrupt", "asm_common_interrupt", "__common_interrupt", "sysvec_",
		"asm_sysvec_", "__sysvec_", "do_IRQ", "handle_irq", "irq_exit", "__irq_exit_rcu",
		"smp_apic_timer_interrupt", "apic_timer_interrupt", "call_on_irq_stack",
		"el1_interrupt", "el0_interrupt", "gic_handle_irq", "handle_domain_irq", NULL
	};
	char who[96], work[SL_NAME];
	int i, softirq = 0;

	/* The comm's bytes as they are: the text escapes them, the JSON too. */
	if (r->pid >= 0)
		snprintf(who, sizeof(who), "pid %d \"%s\"", r->pid, r->comm);
	else
		snprintf(who, sizeof(who), "pid ? (the log names no task)");
	for (i = 0; i < v->nframes; i++)
		if (is(v->frame[i]->func, softirq_fns))
			softirq = 1;
	if (v->sec == SEC_IRQ || v->sec == SEC_SOFTIRQ) {
		if (!softirq && v->sec == SEC_IRQ && !any_frame(r, irq_entry, 1)) {
			/* Cut before the interrupt's entry: a handler's, or a softirq's, frames */
			snprintf(v->ctx_kind, sizeof(v->ctx_kind), "unknown");
			snprintf(v->context, sizeof(v->context),
				 "on the IRQ stack, interrupting %s: hardirq or softirq, the trace is cut before the interrupt's entry says which",
				 who);
			return;
		}
		if (softirq || v->sec == SEC_SOFTIRQ) {
			snprintf(v->ctx_kind, sizeof(v->ctx_kind), "softirq");
			snprintf(v->context, sizeof(v->context), "softirq (%s on the IRQ stack, interrupting %s)",
				 any_frame(r, irq_exit, 0) ? "from irq_exit()" : "run", who);
		} else {
			snprintf(v->ctx_kind, sizeof(v->ctx_kind), "hardirq");
			snprintf(v->context, sizeof(v->context), "hardirq (on the IRQ stack, interrupting %s)", who);
		}
		return;
	}
	if (v->sec != SEC_TASK) {
		snprintf(v->ctx_kind, sizeof(v->ctx_kind), "%s", v->sec == SEC_NMI ? "nmi" : "exception");
		snprintf(v->context, sizeof(v->context), "the %s exception stack, interrupting %s", r->stack, who);
		return;
	}
	if (softirq) {
		snprintf(v->ctx_kind, sizeof(v->ctx_kind), "softirq");
		snprintf(v->context, sizeof(v->context), "softirq (on the stack of %s)", who);
		return;
	}
	if (r->wq[0] || !strncmp(r->comm, "kworker/", 8) || !strcmp(v->entry, "kthread function worker_thread")) {
		work[0] = '\0';
		if (r->wq_fn[0])
			snprintf(work, sizeof(work), "%s", r->wq_fn);
		for (i = 1; !work[0] && i < r->n; i++)
			if (!strcmp(r->e[i].func, "process_one_work") && !r->e[i - 1].unreliable)
				snprintf(work, sizeof(work), "%s", r->e[i - 1].func);
		snprintf(v->ctx_kind, sizeof(v->ctx_kind), "kworker");
		snprintf(v->context, sizeof(v->context), "kworker (%s, work function %s)", who,
			 work[0] ? work : "unknown");
		return;
	}
	if (!strncmp(v->entry, "kthread function", 16)) {
		snprintf(v->ctx_kind, sizeof(v->ctx_kind), "kthread");
		snprintf(v->context, sizeof(v->context), "kthread (%s)", who);
	} else if (!strncmp(v->entry, "unknown", 7) && kthread_name(r)) {
		snprintf(v->ctx_kind, sizeof(v->ctx_kind), "kthread");
		snprintf(v->context, sizeof(v->context), "kthread (%s, by its name: the trace does not reach its entry)", who);
	} else if (!strncmp(v->entry, "unknown", 7) && r->pid == 0) {
		snprintf(v->ctx_kind, sizeof(v->ctx_kind), "idle");
		snprintf(v->context, sizeof(v->context), "the idle task (%s, by its pid)", who);
	} else if (!strncmp(v->entry, "syscall", 7) || !strncmp(v->entry, "interrupt of user mode", 22)) {
		snprintf(v->ctx_kind, sizeof(v->ctx_kind), "task");
		snprintf(v->context, sizeof(v->context), "task (%s)", who);
	} else if (!strcmp(v->entry, "the idle loop")) {
		snprintf(v->ctx_kind, sizeof(v->ctx_kind), "idle");
		snprintf(v->context, sizeof(v->context), "the idle task (%s)", who);
	} else {
		snprintf(v->ctx_kind, sizeof(v->ctx_kind), "unknown");
		snprintf(v->context, sizeof(v->context), "unknown (%s; the trace does not say task or kthread)", who);
	}
}

/*
 * A frame's subsystem, by its module or the prefix of its name. The block
 * layer and the VFS, the glue between every two of them, are left out.
 */
static const char *subsystem(const struct sl_entry *e)
{
	static const char * const map[][2] = {
		{ "xfs_", "xfs" }, { "ext4_", "ext4" }, { "jbd2_", "jbd2" }, { "btrfs_", "btrfs" },
		{ "f2fs_", "f2fs" }, { "nfs", "nfs" }, { "fuse_", "fuse" }, { "ovl_", "overlayfs" },
		{ "iomap_", "iomap" }, { "dm_", "dm" }, { "__map_bio", "dm" }, { "__split_and_process_bio", "dm" },
		{ "md_", "md" }, { "raid1", "md" }, { "raid10", "md" }, { "raid5", "md" },
		{ "nvme_", "nvme" }, { "scsi_", "scsi" }, { "sd_", "scsi" }, { "loop_", "loop" }, { "lo_rw", "loop" }, { "virtblk_", "virtio_blk" },
		{ "virtio_queue_rq", "virtio_blk" }, { "tcp_", "tcp" }, { "__tcp_", "tcp" },
		{ "ip_", "ip" }, { "__ip_", "ip" }, { "ip6_", "ipv6" }, { "udp_", "udp" },
		{ "__netif_", "net" }, { "netif_", "net" }, { "__dev_queue_xmit", "net" },
		{ "nf_", "netfilter" }, { "br_", "bridge" }, { "bpf_", "bpf" }, { "__bpf_", "bpf" },
		{ "usb_", "usb" }, { "shrink_", "mm" }, { "try_to_free_pages", "mm" },
		{ "__alloc_pages", "mm" },
	};
	static const char * const mods[][2] = {
		{ "dm_mod", "dm" }, { "nvme_core", "nvme" }, { "raid1", "md" }, { "raid10", "md" },
		{ "raid456", "md" }, { "md_mod", "md" }, { "scsi_mod", "scsi" }, { "virtio_blk", "virtio_blk" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mods); i++)
		if (!strcmp(e->mod, mods[i][0]))
			return mods[i][1];
	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (!strncmp(e->func, map[i][0], strlen(map[i][0])))
			return map[i][1];
	return e->mod[0] ? e->mod : NULL;
}

static void find_chain(struct sl_verdict *v)
{
	const char *last = NULL, *s;
	size_t n = 0;
	int i, parts = 0;

	v->chain[0] = '\0';
	for (i = v->nframes - 1; i >= 0 && n < sizeof(v->chain); i--) {
		s = subsystem(v->frame[i]);
		if (!s || (last && !strcmp(s, last)))
			continue;
		n += snprintf(v->chain + n, sizeof(v->chain) - n, "%s%s", parts ? " -> " : "", s);
		last = s;
		parts++;
	}
	if (parts < 2)
		v->chain[0] = '\0';
}

void sl_verdict(struct sl_report *r, struct sl_verdict *v)
{
	int i;

	memset(v, 0, sizeof(*v));
	v->r = r;
	pick_frames(r, v);
	sl_cycle(v);
	find_entry(r, v);
	find_context(r, v);
	find_chain(v);
	/* Below a frame that realigned %rsp, its pad: the caller's size is unknown. */
	for (i = 0; i + 1 < v->nframes; i++)
		if (v->frame[i]->realigns)
			v->frame[i + 1]->bytes = -1;
	v->total = -1;
	for (i = 0; i < v->nframes; i++) {
		long b = v->frame[i]->bytes;

		if (b < 0)
			continue;
		v->total = (v->total < 0 ? 0 : v->total) + b;
		v->known++;
	}
}
