/*
 * EPYC memory subsystem: DRAM bytes per socket and channel from the Data
 * Fabric or the UMC counters, the data bus utilisation the UMCs measure,
 * cross-socket (xGMI) link traffic, and L3 accesses and misses per L3
 * complex, with a reason in words wherever there are no values.
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
#define AMD_STATUS_LEN 256
/* Its smtcpu.status instances, in this order. */
enum amd_status { AMD_STATUS_DF, AMD_STATUS_L3, AMD_STATUS_XGMI, AMD_NSTATUS };
#define AMD_MAX_UMC (AMD_MAX_SOCKETS * AMD_MAX_CHANNELS)

/* Where a channel, or a link, is counted: a unit of an uncore set. */
struct amd_cell {
	const struct uncore *u;		/* NULL: not counted */
	int cpu_index, unit;		/* into u->pmu.cpu[], u->spec units */
};

struct amd_channel {
	int umc;			/* N of its amd_umc_N PMU; -1 on the Data Fabric */
	struct amd_cell at;		/* its reads and writes */
	struct amd_cell bus;		/* UMC: data slot clocks and memory clocks */
	double bytes, read, write;	/* estimated, cumulative */
	double duty;			/* fraction of the last interval on a counter */
	bool have;			/* counted, and in its last interval */
	bool saturated;			/* a UMC counter stuck at its top (old kernels) */
};

struct amd_link {
	struct amd_cell at;
	double out, in;			/* bytes, estimated, cumulative */
	double duty;
	bool have;
};

struct amd_socket {
	int id;				/* physical package */
	int nchannels, nlinks;
	double bytes, read, write;	/* sums of its channels */
	bool have;			/* every channel has a value */
	double peak;			/* bytes per second, 0 if unknown */
	double util, util_duty;		/* data bus busy fraction and its duty, last window */
	bool have_util;
	double xgmi_out, xgmi_in;	/* sums of its links, bytes */
	bool have_xgmi;
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
	int nsockets;
	bool rw_apart;			/* reads and writes counted apart */
	bool use_umc;
	bool links_in;			/* the family counts inbound link traffic too */
	struct uncore df;		/* DRAM on the Data Fabric: one unit per channel */
	struct uncore *umc;		/* [numc]: one set per amd_umc_N PMU in use */
	int numc;
	struct uncore links;		/* xGMI on the Data Fabric: one unit per link */
	struct uncore l3;		/* one unit: accesses and misses */
	struct amd_socket socket[AMD_MAX_SOCKETS];
	struct amd_channel channel[AMD_MAX_SOCKETS][AMD_MAX_CHANNELS];
	struct amd_link link[AMD_MAX_SOCKETS][AMD_MAX_LINKS];
	struct amd_ccx *ccx;		/* [nccx] */
	int nccx;
	char peak_source[96];		/* where peak came from, or why none */
	/* "ok", or why not: written where the sampler serves them (amd_init's
	 * status), AMD_STATUS_LEN bytes each. */
	char *df_status, *l3_status, *xgmi_status;
	char df_ok[256], l3_ok[256], xgmi_ok[256];	/* the status while all is well */
	char dram_text[160];		/* how DRAM is counted, as its opener (DF or UMC) says */
	char mux_text[224];		/* that, and how the DF groups share the counters */
	char dram_note[256];		/* what the DRAM layout left out, "" if nothing */
	int dram_error, l3_error, xgmi_error;	/* -errno that kept them closed, 0 if none */
	unsigned passes;
	unsigned generation;		/* bumped when instances appear (a retry opened them) */
	const struct smt_config *cfg;	/* kept for retries: the sampler's, for its life */
	const struct cpuinfo *ci;
	const struct topology *topo;
};

/* Sets everything up: the backend (perf_event_open, or the configured
 * replay), the DRAM, link and L3 counters.  Never fails: what cannot be
 * counted has a status that says why, in status[enum amd_status], kept for
 * amd_read's. */
void amd_init(struct amd *a, const struct smt_config *cfg, const struct cpuinfo *ci,
	      const struct topology *topo, char (*status)[AMD_STATUS_LEN]);

/* Counters that were busy (EBUSY, ENOSPC: another user held them) are
 * tried again every this many passes. */
#define AMD_RETRY_PASSES 30

/* One sampling pass: every group read once; busy counters retried. */
void amd_read(struct amd *a);

/* Counter groups open, for the benchmark. */
int amd_groups(const struct amd *a);

void amd_free(struct amd *a);

#endif
