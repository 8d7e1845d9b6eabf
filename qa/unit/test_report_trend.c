/*
 * The capacity report's trend (report/trend.c), worked by hand.
 *   y = 1 + 2x over days 0..4: slope 2, no scatter, so the band is the line;
 *     target 20 at x = 9.5, the first whole day at or past it is day 10.
 *   y = 1, 2, 2, 3, 4: xbar 2, ybar 2.4, Sxx 10, Sxy 7, so slope 0.7 and
 *     intercept 1.0; residuals 0, .3, -.4, -.1, .2 make SSE 0.30, s^2 0.1,
 *     se(slope) = sqrt(0.1 / 10) = 0.1; t(3) = 3.182, so 0.7 +- 0.3182.
 *     Target 10: (10 - 1) / 0.7 = 12.857, day 13.
 *   Flat: slope 0, no growth to support a crossing.
 * Student's t: the table's rows, and df 45 between 40 (2.021) and 60
 * (2.000) in 1/df: u = (1/40 - 1/45) / (1/40 - 1/60) = 1/3, 2.014.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "trend.h"

static void an_exact_line_crosses_on_its_day(void **state)
{
	double x[] = { 0, 1, 2, 3, 4 }, y[] = { 1, 3, 5, 7, 9 };
	struct trend t;
	(void)state;

	trend_fit(x, y, 5, 20, 365, &t);
	assert_int_equal(t.verdict, TREND_REACHES);
	assert_true(fabs(t.slope - 2) < 1e-12 && fabs(t.intercept - 1) < 1e-12);
	assert_true(fabs(t.slope_lo - 2) < 1e-12 && fabs(t.slope_hi - 2) < 1e-12);
	assert_true(t.cross == 10 && t.earliest == 10 && t.latest == 10);
}

static void a_scattered_line_has_its_interval(void **state)
{
	double x[] = { 0, 1, 2, 3, 4 }, y[] = { 1, 2, 2, 3, 4 };
	struct trend t;
	(void)state;

	trend_fit(x, y, 5, 10, 365, &t);
	assert_int_equal(t.verdict, TREND_REACHES);
	assert_true(fabs(t.slope - 0.7) < 1e-12);
	assert_true(fabs(t.intercept - 1.0) < 1e-12);
	assert_true(fabs(t.slope_lo - (0.7 - 0.3182)) < 1e-9);
	assert_true(fabs(t.slope_hi - (0.7 + 0.3182)) < 1e-9);
	assert_true(t.cross == 13);
	/* the band is wider than the line: the upper edge reaches 10 first */
	assert_true(t.earliest < t.cross && t.latest > t.cross);
}

static void flat_days_never_cross(void **state)
{
	double x[] = { 0, 1, 2, 3, 4, 5, 6 }, y[] = { 2, 2, 2, 2, 2, 2, 2 };
	struct trend t;
	(void)state;

	trend_fit(x, y, 7, 8, 365, &t);
	assert_int_equal(t.verdict, TREND_NOT_WITHIN);
	assert_true(isnan(t.cross));
}

static void far_crossings_are_beyond_the_horizon(void **state)
{
	double x[] = { 0, 1, 2 }, y[] = { 1, 1.01, 1.02 };
	struct trend t;
	(void)state;

	/* (100 - 1) / 0.01 = 9900 days away */
	trend_fit(x, y, 3, 100, 365, &t);
	assert_int_equal(t.verdict, TREND_NOT_WITHIN);
}

static void two_days_are_too_few(void **state)
{
	double x[] = { 0, 1 }, y[] = { 1, 2 };
	struct trend t;
	(void)state;

	trend_fit(x, y, 2, 8, 365, &t);
	assert_int_equal(t.verdict, TREND_TOO_FEW);
}

static void student_t_from_the_table(void **state)
{
	(void)state;
	assert_true(fabs(student_t95(1) - 12.706) < 1e-12);
	assert_true(fabs(student_t95(3) - 3.182) < 1e-12);
	assert_true(fabs(student_t95(30) - 2.042) < 1e-12);
	assert_true(fabs(student_t95(45) - 2.014) < 1e-9);
	assert_true(fabs(student_t95(1000000) - 1.960) < 1e-3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(an_exact_line_crosses_on_its_day),
		cmocka_unit_test(a_scattered_line_has_its_interval),
		cmocka_unit_test(flat_days_never_cross),
		cmocka_unit_test(far_crossings_are_beyond_the_horizon),
		cmocka_unit_test(two_days_are_too_few),
		cmocka_unit_test(student_t_from_the_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
