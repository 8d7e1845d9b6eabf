// SPDX-License-Identifier: GPL-2.0
/*
 * Core counters read where they count.  A timer on each CPU (the cpu-clock
 * software event, sampling at the pass's period) runs this program there:
 * it reads that CPU's own counters, which needs no interrupt to another
 * CPU (perf_event_read_local), and leaves them, stamped, in the CPU's part
 * of a per-CPU array that the pass copies with one lookup
 * (counters_local.c).  events[] holds each CPU's counters at cpu * LR_SLOTS
 * + slot; the loader fills it as groups open.
 */
#include "local_read_abi.h"

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 1);		/* the loader: possible CPUs x LR_SLOTS */
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lr_cpu);
} readings SEC(".maps");

/* The slots in use on any CPU, from 0: the loader raises it as groups open. */
volatile __u32 nslots;

SEC("perf_event")
int read_local(void *ctx)
{
	__u32 zero = 0, n = nslots;
	__u64 base = (__u64)bpf_get_smp_processor_id() * LR_SLOTS, failed = 0;
	struct lr_cpu *r = bpf_map_lookup_elem(&readings, &zero);

	(void)ctx;
	if (r == NULL)
		return 0;
	r->begun++;
	for (__u32 i = 0; i < LR_SLOTS && i < n; i++)
		if (bpf_perf_event_read_value(&events, (base + i) & BPF_F_INDEX_MASK, (void *)&r->slot[i],
					      sizeof r->slot[i]) != 0)
			failed |= 1ULL << i;
	r->failed = failed;
	r->stamp_ns = bpf_ktime_get_ns();
	r->done = r->begun;
	return 0;
}
