/*
 * Core counters on every CPU: a few groups of events per CPU (cycles and
 * instructions; the msr PMU's tsc, aperf and mperf; on AMD Zen the FP and L2
 * events), each group opened on each online CPU through a counter backend,
 * read once a pass (one read per group), scaled by its duty cycle as mux.h
 * does, and added up into cumulative estimated counts.  CPUs that go
 * offline have their groups closed; back online, reopened, and their first
 * reading is only a baseline: no negative rate, no spike.  Arrays are sized
 * at open for every possible CPU; reading allocates nothing.
 */
#ifndef SMTCPU_CORECTR_H
#define SMTCPU_CORECTR_H

#include <stdbool.h>
#include <stdint.h>

#include "counters.h"

#define CORECTR_MAX_GROUPS 8

struct corectr_group_spec {
	const char *name;			/* "hw", "msr", "fp", ... for errors */
	int n;
	struct ctr_event ev[CTR_GROUP_MAX];
};

struct corectr_slot {
	int handle;				/* the backend's, -1 when not open */
	bool have_last;
	struct ctr_reading last;
};

struct corectr {
	int ncpus;				/* possible CPUs */
	int ngroups;
	struct corectr_group_spec spec[CORECTR_MAX_GROUPS];
	struct corectr_slot *slot;		/* [ncpus][ngroups] */
	double *total;				/* [ncpus][ngroups][CTR_GROUP_MAX] estimated counts */
	double *window;				/* the same: the last counted interval's */
	double *window_ns;			/* [ncpus][ngroups]: that interval's time enabled */
	double *duty;				/* [ncpus][ngroups]: the last interval's */
	unsigned char *fresh;			/* [ncpus][ngroups]: counted by the last read */
	unsigned char *have;			/* [ncpus][ngroups]: has counted at least once */
	/* [ncpus]: group reads by how the backend took them, every read at
	 * opening included: from the pass's CPU (perf's read, an interrupt to
	 * this CPU), and from readings taken on this CPU (none) */
	uint64_t *reads_interrupting, *reads_on_cpu;
	int nopen;				/* groups open */
	int error;				/* -errno of the last open or read that failed */
	char why[256];				/* that, in words */
	/* The first failure of the last round of opens (corectr_open,
	 * corectr_sync) and of the last read: -errno and its CPU, 0 if none. */
	int open_error, open_cpu;
	int read_error, read_cpu;
};

/* Sizes everything for ncpus and opens each group on each online CPU.
 * Returns 0 when at least one group opened, -ENOMEM, or the first open's
 * -errno when none did (why says which group, CPU and error). */
int corectr_open(struct corectr *c, const struct corectr_group_spec *spec, int ngroups, int ncpus,
		 const unsigned char *online, struct ctr_backend *b);

/* CPUs came or went: closes the groups of those now offline, opens those of
 * those now online (a baseline first). */
void corectr_sync(struct corectr *c, const unsigned char *online, struct ctr_backend *b);

/* One read of every open group.  Returns the groups that counted. */
int corectr_read(struct corectr *c, struct ctr_backend *b);

void corectr_close(struct corectr *c, struct ctr_backend *b);

static inline int corectr_cell(const struct corectr *c, int cpu, int group)
{
	return cpu * c->ngroups + group;
}

/* The cumulative estimate of member k of group g on cpu. */
static inline double corectr_total(const struct corectr *c, int cpu, int g, int k)
{
	return c->total[corectr_cell(c, cpu, g) * CTR_GROUP_MAX + k];
}

#endif
