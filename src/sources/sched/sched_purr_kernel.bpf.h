// SPDX-License-Identifier: GPL-2.0
/*
 * What the software PURR's program reads of the kernel: the few fields of
 * its types it uses, which CO-RE relocates against the running kernel's
 * BTF, and a CPU's runqueue clocks, by which the kernel times a task's run.
 * Part of sched_purr.bpf.c's one object (the loader's one skeleton).
 */
#ifndef SMTCPU_SCHED_PURR_KERNEL_BPF_H
#define SMTCPU_SCHED_PURR_KERNEL_BPF_H

#include "sched_purr_abi.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

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

#endif
