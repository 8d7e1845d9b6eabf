// SPDX-License-Identifier: GPL-2.0
/*
 * A probe for the tests, not part of the agent: on every sched_switch, the
 * CPU, the two PIDs and a bpf_ktime_get_ns() read, as the software PURR's
 * program takes it, into a ring buffer (qa/probe/stamps.c prints them).
 * Beside runtrace's ftrace event on the same tracepoint, it gives each
 * switch both probes' stamps on the one clock (ftrace's "mono").
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "stamps.h"

char LICENSE[] SEC("license") = "GPL";

struct task_struct {
	int pid;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 24);
} stamps SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

SEC("tp_btf/sched_switch")
int BPF_PROG(stamp_switch, _Bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u64 ns = bpf_ktime_get_ns();
	struct stamp *s = bpf_ringbuf_reserve(&stamps, sizeof *s, 0);

	if (!s) {
		__u32 zero = 0;
		__u64 *n = bpf_map_lookup_elem(&lost, &zero);

		if (n)
			__sync_fetch_and_add(n, 1);
		return 0;
	}
	s->ns = ns;
	s->cpu = bpf_get_smp_processor_id();
	s->prev = prev->pid;
	s->next = next->pid;
	bpf_ringbuf_submit(s, 0);
	return 0;
}
