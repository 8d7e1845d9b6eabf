/*
 * A factor table fitted to measured throughput (smtcpu-model --fit and
 * --calibrate): least squares, free or held to the shape the configuration
 * file requires of a table.  Pure functions, no I/O, nothing allocated.
 *
 * A run is a throughput y measured with n_k cores running k busy threads
 * (k = 1..S).  The model predicts y = base * sum_k n_k T(k), base being the
 * throughput of one thread alone on a core.  With a_k = base T(k) that is
 * linear in a, so the free fit is ordinary least squares in a, and
 * T(k) = a_k / a_1.  The shape smt_table_check asks for (T non-decreasing
 * and concave, the per-thread share T(k)/k convex) is a set of linear
 * inequalities G a >= 0, so the shaped fit is least squares under them.
 */
#ifndef SMTCPU_SMTFIT_H
#define SMTCPU_SMTFIT_H

#include <stdbool.h>

#include "smtmodel.h"

struct smt_run {
	double throughput;			/* > 0, in the user's own unit */
	int cores[SMT_MAX_THREADS + 1];		/* cores[k]: cores with k busy threads */
};

struct smt_fit {
	double T[SMT_MAX_THREADS + 1];		/* T[1..S], T[1] = 1 */
	double base;				/* throughput of one thread alone on a core */
	double mean_error, worst_error;		/* of |predicted - measured| / measured */
};

/* base * sum_k cores[k] T(min(k, S)): what T predicts for a run. */
double smt_fit_predict(const double *T, int S, double base, const struct smt_run *run);

/* Fits T(1..S) and the base to n runs.  base_fixed > 0 holds the base at
 * that value instead.  shaped: the best fit that smt_table_check accepts.
 * Returns 0, or -1 with the reason in why (a level no run has, runs that
 * cannot tell the levels apart, a fit with no positive throughput). */
int smt_fit_table(const struct smt_run *runs, int n, int S, double base_fixed, bool shaped,
		  struct smt_fit *out, char *why, int whylen);

/* How well given factors T(1..S) fit the runs: with the least-squares base
 * for them, or base_fixed when > 0.  Fills out (T copied). */
void smt_fit_score(const double *T, int S, const struct smt_run *runs, int n,
		   double base_fixed, struct smt_fit *out);

#endif
