// SPDX-License-Identifier: GPL-2.0
/*
 * The floors the software PURR is measured against (make bench), tp_btf
 * programs on the same sched_switch tracepoint: floor_switch does the
 * least a program can, a count into a per-CPU array, and so costs the way
 * in and out; timed_switch the least a program that times switches can,
 * a count, one clock read and a per-CPU sum of the time between switches.
 * What smtcpu's program costs above the second is its own work.
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

struct timed {
	__u64 switches, last_ns, sum_ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct timed);
} timed SEC(".maps");

SEC("tp_btf/sched_switch")
int BPF_PROG(timed_switch, _Bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 zero = 0;
	struct timed *t = bpf_map_lookup_elem(&timed, &zero);
	__u64 now;

	if (t == NULL)
		return 0;
	now = bpf_ktime_get_ns();
	if (t->last_ns)
		t->sum_ns += now - t->last_ns;
	t->last_ns = now;
	t->switches++;
	return 0;
}
