/*
 * Which core counters this machine offers, and why not the rest, from
 * sysfs under the root: a core PMU (x86's "cpu", a hybrid's "cpu_core",
 * POWER's "cpu") for cycles and instructions as PERF_TYPE_HARDWARE events
 * and, on AMD Zen2..Zen5, the raw events of core_events.h; on x86 the msr
 * PMU's tsc, aperf and mperf (arch/x86/events/msr.c) for the effective
 * frequency and the busy fraction.
 */
#ifndef SMTCPU_CORE_PMU_H
#define SMTCPU_CORE_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "core_events.h"
#include "cpuinfo.h"
#include "pmu.h"

enum core_msr { CORE_MSR_TSC, CORE_MSR_APERF, CORE_MSR_MPERF, CORE_NMSR };

struct core_pmu_plan {
	bool core;			/* a core PMU: cycles and instructions */
	struct pmu cpu;			/* that PMU */
	const struct core_family *zen;	/* its raw events, on AMD Zen2..Zen5 */
	bool msr;			/* an msr PMU */
	struct pmu msr_pmu;
	bool has[CORE_NMSR];		/* its tsc, aperf, mperf */
	uint64_t config[CORE_NMSR];	/* their attr.config */
	char why[256];			/* "ok", or what is missing and what it costs */
};

/* Fills plan from sysfs and ci.  Returns 0; -EINVAL when a PMU that is
 * there is malformed (plan->why says which): what is missing is not an
 * error but a status. */
int core_pmu_plan(struct core_pmu_plan *plan, const struct cpuinfo *ci);

#endif
