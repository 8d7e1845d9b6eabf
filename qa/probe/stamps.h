/* One switch as qa/probe/stamps.bpf.c saw it. */
#ifndef SMTCPU_QA_STAMPS_H
#define SMTCPU_QA_STAMPS_H

struct stamp {
	__u64 ns;	/* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u32 cpu, prev, next;
	__u32 pad;
};

#endif
