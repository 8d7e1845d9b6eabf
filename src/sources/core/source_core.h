/*
 * Core counters as a source of the sampler: cycles, instructions and
 * reference cycles, the msr PMU's tsc/aperf/mperf, and on AMD Zen the FP
 * operations and perf's L2 terms, per CPU (corectr.c), through
 * perf_event_open or the configuration's replay trace.  smtcpu.status["core"]
 * says what there is and why not the rest.
 */
#ifndef SMTCPU_SOURCE_CORE_H
#define SMTCPU_SOURCE_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "core_pmu.h"
#include "corectr.h"
#include "source.h"

/* What each figure is: a group and a member of it, -1 where not counted. */
enum core_figure {
	CORE_CYCLES, CORE_INSTRUCTIONS, CORE_REF_CYCLES, CORE_TSC, CORE_APERF, CORE_MPERF,
	CORE_FP_OPS, CORE_L2_ACCESS, CORE_L2_MISS, CORE_L2_HIT, CORE_NFIGURES
};

/* The groups, by what they count. */
enum core_group { CORE_G_HW, CORE_G_MSR, CORE_G_FP, CORE_G_L2, CORE_G_L2STAT, CORE_NGROUPS };

struct core_state {
	bool on;				/* some group open */
	struct core_pmu_plan plan;
	struct ctr_backend *backend;
	unsigned period_ms;			/* the pass's, as the backend was last told */
	int period_error;			/* -errno of that telling, 0 if none */
	struct corectr ctr;
	int group_of[CORE_NGROUPS];		/* index in ctr, -1 not planned */
	/* a figure is the sum of members (L2's perf formulas); hw/msr ones one */
	int nterms[CORE_NFIGURES];
	int term_group[CORE_NFIGURES][4], term_member[CORE_NFIGURES][4];
	char init_status[SOURCE_STATUS_LEN];	/* smtcpu.status["core"] as init found it */
};

/* The figure's cumulative estimate on cpu; false where it is not counted
 * there (no group, or the group has never counted). */
bool core_total(const struct core_state *st, int cpu, enum core_figure f, double *value);

/* The figure over cpu's last counted window, and that window in seconds;
 * false where there is none. */
bool core_window(const struct core_state *st, int cpu, enum core_figure f, double *value,
		 double *seconds);

/* The duty cycle of cpu's group g over its last window; false if none. */
bool core_duty(const struct core_state *st, int cpu, enum core_group g, double *duty);

/* cpu's group reads so far, by how they were taken: from the pass's CPU
 * (each an interrupt to cpu) and from the readings of cpu's own timer
 * (none); false where no group has been open on it. */
bool core_reads(const struct core_state *st, int cpu, uint64_t *interrupting, uint64_t *on_cpu);

extern const struct sampler_source core_source;

#endif
