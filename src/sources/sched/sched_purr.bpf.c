// SPDX-License-Identifier: GPL-2.0
/*
 * The software PURR: on every context switch, the switching CPU's core
 * brings its calibrated clock up to date, the CPU's thread closes its spell
 * (crediting the thread, and the process and cgroup that ran: at once, or
 * through the CPU's pending charge when the same process runs there again),
 * and opens the next one.  The idle loop's start (cpu_idle) does the first
 * two for a switch to idle the kernel left untraced.  The loader
 * (sched_purr.c) fills cpus[] and shares[].  What the program reads of the
 * kernel, and the charge maps with what charges them, are in the two
 * headers below: one object still, one skeleton for the loader.
 */
#include "sched_purr_abi.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "sched_purr_charge.bpf.h"
#include "sched_purr_clock.h"
#include "sched_purr_kernel.bpf.h"

char LICENSE[] SEC("license") = "GPL";

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

/* A spell a CPU closes: whose it was, what it earned, and where that goes. */
struct spell {
	__u64 start;		/* its process's leader's start_time */
	__u64 cgroup;
	__u64 clock, busy;
	struct sp_pending out;	/* a pending charge to flush into the maps */
	__u32 tgid;
	__u64 seq;		/* its CPU's begun for the charge leaving the slot, or 0 */
	_Bool direct;		/* charge the spell straight to the maps */
	_Bool gone;		/* its process's last thread is exiting */
};

/* Where a switch closes two spells (cut_spell's first part), that one is
 * kept here, per CPU: the stack has no room for both. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct spell);
} scratch SEC(".maps");

/* x x part / whole, part <= whole (as a share of 2^16, without overflow). */
static __always_inline __u64 share_of(__u64 x, __u64 part, __u64 whole)
{
	__u64 f;

	if (part >= whole)
		return x;
	f = whole < (1ull << 47) ? (part << SP_SHARE_SHIFT) / whole : part / (whole >> SP_SHARE_SHIFT);
	return sp_scale(x, (__u32)f);
}

/* Under the core's lock: thread t's spell, run by s's process, ends now,
 * when the core's clock stands at acc (running: the CPU goes on to a task,
 * not idle). */
static __always_inline void close_spell(struct sp_thread *t, __u64 now, __u64 acc,
					const struct cpu_time *ct, _Bool running, struct spell *s)
{
	struct sp_pending *p = &t->pending;
	__u64 dt, ran;

	if (!t->t0 || now <= t->t0 || acc < t->acc0)
		return;
	/* A spell is timed by the wall clock, at the tracepoint; on a CPU the
	 * hypervisor steals from, as the kernel times a task's run, by the
	 * runqueue's clock without the steal: that time was not the thread's
	 * to use. */
	dt = now - t->t0;
	ran = dt;
	if (ct->unstolen && t->task0 && ct->stolen)
		ran = ct->unstolen > t->task0 ? ct->unstolen - t->task0 : 0;
	s->clock = share_of(acc - t->acc0, ran, dt);
	s->busy = ran < dt ? ran : dt;
	t->clock += s->clock;
	t->busy += s->busy;
	if (p->tgid == s->tgid && p->start == s->start && p->cgroup == s->cgroup) {
		/* the same process again: add up here */
		p->clock += s->clock;
		p->busy += s->busy;
		if (p->busy >= SP_FLUSH_NS || (!running && now - p->since >= SP_FLUSH_NS)) {
			s->out = *p;
			p->clock = p->busy = 0;
			p->since = now;
		}
	} else {
		/* another: what the last one holds goes to the maps, and this
		 * spell straight there (making its entries) */
		if (p->busy)
			s->out = *p;
		p->tgid = s->tgid;
		p->start = s->start;
		p->cgroup = s->cgroup;
		p->clock = p->busy = 0;
		p->since = now;
		s->direct = 1;
	}
}

/* Under the core's lock: the spell the slot noted, for closing it without
 * the task at hand (a switch from idle, the idle loop). */
static __always_inline void slot_owner(const struct sp_thread *t, struct spell *s)
{
	s->tgid = t->tgid;
	s->start = t->start;
	s->cgroup = t->cgroup;
}

/*
 * Under the core's lock: the slot's spell was cut at `at` by switches the
 * program did not see, prev having run since (the kernel's record of its
 * start says so).  The part before is closed for the slot's owner (into
 * u) where the slot had it busy; idle, it is nobody's.  The spell goes on
 * from at for prev's process (s).  Its clocks at that moment are taken in
 * proportion to the time, as nothing read them then.
 */
static __always_inline void cut_spell(struct sp_core *c, struct sp_thread *t, __u64 at, __u64 now,
				      const struct cpu_time *ct, const struct spell *s, struct spell *u)
{
	__u64 whole = now - t->t0, part = at - t->t0;
	__u64 acc = t->acc0 + share_of(c->acc - t->acc0, part, whole);
	struct cpu_time then = *ct;

	if (ct->unstolen && t->task0 && ct->unstolen > t->task0)
		then.unstolen = t->task0 + share_of(ct->unstolen - t->task0, part, whole);
	if (t->running) {
		slot_owner(t, u);
		close_spell(t, at, acc, &then, 1, u);
	}
	t->t0 = at;
	t->acc0 = acc;
	if (t->task0)
		t->task0 = then.unstolen;
	t->tgid = s->tgid;
	t->start = s->start;
	t->cgroup = s->cgroup;
}

/* Under the core's lock: thread t's next spell begins now, running a task
 * of process tgid or idle; k busy threads counted t as counted. */
static __always_inline void open_spell(struct sp_core *c, struct sp_thread *t, __u64 now,
				       const struct cpu_time *ct, __u64 k, __u32 counted, __u32 running, __u32 tgid,
				       __u64 start, __u64 cgroup)
{
	t->running = running;
	t->acc0 = c->acc;
	t->t0 = now;
	t->task0 = ct->unstolen;
	t->tgid = tgid;
	t->start = start;
	t->cgroup = cgroup;
	c->nbusy = (__u32)(k - (counted && k) + running);
}

/* Under the core's lock, after close_spell: a charge that leaves the slot
 * for the maps is counted begun before a reader could see the slot without
 * it. */
static __always_inline void leaving(struct sp_cpu *here, struct spell *s)
{
	if (s->out.busy || s->direct)
		s->seq = ++here->begun;
}

/* After the lock: what close_spell left for the maps, then counted landed
 * (the helpers' calls keep the store after the charges). */
static __always_inline void charge(struct sp_cpu *here, const struct spell *s,
				   const struct task_struct *leader)
{
	if (s->out.busy)
		flush(&s->out);
	if (s->direct) {
		charge_task(leader, s->tgid, s->start, s->clock, s->busy, s->gone);
		charge_cgroup(s->cgroup, s->clock, s->busy);
	}
	if (s->seq)
		here->landed = s->seq;
}

/* This CPU's slot and its core's records; 0 where the CPU is not counted.
 * The slot's pointer is formed here, while slot is known to be in range:
 * kernels before 6.3 or so forget a 32-bit bound once the value is spilled
 * across helper calls. */
static __always_inline struct sp_thread *this_thread(struct sp_core **c, struct sp_shares **sh,
						     struct sp_cpu **here)
{
	__u32 cpu = bpf_get_smp_processor_id(), core, slot;
	struct sp_cpu *where = bpf_map_lookup_elem(&cpus, &cpu);
	struct sp_thread *t;

	if (!where)
		return 0;
	*here = where;
	core = where->core;
	slot = where->slot;
	if (core == SP_NO_CORE || slot >= SP_MAX_THREADS)
		return 0;
	*c = bpf_map_lookup_elem(&cores, &core);
	*sh = bpf_map_lookup_elem(&shares, &core);
	if (!*c || !*sh)
		return 0;
	t = &(*c)->t[slot];
	barrier_var(t);
	return t;
}

/*
 * What ran is taken from prev itself, not from what this CPU's slot noted
 * at the last switch.  Where the two differ, the kernel switched unseen
 * (some kernels leave switches untraced: one 6.18 kernel, every switch out
 * of PID 1's threads); the kernel's record of when prev began to run then
 * says where the slot's spell ends and prev's begins, so that neither what
 * ran before nor idle time is charged to prev.  A CPU found idle that the
 * slot has busy closes the slot's own spell, as cpu_idle does.  A switch
 * between two threads of the spell's own process leaves the spell alone.
 */
SEC("tp_btf/sched_switch")
int BPF_PROG(sched_switch, _Bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 ran = prev->pid != 0, running = next->pid != 0, counted;
	__u64 now, began, next_cgroup = 0, next_start = 0;
	struct cpu_time ct;
	struct task_struct *leader = 0;
	struct spell s = {}, *before = 0;
	_Bool unseen;
	__u32 zero = 0;
	struct sp_shares *sh;
	struct sp_core *c;
	struct sp_cpu *here;
	struct sp_thread *t = this_thread(&c, &sh, &here);

	if (!t)
		return 0;
	if (running) {
		next_cgroup = next->cgroups->dfl_cgrp->kn->id;
		next_start = next->group_leader->start_time;
	}
	if (ran) {
		s.tgid = prev->tgid;
		s.gone = prev->signal->live.counter == 0;
		leader = prev->group_leader;
		s.start = leader->start_time;
		/* the cgroup noted when its spell began (a task moved meanwhile
		 * is charged where it ran); current is still prev, should this
		 * CPU's slot not know prev */
		s.cgroup = t->tgid == s.tgid ? t->cgroup : bpf_get_current_cgroup_id();
	}
	/* Another thread of the process whose spell this is, in its cgroup:
	 * the CPU stays busy for the same owner and the spell goes on, with
	 * neither a clock read nor the core's lock.  (Only this CPU writes
	 * its slot's owner.) */
	if (ran && running && t->running && t->tgid == s.tgid && next->tgid == s.tgid &&
	    t->start == s.start && next_start == s.start && t->cgroup == next_cgroup)
		return 0;
	now = bpf_ktime_get_ns();
	/* (through a task that is not the idle one, which is in no CFS runqueue) */
	ct = cpu_time(ran ? prev : next);
	/* The slot does not hold prev's process: where prev's run began
	 * within the slot's spell, the spell is cut there, its first part
	 * kept aside.  (Decided before the lock: only this CPU writes its
	 * slot, and the lock only moves now on.) */
	unseen = ran && (!t->running || t->tgid != s.tgid || t->start != s.start);
	if (unseen) {
		began = began_running(prev, &ct, now);
		if (began > t->t0 && began < now && (before = bpf_map_lookup_elem(&scratch, &zero)))
			__builtin_memset(before, 0, sizeof *before);
	}

	bpf_spin_lock(&c->lock);
	__u64 k = sp_core_advance(c, sh, &now);
	counted = t->running;	/* what nbusy holds for this thread */
	if (t->t0 && (counted != ran || unseen))
		t->missed++;	/* the CPU changed state or process unseen */
	if (before) {
		cut_spell(c, t, began, now, &ct, &s, before);
		leaving(here, before);
	}
	if (!ran && counted)
		slot_owner(t, &s);
	if (ran || counted)
		close_spell(t, now, c->acc, &ct, running, &s);
	leaving(here, &s);
	open_spell(c, t, now, &ct, k, counted, running, running ? next->tgid : 0, next_start,
		   next_cgroup);
	bpf_spin_unlock(&c->lock);

	if (before)
		charge(here, before, 0);
	charge(here, &s, ran ? leader : 0);
	return 0;
}

/*
 * The idle loop begins on this CPU.  Its slot has it idle already, but for
 * the switch to idle the kernel did not trace (some do not trace them
 * all): then the slot's spell ends here, and the core stops counting the
 * thread busy now, not at the CPU's next switch, which may be a second
 * away.
 */
SEC("tp_btf/cpu_idle")
int BPF_PROG(cpu_idle, unsigned int state, unsigned int cpu_id)
{
	struct spell s = {};
	struct sp_shares *sh;
	struct sp_core *c;
	struct sp_cpu *here;
	struct sp_thread *t;
	struct cpu_time ct;
	__u64 now;

	if (state == (unsigned int)-1)	/* PWR_EVENT_EXIT */
		return 0;
	t = this_thread(&c, &sh, &here);
	if (!t || !t->running)	/* only this CPU makes its slot busy */
		return 0;
	now = bpf_ktime_get_ns();
	/* (only the idle task at hand, in no CFS runqueue: the spell the
	 * kernel left untraced is taken at its length) */
	ct = (struct cpu_time){};

	bpf_spin_lock(&c->lock);
	if (t->running) {
		__u64 k = sp_core_advance(c, sh, &now);
		t->missed++;
		slot_owner(t, &s);
		close_spell(t, now, c->acc, &ct, 0, &s);
		leaving(here, &s);
		open_spell(c, t, now, &ct, k, 1, 0, 0, 0, 0);
	}
	bpf_spin_unlock(&c->lock);

	charge(here, &s, 0);
	return 0;
}

/* A process that execs takes the new program's name. */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(sched_process_exec, struct task_struct *p)
{
	struct sp_task *t = task_slot(p->tgid, p->group_leader->start_time, 0);

	if (t)
		bpf_probe_read_kernel_str(t->comm, sizeof t->comm, p->comm);
	return 0;
}

/* The last thread of a process has gone: note when, so the loader can
 * retire it a while later. */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(sched_process_exit, struct task_struct *p)
{
	struct sp_task *t;

	if (p->signal->live.counter != 0)
		return 0;
	t = task_slot(p->tgid, p->group_leader->start_time, 0);
	if (t)
		t->exited = bpf_ktime_get_ns();
	return 0;
}
