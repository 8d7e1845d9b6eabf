/*
 * What to count in each AMD Zen core, by generation: instructions retired,
 * unhalted cycles, unhalted cycles at the P0 (nominal) clock where the
 * core has the event, SSE/AVX FP operations retired, and the L2 terms of
 * perf's recommended formulas.  Data, in one place, taken from perf's
 * pmu-events JSON (tools/perf/pmu-events/arch/x86/amdzen{2,3,4,5}/);
 * qa/unit/test_core_events.c checks every value against that list and asks
 * libpfm4 where it knows the event.  Cycles and instructions are also
 * PERF_TYPE_HARDWARE on every CPU; these are for the groups that need raw
 * codes beside them.
 */
#ifndef SMTCPU_CORE_EVENTS_H
#define SMTCPU_CORE_EVENTS_H

#include <stdint.h>

#define CORE_L2_TERMS 4

struct core_event {
	uint16_t code;		/* EventCode, 12 bits on AMD */
	uint8_t umask;
};

struct core_family {
	const char *name;		/* "Zen4" */
	const char *pfm_pmu;		/* libpfm4's PMU of the same events */
	int family;
	int counters;			/* general counters per thread */
	struct core_event instructions, cycles;
	struct core_event p0_cycles;	/* code 0: the generation has none (use MPERF) */
	/* Counts up to 64 a cycle: the kernel pairs it with the Merge event
	 * on the odd neighbour counter itself, so it takes two counters. */
	struct core_event fp_ops;
	/* perf's recommended.json: each figure is the sum of its terms */
	int nl2_access, nl2_miss, nl2_hit;
	struct core_event l2_access[CORE_L2_TERMS], l2_miss[CORE_L2_TERMS], l2_hit[CORE_L2_TERMS];
};

/* The generation of an AMD family and model from /proc/cpuinfo, or NULL. */
const struct core_family *core_family_find(int family, int model);

/* Every generation, for tests and tools: n set to the count. */
const struct core_family *const *core_families(int *n);

/* attr.config of ev for the AMD core PMU (PERF_TYPE_RAW): the kernel's
 * format "event" is config:0-7,32-35 and "umask" config:8-15. */
uint64_t core_amd_config(struct core_event ev);

#endif
