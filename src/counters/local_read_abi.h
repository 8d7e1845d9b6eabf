/*
 * What local_read.bpf.c leaves for counters_local.c: each CPU's readings of
 * its own counters, taken by the program on that CPU at the pass's period.
 */
#ifndef SMTCPU_LOCAL_READ_ABI_H
#define SMTCPU_LOCAL_READ_ABI_H

#include <linux/types.h>

/* Counters a CPU may have read for it: its groups' members, slot by slot
 * (the core source's groups hold about 17; its most is 8 groups of 16). */
#define LR_SLOTS 32

struct lr_value {
	__u64 counter, enabled, running;	/* as bpf_perf_event_value */
};

/* One CPU's last reading.  begun and done bracket the program's writes:
 * a copy that finds them unequal was taken while the program wrote. */
struct lr_cpu {
	__u64 begun;
	__u64 stamp_ns;			/* CLOCK_MONOTONIC, as the reads ended */
	__u64 failed;			/* bit i: slot i could not be read */
	struct lr_value slot[LR_SLOTS];
	__u64 done;
};

#endif
