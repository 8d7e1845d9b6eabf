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
#include "purr.h"
#include "smtmodel.h"
#include "source.h"
#include "topology.h"

/* The sampler's own smtcpu.status instances; each source's follow. */
enum smt_source { SRC_CPUSTAT, SRC_CONFIG, SRC_TOPOLOGY, SRC_COUNT };



/* Where a CPU's calibrated value comes from: nothing yet, the model from
 * /proc/stat, PURR, the software PURR (the sched source), or Intel's
 * overlap counters (the intel source). */
enum smt_basis { BASIS_NONE, BASIS_MODEL, BASIS_PURR, BASIS_SCHED, BASIS_HW };

struct smt_cpu_values {
	double throughput, lower, upper;	/* calibrated busy time, ms, cumulative */
	double busy;				/* raw busy time, ms, cumulative */
	double elapsed;				/* time observed, ms, cumulative */
	enum smt_basis basis;
	bool have_prev;
	struct cpustat_times prev;

	/* PURR counters, as the POWER source measures them (the model's
	 * measured basis): the first reading, then only increments, so a counter
	 * reset while the CPU was offline never makes these go backwards. */
	uint64_t purr[PURR_NCOUNTERS];		/* ticks, cumulative */
	uint64_t purr_last[PURR_NCOUNTERS];	/* the last reading */
	bool purr_have[PURR_NCOUNTERS];		/* purr[] has a value */
	bool purr_live[PURR_NCOUNTERS];		/* purr_last is a baseline */
	bool purr_open[PURR_NCOUNTERS];		/* the file is open (set by the PURR source) */
	bool purr_fresh[PURR_NCOUNTERS];	/* and was read this pass */
	uint64_t win_purr[PURR_NCOUNTERS];	/* purr[] where the core's window began */
	bool win_purr_ok;
	double purr_mode[PMODE_COUNT];		/* PURR ticks by mode, cumulative */

	/* The software PURR, as the sched source measures it: calibrated and
	 * raw busy ns from increments only, so never backwards. */
	uint64_t sched_clock, sched_busy;
	bool sched_fresh;			/* read this pass */
	uint64_t win_sched_clock;		/* sched_clock where the core's window began */
	bool win_sched_ok;

	/* Intel's overlap counters, as the intel source measures them: the
	 * thread's unhalted crystal ticks, and those weighted by the core's
	 * table for the threads busy with it; cumulative. */
	double hw_clock, hw_unhalted;
	bool hw_fresh;				/* read this pass */
	double win_hw_clock, win_hw_unhalted;	/* where the core's window began */
	bool win_hw_ok;
	double hw_throughput;			/* ms: busy x hw_clock / hw_unhalted, by window */
	bool have_hw;
};

struct smt_core_values {
	double throughput, lower, upper;	/* ms, cumulative */
	double capacity;			/* ms of whole-core time it could deliver */
	double level;				/* mean busy threads, last window */
	const struct smt_table *table;
	int nthreads;				/* threads at the last pass */
	bool counted;				/* at least one window counted */
	bool have_level;			/* level is from the current make-up */
	double model_cpu;			/* the model's estimate, ms, cumulative */
	double model_error;			/* model - measured (PURR or sched), cores, last window */
	bool have_error;
	enum smt_basis basis;			/* where the last window's values came from */
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
	bool purr_basis;		/* PURR is trustworthy here: busy = purr - idle_purr */
	uint64_t all_purr[PURR_NCOUNTERS];	/* ticks, sums of every CPU's increments */
	double all_purr_mode[PMODE_COUNT];
	bool have_all_purr[PURR_NCOUNTERS];
	const struct sampler_source *source[SOURCE_MAX];	/* sampler_sources, as of init */
	int nsources;
	int status_base[SOURCE_MAX];	/* each source's first status slot */
	void *state[SOURCE_MAX];	/* each source's, in sampler_sources order */
	bool stopped[SOURCE_MAX];	/* its init failed: state blank, never read */
	int nstatus;			/* smtcpu.status instances: SRC_COUNT, then the sources' */
	const char *status_name[SOURCE_MAX_STATUS];
	char status[SOURCE_MAX_STATUS][256];	/* "ok", or why there are no values */
	double ms_per_tick;
	uint64_t passes;
	double pass_time;		/* seconds spent in passes, cumulative */
};

/* Sets s->status[src], "ok" or why it has no values. */
void sampler_set_status(struct sampler *s, enum smt_source src, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The status instance called name ("cpustat", "purr", "amd_df", ...), or
 * NULL when there is none. */
const char *sampler_status(const struct sampler *s, const char *name);

/* config_path may be NULL; a missing file at the default path is fine
 * (optional).  Returns 0, or the first -errno of what could not start (a
 * source, /proc/stat); the sampler says why in status[] and is usable
 * unless sampler_usable says not (its own memory could not be had). */
int sampler_init(struct sampler *s, const char *config_path, int config_optional);
bool sampler_usable(const struct sampler *s);
void sampler_free(struct sampler *s);

/* One pass.  Returns 1 if the topology changed (instances to refresh). */
int sampler_pass(struct sampler *s);

/* The table a core uses: the configured one, else chosen from cpuinfo. */
const struct smt_table *sampler_table_for(const struct sampler *s, int nthreads);

#endif
