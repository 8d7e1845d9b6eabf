/*
 * The SMT model against seed 000 and against brute force.
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
#include "smtmodel.h"

static const struct smt_table *table(const char *name)
{
	const struct smt_table *t = config_find_table(NULL, name);
	assert_non_null(t);
	return t;
}

/* Seed 000 Table-1, CPU% column, typed from the seed. */
static void table1_cpu_percent(void **state)
{
	static const double cpu_percent[] = { 62.50, 43.75, 31.25, 25.00 };
	static const double per_htc[] = { 1.0, 0.7, 0.5, 0.4 };
	const struct smt_table *t = table("power7-smt4");
	(void)state;

	assert_int_equal(t->nthreads, 4);
	for (int k = 1; k <= 4; k++) {
		assert_float_equal(100 * smt_thread_share(t, k), cpu_percent[k - 1], 1e-9);
		assert_float_equal(t->T[k] / k, per_htc[k - 1], 1e-9);
	}
	/* seed 000: with smt=2 a core is used at most 2 * 43.75 = 87.5% */
	assert_float_equal(2 * smt_thread_share(t, 2), 0.875, 1e-9);
	/* power7-smt2: one thread alone 1/1.4 of the core */
	assert_float_equal(smt_thread_share(table("power7-smt2"), 1), 1 / 1.4, 1e-12);
}

/* Seed 000 section 8: POWER8 single thread 60% (SMT4) and 56% (SMT8); other
 * levels by the README's rule, recomputed here from the rule's statement. */
static void power8_tables(void **state)
{
	struct { const char *name; int S; double single; } cases[] = {
		{ "power8-smt4", 4, 0.60 }, { "power8-smt8", 8, 0.56 },
	};
	(void)state;

	for (int i = 0; i < 2; i++) {
		const struct smt_table *t = table(cases[i].name);
		double TS = 1 / cases[i].single;
		/* T(2) = 1 + a, T(4) = 1 + 1.5a, T(8) = 1 + 1.75a */
		double a = (TS - 1) / (cases[i].S == 4 ? 1.5 : 1.75);
		double pow2[9] = { 0 };

		pow2[1] = 1; pow2[2] = 1 + a; pow2[4] = 1 + 1.5 * a; pow2[8] = 1 + 1.75 * a;
		assert_int_equal(t->nthreads, cases[i].S);
		assert_true(t->preliminary);
		assert_float_equal(smt_thread_share(t, 1), cases[i].single, 1e-12);
		for (int k = 1; k <= cases[i].S; k++) {
			int lo = k, hi = k;
			while (pow2[lo] == 0) lo--;
			while (pow2[hi] == 0) hi++;
			double want = lo == hi ? pow2[k] :
				pow2[lo] + (pow2[hi] - pow2[lo]) * (k - lo) / (hi - lo);
			assert_float_equal(t->T[k], want, 1e-12);
		}
	}
	/* The rule gives POWER7 SMT4 back: a = 0.4 -> 1, 1.4, 1.5, 1.6 */
	assert_float_equal(1 + 1.25 * 0.4, table("power7-smt4")->T[3], 1e-12);
}

static void builtin_tables_are_valid(void **state)
{
	char why[256];
	int n;
	const struct smt_table *t = smt_builtin_tables(&n);
	(void)state;

	assert_true(n >= 6);
	for (int i = 0; i < n; i++)
		assert_int_equal(smt_table_check(&t[i], why, sizeof why), 0);
}

static void bad_tables_are_refused(void **state)
{
	struct smt_table up_then_down = { "x", 3, { 0, 1, 1.4, 1.3 }, false, "", SMT_ORIGIN_CONFIGURED };
	struct smt_table accelerating = { "y", 3, { 0, 1, 1.1, 1.5 }, false, "", SMT_ORIGIN_CONFIGURED };
	struct smt_table not_one = { "z", 2, { 0, 1.2, 1.4 }, false, "", SMT_ORIGIN_CONFIGURED };
	char why[256];
	(void)state;

	assert_int_equal(smt_table_check(&up_then_down, why, sizeof why), -1);
	assert_non_null(strstr(why, "must not decrease"));
	assert_int_equal(smt_table_check(&accelerating, why, sizeof why), -1);
	assert_int_equal(smt_table_check(&not_one, why, sizeof why), -1);
}

/* SMT2 closed form: U = (a + b - 2ab) T(1)/T(2) + ab, and its range
 * [max(0, a+b-1), min(a,b)] for the both-busy time x:
 * U(x) = (a + b - 2x) T(1)/T(2) + x. */
static void smt2_closed_form_and_bounds(void **state)
{
	const struct smt_table *t = table("x86-smt2");
	double c1 = 1 / 1.25;
	(void)state;

	for (double a = 0; a <= 1.0001; a += 0.05)
		for (double b = 0; b <= 1.0001; b += 0.05) {
			double busy[2] = { a, b }, lo_x = fmax(0, a + b - 1), hi_x = fmin(a, b);
			struct smt_core_estimate e;

			smt_estimate_core(t, busy, 2, &e);
			assert_float_equal(e.core_est, (a + b - 2 * a * b) * c1 + a * b, 1e-12);
			assert_float_equal(e.core_lo, (a + b - 2 * hi_x) * c1 + hi_x, 1e-12);
			assert_float_equal(e.core_hi, (a + b - 2 * lo_x) * c1 + lo_x, 1e-12);
			/* thread a alone (a - x) at c1, together x at 1/2 */
			assert_float_equal(e.lo[0], (a - hi_x) * c1 + hi_x * 0.5, 1e-12);
			assert_float_equal(e.hi[0], (a - lo_x) * c1 + lo_x * 0.5, 1e-12);
			assert_float_equal(e.capacity, 1, 1e-12);
		}
}

/* Poisson-binomial against enumerating every pattern. */
static void poisson_binomial_brute_force(void **state)
{
	double p[SMT_MAX_THREADS] = { 0.1, 0.9, 0.5, 0.33, 0.0, 1.0, 0.72, 0.25 };
	(void)state;

	for (int n = 0; n <= SMT_MAX_THREADS; n++) {
		double got[SMT_MAX_THREADS + 1], want[SMT_MAX_THREADS + 1] = { 0 };

		smt_poisson_binomial(p, n, got);
		for (unsigned mask = 0; mask < 1u << n; mask++) {
			double prob = 1;
			int k = 0;
			for (int i = 0; i < n; i++) {
				int on = (mask >> i) & 1;
				prob *= on ? p[i] : 1 - p[i];
				k += on;
			}
			want[k] += prob;
		}
		for (int k = 0; k <= n; k++)
			assert_float_equal(got[k], want[k], 1e-12);
	}
}

/* The estimate is the expectation over all 2^n independent busy patterns of
 * the share each busy thread is credited, c(number busy). */
static void estimate_brute_force(void **state)
{
	const char *names[] = { "power7-smt4", "power8-smt8", "x86-smt2", "power8-smt4" };
	(void)state;
	srand(1);
	for (int m = 0; m < 4; m++) {
		const struct smt_table *t = table(names[m]);
		for (int trial = 0; trial < 200; trial++) {
			int n = 1 + rand() % t->nthreads;
			double b[SMT_MAX_THREADS], want[SMT_MAX_THREADS] = { 0 };
			struct smt_core_estimate e;

			for (int i = 0; i < n; i++)
				b[i] = (rand() % 101) / 100.0;
			for (unsigned mask = 0; mask < 1u << n; mask++) {
				double prob = 1;
				int k = 0;
				for (int i = 0; i < n; i++) {
					int on = (mask >> i) & 1;
					prob *= on ? b[i] : 1 - b[i];
					k += on;
				}
				for (int i = 0; i < n; i++)
					if ((mask >> i) & 1)
						want[i] += prob * t->T[k] / (k * t->T[t->nthreads]);
			}
			smt_estimate_core(t, b, n, &e);
			for (int i = 0; i < n; i++)
				assert_float_equal(e.est[i], want[i], 1e-12);
		}
	}
}

/*
 * Bounds against explicit schedules on a grid of 2520 slots (divisible by
 * every level count): thread i busy in b_i * 2520 slots from start_i, around
 * the circle.  Every schedule lies within the bounds, and the extreme
 * arrangements (all nested, or laid end to end) reach the core bounds.
 */
#define SLOTS 2520

static void schedule_value(const struct smt_table *t, const int *busy_slots, const int *start,
			   int n, double *thread, double *core)
{
	*core = 0;
	for (int i = 0; i < n; i++)
		thread[i] = 0;
	for (int s = 0; s < SLOTS; s++) {
		int on[SMT_MAX_THREADS], k = 0;
		for (int i = 0; i < n; i++) {
			on[i] = ((s - start[i] + SLOTS) % SLOTS) < busy_slots[i];
			k += on[i];
		}
		if (k == 0)
			continue;
		*core += smt_T(t, k) / smt_T(t, t->nthreads) / SLOTS;
		for (int i = 0; i < n; i++)
			if (on[i])
				thread[i] += smt_thread_share(t, k) / SLOTS;
	}
}

static void bounds_hold_and_are_reached(void **state)
{
	const char *names[] = { "power7-smt4", "power8-smt8", "power8-smt4" };
	(void)state;
	srand(2);
	for (int m = 0; m < 3; m++) {
		const struct smt_table *t = table(names[m]);
		for (int trial = 0; trial < 60; trial++) {
			int n = 2 + rand() % (t->nthreads - 1), slots[SMT_MAX_THREADS], start[SMT_MAX_THREADS];
			double b[SMT_MAX_THREADS], thread[SMT_MAX_THREADS], core;
			struct smt_core_estimate e;
			int at = 0;

			for (int i = 0; i < n; i++) {
				slots[i] = (rand() % 13) * (SLOTS / 12);	/* 0 .. 1 in twelfths */
				if (slots[i] > SLOTS)
					slots[i] = SLOTS;
				b[i] = (double)slots[i] / SLOTS;
			}
			smt_estimate_core(t, b, n, &e);
			assert_true(e.core_lo <= e.core_est + 1e-12 && e.core_est <= e.core_hi + 1e-12);
			for (int i = 0; i < n; i++)
				assert_true(e.lo[i] <= e.est[i] + 1e-12 && e.est[i] <= e.hi[i] + 1e-12);

			for (int r = 0; r < 40; r++) {	/* random schedules stay inside */
				for (int i = 0; i < n; i++)
					start[i] = rand() % SLOTS;
				schedule_value(t, slots, start, n, thread, &core);
				assert_true(core >= e.core_lo - 1e-9 && core <= e.core_hi + 1e-9);
				for (int i = 0; i < n; i++)
					assert_true(thread[i] >= e.lo[i] - 1e-9 && thread[i] <= e.hi[i] + 1e-9);
			}
			for (int i = 0; i < n; i++)	/* all nested: the least */
				start[i] = 0;
			schedule_value(t, slots, start, n, thread, &core);
			assert_float_equal(core, e.core_lo, 1e-9);
			for (int i = 0; i < n; i++) {	/* end to end: the most */
				start[i] = at % SLOTS;
				at += slots[i];
			}
			schedule_value(t, slots, start, n, thread, &core);
			assert_float_equal(core, e.core_hi, 1e-9);
		}
	}
}

/* Seed 000 Table-3: per-core SMT levels under AIX raw placement, typed from
 * the seed, and the theoretical throughput 118 * sum T(level).  The seed's
 * row 15 says 731.60, which is row 14's sum; its own levels 4 4 4 3 give
 * 118 * (3 * 1.6 + 1.5) = 743.40. */
static void table3_raw_placement(void **state)
{
	static const int levels[16][4] = {
		{1,0,0,0},{1,1,0,0},{1,1,1,0},{1,1,1,1},{2,1,1,1},{2,2,1,1},{2,2,2,1},{2,2,2,2},
		{3,2,2,2},{3,3,2,2},{3,3,3,2},{3,3,3,3},{4,3,3,3},{4,4,3,3},{4,4,4,3},{4,4,4,4},
	};
	static const double theory[16] = {
		118.00, 236.00, 354.00, 472.00, 519.20, 566.40, 613.60, 660.80,
		672.60, 684.40, 696.20, 708.00, 719.80, 731.60, 743.40, 755.20,
	};
	const struct smt_table *t = table("power7-smt4");
	(void)state;

	for (int jobs = 1; jobs <= 16; jobs++) {
		int got[4];
		smt_place_jobs(jobs, 4, 4, 1, got);
		for (int c = 0; c < 4; c++)
			assert_int_equal(got[c], levels[jobs - 1][c]);
		assert_float_equal(smt_throughput(t, got, 4, 118), theory[jobs - 1], 1e-9);
	}
}

static void scaled_placement(void **state)
{
	int got[4];
	(void)state;
	/* scaled2: both primary and secondary threads of a core first */
	smt_place_jobs(5, 4, 4, 2, got);
	assert_int_equal(got[0], 2); assert_int_equal(got[1], 2);
	assert_int_equal(got[2], 1); assert_int_equal(got[3], 0);
	/* scaled4: a whole core first */
	smt_place_jobs(6, 4, 4, 4, got);
	assert_int_equal(got[0], 4); assert_int_equal(got[1], 2);
	assert_int_equal(got[2], 0);
	/* more jobs than scaled2 places: the rest spread one per core */
	smt_place_jobs(10, 4, 4, 2, got);
	assert_int_equal(got[0], 3); assert_int_equal(got[1], 3);
	assert_int_equal(got[2], 2); assert_int_equal(got[3], 2);
}

static void no_smt_and_saturation(void **state)
{
	double b[2] = { 0.7, 0.4 };
	struct smt_core_estimate e;
	(void)state;

	smt_estimate_core(table("none"), b, 2, &e);	/* each thread a core */
	assert_float_equal(e.est[0], 0.7, 1e-12);
	assert_float_equal(e.core_hi, 1.1, 1e-12);
	assert_float_equal(e.capacity, 2, 1e-12);
	/* fewer threads online than the table has: capacity T(n)/T(S) */
	smt_estimate_core(table("power7-smt4"), b, 2, &e);
	assert_float_equal(e.capacity, 1.4 / 1.6, 1e-12);
	/* beyond S the core saturates at T(S) */
	assert_float_equal(smt_T(table("x86-smt2"), 5), 1.25, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table1_cpu_percent),
		cmocka_unit_test(power8_tables),
		cmocka_unit_test(builtin_tables_are_valid),
		cmocka_unit_test(bad_tables_are_refused),
		cmocka_unit_test(smt2_closed_form_and_bounds),
		cmocka_unit_test(poisson_binomial_brute_force),
		cmocka_unit_test(estimate_brute_force),
		cmocka_unit_test(bounds_hold_and_are_reached),
		cmocka_unit_test(table3_raw_placement),
		cmocka_unit_test(scaled_placement),
		cmocka_unit_test(no_smt_and_saturation),
	};
	return cmocka_run_group_tests_name("smtmodel", tests, NULL, NULL);
}
