// SPDX-License-Identifier: GPL-2.0
/*
 * The software PURR: on every context switch, the switching CPU's core
 * brings its calibrated clock up to date, the CPU's thread closes its spell
 * (crediting the thread, and the process and cgroup that ran: at once, or
 * through the CPU's pending charge when the same process runs there again),
 * and opens the next one.  The idle loop's start (cpu_idle) does the first
 * two for a switch to idle the kernel left untraced.  The loader
 * (sched_purr.c) fills cpus[] and shares[].
 *
 * Only the few task_struct fields used are declared; CO-RE relocates them
 * against the running kernel's BTF.
 */
#include "sched_purr_abi.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

#include "sched_purr_clock.h"

char LICENSE[] SEC("license") = "GPL";

struct kernfs_node {
	__u64 id;
	const char *name;
} __attribute__((preserve_access_index));

struct cgroup;

struct cgroup_subsys_state {
	struct cgroup *cgroup;
	struct cgroup_subsys_state *parent;
} __attribute__((preserve_access_index));

struct cgroup {
	struct cgroup_subsys_state self;
	struct kernfs_node *kn;
} __attribute__((preserve_access_index));

struct css_set {
	struct cgroup *dfl_cgrp;
} __attribute__((preserve_access_index));

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	__u32 val;
} kuid_t;

struct cred {
	kuid_t uid;
} __attribute__((preserve_access_index));

struct signal_struct {
	atomic_t live;
} __attribute__((preserve_access_index));

/* A CPU's clocks as its runqueue keeps them: the run-time clock the kernel
 * times a task's run by (update_curr: rq_clock_task, which leaves out what
 * the hypervisor stole, CONFIG_PARAVIRT_TIME_ACCOUNTING, and the interrupts
 * it counts in prev_irq_time, CONFIG_IRQ_TIME_ACCOUNTING), and the steal so
 * far; reached from a task there (its CFS runqueue's rq,
 * CONFIG_FAIR_GROUP_SCHED), as a kernel without every symbol in kallsyms
 * cannot give runqueues itself. */
struct rq {
	__u64 clock;
	__u64 clock_task;
	__u64 prev_irq_time;
	__u64 prev_steal_time_rq;
} __attribute__((preserve_access_index));

struct cfs_rq {
	struct rq *rq;
} __attribute__((preserve_access_index));

struct sched_entity {
	struct cfs_rq *cfs_rq;
} __attribute__((preserve_access_index));

/* When a task last began running, by its runqueue's clock (rq_clock, set in
 * sched_info_arrive as the kernel switches to it; CONFIG_SCHED_INFO). */
struct sched_info {
	__u64 last_arrival;
} __attribute__((preserve_access_index));

struct task_struct {
	int pid;
	int tgid;
	char comm[SP_COMM_LEN];
	__u64 start_time;
	struct task_struct *group_leader;
	struct signal_struct *signal;
	struct css_set *cgroups;
	const struct cred *real_cred;
	struct sched_entity se;
	struct sched_info sched_info;
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

/* Plain hashes, not LRU: a full map refuses a newcomer (counted in
 * refused[]) rather than evicting a long-lived process's charges; the
 * loader retires what has ended. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, struct sp_task);
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct sp_cgroup);
} cgroups SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SP_NMAPS);
	__type(key, __u32);
	__type(value, struct sp_refused);
} refused SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SP_UIDS);
	__type(key, __u32);
	__type(value, struct sp_uid_made);
} uid_made SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SP_UIDS);
	__type(key, __u32);
	__type(value, struct sp_uid_freed);
} uid_freed SEC(".maps");

/* The most entries of tasks[] one uid may hold: set by the loader to the
 * map's capacity over SP_UID_SHARE. */
const volatile __u64 uid_share = 32768;

/* A charge map had no room for: counted, entries only for a newcomer. */
static __always_inline void refuse(__u32 map, __u64 entries, __u64 clock, __u64 busy)
{
	struct sp_refused *r = bpf_map_lookup_elem(&refused, &map);

	if (r) {
		r->entries += entries;
		r->clock += clock;
		r->busy += busy;
	}
}

/* uid's count in uid_made[], made where it has none; 0 where that map is
 * full (the uid is then not bounded). */
static __always_inline struct sp_uid_made *uid_count(__u32 uid)
{
	struct sp_uid_made *m = bpf_map_lookup_elem(&uid_made, &uid);

	if (!m) {
		struct sp_uid_made none = {};

		bpf_map_update_elem(&uid_made, &uid, &none, BPF_NOEXIST);
		m = bpf_map_lookup_elem(&uid_made, &uid);
	}
	return m;
}

/* Whether uid holds its whole share of tasks[] (then counted refused). */
static __always_inline _Bool uid_full(struct sp_uid_made *m, __u32 uid, __u64 clock)
{
	struct sp_uid_freed *f = bpf_map_lookup_elem(&uid_freed, &uid);
	__u64 gone = m->replaced + (f ? f->freed : 0);

	if (m->made < gone + uid_share)
		return 0;
	__sync_fetch_and_add(&m->refused, 1);
	__sync_fetch_and_add(&m->refused_clock, clock);
	return 1;
}

/* leader: the process's leader for a new entry (its name and uid), 0
 * where the task is not at hand.  gone: the process's last thread is
 * switching out for the last time (an entry made now, after
 * sched_process_exit, would otherwise never be known to have ended). */
static __always_inline void charge_task(const struct task_struct *leader, __u32 tgid, __u64 start,
					__u64 clock, __u64 busy, _Bool gone)
{
	struct sp_task *t = bpf_map_lookup_elem(&tasks, &tgid);
	struct sp_uid_made *m, *old = 0;
	__u32 uid = SP_UID_UNKNOWN;

	if (t && t->start == start) {
		__sync_fetch_and_add(&t->clock, clock);
		__sync_fetch_and_add(&t->busy, busy);
		if (gone && !t->exited)
			t->exited = bpf_ktime_get_ns();
		return;
	}
	/* New, or a new process under a PID reused: start it afresh, within
	 * its uid's share. */
	if (leader)
		uid = leader->real_cred->uid.val;
	m = uid_count(uid);
	if (m && uid_full(m, uid, clock)) {
		refuse(SP_MAP_TASKS, 1, clock, busy);
		return;
	}
	if (t) {
		__u32 was = t->uid;
		old = bpf_map_lookup_elem(&uid_made, &was);
	}
	struct sp_task fresh = { .clock = clock, .busy = busy, .start = start,
				 .exited = gone ? bpf_ktime_get_ns() : 0, .uid = uid };
	if (leader)
		bpf_probe_read_kernel_str(fresh.comm, sizeof fresh.comm, leader->comm);
	if (bpf_map_update_elem(&tasks, &tgid, &fresh, BPF_ANY) != 0) {
		refuse(SP_MAP_TASKS, 1, clock, busy);
		return;
	}
	if (m)
		__sync_fetch_and_add(&m->made, 1);
	if (old)
		__sync_fetch_and_add(&old->replaced, 1);
}

/* A new cgroup's entry names it while it can: the task at hand is the one
 * that ran, and is normally still in the cgroup it ran in. */
static __always_inline void name_cgroup(struct sp_cgroup *g, __u64 id)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct cgroup *cg = task->cgroups->dfl_cgrp;
	struct cgroup_subsys_state *up;

	if (cg->kn->id != id)
		return;
	bpf_probe_read_kernel_str(g->name, sizeof g->name, cg->kn->name);
	up = cg->self.parent;
	if (up)
		g->parent = up->cgroup->kn->id;
}

static __always_inline void charge_cgroup(__u64 id, __u64 clock, __u64 busy)
{
	struct sp_cgroup *g = bpf_map_lookup_elem(&cgroups, &id);

	if (!g) {
		struct sp_cgroup fresh = { .clock = clock, .busy = busy };

		name_cgroup(&fresh, id);
		if (bpf_map_update_elem(&cgroups, &id, &fresh, BPF_NOEXIST) == 0)
			return;
		if (!(g = bpf_map_lookup_elem(&cgroups, &id))) {
			refuse(SP_MAP_CGROUPS, 1, clock, busy);
			return;
		}
	}
	__sync_fetch_and_add(&g->clock, clock);
	__sync_fetch_and_add(&g->busy, busy);
}

/* A CPU's pending charge into the maps.  Its process was charged (so made
 * an entry) when it began pending: one no longer there had no room, or was
 * retired after it ended, or its PID was taken since, and is not made
 * again; the charge counts as refused. */
static __always_inline void flush(const struct sp_pending *p)
{
	__u32 tgid = p->tgid;
	struct sp_task *t = bpf_map_lookup_elem(&tasks, &tgid);

	if (t && t->start == p->start) {
		__sync_fetch_and_add(&t->clock, p->clock);
		__sync_fetch_and_add(&t->busy, p->busy);
	} else {	/* (or its PID went to a new process meanwhile) */
		refuse(SP_MAP_TASKS, 0, p->clock, p->busy);
	}
	charge_cgroup(p->cgroup, p->clock, p->busy);
}

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

/* This CPU's time less what the hypervisor stole, and the steal, ns, from a
 * task on it; both 0 where the kernel keeps no steal or it is out of
 * reach.  The first is the run-time clock with the interrupts it leaves
 * out put back (a thread serving an interrupt is busy, as PURR counts it).
 * __schedule brought them up to date just before sched_switch, or left
 * them at the wakeup that asked for the switch, as the kernel's own
 * account of the tasks does.  clock: the runqueue's own clock then (0 out
 * of reach), which times the kernel's record of when a task began to run. */
struct cpu_time {
	__u64 unstolen, stolen, clock;
};

static __always_inline struct cpu_time cpu_time(const struct task_struct *here)
{
	struct cpu_time ct = {};
	const struct rq *rq;

	if (!bpf_core_field_exists(struct cfs_rq, rq))
		return ct;
	rq = here->se.cfs_rq->rq;
	ct.clock = rq->clock;
	if (!bpf_core_field_exists(struct rq, prev_steal_time_rq))
		return ct;
	ct.stolen = rq->prev_steal_time_rq;
	ct.unstolen = rq->clock_task;
	if (bpf_core_field_exists(struct rq, prev_irq_time))
		ct.unstolen += rq->prev_irq_time;
	return ct;
}

/* When prev began its run now ending, on the clock of now: its runqueue's
 * clock less the kernel's record of that start; 0 where the kernel keeps
 * none (no CONFIG_SCHED_INFO) or the record is not of a time before now. */
static __always_inline __u64 began_running(const struct task_struct *prev, const struct cpu_time *ct,
					   __u64 now)
{
	__u64 arrival, ran;

	if (!bpf_core_field_exists(struct task_struct, sched_info) || !ct->clock)
		return 0;
	arrival = prev->sched_info.last_arrival;
	if (!arrival || arrival > ct->clock)
		return 0;
	ran = ct->clock - arrival;
	return ran < now ? now - ran : 0;
}

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
