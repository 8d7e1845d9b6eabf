// SPDX-License-Identifier: GPL-2.0
/*
 * The software PURR: on every context switch, the switching CPU's core
 * brings its calibrated clock up to date, the CPU's thread closes its spell
 * (crediting the thread, and the process and cgroup that ran: at once, or
 * through the CPU's pending charge when the same process runs there again),
 * and opens the next one.  The loader (sched_purr.c) fills cpus[] and
 * shares[].
 *
 * Only the few task_struct fields used are declared; CO-RE relocates them
 * against the running kernel's BTF.
 */
#include "sched_purr_abi.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

struct kernfs_node {
	__u64 id;
} __attribute__((preserve_access_index));

struct cgroup {
	struct kernfs_node *kn;
} __attribute__((preserve_access_index));

struct css_set {
	struct cgroup *dfl_cgrp;
} __attribute__((preserve_access_index));

typedef struct {
	int counter;
} atomic_t;

struct signal_struct {
	atomic_t live;
} __attribute__((preserve_access_index));

struct task_struct {
	int pid;
	int tgid;
	char comm[SP_COMM_LEN];
	__u64 start_time;
	struct task_struct *group_leader;
	struct signal_struct *signal;
	struct css_set *cgroups;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);		/* the loader sets the possible CPUs */
	__type(key, __u32);
	__type(value, struct sp_cpu);
} cpus SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct sp_shares);
} shares SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct sp_core);
} cores SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, struct sp_task);
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct sp_cgroup);
} cgroups SEC(".maps");

/* dt x c, c = share / 2^16, without overflow for any dt. */
static __always_inline __u64 scale(__u64 dt, __u32 share)
{
	return (dt >> SP_SHARE_SHIFT) * share + (((dt & ((1u << SP_SHARE_SHIFT) - 1)) * share) >>
						SP_SHARE_SHIFT);
}

static __always_inline void charge_task(struct task_struct *leader, __u32 tgid, __u64 start,
					__u64 clock, __u64 busy)
{
	struct sp_task *t = bpf_map_lookup_elem(&tasks, &tgid);

	if (t && t->start == start) {
		__sync_fetch_and_add(&t->clock, clock);
		__sync_fetch_and_add(&t->busy, busy);
		return;
	}
	/* New, or a new process under a PID reused: start it afresh. */
	struct sp_task fresh = { .clock = clock, .busy = busy, .start = start };
	bpf_probe_read_kernel_str(fresh.comm, sizeof fresh.comm, leader->comm);
	bpf_map_update_elem(&tasks, &tgid, &fresh, BPF_ANY);
}

static __always_inline void charge_cgroup(__u64 id, __u64 clock, __u64 busy)
{
	struct sp_cgroup *g = bpf_map_lookup_elem(&cgroups, &id);

	if (!g) {
		struct sp_cgroup fresh = { .clock = clock, .busy = busy };
		if (bpf_map_update_elem(&cgroups, &id, &fresh, BPF_NOEXIST) == 0)
			return;
		if (!(g = bpf_map_lookup_elem(&cgroups, &id)))
			return;
	}
	__sync_fetch_and_add(&g->clock, clock);
	__sync_fetch_and_add(&g->busy, busy);
}

/* A CPU's pending charge into the maps.  Its process was charged (so made
 * an entry) when it began pending: one no longer there, or a new process
 * under its PID, was evicted or retired, and is not made again. */
static __always_inline void flush(const struct sp_pending *p)
{
	__u32 tgid = p->tgid;
	struct sp_task *t = bpf_map_lookup_elem(&tasks, &tgid);

	if (t && t->start == p->start) {
		__sync_fetch_and_add(&t->clock, p->clock);
		__sync_fetch_and_add(&t->busy, p->busy);
	}
	charge_cgroup(p->cgroup, p->clock, p->busy);
}

/*
 * What ran is taken from prev itself, not from what this CPU's slot noted
 * at the last switch: a switch the program did not see (or one before it
 * was loaded) then costs one spell's split between threads, never a
 * process's charge.
 */
SEC("tp_btf/sched_switch")
int BPF_PROG(sched_switch, _Bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 cpu = bpf_get_smp_processor_id(), core, slot, counted, tgid = 0;
	__u32 ran = prev->pid != 0, running = next->pid != 0;
	__u64 now, clock = 0, busy = 0, next_cgroup = 0, start = 0, cgroup = 0;
	struct sp_pending out = {};
	struct task_struct *leader = 0;
	struct sp_pending *p;
	struct sp_shares *sh;
	struct sp_core *c;
	struct sp_cpu *where;
	struct sp_thread *t;
	_Bool direct = 0;

	where = bpf_map_lookup_elem(&cpus, &cpu);
	if (!where)
		return 0;
	core = where->core;
	slot = where->slot;
	if (core == SP_NO_CORE || slot >= SP_MAX_THREADS)
		return 0;
	c = bpf_map_lookup_elem(&cores, &core);
	sh = bpf_map_lookup_elem(&shares, &core);
	if (!c || !sh)
		return 0;
	/* The thread's pointer is formed here, while slot is known to be in
	 * range: kernels before 6.3 or so forget a 32-bit bound once the value
	 * is spilled across the helper calls below. */
	t = &c->t[slot];
	barrier_var(t);
	p = &t->pending;
	if (running)
		next_cgroup = next->cgroups->dfl_cgrp->kn->id;
	if (ran) {
		tgid = prev->tgid;
		leader = prev->group_leader;
		start = leader->start_time;
		/* the cgroup noted when its spell began (a task moved meanwhile
		 * is charged where it ran); current is still prev, should this
		 * CPU's slot not know prev */
		cgroup = t->tgid == tgid ? t->cgroup : bpf_get_current_cgroup_id();
	}
	now = bpf_ktime_get_ns();

	bpf_spin_lock(&c->lock);
	/* 64 bits: a spilled 32-bit value loses its bound on kernels before
	 * 6.3 or so, and k indexes share[] */
	__u64 k = c->nbusy;
	if (k > SP_MAX_THREADS)
		k = SP_MAX_THREADS;
	if (c->last && now > c->last)
		c->acc += scale(now - c->last, sh->share[k]);
	c->last = now;
	counted = t->running;	/* what nbusy holds for this thread */
	if (ran && t->t0 && now > t->t0 && c->acc >= t->acc0) {
		clock = c->acc - t->acc0;
		busy = now - t->t0;
		t->clock += clock;
		t->busy += busy;
		if (p->tgid == tgid && p->start == start && p->cgroup == cgroup) {
			/* the same process again: add up here */
			p->clock += clock;
			p->busy += busy;
			if (p->busy >= SP_FLUSH_NS || (!running && now - p->since >= SP_FLUSH_NS)) {
				out = *p;
				p->clock = p->busy = 0;
				p->since = now;
			}
		} else {
			/* another: what the last one holds goes to the maps, and
			 * this spell straight there (making its entries) */
			if (p->busy)
				out = *p;
			p->tgid = tgid;
			p->start = start;
			p->cgroup = cgroup;
			p->clock = p->busy = 0;
			p->since = now;
			direct = 1;
		}
	}
	t->running = running;
	t->acc0 = c->acc;
	t->t0 = now;
	t->tgid = running ? next->tgid : 0;
	t->cgroup = next_cgroup;
	c->nbusy = (__u32)(k - (counted && k) + running);
	bpf_spin_unlock(&c->lock);

	if (out.busy)
		flush(&out);
	if (direct) {
		charge_task(leader, tgid, start, clock, busy);
		charge_cgroup(cgroup, clock, busy);
	}
	return 0;
}

/* A process that execs takes the new program's name. */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(sched_process_exec, struct task_struct *p)
{
	__u32 tgid = p->tgid;
	struct sp_task *t = bpf_map_lookup_elem(&tasks, &tgid);

	if (t && t->start == p->group_leader->start_time)
		bpf_probe_read_kernel_str(t->comm, sizeof t->comm, p->comm);
	return 0;
}

/* The last thread of a process has gone: note when, so the loader can
 * retire it a while later. */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(sched_process_exit, struct task_struct *p)
{
	__u32 tgid = p->tgid;
	struct sp_task *t;

	if (p->signal->live.counter != 0)
		return 0;
	t = bpf_map_lookup_elem(&tasks, &tgid);
	if (t && t->start == p->group_leader->start_time)
		t->exited = bpf_ktime_get_ns();
	return 0;
}
