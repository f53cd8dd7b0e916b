// SPDX-License-Identifier: GPL-2.0
/*
 * The life of a kernel stack: freed when its task exits and reused from
 * the per-CPU cache, counted in KiB in NR_KERNEL_STACK_KB (KernelStack in
 * /proc/meminfo), and used to some depth. STACK_USE_AFTER_EXIT shows what
 * a pointer into a freed vmap stack does; the others report and return.
 */
#include "lkdtm_ext.h"

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/nodemask.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>

BOUNDED_INT_PARAM(depth, 16, 1, 40, "STACK_DEPTH recursion depth, 256-byte frames");
BOUNDED_INT_PARAM(threads, 8, 1, 64, "STACK_ACCOUNTING kthreads to start");

#define MAX_CACHE 16	/* MAX_CACHED_STACKS in kernel/fork.c */
#define PATTERN 0xa5
#define PATTERN_WORD 0xa5a5a5a5a5a5a5a5UL
#define WAIT_STEP_MS 10
#define WAIT_MAX_MS 3000

/*
 * How many freed stacks each CPU caches: kstack_cache= on the patched
 * kernel (0 to 16, default 2); without the series (patch 0006), the fixed
 * NR_CACHED_STACKS of kernel/fork.c, 2; no cache without CONFIG_VMAP_STACK.
 */
#define NR_CACHED_STACKS 2

static unsigned int cache_size(void)
{
#if defined(CONFIG_VMAP_STACK) && defined(LKDTM_EXT_HAVE_CACHE_SIZE)
	return min_t(unsigned int, vmap_stack_cache_size(), MAX_CACHE);
#elif defined(CONFIG_VMAP_STACK)
	return NR_CACHED_STACKS;
#else
	return 0;
#endif
}

/* Wait up to WAIT_MAX_MS for *@p to become non-NULL; false if it did not. */
static bool wait_for_ptr(void **p)
{
	int waited;

	for (waited = 0; !READ_ONCE(*p) && waited < WAIT_MAX_MS; waited += WAIT_STEP_MS)
		msleep(WAIT_STEP_MS);
	return READ_ONCE(*p);
}

static int sleeper_fn(void *unused)
{
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/* Stop @t and wait until its stack has been released (tsk->stack = NULL). */
static bool stop_and_release(struct task_struct *t)
{
	int waited;

	get_task_struct(t);
	kthread_stop(t);
	for (waited = 0; READ_ONCE(t->stack) && waited < WAIT_MAX_MS; waited += WAIT_STEP_MS)
		msleep(WAIT_STEP_MS);
	waited = !READ_ONCE(t->stack);
	put_task_struct(t);
	return waited;
}

static unsigned long deepest_sp;

static noinline __noclone int depth_frame(int left)
{
	char buf[256];
	int ret;

	memset(buf, left, sizeof(buf));
	barrier_data(buf);
	if (left <= 1) {
		deepest_sp = current_stack_pointer;
		return buf[0];
	}
	ret = depth_frame(left - 1);
	barrier_data(buf);
	return ret + buf[left % sizeof(buf)];
}

/*
 * The bytes never written above the stack's end: stack_not_used() of
 * CONFIG_DEBUG_STACK_USAGE, which distributions leave off. Stacks are
 * allocated zeroed (THREADINFO_GFP has __GFP_ZERO), so it counts the same.
 */
static unsigned long never_used(struct task_struct *p)
{
	unsigned long *n = end_of_stack(p);

	do {
		n++;
	} while (!*n);
	return (unsigned long)n - (unsigned long)end_of_stack(p);
}

static void lkdtm_ext_STACK_DEPTH(void)
{
	unsigned long top = (unsigned long)task_stack_page(current) + THREAD_SIZE;
	unsigned long before = THREAD_SIZE - never_used(current);

	depth_frame(depth.val);
	/* The stack starts zeroed: the first non-zero word is the high-water mark. */
	pr_info("STACK_DEPTH: result depth=%d frame_bytes=256 used_at_deepest=%lu high_water_before=%lu high_water_after=%lu thread_size=%lu\n",
		depth.val, top - deepest_sp, before,
		THREAD_SIZE - never_used(current), THREAD_SIZE);
}

struct reuse_probe {
	void *stack;
	unsigned long stale_words;
	unsigned long words;
};

static noinline __noclone void scribble(void)
{
	char buf[4096];

	memset(buf, PATTERN, sizeof(buf));
	barrier_data(buf);
}

static int reuse_a_fn(void *arg)
{
	struct reuse_probe *p = arg;

	WRITE_ONCE(p->stack, task_stack_page(current));
	scribble();	/* leave a pattern deep in this stack */
	return sleeper_fn(NULL);
}

static int reuse_b_fn(void *arg)
{
	struct reuse_probe *p = arg;
	unsigned long *w = end_of_stack(current) + 1;
	unsigned long *sp = (unsigned long *)(current_stack_pointer - 256);

	/* Below our stack pointer: what A left there, unless it was cleared. */
	for (; w < sp; w++, p->words++)
		if (*w == PATTERN_WORD)
			p->stale_words++;
	WRITE_ONCE(p->stack, task_stack_page(current));
	return sleeper_fn(NULL);
}

/*
 * kthreadd (PID 2) forks every kthread, from its own CPU's stack cache.
 * Pin it to @cpu for the scenario (and back), so that A is forked, exits,
 * and B is forked on the same CPU: then B can get A's stack.
 */
static struct task_struct *pin_kthreadd(int cpu, struct cpumask *saved)
{
	struct pid *pid = find_get_pid(2);
	struct task_struct *kthreadd = get_pid_task(pid, PIDTYPE_PID);

	put_pid(pid);
	if (!kthreadd)
		return NULL;
	cpumask_copy(saved, kthreadd->cpus_ptr);
	set_cpus_allowed_ptr(kthreadd, cpumask_of(cpu));
	return kthreadd;
}

/* Give kthreadd its CPUs back; true if it has them again. */
static bool unpin_kthreadd(struct task_struct *kthreadd, struct cpumask *saved)
{
	bool restored;

	set_cpus_allowed_ptr(kthreadd, saved);
	restored = cpumask_equal(kthreadd->cpus_ptr, saved);
	put_task_struct(kthreadd);
	return restored;
}

/*
 * Start @fn on @cpu and wait until it has recorded its stack in @p; a
 * probe that does not within WAIT_MAX_MS is stopped and -ETIMEDOUT.
 */
static struct task_struct *start_probe(int (*fn)(void *), struct reuse_probe *p,
				       const char *name, int cpu)
{
	struct task_struct *t = kthread_create(fn, p, name);

	if (IS_ERR(t))
		return t;
	kthread_bind(t, cpu);
	wake_up_process(t);
	if (!wait_for_ptr(&p->stack)) {
		stop_and_release(t);
		return ERR_PTR(-ETIMEDOUT);
	}
	return t;
}

static void lkdtm_ext_STACK_REUSE(void)
{
	struct reuse_probe a = {}, b = {};
	struct task_struct *t, *kthreadd, *drain[MAX_CACHE] = {};
	unsigned int n = cache_size();
	int cpu = raw_smp_processor_id(), i;
	bool ok = false;
	cpumask_var_t saved;

	if (!alloc_cpumask_var(&saved, GFP_KERNEL))
		return;
	kthreadd = pin_kthreadd(cpu, saved);
	if (!kthreadd) {
		pr_err("STACK_REUSE: cannot run: no kthreadd\n");
		goto out;
	}
	t = start_probe(reuse_a_fn, &a, "lkdtm_reuse_a", cpu);
	if (IS_ERR(t))
		goto fail;
	/*
	 * Empty this CPU's cache (as many forks as it holds stacks), then let
	 * A go: its stack is then the only one in the cache.
	 */
	for (i = 0; i < n; i++) {
		drain[i] = kthread_run(sleeper_fn, NULL, "lkdtm_drain/%d", i);
		if (IS_ERR(drain[i]))
			drain[i] = NULL;
	}
	if (!stop_and_release(t))
		pr_info("STACK_REUSE: A's stack was not released within %d ms\n", WAIT_MAX_MS);

	t = start_probe(reuse_b_fn, &b, "lkdtm_reuse_b", cpu);
	if (IS_ERR(t))
		goto fail;
	stop_and_release(t);
	for (i = 0; i < n; i++)
		if (drain[i])
			stop_and_release(drain[i]);
	ok = true;
	goto unpin;
fail:
	pr_err("STACK_REUSE: cannot run: starting a probe kthread: %ld\n", PTR_ERR(t));
	for (i = 0; i < n; i++)
		if (drain[i])
			stop_and_release(drain[i]);
unpin:
	/* kthreadd's CPUs first: the result line says whether they came back. */
	if (!unpin_kthreadd(kthreadd, saved))
		pr_err("STACK_REUSE: kthreadd did not get its CPUs back\n");
	else if (ok)
		pr_info("STACK_REUSE: result cpu=%d cache_size=%u a_stack=%p b_stack=%p reused=%d stale_words=%lu of %lu zeroed=%d kthreadd_restored=1\n",
			cpu, n, a.stack, b.stack, a.stack == b.stack, b.stale_words,
			b.words, b.stale_words == 0);
out:
	free_cpumask_var(saved);
}

/*
 * NR_KERNEL_STACK_KB as /proc/meminfo shows it leaves out the per-CPU
 * deltas not yet folded in (up to the vmstat threshold per CPU); the exact
 * value adds them.
 */
static long kernel_stack_kb_exact(void)
{
	long kb = 0;
	int nid, cpu;

	for_each_online_node(nid) {
		struct pglist_data *pgdat = NODE_DATA(nid);

		kb += atomic_long_read(&pgdat->vm_stat[NR_KERNEL_STACK_KB]);
		for_each_online_cpu(cpu)
			kb += per_cpu_ptr(pgdat->per_cpu_nodestats, cpu)
				->vm_node_stat_diff[NR_KERNEL_STACK_KB];
	}
	return kb;
}

/*
 * One measurement, reported as it came out: if some other task forked or
 * exited meanwhile, the numbers say so and the test fails.
 */
static void lkdtm_ext_STACK_ACCOUNTING(void)
{
	struct task_struct **t;
	long before, during, after, mi_before, mi_during, mi_after;
	long expected;
	int i, n = threads.val, started = 0;

	t = kcalloc(n, sizeof(*t), GFP_KERNEL);
	if (!t)
		return;
	mi_before = global_node_page_state(NR_KERNEL_STACK_KB);
	before = kernel_stack_kb_exact();
	for (i = 0; i < n; i++) {
		t[i] = kthread_run(sleeper_fn, NULL, "lkdtm_acct/%d", i);
		if (IS_ERR(t[i]))
			break;
		started++;
	}
	mi_during = global_node_page_state(NR_KERNEL_STACK_KB);
	during = kernel_stack_kb_exact();
	for (i = 0; i < started; i++)
		stop_and_release(t[i]);
	mi_after = global_node_page_state(NR_KERNEL_STACK_KB);
	after = kernel_stack_kb_exact();
	expected = started * (THREAD_SIZE / 1024);
	kfree(t);
	pr_info("STACK_ACCOUNTING: result threads=%d thread_size_kb=%lu before_kb=%ld during_kb=%ld after_kb=%ld grew_kb=%ld expected_kb=%ld fell_kb=%ld\n",
		started, THREAD_SIZE / 1024, before, during, after, during - before,
		expected, during - after);
	pr_info("STACK_ACCOUNTING: as /proc/meminfo KernelStack shows it (per-CPU deltas not folded in): before_kb=%ld during_kb=%ld after_kb=%ld\n",
		mi_before, mi_during, mi_after);
}

static unsigned long *uae_ptr;

static int uae_victim_fn(void *unused)
{
	unsigned long local = 0x57a1eUL;

	WRITE_ONCE(uae_ptr, &local);
	return sleeper_fn(NULL);
}

static void lkdtm_ext_STACK_USE_AFTER_EXIT(void)
{
	unsigned int per_cpu = cache_size() + 1;
	struct task_struct **fill, *victim;
	int cpu, i, n = 0, waited;
	unsigned long *p;

	WRITE_ONCE(uae_ptr, NULL);
	fill = kcalloc(num_online_cpus() * per_cpu, sizeof(*fill), GFP_KERNEL);
	if (!fill)
		return;
	victim = kthread_create(uae_victim_fn, NULL, "lkdtm_uae");
	if (IS_ERR(victim)) {
		pr_err("STACK_USE_AFTER_EXIT: cannot run: kthread_create: %ld\n", PTR_ERR(victim));
		goto out;
	}
	kthread_bind(victim, raw_smp_processor_id());
	wake_up_process(victim);
	if (!wait_for_ptr((void **)&uae_ptr)) {
		pr_err("STACK_USE_AFTER_EXIT: cannot run: the victim did not start within %d ms\n",
		       WAIT_MAX_MS);
		stop_and_release(victim);
		goto out;
	}
	p = READ_ONCE(uae_ptr);

	/*
	 * Fill every CPU's stack cache (one more exit than it holds stacks),
	 * so that the victim's stack is really freed.
	 */
	for_each_online_cpu(cpu)
		for (i = 0; i < per_cpu; i++) {
			fill[n] = kthread_create_on_cpu(sleeper_fn, NULL, cpu, "lkdtm_fill/%u");
			if (IS_ERR(fill[n]))
				continue;
			wake_up_process(fill[n++]);
		}
	for (i = 0; i < n; i++)
		stop_and_release(fill[i]);
	pr_info("STACK_USE_AFTER_EXIT: %d fillers exited (cache size %u); the victim's local variable is at %p\n",
		n, per_cpu - 1, p);

	stop_and_release(victim);
	if (IS_ENABLED(CONFIG_VMAP_STACK)) {
		/* Freed after an RCU grace period, then unmapped by vfree(). */
		for (waited = 0; waited < WAIT_MAX_MS; waited += WAIT_STEP_MS) {
			rcu_barrier();
			if (!vmalloc_to_page(p))
				break;
			msleep(WAIT_STEP_MS);
		}
		if (vmalloc_to_page(p)) {
			pr_err("STACK_USE_AFTER_EXIT: cannot run: the victim's stack is still mapped after %d ms (back in a stack cache?)\n",
			       WAIT_MAX_MS);
			goto out;
		}
		vm_unmap_aliases();
		pr_info("STACK_USE_AFTER_EXIT: the stack is unmapped (freed after %d ms); reading %p\n",
			waited, p);
		pr_err("FAIL: STACK_USE_AFTER_EXIT: read %#lx through a pointer into a freed, unmapped stack; nothing caught it\n",
		       READ_ONCE(*p));
	} else {
		/* Nothing can catch this on a linear-map stack: the lesson. */
		pr_info("STACK_USE_AFTER_EXIT: the stack is back in the page allocator; reading %p\n",
			p);
		pr_info("STACK_USE_AFTER_EXIT: result vmap_stack=0 read=%#lx: the read through a pointer into a freed stack went unnoticed\n",
			READ_ONCE(*p));
	}
out:
	kfree(fill);
}

static struct crashtype crashtypes[] = {
	CRASHTYPE(STACK_USE_AFTER_EXIT, "a pointer into an exited kthread's freed stack, dereferenced"),
	CRASHTYPE(STACK_REUSE, "the next kthread gets the dead one's stack from the cache, zeroed"),
	CRASHTYPE(STACK_ACCOUNTING, "N kthreads move KernelStack by N * THREAD_SIZE KiB"),
	CRASHTYPE(STACK_DEPTH, "recurse to depth= and report the stack use measured"),
};

CRASHTYPE_CATEGORY(lifecycle, crashtypes);
