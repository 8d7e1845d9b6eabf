/*
 * EPYC memory subsystem: DRAM bytes per socket and channel from the Data
 * Fabric (or UMC) counters, and L3 accesses and misses per L3 complex, with
 * a reason in words wherever there are no values.
 */
#ifndef SMTCPU_AMD_H
#define SMTCPU_AMD_H

#include <stdbool.h>

#include "amd_events.h"
#include "config.h"
#include "counters.h"
#include "cpuinfo.h"
#include "topology.h"
#include "uncore.h"

#define AMD_MAX_SOCKETS 8

struct amd_channel {
	double bytes, read, write;	/* estimated, cumulative */
	double duty;			/* fraction of the last interval on a counter */
	bool have;			/* counted, and in its last interval */
};

struct amd_socket {
	int id;				/* physical package */
	double bytes, read, write;	/* sums of its channels */
	bool have;			/* every channel has a value */
	double peak;			/* bytes per second, 0 if unknown */
};

struct amd_ccx {
	int cpu, socket;		/* the cpumask CPU that counts it, its package */
	double accesses, misses;	/* estimated, cumulative */
	double ratio;			/* misses / accesses, last interval */
	bool have, have_ratio;
};

struct amd {
	const struct amd_family *family;
	struct ctr_backend *backend;
	int nsockets, nchannels;
	bool rw_apart;			/* reads and writes counted apart */
	bool use_umc;
	struct uncore df;		/* one unit per channel */
	struct uncore umc[AMD_MAX_CHANNELS];	/* or: one PMU per channel */
	struct uncore l3;		/* one unit: accesses and misses */
	struct amd_socket socket[AMD_MAX_SOCKETS];
	struct amd_channel channel[AMD_MAX_SOCKETS][AMD_MAX_CHANNELS];
	struct amd_ccx *ccx;		/* [nccx] */
	int nccx;
	char peak_source[96];		/* where peak came from, or why none */
	char df_status[256], l3_status[256];
	char df_ok[256], l3_ok[256];	/* the status while all is well */
	char mux_text[160];		/* the multiplexing in words, for the status */
	int dram_error, l3_error;	/* -errno that kept them closed, 0 if none */
	unsigned passes;
	unsigned generation;		/* bumped when instances appear (a retry opened them) */
	const struct smt_config *cfg;	/* kept for retries: the sampler's, for its life */
	const struct cpuinfo *ci;
	const struct topology *topo;
};

/* Sets everything up: the backend (perf_event_open, or the configured
 * replay), the DRAM and L3 counters.  Never fails: what cannot be counted
 * has a status that says why. */
void amd_init(struct amd *a, const struct smt_config *cfg, const struct cpuinfo *ci,
	      const struct topology *topo);

/* Counters that were busy (EBUSY, ENOSPC: another user held them) are
 * tried again every this many passes. */
#define AMD_RETRY_PASSES 30

/* One sampling pass: every group read once; busy counters retried. */
void amd_read(struct amd *a);

void amd_free(struct amd *a);

#endif
