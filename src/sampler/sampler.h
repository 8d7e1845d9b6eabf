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
#include "source.h"
#include "topology.h"

/* The sampler's own smtcpu.status instances; each source's follow. */
enum sampler_slot { SLOT_CPUSTAT, SLOT_CONFIG, SLOT_TOPOLOGY, SLOT_COUNT };

struct smt_cpu_values {
	double throughput, lower, upper;	/* calibrated busy time, ms, cumulative */
	double busy;				/* raw busy time, ms, cumulative */
	double elapsed;				/* time observed, ms, cumulative */
	/* Where the last window's value came from: a measured basis's name
	 * (struct source_basis), "model", or NULL before a full window. */
	const char *basis;
	bool have_prev;
	struct cpustat_times prev;
};

struct smt_core_values {
	double throughput, lower, upper;	/* ms, cumulative */
	double capacity;			/* ms of whole-core time it could deliver */
	double level;				/* mean busy threads, last window */
	double busy_threads;			/* ms of its threads' busy time, cumulative */
	const struct smt_table *table;
	int nthreads;				/* threads at the last pass */
	/* The window under way holds a change of make-up (a CPU offline or
	 * back): the most threads the core had across it, else 0. */
	int step_threads;
	bool counted;				/* at least one window counted */
	bool have_level;			/* level is from the current make-up */
	double model_cpu;			/* the model's estimate, ms, cumulative */
	double model_error;			/* model - measured, cores, last window */
	double capacity_left;			/* ms of capacity not used, cumulative */
	double over;				/* ms counted past its capacity, carried */
	bool have_error;
	const char *basis;			/* as smt_cpu_values' */
};

struct smt_totals {
	double throughput, lower, upper, capacity;	/* ms, cumulative */
	/* What the cores' capacity had left, ms, cumulative: a window that
	 * counts past its core's capacity leaves nothing and carries the rest
	 * to the core's next, so that it never goes back (the core's own
	 * capacity_left likewise). */
	double capacity_left;
};

struct sampler {
	struct smt_config config;
	struct cpuinfo cpuinfo;
	struct topology topo;
	struct cpustat stat;
	struct smt_cpu_values *cpu;	/* [topo.ncpus] */
	struct smt_core_values *core;	/* [topo.ncpus], by the core's first CPU */
	int *last_core;			/* [topo.ncpus] first CPU of each CPU's core, last pass */
	int *departed;			/* [topo.ncpus] the core a CPU left offline this pass, else -1 */
	struct smt_totals all;
	const struct sampler_source *source[SOURCE_MAX];	/* the table sampler_init was given */
	int nsources;
	struct source_ctx ctx[SOURCE_MAX];	/* each source's view: config, topology, its slots */
	void *state[SOURCE_MAX];	/* each source's, in the table's order */
	bool stopped[SOURCE_MAX];	/* its init failed: state blank, never read */
	/* The measured bases that may measure this pass, as their sources'
	 * indices, and whether one turned on (every core's window restarts). */
	int basis[SOURCE_MAX], nbasis;
	bool basis_on[SOURCE_MAX], basis_turned_on;
	int nstatus;			/* smtcpu.status instances: SLOT_COUNT, then the sources' */
	int untabled_cores;		/* cores of 2+ threads no table covers, as last assigned */
	const char *status_name[SOURCE_MAX_STATUS];
	char status[SOURCE_MAX_STATUS][SOURCE_STATUS_LEN];	/* "ok", or why there are no values */
	double ms_per_tick;
	uint64_t passes;
	double pass_time;		/* seconds spent in passes, cumulative */
};

/* Sets s->status[slot], "ok" or why it has no values. */
void sampler_set_status(struct sampler *s, enum sampler_slot slot, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The status instance called name ("cpustat", or a source's), or
 * NULL when there is none. */
const char *sampler_status(const struct sampler *s, const char *name);

/* The state the sampler holds for src, which its public header offers
 * (what the PMDA reads: pmda/state.c); NULL before
 * sampler_init, or when src is not in the table. */
void *sampler_state(const struct sampler *s, const struct sampler_source *src);

/* A client asks for what src reads only on demand (what: src's own bits,
 * its public header's); see struct sampler_source's ask.  True when the
 * values served now are not current: the caller runs a pass first. */
bool sampler_ask(struct sampler *s, const struct sampler_source *src, unsigned what);

/* sources[0..nsources) are read in that order, their bases taken in it
 * (sampler_sources, the shipped table, for the PMDA; a test its own); the
 * sources must outlive the sampler, the array need not.  config_path may be
 * NULL; a missing file at the default path is fine (optional).  Returns 0,
 * or the first -errno of what could not start (a source, /proc/stat); the
 * sampler says why in status[] and is usable unless sampler_usable says not
 * (its own memory could not be had). */
int sampler_init(struct sampler *s, const struct sampler_source *const *sources, int nsources,
		 const char *config_path, int config_optional);
bool sampler_usable(const struct sampler *s);
void sampler_free(struct sampler *s);

/* One pass.  Returns 1 if the topology changed (instances to refresh). */
int sampler_pass(struct sampler *s);

#endif
