// SPDX-License-Identifier: GPL-2.0
/*
 * A probe for the tests, not part of the agent.  Attached to sched_switch
 * after the software PURR's program, it reads the stamp that program gave
 * the switch (t0 of the spell it opened in this CPU's slot: its own
 * bpf_ktime_get_ns() read, or the core's last change where a sibling took
 * the core's lock with a later one first) and writes it into the trace,
 * "smtcpu-agent NS" (bpf_trace_printk).  An ftrace instance recording that event beside
 * sched_switch then holds each switch's two stamps, the agent's and
 * ftrace's own, on adjacent lines of the CPU's buffer: the event is written
 * before ftrace's probe of the same switch runs, and nothing else switches
 * that CPU in between.  A switch the program did not stamp (from one thread
 * of a process to another: its spell goes on) writes nothing.  The agent's
 * maps are its own (stamps.c reuses them), only read here.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "sched_purr_abi.h"

char LICENSE[] SEC("license") = "GPL";

struct task_struct;

/* As sched_purr.bpf.c declares them; stamps.c sizes them as the agent's. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct sp_cpu);
} cpus SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct sp_core);
} cores SEC(".maps");

/* The stamp this CPU last wrote. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} written SEC(".maps");

SEC("tp_btf/sched_switch")
int BPF_PROG(agent_stamp, _Bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 cpu = bpf_get_smp_processor_id(), zero = 0, core, slot;
	struct sp_cpu *here = bpf_map_lookup_elem(&cpus, &cpu);
	struct sp_core *c;
	__u64 *last, t0;

	if (!here)
		return 0;
	core = here->core;
	slot = here->slot;
	if (core == SP_NO_CORE || slot >= SP_MAX_THREADS)
		return 0;
	c = bpf_map_lookup_elem(&cores, &core);
	last = bpf_map_lookup_elem(&written, &zero);
	if (!c || !last)
		return 0;
	t0 = c->t[slot].t0;
	if (t0 == 0 || t0 == *last)
		return 0;
	*last = t0;
	bpf_printk("smtcpu-agent %llu", t0);
	return 0;
}
