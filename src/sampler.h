/*
 * One sampling pass reads each source once, turns the deltas since the last
 * pass into increments, and adds them to cumulative values: the snapshot the
 * PMDA's fetch serves without touching a file.
 *
 * Increments are only ever added, so a CPU or core that goes away and comes
 * back never makes a counter go backwards, and the system totals are sums of
 * increments, not of whatever instances exist now.
 */
#ifndef SMTCPU_SAMPLER_H
#define SMTCPU_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "cpuinfo.h"
#include "cpustat.h"
#include "smtmodel.h"
#include "topology.h"

enum smt_source { SRC_CPUSTAT, SRC_PURR, SRC_AMD_DF, SRC_AMD_L3, SRC_CONFIG, SRC_COUNT };

/* Where a CPU's calibrated value comes from. */
enum smt_basis { BASIS_NONE, BASIS_MODEL, BASIS_PURR };

struct smt_cpu_values {
	double throughput, lower, upper;	/* calibrated busy time, ms, cumulative */
	double busy;				/* raw busy time, ms, cumulative */
	enum smt_basis basis;
	bool have_prev;
	struct cpustat_times prev;
};

struct smt_core_values {
	double throughput, lower, upper;	/* ms, cumulative */
	double capacity;			/* ms of whole-core time it could deliver */
	double level;				/* mean busy threads, last window */
	const struct smt_table *table;
	int nthreads;				/* threads at the last pass */
	bool counted;				/* at least one window counted */
	bool have_level;			/* level is from the current make-up */
};

struct smt_totals {
	double throughput, lower, upper, capacity;	/* ms, cumulative */
};

struct sampler {
	struct smt_config config;
	struct cpuinfo cpuinfo;
	struct topology topo;
	struct cpustat stat;
	struct smt_cpu_values *cpu;	/* [topo.ncpus] */
	struct smt_core_values *core;	/* [topo.ncpus], by the core's first CPU */
	int *last_core;			/* [topo.ncpus] first CPU of each CPU's core, last pass */
	struct smt_totals all;
	char status[SRC_COUNT][256];	/* "ok", or why there are no values */
	double ms_per_tick;
	uint64_t passes;
	double pass_time;		/* seconds spent in passes, cumulative */
};

extern const char *const smt_source_names[SRC_COUNT];

/* config_path may be NULL; a missing file at the default path is fine
 * (optional).  Returns 0 or -errno if nothing at all can be sampled; the
 * sampler is usable either way and says why in status[]. */
int sampler_init(struct sampler *s, const char *config_path, int config_optional);
void sampler_free(struct sampler *s);

/* One pass.  Returns 1 if the topology changed (instances to refresh). */
int sampler_pass(struct sampler *s);

/* The table a core uses: the configured one, else chosen from cpuinfo. */
const struct smt_table *sampler_table_for(const struct sampler *s, int nthreads);

#endif
