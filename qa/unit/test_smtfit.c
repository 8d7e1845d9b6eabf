/*
 * Fitting factor tables to measured runs (src/model/smtfit.c, src/model/runsfile.c),
 * checked against seed 000's own figures and against fits worked here by
 * other means: the normal equations solved by Cramer's rule, the shaped fit
 * by substituting its one active constraint, and a search over tables.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "alloc_count.h"
#include "config.h"
#include "runsfile.h"
#include "smtfit.h"

/* Seed 000 Table-3, typed from the seed: JOB_CNT, C1_RUN_CNT, the SMT
 * level of cores 1..4, and the seed's own Theory_Throughput column
 * (118 x the power7-smt4 factors), worked by its author. */
static const struct { int jobs; double y; int smt[4]; double theory; } table3[] = {
	{ 1, 118, { 1, 0, 0, 0 }, 118.00 }, { 2, 240, { 1, 1, 0, 0 }, 236.00 },
	{ 3, 360, { 1, 1, 1, 0 }, 354.00 }, { 4, 461, { 1, 1, 1, 1 }, 472.00 },
	{ 5, 476, { 2, 1, 1, 1 }, 519.20 }, { 6, 515, { 2, 2, 1, 1 }, 566.40 },
	{ 7, 551, { 2, 2, 2, 1 }, 613.60 }, { 8, 569, { 2, 2, 2, 2 }, 660.80 },
	{ 9, 597, { 3, 2, 2, 2 }, 672.60 }, { 10, 601, { 3, 3, 2, 2 }, 684.40 },
	{ 11, 613, { 3, 3, 3, 2 }, 696.20 }, { 12, 646, { 3, 3, 3, 3 }, 708.00 },
	{ 13, 683, { 4, 3, 3, 3 }, 719.80 }, { 14, 696, { 4, 4, 3, 3 }, 731.60 },
	{ 15, 714, { 4, 4, 4, 3 }, 731.60 }, { 16, 733, { 4, 4, 4, 4 }, 755.20 },
};
#define NRUNS 16

static struct smt_run runs[NRUNS];
/* n[r][k]: cores of run r at level k, k = 1..4 */
static double n[NRUNS][5];

static int setup(void **state)
{
	(void)state;
	memset(runs, 0, sizeof runs);
	memset(n, 0, sizeof n);
	for (int r = 0; r < NRUNS; r++) {
		runs[r].throughput = table3[r].y;
		for (int c = 0; c < 4; c++) {
			runs[r].cores[table3[r].smt[c]]++;
			if (table3[r].smt[c])
				n[r][table3[r].smt[c]]++;
		}
	}
	return 0;
}

static double det3(double m[3][3])
{
	return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
	       m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
	       m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

static double det4(double m[4][4])
{
	double d = 0;
	for (int c = 0; c < 4; c++) {
		double minor[3][3];
		for (int i = 1; i < 4; i++)
			for (int j = 0, jj = 0; j < 4; j++)
				if (j != c)
					minor[i - 1][jj++] = m[i][j];
		d += (c % 2 ? -1 : 1) * m[0][c] * det3(minor);
	}
	return d;
}

/* Least squares y ~ X b with X[r] = cols(r), by the normal equations and
 * Cramer's rule: m columns, m = 3 or 4. */
static void cramer_fit(int m, void (*cols)(int r, double *x), double *b)
{
	double N[4][4] = { { 0 } }, v[4] = { 0 }, x[4];

	for (int r = 0; r < NRUNS; r++) {
		cols(r, x);
		for (int i = 0; i < m; i++) {
			v[i] += x[i] * table3[r].y;
			for (int j = 0; j < m; j++)
				N[i][j] += x[i] * x[j];
		}
	}
	for (int c = 0; c < m; c++) {	/* b[c] = det(N with column c replaced by v) / det(N) */
		double M4[4][4], M3[3][3], N3[3][3];
		for (int i = 0; i < m; i++)
			for (int j = 0; j < m; j++) {
				double e = j == c ? v[i] : N[i][j];
				if (m == 4) {
					M4[i][j] = e;
				} else {
					M3[i][j] = e;
					N3[i][j] = N[i][j];
				}
			}
		b[c] = m == 4 ? det4(M4) / det4(N) : det3(M3) / det3(N3);
	}
}

static void free_cols(int r, double *x)
{
	for (int k = 1; k <= 4; k++)
		x[k - 1] = n[r][k];
}

/* The shaped fit holds T(4) - T(3) = T(3) - T(2): a4 = 2 a3 - a2. */
static void shaped_cols(int r, double *x)
{
	x[0] = n[r][1];
	x[1] = n[r][2] - n[r][4];
	x[2] = n[r][3] + 2 * n[r][4];
}

static void errors_of(const double *a, double *mean, double *worst)
{
	*mean = *worst = 0;
	for (int r = 0; r < NRUNS; r++) {
		double p = 0, e;
		for (int k = 1; k <= 4; k++)
			p += n[r][k] * a[k - 1];
		e = fabs(p - table3[r].y) / table3[r].y;
		*mean += e / NRUNS;
		*worst = fmax(*worst, e);
	}
}

/* The fit is a = (base T(1), .., base T(4)) worked here, and its errors. */
static void assert_fit_is(const struct smt_fit *f, const double *a)
{
	double mean, worst;

	errors_of(a, &mean, &worst);
	assert_float_equal(f->base, a[0], 1e-9 * a[0]);
	for (int k = 2; k <= 4; k++)
		assert_float_equal(f->T[k], a[k - 1] / a[0], 1e-9);
	assert_float_equal(f->mean_error, mean, 1e-12);
	assert_float_equal(f->worst_error, worst, 1e-12);
}

/* The free fit: T near 1 / 1.23 / 1.39 / 1.59, within 2% on average. */
static void table3_free_fit(void **state)
{
	struct smt_fit f;
	char why[256];
	double a[4];
	(void)state;

	cramer_fit(4, free_cols, a);
	assert_int_equal(smt_fit_table(runs, NRUNS, 4, 0, false, &f, why, sizeof why), 0);
	assert_fit_is(&f, a);
	/* the figures the issue quotes, to their two decimals */
	assert_float_equal(f.T[2], 1.23, 0.005);
	assert_float_equal(f.T[3], 1.39, 0.005);
	assert_float_equal(f.T[4], 1.59, 0.005);
	assert_true(f.mean_error < 0.02);
}

/* Its steps are 0.23, 0.17, 0.20: the last thread adds more than the one
 * before, which the configuration file refuses.  The shaped fit holds
 * that step equal, and no other constraint binds. */
static void table3_shaped_fit(void **state)
{
	struct smt_fit f;
	struct smt_table t = { .nthreads = 4 };
	char why[256];
	double b[3], a[4];
	(void)state;

	assert_int_equal(smt_fit_table(runs, NRUNS, 4, 0, false, &f, why, sizeof why), 0);
	memcpy(t.T, f.T, sizeof t.T);
	assert_int_equal(smt_table_check(&t, why, sizeof why), -1);
	assert_non_null(strstr(why, "T(4) - T(3) exceeds T(3) - T(2)"));

	cramer_fit(3, shaped_cols, b);
	a[0] = b[0]; a[1] = b[1]; a[2] = b[2]; a[3] = 2 * b[2] - b[1];
	assert_int_equal(smt_fit_table(runs, NRUNS, 4, 0, true, &f, why, sizeof why), 0);
	assert_fit_is(&f, a);
	memcpy(t.T, f.T, sizeof t.T);
	assert_int_equal(smt_table_check(&t, why, sizeof why), 0);
	/* worked here once, with another program: 1.2195, 1.3994, 1.5793 */
	assert_float_equal(f.T[2], 1.2195, 5e-5);
	assert_float_equal(f.T[3], 1.3994, 5e-5);
	assert_float_equal(f.T[4], 1.5793, 5e-5);
}

/* No table of the right shape fits better than the shaped fit: a search
 * over tables with steps on a grid, each with its best base. */
static void shaped_fit_is_the_best_in_shape(void **state)
{
	struct smt_fit f, g;
	char why[256];
	double best = 1e300;
	(void)state;

	assert_int_equal(smt_fit_table(runs, NRUNS, 4, 0, true, &f, why, sizeof why), 0);
	for (int s2 = 0; s2 <= 100; s2++)
		for (int s3 = 0; s3 <= s2; s3++)
			for (int s4 = 0; s4 <= s3; s4++) {
				struct smt_table t = { .nthreads = 4,
					.T = { 0, 1, 1 + s2 / 100.0, 1 + (s2 + s3) / 100.0,
					       1 + (s2 + s3 + s4) / 100.0 } };
				double ss = 0;
				if (smt_table_check(&t, why, sizeof why) < 0)
					continue;
				smt_fit_score(t.T, 4, runs, NRUNS, 0, &g);
				for (int r = 0; r < NRUNS; r++) {
					double d = smt_fit_predict(t.T, 4, g.base, &runs[r]) - runs[r].throughput;
					ss += d * d;
				}
				best = fmin(best, ss);
			}
	double ss = 0;
	for (int r = 0; r < NRUNS; r++) {
		double d = smt_fit_predict(f.T, 4, f.base, &runs[r]) - runs[r].throughput;
		ss += d * d;
	}
	assert_true(ss <= best + 1e-9);
	assert_true(ss > 0.95 * best);	/* the grid comes close */
}

/* With the seed's table and its base of 118 (one job alone), each
 * prediction is the seed's Theory_Throughput, and the errors are the 7.5%
 * on average and 16% at worst that the issue quotes.  Row 15 of the seed
 * (levels 4 4 4 3) is worked as if it were 4 4 3 3, a slip in the seed:
 * 118 x (3 x 1.6 + 1.5) = 743.4, not 731.6. */
static void seed_table_with_its_base(void **state)
{
	static const double seed_T[] = { 0, 1, 1.4, 1.5, 1.6 };
	struct smt_fit f;
	double mean = 0, worst = 0;
	(void)state;

	for (int r = 0; r < NRUNS; r++) {
		double p = smt_fit_predict(seed_T, 4, 118, &runs[r]);
		double theory = table3[r].jobs == 15 ? 743.40 : table3[r].theory;
		double e = fabs(theory - table3[r].y) / table3[r].y;
		assert_float_equal(p, theory, 1e-9);
		mean += e / NRUNS;
		worst = fmax(worst, e);
	}
	smt_fit_score(seed_T, 4, runs, NRUNS, 118, &f);
	assert_float_equal(f.base, 118, 0);
	assert_float_equal(f.mean_error, mean, 1e-12);
	assert_float_equal(f.worst_error, worst, 1e-12);
	assert_float_equal(f.mean_error, 0.075, 0.0005);
	assert_float_equal(f.worst_error, 0.161, 0.0005);	/* 8 jobs: 660.8 against 569 */
}

/* The seed's Table-2 as per-thread throughput: four levels, four
 * unknowns, so the fit is exact: T(k) = k x per-thread(k) / 119. */
static void table2_levels(void **state)
{
	static const char text[] = "# seed 000 Table-2\nlevel 1 119\nlevel 2 73\n"
				   "level 3 55  # 12 jobs\nlevel 4 46\n";
	static struct runs_file rf;
	struct smt_fit f;
	char why[256];
	(void)state;

	assert_int_equal(runs_parse(&rf, "t2", text, sizeof text - 1), 0);
	assert_int_equal(rf.nruns, 4);
	assert_int_equal(rf.threads, 4);
	assert_int_equal(smt_fit_table(rf.runs, rf.nruns, 4, 0, true, &f, why, sizeof why), 0);
	assert_float_equal(f.base, 119, 1e-9);
	assert_float_equal(f.T[2], 146.0 / 119, 1e-12);
	assert_float_equal(f.T[3], 165.0 / 119, 1e-12);
	assert_float_equal(f.T[4], 184.0 / 119, 1e-12);
	assert_float_equal(f.worst_error, 0, 1e-12);
}

/* A base held fixed is the fit's T(1) x base. */
static void base_held(void **state)
{
	struct smt_fit f;
	char why[256];
	double a[3];
	(void)state;

	/* y - 118 n1 = 118 (n2 T2 + n3 T3 + n4 T4): least squares on three */
	double N[3][3] = { { 0 } }, v[3] = { 0 };
	for (int r = 0; r < NRUNS; r++)
		for (int i = 0; i < 3; i++) {
			v[i] += n[r][i + 2] * (table3[r].y - 118 * n[r][1]);
			for (int j = 0; j < 3; j++)
				N[i][j] += n[r][i + 2] * n[r][j + 2];
		}
	for (int c = 0; c < 3; c++) {
		double M[3][3];
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 3; j++)
				M[i][j] = j == c ? v[i] : N[i][j];
		a[c] = det3(M) / det3(N) / 118;
	}
	assert_int_equal(smt_fit_table(runs, NRUNS, 4, 118, false, &f, why, sizeof why), 0);
	assert_float_equal(f.base, 118, 1e-9);
	for (int k = 2; k <= 4; k++)
		assert_float_equal(f.T[k], a[k - 2], 1e-9);
}

/* What cannot be fitted says why. */
static void unfittable(void **state)
{
	struct smt_run r[2] = { { 100, { 0, 4 } }, { 150, { 0, 0, 4 } } };
	struct smt_run same[2] = { { 100, { 0, 2 } }, { 210, { 0, 4 } } };
	struct smt_fit f;
	char why[256];
	(void)state;

	assert_int_equal(smt_fit_table(r, 2, 4, 0, true, &f, why, sizeof why), -1);
	assert_string_equal(why, "no run has a core with 3 busy threads: T(3) cannot be fitted");
	assert_int_equal(smt_fit_table(same, 2, 2, 0, false, &f, why, sizeof why), -1);
	assert_string_equal(why, "no run has a core with 2 busy threads or more: T(2) cannot be "
			    "fitted");
	assert_int_equal(smt_fit_table(r, 0, 2, 0, false, &f, why, sizeof why), -1);
	assert_string_equal(why, "no runs to fit");
	/* more busy threads than S count as S: a core saturates */
	assert_int_equal(smt_fit_table(r, 2, 1, 0, false, &f, why, sizeof why), 0);
	assert_float_equal(f.base, (4 * 100 + 4 * 150) / 32.0, 1e-9);
}

/* Bad lines are refused with FILE:LINE and the reason. */
static void runs_file_errors(void **state)
{
	static const struct { const char *text, *error; } bad[] = {
		{ "run 10 1 9\n", "f:1: busy threads on a core must be 0 to 8, not \"9\"" },
		{ "run -5 1\n", "f:1: run takes a positive throughput, then the busy threads on "
				"each core, e.g. \"run 476 2 1 1 1\"" },
		{ "run 5 0 0\n", "f:1: a run needs a core with a busy thread" },
		{ "\nlevel 0 3\n", "f:2: level takes K, busy threads per core from 1 to 8, and the "
				   "throughput of each thread, e.g. \"level 2 73\"" },
		{ "level 2 nan\n", "f:1: level takes K, busy threads per core from 1 to 8, and the "
				   "throughput of each thread, e.g. \"level 2 73\"" },
		{ "threads 2\nrun 5 3\n", "f:2: a run has 3 busy threads on a core, more than "
					  "\"threads 2\"" },
		{ "jobs 4\n", "f:1: expected run, level or threads, not \"jobs\"" },
		{ "# nothing\n", "f:1: no run or level lines" },
	};
	static struct runs_file rf;
	(void)state;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(runs_parse(&rf, "f", bad[i].text, strlen(bad[i].text)), -1);
		assert_string_equal(rf.error, bad[i].error);
	}
	assert_int_equal(runs_parse(&rf, "f", "run 5 1\0\n", 9), -1);
	assert_string_equal(rf.error, "f:1: a NUL byte in the line (not a text file?)");
	assert_int_equal(runs_load(&rf, "/nonexistent/runs"), -1);
	assert_string_equal(rf.error, "/nonexistent/runs: No such file or directory");
}

/* A basis line says how a table above it was come by. */
static void configuration_basis(void **state)
{
	static const char text[] =
		"table mine 1 1.2195 1.3994 1.5793\n"
		"basis mine fitted from seed000-table3.runs: 16 runs, mean error 1.42%\n"
		"table other 1 1.3\n"
		"basis nosuch calibrated on a host\n"
		"basis other guessed by eye\n"
		"basis other\n";
	static struct smt_config cfg;
	const struct smt_table *t;
	(void)state;

	assert_int_equal(config_parse(&cfg, "c", text, sizeof text - 1), 3);
	assert_string_equal(cfg.first_error, "c:4: basis: no table of that name above this line");
	t = config_find_table(&cfg, "mine");
	assert_int_equal(t->origin, SMT_ORIGIN_FITTED);
	assert_string_equal(smt_origin_name(t->origin), "fitted");
	assert_string_equal(t->basis, "from seed000-table3.runs: 16 runs, mean error 1.42%");
	t = config_find_table(&cfg, "other");
	assert_int_equal(t->origin, SMT_ORIGIN_CONFIGURED);
	assert_string_equal(t->basis, "c:3");
	t = config_find_table(&cfg, "power7-smt4");
	assert_string_equal(smt_origin_name(t->origin), "built-in");
}

/* Fitting allocates nothing. */
static void no_allocation(void **state)
{
	struct smt_fit f;
	char why[256];
	(void)state;

	long before = allocations;
	assert_int_equal(smt_fit_table(runs, NRUNS, 4, 0, true, &f, why, sizeof why), 0);
	assert_int_equal(allocations, before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(table3_free_fit, setup),
		cmocka_unit_test_setup(table3_shaped_fit, setup),
		cmocka_unit_test_setup(shaped_fit_is_the_best_in_shape, setup),
		cmocka_unit_test_setup(seed_table_with_its_base, setup),
		cmocka_unit_test_setup(table2_levels, setup),
		cmocka_unit_test_setup(base_held, setup),
		cmocka_unit_test_setup(unfittable, setup),
		cmocka_unit_test_setup(runs_file_errors, setup),
		cmocka_unit_test_setup(configuration_basis, setup),
		cmocka_unit_test_setup(no_allocation, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
