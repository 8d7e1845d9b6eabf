/*
 * A set of counting events on one uncore PMU, opened on every CPU of its
 * cpumask and multiplexed as mux.h plans, read once per sampling pass (one
 * read per group), with the estimates summed into cumulative totals.
 *
 * Events come as units (a DRAM channel, an L3 complex's pair) of per_unit
 * events each, every event set by its "event" field and one more field
 * (umask or rdwrmask).  Arrays are sized at open; reading allocates nothing.
 */
#ifndef SMTCPU_UNCORE_H
#define SMTCPU_UNCORE_H

#include <stdbool.h>

#include "counters.h"
#include "pmu.h"

#define UNCORE_MAX_UNITS 16
#define UNCORE_MAX_PER_UNIT 4

struct uncore_spec {
	const char *second_field;	/* "umask", "rdwrmask" */
	int nunits, per_unit;
	uint64_t event[UNCORE_MAX_UNITS][UNCORE_MAX_PER_UNIT];
	uint64_t second[UNCORE_MAX_UNITS][UNCORE_MAX_PER_UNIT];
	int counters;			/* the PMU's, as the table or configuration says */
	/* The counters saturate at the top instead of wrapping (UMC under
	 * kernels without commit 2492e5aba2be): a unit with a member stuck
	 * there over an interval that counted is marked saturated for good. */
	bool saturates;
};

struct uncore_group {
	int handle;			/* the backend's, -1 when not open */
	int cpu_index;			/* into pmu.cpu[] */
	int first_unit, nunits;
	struct ctr_reading last;	/* the baseline */
	unsigned not_run;		/* passes in a row without running */
};

struct uncore {
	struct pmu pmu;
	struct uncore_spec spec;
	struct ctr_event ev[UNCORE_MAX_UNITS][UNCORE_MAX_PER_UNIT];
	int group_of[UNCORE_MAX_UNITS];
	int ngroups;			/* per CPU */
	struct uncore_group *group;	/* [pmu.ncpus * ngroups] */
	double *total;			/* [pmu.ncpus][nunits][per_unit] estimated counts */
	double *window;			/* same shape: the last counted interval's estimates */
	double *duty;			/* [pmu.ncpus][nunits] last window's */
	unsigned char *have;		/* [pmu.ncpus][nunits] has counted at least once */
	unsigned char *fresh;		/* [pmu.ncpus][nunits] counted in its last interval */
	unsigned char *saturated;	/* [pmu.ncpus][nunits] see uncore_spec.saturates */
	int nsaturated;			/* units saturated */
	bool open;
	int error;			/* -errno of what stopped it, 0 if none */
	char why[256];			/* that, in words */
};

/* Discovers the PMU, plans the groups and opens them all through b.
 * Returns 0, or -errno with why set (the set is then closed and empty). */
int uncore_open(struct uncore *u, const char *pmu_name, const struct uncore_spec *spec,
		struct ctr_backend *b);

/* The same for a PMU already discovered. */
int uncore_open_pmu(struct uncore *u, const struct pmu *p, const struct uncore_spec *spec,
		    struct ctr_backend *b);

/* Reads every group once and adds this interval's estimates.  Returns the
 * number of groups that counted. */
int uncore_read(struct uncore *u, struct ctr_backend *b);

void uncore_close(struct uncore *u, struct ctr_backend *b);

static inline int uncore_index(const struct uncore *u, int cpu_index, int unit)
{
	return cpu_index * u->spec.nunits + unit;
}

#endif
