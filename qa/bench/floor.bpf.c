// SPDX-License-Identifier: GPL-2.0
/*
 * The floor the software PURR is measured against (make bench): a tp_btf
 * program on the same sched_switch tracepoint that does the least a
 * program can, a count into a per-CPU array.  What smtcpu's program costs
 * above it is its own work; what this one costs is the way in and out.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

struct task_struct;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} switches SEC(".maps");

SEC("tp_btf/sched_switch")
int BPF_PROG(floor_switch, _Bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&switches, &zero);

	if (n)
		(*n)++;
	return 0;
}
