// SPDX-License-Identifier: GPL-2.0
/*
 * The software PURR's charge maps, per process (each uid within its share)
 * and per cgroup, and how the program charges them as spells close.  Part
 * of sched_purr.bpf.c's one object (the loader's one skeleton).
 */
#ifndef SMTCPU_SCHED_PURR_CHARGE_BPF_H
#define SMTCPU_SCHED_PURR_CHARGE_BPF_H

#include "sched_purr_abi.h"

#include <bpf/bpf_helpers.h>

#include "sched_purr_kernel.bpf.h"

/* Plain hashes, not LRU: a full map refuses a newcomer (counted in
 * refused[]) rather than evicting a long-lived process's charges; the
 * loader retires what has ended. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, struct sp_task_ref);
} tasks SEC(".maps");

/* The loader sizes both as tasks[]. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, struct sp_task);
} task_slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 65536);
	__type(value, __u32);
} free_slots SEC(".maps");

/* How many slots of task_slots[] were ever handed out, the loader reading
 * no further.  (Under a lock, taken once a newcomer: counting with a
 * fetched atomic would need BPF atomics some JITs lack.) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct sp_slots);
} slots_made SEC(".maps");

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

/* A free slot: one given back, else a fresh one; SP_NO_SLOT where none
 * (past the array's end, its lookup fails). */
#define SP_NO_SLOT 0xffffffffu
static __always_inline __u32 take_slot(void)
{
	struct sp_slots *made;
	__u32 slot, zero = 0;

	if (bpf_map_pop_elem(&free_slots, &slot) == 0)
		return slot;
	if (!(made = bpf_map_lookup_elem(&slots_made, &zero)))
		return SP_NO_SLOT;
	bpf_spin_lock(&made->lock);
	slot = made->made;
	if (slot != SP_NO_SLOT)
		made->made = slot + 1;
	bpf_spin_unlock(&made->lock);
	return slot;
}

/* The slot of process (tgid, start), or 0; *named, where asked, the slot
 * tasks[] names for tgid, SP_NO_SLOT where none.  (The entry is read once:
 * another CPU's update may free it meanwhile.) */
static __always_inline struct sp_task *task_slot(__u32 tgid, __u64 start, __u32 *named)
{
	struct sp_task_ref *r = bpf_map_lookup_elem(&tasks, &tgid);
	__u64 r_start;
	__u32 slot;

	if (!r) {
		if (named)
			*named = SP_NO_SLOT;
		return 0;
	}
	r_start = r->start;
	slot = r->slot;
	if (named)
		*named = slot;
	if (r_start != start)
		return 0;
	return bpf_map_lookup_elem(&task_slots, &slot);
}

/* The new process's slot a claim names (the claimant filled it first), 0
 * where the tgid seen is no claim for process start. */
static __always_inline struct sp_task *claimant_slot(__u64 seen, __u64 start)
{
	__u32 slot = (__u32)seen;
	struct sp_task *t;

	if (!(seen & SP_REPLACING) || !(t = bpf_map_lookup_elem(&task_slots, &slot)))
		return 0;
	return t->start == start ? t : 0;
}

/* leader: the process's leader for a new entry (its name and uid), 0
 * where the task is not at hand.  gone: the process's last thread is
 * switching out for the last time (an entry made now, after
 * sched_process_exit, would otherwise never be known to have ended). */
static __always_inline void charge_task(const struct task_struct *leader, __u32 tgid, __u64 start,
					__u64 clock, __u64 busy, _Bool gone)
{
	struct sp_task_ref fresh_ref = { .start = start };
	struct sp_task *t, *s, *was;
	struct sp_uid_made *m, *old = 0;
	__u32 uid = SP_UID_UNKNOWN, slot, named;
	__u64 seen = 0;
	_Bool claimed;

	if ((t = task_slot(tgid, start, &named))) {
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
	if ((slot = take_slot()) == SP_NO_SLOT || !(s = bpf_map_lookup_elem(&task_slots, &slot))) {
		refuse(SP_MAP_TASKS, 1, clock, busy);
		return;
	}
	s->clock = clock;
	s->busy = busy;
	s->start = start;
	s->exited = gone ? bpf_ktime_get_ns() : 0;
	s->uid = uid;
	if (leader)
		bpf_probe_read_kernel_str(s->comm, sizeof s->comm, leader->comm);
	else
		s->comm[0] = 0;
	fresh_ref.slot = slot;
	/* The PID's last process is replaced by whoever claims its slot: one
	 * CPU of those that found it, or the loader retiring it.  A CPU that
	 * finds the slot claimed by another for this process charges the
	 * claimant's slot; without a claim, only a PID tasks[] has no entry
	 * for is entered, and where another CPU entered the process meanwhile
	 * the charge goes there. */
	was = named == SP_NO_SLOT ? 0 : bpf_map_lookup_elem(&task_slots, &named);
	if (was)
		seen = __sync_val_compare_and_swap(&was->tgid, (__u64)tgid, SP_REPLACING | slot);
	claimed = was && seen == tgid;
	if (bpf_map_update_elem(&tasks, &tgid, &fresh_ref, claimed ? BPF_ANY : BPF_NOEXIST) != 0) {
		bpf_map_push_elem(&free_slots, &slot, 0);
		if (claimed)
			was->tgid = tgid;	/* still the PID's process: the claim undone */
		else if ((t = claimant_slot(seen, start)) || (t = task_slot(tgid, start, 0))) {
			__sync_fetch_and_add(&t->clock, clock);
			__sync_fetch_and_add(&t->busy, busy);
			return;
		}
		refuse(SP_MAP_TASKS, 1, clock, busy);
		return;
	}
	s->tgid = tgid;		/* published (the update above ordered the rest before it) */
	if (m)
		__sync_fetch_and_add(&m->made, 1);
	if (claimed) {		/* the PID's last process: its slot back */
		__u32 w = was->uid;

		old = bpf_map_lookup_elem(&uid_made, &w);
		was->tgid = 0;
		bpf_map_push_elem(&free_slots, &named, 0);
	}
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
	struct sp_task *t = task_slot(p->tgid, p->start, 0);

	if (t) {
		__sync_fetch_and_add(&t->clock, p->clock);
		__sync_fetch_and_add(&t->busy, p->busy);
	} else {	/* (or its PID went to a new process meanwhile) */
		refuse(SP_MAP_TASKS, 0, p->clock, p->busy);
	}
	charge_cgroup(p->cgroup, p->clock, p->busy);
}

#endif
