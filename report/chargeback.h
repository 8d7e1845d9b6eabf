/*
 * pcp smtcpu chargeback: each service's calibrated core-hours over the
 * covered time, with bounds, its raw CPU-hours, its share of the capacity;
 * "other" (the system's calibrated time no service was charged for) and
 * "idle" (capacity left), so that the rows add up to the capacity.  Also
 * each row's use over time, for the plot.
 */
#ifndef SMTCPU_CHARGEBACK_H
#define SMTCPU_CHARGEBACK_H

#include <stdbool.h>

#include "ledger.h"
#include "samples.h"

#define TIMELINE_BUCKETS 240

enum row_kind { ROW_SERVICE, ROW_OTHER, ROW_IDLE };

struct charge_row {
	char name[128];
	const char *instance;		/* the service's instance name; NULL for other and idle */
	enum row_kind kind;
	double core_h, lower_h, upper_h;	/* lower_h, upper_h NAN where not logged */
	double cpu_h;			/* NAN for idle */
	double share_pct, ratio;	/* ratio NAN where cpu_h is 0 or NAN */
	double *timeline;		/* [TIMELINE_BUCKETS] cores, mean over each bucket's covered time */
};

struct chargeback {
	enum sample_by by;
	double start, end;		/* the window */
	/* sums over the covered intervals, ms */
	double capacity, left, throughput, lower, upper, busy;
	bool busy_unknown;	/* an interval had neither smt.busy_cpu nor smt.all.busy_cpu */
	bool have_bounds;		/* smt.all's bounds in every interval */
	double ncores;			/* the last interval's */
	double *svc_sum;		/* [svccap][NSVC] */
	double **svc_timeline;		/* [svccap] -> [TIMELINE_BUCKETS] ms, or NULL */
	bool *svc_bounds;		/* [svccap] bounds in every interval it grew */
	int svccap;
	double bucket_covered[TIMELINE_BUCKETS];	/* seconds */
	double bucket_sys[TIMELINE_BUCKETS][4];	/* capacity, throughput, lower, upper ms */
	double bucket_left[TIMELINE_BUCKETS];
	int failed;			/* out of memory in the ledger's callback */
};

struct charge_table {
	struct charge_row *rows;
	int nrows;
	double total_h, capacity_h, cores, covered_h, difference_pct;
	double overcharged_h;		/* the services' time beyond the system's, 0 none */
	double bucket_start, bucket_width;
	double timeline_capacity[TIMELINE_BUCKETS], timeline_lower[TIMELINE_BUCKETS],
		timeline_upper[TIMELINE_BUCKETS];	/* cores; NAN where no covered time */
};

void chargeback_init(struct chargeback *c, enum sample_by by, double start, double end);

/* The ledger's callback: arg is the struct chargeback. */
void chargeback_add(void *arg, const struct interval *iv);

/* The table from the sums: 0, or -1 out of memory. */
int chargeback_table(const struct chargeback *c, const struct ledger *l, struct charge_table *t);

void charge_table_free(struct charge_table *t);
void chargeback_free(struct chargeback *c);

#endif
