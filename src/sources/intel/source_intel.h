/*
 * Intel's hardware count of SMT overlap (intel_smt.h) as a source of the
 * sampler: per CPU, ONE_THREAD_ACTIVE and REF_DISTRIBUTED (or REF_XCLK) on
 * the core PMU, one group a CPU; per core and pass, each thread's unhalted
 * ticks alone and together become its calibrated share of its unhalted
 * time, which the sampler applies to the CPU's busy time (smt.hw.*, and the
 * measured basis after PURR and the software PURR).
 */
#ifndef SMTCPU_SOURCE_INTEL_H
#define SMTCPU_SOURCE_INTEL_H

#include <stdbool.h>

#include "corectr.h"
#include "counters.h"
#include "intel_smt.h"
#include "source.h"

/* A thread's overlap counters, cumulative: its unhalted crystal ticks, and
 * those weighted by its core's table for the threads busy with it. */
struct intel_clock {
	double clock, unhalted;
	bool fresh;				/* read this pass */
	double win_clock, win_unhalted;		/* where the core's window began */
	bool win_ok;
	double throughput;			/* ms: busy x clock / unhalted, by window */
	bool have;				/* throughput has a value */
};

struct intel_state {
	struct intel_clock *clk;	/* [ncpus]: the measured basis "hw" */
	enum intel_smt_kind kind;
	struct ctr_backend *backend;
	struct corectr ctr;		/* one group a CPU: ONE_THREAD_ACTIVE, REF_* */
	int ncpus;
	const char *ref_name;		/* the reference event's name, for the status */
	/* c(1) and c(2) of the table a core of n threads uses ([n], n = 1, 2):
	 * worked at init and when CPUs change, not each pass. */
	double share[3][2];
};

extern const struct sampler_source intel_source;

#endif
