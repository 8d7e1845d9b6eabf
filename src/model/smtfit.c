#include "smtfit.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Constraints of the shape in a-space, each a row g with g.a >= 0:
 * concavity at k = 2..S (a_0 = 0), the last step non-negative (with
 * concavity, every step is), and the per-thread share's convexity at
 * k = 2..S-1: 2S - 2 rows in all. */
#define MAX_CONSTRAINTS (2 * SMT_MAX_THREADS - 2)
/* The KKT system: S unknowns, the active constraints, a fixed base. */
#define MAX_KKT (SMT_MAX_THREADS + MAX_CONSTRAINTS + 1)

struct normal_eq {
	double N[SMT_MAX_THREADS + 1][SMT_MAX_THREADS + 1];	/* sum over runs of n n' */
	double v[SMT_MAX_THREADS + 1];				/* sum over runs of n y */
};

static int level(int k, int S)
{
	return k < S ? k : S;	/* a core saturates at S busy threads */
}

double smt_fit_predict(const double *T, int S, double base, const struct smt_run *run)
{
	double y = 0;

	for (int k = 1; k <= SMT_MAX_THREADS; k++)
		y += run->cores[k] * T[level(k, S)];
	return base * y;
}

/* The busy-thread counts of a run, folded onto levels 1..S. */
static void run_levels(const struct smt_run *run, int S, double *n)
{
	for (int k = 0; k <= SMT_MAX_THREADS; k++)
		n[k] = 0;
	for (int k = 1; k <= SMT_MAX_THREADS; k++)
		n[level(k, S)] += run->cores[k];
}

static void normal_equations(const struct smt_run *runs, int nruns, int S, struct normal_eq *ne)
{
	double n[SMT_MAX_THREADS + 1];

	memset(ne, 0, sizeof *ne);
	for (int r = 0; r < nruns; r++) {
		run_levels(&runs[r], S, n);
		for (int i = 1; i <= S; i++) {
			ne->v[i] += n[i] * runs[r].throughput;
			for (int j = 1; j <= S; j++)
				ne->N[i][j] += n[i] * n[j];
		}
	}
}

static int shape_constraints(int S, double g[][SMT_MAX_THREADS + 1])
{
	int m = 0;

	memset(g, 0, sizeof(double) * MAX_CONSTRAINTS * (SMT_MAX_THREADS + 1));
	for (int k = 2; k <= S; k++, m++) {	/* a_k - a_{k-1} <= a_{k-1} - a_{k-2} */
		g[m][k - 1] += 2;
		g[m][k] -= 1;
		if (k > 2)
			g[m][k - 2] -= 1;
	}
	if (S >= 2) {				/* a_S >= a_{S-1} */
		g[m][S] = 1;
		g[m++][S - 1] = -1;
	}
	for (int k = 2; k < S; k++, m++) {	/* a_k/k falls by less at each level */
		g[m][k - 1] = 1.0 / (k - 1);
		g[m][k] = -2.0 / k;
		g[m][k + 1] = 1.0 / (k + 1);
	}
	return m;
}

/* Solves A x = b (n unknowns) by Gaussian elimination with partial
 * pivoting; -1 when A is singular to working precision. */
static int solve(double A[][MAX_KKT], double *b, int n, double *x)
{
	double scale = 0;

	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			scale = fmax(scale, fabs(A[i][j]));
	for (int c = 0; c < n; c++) {
		int p = c;
		for (int r = c + 1; r < n; r++)
			if (fabs(A[r][c]) > fabs(A[p][c]))
				p = r;
		if (!(fabs(A[p][c]) > 1e-10 * scale))
			return -1;
		if (p != c) {
			for (int j = 0; j < n; j++) {
				double t = A[c][j]; A[c][j] = A[p][j]; A[p][j] = t;
			}
			double t = b[c]; b[c] = b[p]; b[p] = t;
		}
		for (int r = c + 1; r < n; r++) {
			double f = A[r][c] / A[c][c];
			for (int j = c; j < n; j++)
				A[r][j] -= f * A[c][j];
			b[r] -= f * b[c];
		}
	}
	for (int i = n - 1; i >= 0; i--) {
		double s = b[i];
		for (int j = i + 1; j < n; j++)
			s -= A[i][j] * x[j];
		x[i] = s / A[i][i];
	}
	return 0;
}

/* Least squares in a[1..S] with the constraints in mask held as equalities
 * (and a_1 = base_fixed when that is > 0): the KKT system
 * [N E'; E 0] [a; l] = [v; f].  -1 when singular. */
static int fit_equalities(const struct normal_eq *ne, int S, double g[][SMT_MAX_THREADS + 1],
			  unsigned mask, double base_fixed, double *a)
{
	double A[MAX_KKT][MAX_KKT], b[MAX_KKT], x[MAX_KKT];
	int n = S, row;

	memset(A, 0, sizeof A);
	memset(b, 0, sizeof b);
	for (int i = 0; i < S; i++) {
		b[i] = ne->v[i + 1];
		for (int j = 0; j < S; j++)
			A[i][j] = ne->N[i + 1][j + 1];
	}
	for (int c = 0; c < MAX_CONSTRAINTS; c++) {
		if (!(mask & (1u << c)))
			continue;
		for (int j = 0; j < S; j++)
			A[n][j] = A[j][n] = g[c][j + 1];
		n++;
	}
	if (base_fixed > 0) {
		row = n++;
		A[row][0] = A[0][row] = 1;
		b[row] = base_fixed;
	}
	if (solve(A, b, n, x) < 0)
		return -1;
	a[0] = 0;
	for (int i = 0; i < S; i++)
		a[i + 1] = x[i];
	return 0;
}

static double sum_squares(const struct smt_run *runs, int n, int S, const double *a)
{
	double s = 0;

	for (int r = 0; r < n; r++) {
		double d = smt_fit_predict(a, S, 1, &runs[r]) - runs[r].throughput;
		s += d * d;
	}
	return s;
}

static int popcount(unsigned x)
{
	int n = 0;
	for (; x; x &= x - 1)
		n++;
	return n;
}

static void errors(const struct smt_run *runs, int n, int S, struct smt_fit *out)
{
	out->mean_error = out->worst_error = 0;
	for (int r = 0; r < n; r++) {
		double e = fabs(smt_fit_predict(out->T, S, out->base, &runs[r]) - runs[r].throughput) /
			   runs[r].throughput;
		out->mean_error += e / n;
		out->worst_error = fmax(out->worst_error, e);
	}
}

int smt_fit_table(const struct smt_run *runs, int n, int S, double base_fixed, bool shaped,
		  struct smt_fit *out, char *why, int whylen)
{
	double g[MAX_CONSTRAINTS][SMT_MAX_THREADS + 1], a[SMT_MAX_THREADS + 1],
	       best[SMT_MAX_THREADS + 1], best_ss = DBL_MAX, levels[SMT_MAX_THREADS + 1];
	struct normal_eq ne;
	int m = shape_constraints(S, g);

	memset(out, 0, sizeof *out);
	if (S < 1 || S > SMT_MAX_THREADS || n < 1) {
		snprintf(why, (size_t)whylen, "%s", n < 1 ? "no runs to fit" :
			 "threads per core must be 1 to 8");
		return -1;
	}
	for (int k = base_fixed > 0 ? 2 : 1; k <= S; k++) {
		int seen = 0;
		for (int r = 0; r < n && !seen; r++) {
			run_levels(&runs[r], S, levels);
			seen = levels[k] > 0;
		}
		if (!seen) {
			snprintf(why, (size_t)whylen, "no run has a core with %d busy thread%s%s: "
				 "T(%d) cannot be fitted", k, k > 1 ? "s" : "", k == S && S > 1 ?
				 " or more" : "", k);
			return -1;
		}
	}
	normal_equations(runs, n, S, &ne);
	if (fit_equalities(&ne, S, g, 0, base_fixed, a) < 0) {
		snprintf(why, (size_t)whylen, "the runs cannot tell the levels apart: add runs with "
			 "other mixes of busy threads per core");
		return -1;
	}
	memcpy(best, a, sizeof best);
	if (shaped) {
		/* The optimum holds some constraints as equalities and is the least-
		 * squares fit under those: try every set of at most S - 1 of them
		 * (more would fix a to 0) and keep the best that satisfies all. */
		for (unsigned mask = 0; mask < 1u << m; mask++) {
			double ss, top = 0;
			int feasible = 1;

			if (popcount(mask) > S - 1 || fit_equalities(&ne, S, g, mask, base_fixed, a) < 0)
				continue;
			for (int k = 1; k <= S; k++)
				top = fmax(top, fabs(a[k]));
			for (int c = 0; c < m && feasible; c++) {
				double s = 0;
				for (int k = 1; k <= S; k++)
					s += g[c][k] * a[k];
				feasible = s >= -1e-9 * top;
			}
			if (feasible && (ss = sum_squares(runs, n, S, a)) < best_ss) {
				best_ss = ss;
				memcpy(best, a, sizeof best);
			}
		}
		if (best_ss == DBL_MAX) {
			snprintf(why, (size_t)whylen, "no table of the required shape fits the runs");
			return -1;
		}
	}
	if (!(best[1] > 0)) {
		snprintf(why, (size_t)whylen, "the fit gives one thread alone no positive throughput "
			 "(%g): are the runs' columns in the right order?", best[1]);
		return -1;
	}
	out->base = best[1];
	for (int k = 1; k <= S; k++)
		out->T[k] = best[k] / best[1];
	out->T[1] = 1;
	errors(runs, n, S, out);
	return 0;
}

void smt_fit_score(const double *T, int S, const struct smt_run *runs, int n,
		   double base_fixed, struct smt_fit *out)
{
	double num = 0, den = 0;

	memset(out, 0, sizeof *out);
	for (int k = 1; k <= S; k++)
		out->T[k] = T[k];
	for (int r = 0; r < n; r++) {
		double p = smt_fit_predict(T, S, 1, &runs[r]);
		num += p * runs[r].throughput;
		den += p * p;
	}
	out->base = base_fixed > 0 ? base_fixed : den > 0 ? num / den : 0;
	errors(runs, n, S, out);
}
