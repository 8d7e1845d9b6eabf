/*
 * The POWER source's state, for the PMDA's purr.*, kernel.percpu.cpu.*purr
 * and lpar.* metrics: each CPU's PURR counters as increments, their split
 * by mode, the partition's lparcfg counters.  Where PURR can be trusted it
 * is the sampler's measured basis "purr" (source.h): busy = purr -
 * idle_purr, a share of the whole core.
 */
#ifndef SMTCPU_SOURCE_POWER_H
#define SMTCPU_SOURCE_POWER_H

#include <stdbool.h>
#include <stdint.h>

#include "lparcfg.h"
#include "purr.h"
#include "source.h"

/* Partition counters from lparcfg, as the PURR counters: increments only. */
enum lpar_counter { LPAR_C_POOL_IDLE, LPAR_C_PURR, LPAR_C_TBR, LPAR_NCOUNTERS };

struct lpar_values {
	uint64_t total[LPAR_NCOUNTERS];		/* ticks, cumulative */
	uint64_t last[LPAR_NCOUNTERS];
	bool have[LPAR_NCOUNTERS];
};

/* A CPU's PURR counters: the first reading, then only increments, so a
 * counter reset while the CPU was offline never makes these go backwards. */
struct purr_values {
	uint64_t total[PURR_NCOUNTERS];		/* ticks, cumulative */
	uint64_t last[PURR_NCOUNTERS];		/* the last reading */
	bool have[PURR_NCOUNTERS];		/* total[] has a value */
	bool live[PURR_NCOUNTERS];		/* last is a baseline */
	uint64_t win[PURR_NCOUNTERS];		/* total[] where the core's window began */
	bool win_ok;
	double mode[PMODE_COUNT];		/* PURR ticks by mode, cumulative */
};

/* SPURR and idle_spurr are read only while a client asks for them
 * (sampler_ask with these PURR_BIT()s), for POWER_ASKED_S after each ask:
 * every read of a PURR file is an interrupt to its CPU, and only their own
 * metrics use them (smt.* need purr and idle_purr). */
#define POWER_ON_DEMAND (PURR_BIT(SPURR) | PURR_BIT(IDLE_SPURR))
#define POWER_ASKED_S 600.0

struct power_state {
	struct purr purr;		/* the files of every CPU */
	unsigned read_set;		/* PURR_BIT()s the last pass read */
	bool asked[PURR_NCOUNTERS];	/* an on-demand counter was asked for, */
	double asked_at[PURR_NCOUNTERS];	/* last at this CLOCK_MONOTONIC second */
	struct purr_values *cpu;	/* [ncpus] */
	int ncpus;
	bool trusted;			/* PURR is the basis here: busy = purr - idle_purr */
	uint64_t timebase;		/* ticks a second, /proc/cpuinfo's */
	uint64_t all[PURR_NCOUNTERS];	/* ticks, sums of every CPU's increments */
	bool have_all[PURR_NCOUNTERS];
	double all_mode[PMODE_COUNT];
	struct lparcfg lparcfg;
	struct lpar_values lpar;
};

/* Its smtcpu.status instances. */
enum { POWER_STATUS_PURR, POWER_STATUS_LPARCFG };

extern const struct sampler_source power_source;

#endif
