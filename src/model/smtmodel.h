/*
 * The throughput-linear SMT model (seed 000): pure functions, no I/O.
 *
 * A factor table gives T(k), the throughput of a core with k busy threads,
 * T(1) = 1, for k = 1..S.  A thread busy alongside k-1 others is credited
 * c(k) = T(k) / (k * T(S)) of the core, so a core with all S threads busy is
 * exactly one core, and credited CPU is linear in throughput.
 */
#ifndef SMTCPU_SMTMODEL_H
#define SMTCPU_SMTMODEL_H

#include <stdbool.h>

#define SMT_MAX_THREADS 8
#define SMT_NAME_MAX 32
#define SMT_BASIS_MAX 192

/* How a table's factors were come by (smt.model.origin). */
enum smt_origin {
	SMT_ORIGIN_BUILTIN,		/* smtcpu's own, from the source in basis */
	SMT_ORIGIN_CONFIGURED,		/* a configuration file's, nothing said of them */
	SMT_ORIGIN_FITTED,		/* fitted to measured runs (smtcpu-model --fit) */
	SMT_ORIGIN_CALIBRATED,		/* measured on a host (smtcpu-model --calibrate) */
	SMT_ORIGIN_STATED,		/* someone's stated figures, cited in basis */
};

struct smt_table {
	char name[SMT_NAME_MAX];
	int nthreads;				/* S */
	double T[SMT_MAX_THREADS + 1];		/* T[1..S]; T[0] unused */
	bool preliminary;			/* figures not yet verified */
	char basis[SMT_BASIS_MAX];		/* where the figures come from */
	enum smt_origin origin;
};

/* "built-in", "configured", "fitted", "calibrated", "stated". */
const char *smt_origin_name(enum smt_origin origin);

/* The origin a configuration file's word names (fitted, calibrated,
 * stated), or -1. */
int smt_origin_parse(const char *word);

/* The built-in tables, in a fixed order. */
const struct smt_table *smt_builtin_tables(int *count);

/* T(k) for any k >= 0: T(0) = 0, and a core saturates at T(S) for k > S. */
double smt_T(const struct smt_table *t, int k);

/* c(k) = T(k) / (k T(S)): the share of a core credited to one of k busy threads. */
double smt_thread_share(const struct smt_table *t, int k);

/* Checks what the estimator and its bounds rely on: T(1) = 1, T non-decreasing
 * and concave (each extra thread adds no more than the one before), and the
 * per-thread share c(k) convex.  Returns 0, or -1 with a reason in why. */
int smt_table_check(const struct smt_table *t, char *why, int whylen);

/* Poisson-binomial: out[j] = P(exactly j of the n independent events with
 * probabilities p[0..n-1] occur), j = 0..n. */
void smt_poisson_binomial(const double *p, int n, double *out);

/*
 * One core over one window.  b[i] in [0,1] is thread i's busy fraction, for
 * the n threads online (n may be below S when threads are offline).
 *
 * est[i]: thread i's calibrated busy fraction, the threads taken as
 *         independent: b_i * sum_k c(k) P(exactly k-1 of the others busy).
 * lo[i], hi[i]: the least and most thread i can be credited over all
 *         arrangements of busy time consistent with the b's.
 * core_lo, core_hi: the same for the whole core (not the sum of the thread
 *         bounds, which come from different arrangements).
 * All in fractions of a core over the window.  A table with S = 1 means "no
 * SMT": each thread is credited its busy fraction, as a core of its own.
 */
struct smt_core_estimate {
	double est[SMT_MAX_THREADS], lo[SMT_MAX_THREADS], hi[SMT_MAX_THREADS];
	double core_est, core_lo, core_hi;
	double capacity;	/* the most the core can deliver with n threads online */
};

void smt_estimate_core(const struct smt_table *t, const double *b, int n,
		       struct smt_core_estimate *out);

/* Theoretical throughput of a set of cores each running levels[c] busy
 * threads, in units of one thread alone on a core (x base). */
double smt_throughput(const struct smt_table *t, const int *levels, int ncores, double base);

/* Placement of jobs on cores (seed 000 section 6, AIX vpm_throughput_mode):
 * fill_per_core = 1 is raw mode (one thread per core first, then the second
 * of each, ...), N > 1 fills N threads of a core before the next core, then
 * spreads what is left the same way.  levels has ncores entries. */
void smt_place_jobs(int jobs, int ncores, int nthreads, int fill_per_core, int *levels);

#endif
