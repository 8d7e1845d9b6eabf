#include "smtmodel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/*
 * POWER8 tables from seed 000's single-thread figures (c(1) = 60% on SMT4,
 * 56% on SMT8, so T(S) = 1/c(1)).  Intermediate levels follow the shape of
 * POWER7's measured table: each doubling of busy threads adds half the gain
 * of the doubling before (POWER7: 1 -> 2 adds 0.4, 2 -> 4 adds 0.2), linear in
 * k between powers of two (POWER7: T(3) = 1.5).  So T(2) = 1 + a,
 * T(4) = 1 + 1.5a, T(8) = 1 + 1.75a, with a fixed by T(S).  The rule gives
 * POWER7 SMT4 back exactly; for POWER8 it is an assumption, hence preliminary.
 */
#define P8S4_A ((1 / 0.60 - 1) / 1.5)
#define P8S8_A ((1 / 0.56 - 1) / 1.75)

static const struct smt_table builtin[] = {
	{ "none", 1, { 0, 1 }, false,
	  "no SMT: each thread is a core of its own", SMT_ORIGIN_BUILTIN },
	{ "power7-smt4", 4, { 0, 1, 1.4, 1.5, 1.6 }, false,
	  "seed 000 Table-1 (IBM: +40% at 2 threads, +60% at 4; 3 threads measured)", SMT_ORIGIN_BUILTIN },
	{ "power7-smt2", 2, { 0, 1, 1.4 }, false,
	  "seed 000 (IBM: +40% at 2 threads)", SMT_ORIGIN_BUILTIN },
	{ "power8-smt4", 4,
	  { 0, 1, 1 + P8S4_A, 1 + 1.25 * P8S4_A, 1 + 1.5 * P8S4_A }, true,
	  "seed 000 section 8: one thread 60% of the core; other levels by the POWER7 shape", SMT_ORIGIN_BUILTIN },
	{ "power8-smt8", 8,
	  { 0, 1, 1 + P8S8_A, 1 + 1.25 * P8S8_A, 1 + 1.5 * P8S8_A,
	    1 + 1.5625 * P8S8_A, 1 + 1.625 * P8S8_A, 1 + 1.6875 * P8S8_A, 1 + 1.75 * P8S8_A },
	  true,
	  "seed 000 section 8: one thread 56% of the core; other levels by the POWER7 shape", SMT_ORIGIN_BUILTIN },
	{ "x86-smt2", 2, { 0, 1, 1.25 }, false,
	  "Hyper-Threading / AMD SMT: +25% core throughput with 2 threads (see README)", SMT_ORIGIN_BUILTIN },
};

static const char *const origin_names[] = {
	[SMT_ORIGIN_BUILTIN] = "built-in",
	[SMT_ORIGIN_CONFIGURED] = "configured",
	[SMT_ORIGIN_FITTED] = "fitted",
	[SMT_ORIGIN_CALIBRATED] = "calibrated",
	[SMT_ORIGIN_STATED] = "stated",
};

const char *smt_origin_name(enum smt_origin origin)
{
	return (unsigned)origin < sizeof origin_names / sizeof origin_names[0] ?
	       origin_names[origin] : "unknown";
}

int smt_origin_parse(const char *word)
{
	for (int o = SMT_ORIGIN_FITTED; o <= SMT_ORIGIN_STATED; o++)
		if (strcmp(word, origin_names[o]) == 0)
			return o;
	return -1;
}

const struct smt_table *smt_builtin_tables(int *count)
{
	*count = (int)(sizeof builtin / sizeof builtin[0]);
	return builtin;
}

double smt_T(const struct smt_table *t, int k)
{
	if (k <= 0)
		return 0;
	return t->T[k < t->nthreads ? k : t->nthreads];
}

double smt_thread_share(const struct smt_table *t, int k)
{
	return k <= 0 ? 0 : smt_T(t, k) / (k * smt_T(t, t->nthreads));
}

int smt_table_check(const struct smt_table *t, char *why, int whylen)
{
	const double eps = 1e-9;
	int S = t->nthreads;

	if (S < 1 || S > SMT_MAX_THREADS) {
		snprintf(why, (size_t)whylen, "%d factors: between 1 and %d are supported",
			 S, SMT_MAX_THREADS);
		return -1;
	}
	if (fabs(t->T[1] - 1) > eps) {
		snprintf(why, (size_t)whylen, "the first factor, T(1), must be 1");
		return -1;
	}
	for (int k = 2; k <= S; k++) {
		if (!(t->T[k] >= t->T[k - 1] - eps)) {
			snprintf(why, (size_t)whylen,
				 "T(%d) = %g is below T(%d) = %g: factors must not decrease",
				 k, t->T[k], k - 1, t->T[k - 1]);
			return -1;
		}
		if (t->T[k] - t->T[k - 1] > t->T[k - 1] - smt_T(t, k - 2) + eps) {
			snprintf(why, (size_t)whylen,
				 "T(%d) - T(%d) exceeds T(%d) - T(%d): each extra thread must add "
				 "no more throughput than the one before", k, k - 1, k - 1, k - 2);
			return -1;
		}
	}
	for (int k = 2; k < S; k++) {
		double c0 = smt_thread_share(t, k - 1), c1 = smt_thread_share(t, k),
		       c2 = smt_thread_share(t, k + 1);
		if (c1 - c2 > c0 - c1 + eps) {
			snprintf(why, (size_t)whylen,
				 "the per-thread share T(k)/(k T(S)) must fall by less at each "
				 "level (it falls by more at k = %d)", k + 1);
			return -1;
		}
	}
	return 0;
}

void smt_poisson_binomial(const double *p, int n, double *out)
{
	out[0] = 1;
	for (int j = 1; j <= n; j++)
		out[j] = 0;
	for (int i = 0; i < n; i++) {
		for (int j = i + 1; j > 0; j--)
			out[j] = out[j] * (1 - p[i]) + out[j - 1] * p[i];
		out[0] *= 1 - p[i];
	}
}

static void sort_desc(double *x, int n)
{
	for (int i = 1; i < n; i++) {
		double v = x[i];
		int j = i;
		while (j > 0 && x[j - 1] < v) {
			x[j] = x[j - 1];
			j--;
		}
		x[j] = v;
	}
}

/*
 * Sum over time of g(k(t)), k(t) = how many of the intervals x[0..n-1]
 * (each within [0, len]) cover t, at the two extremes of overlap:
 *   nested: every interval starts at 0, so coverage is as uneven as it can be;
 *   flat:   intervals laid end to end around [0, len), so coverage is
 *           floor(m) or ceil(m) everywhere, m = sum(x) / len.
 * offset is added to k before g (1 when counting thread i itself).
 */
static double nested_sum(const struct smt_table *t, double (*g)(const struct smt_table *, int),
			 double *x, int n, double len, int offset)
{
	double sum = 0, prev = len;

	sort_desc(x, n);
	for (int k = 0; k < n; k++) {
		sum += (prev - x[k]) * g(t, k + offset);
		prev = x[k];
	}
	return sum + prev * g(t, n + offset);
}

static double flat_sum(const struct smt_table *t, double (*g)(const struct smt_table *, int),
		       const double *x, int n, double len, int offset)
{
	double total = 0, m, f;
	int whole;

	if (len <= 0)
		return 0;
	for (int k = 0; k < n; k++)
		total += x[k];
	m = total / len;
	whole = (int)floor(m);
	f = m - whole;
	return len * ((1 - f) * g(t, whole + offset) + f * g(t, whole + 1 + offset));
}

static double core_share(const struct smt_table *t, int k)
{
	return smt_T(t, k) / smt_T(t, t->nthreads);
}

static double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

void smt_estimate_core(const struct smt_table *t, const double *busy, int n,
		       struct smt_core_estimate *out)
{
	double b[SMT_MAX_THREADS], others[SMT_MAX_THREADS], dist[SMT_MAX_THREADS + 1];

	memset(out, 0, sizeof *out);
	if (n > SMT_MAX_THREADS)
		n = SMT_MAX_THREADS;
	for (int i = 0; i < n; i++)
		b[i] = clamp01(busy[i]);

	if (t->nthreads == 1) {
		for (int i = 0; i < n; i++) {
			out->est[i] = out->lo[i] = out->hi[i] = b[i];
			out->core_est += b[i];
		}
		out->core_lo = out->core_hi = out->core_est;
		out->capacity = n;
		return;
	}

	for (int i = 0; i < n; i++) {
		int m = 0;
		double sum = 0;

		/* Estimate: the others independent of thread i and of each other. */
		for (int j = 0; j < n; j++)
			if (j != i)
				others[m++] = b[j];
		smt_poisson_binomial(others, m, dist);
		for (int k = 1; k <= n; k++)
			sum += smt_thread_share(t, k) * dist[k - 1];
		out->est[i] = b[i] * sum;

		/* Least credit: the others overlap thread i as much as they can
		 * (min(b_j, b_i) each), spread evenly over its busy time, since
		 * c is convex.  Most credit: the least overlap each must have,
		 * max(0, b_j - (1 - b_i)), stacked together. */
		m = 0;
		for (int j = 0; j < n; j++)
			if (j != i)
				others[m++] = b[j] < b[i] ? b[j] : b[i];
		out->lo[i] = flat_sum(t, smt_thread_share, others, m, b[i], 1);
		m = 0;
		for (int j = 0; j < n; j++)
			if (j != i) {
				double x = b[j] - (1 - b[i]);
				others[m++] = x > 0 ? x : 0;
			}
		out->hi[i] = nested_sum(t, smt_thread_share, others, m, b[i], 1);
		out->core_est += out->est[i];
	}

	/* The core: T is concave, so the most uneven coverage (all busy
	 * periods nested) gives the least throughput, the most even the most. */
	memcpy(others, b, sizeof(double) * (size_t)n);
	out->core_lo = nested_sum(t, core_share, others, n, 1, 0);
	out->core_hi = flat_sum(t, core_share, b, n, 1, 0);
	out->capacity = core_share(t, n);
}

double smt_throughput(const struct smt_table *t, const int *levels, int ncores, double base)
{
	double sum = 0;
	for (int c = 0; c < ncores; c++)
		sum += smt_T(t, levels[c]);
	return sum * base;
}

void smt_place_jobs(int jobs, int ncores, int nthreads, int fill_per_core, int *levels)
{
	int left = jobs;

	for (int c = 0; c < ncores; c++)
		levels[c] = 0;
	if (fill_per_core < 1)
		fill_per_core = 1;
	if (fill_per_core > nthreads)
		fill_per_core = nthreads;
	/* Scaled modes: whole groups of fill_per_core threads, core by core. */
	if (fill_per_core > 1)
		for (int c = 0; c < ncores && left > 0; c++) {
			int take = left < fill_per_core ? left : fill_per_core;
			levels[c] = take;
			left -= take;
		}
	/* Then (or in raw mode, from the start) one more thread per core in turn. */
	for (int level = 1; level <= nthreads && left > 0; level++)
		for (int c = 0; c < ncores && left > 0; c++)
			if (levels[c] < level) {
				levels[c]++;
				left--;
			}
}
