/*
 * The trend's arithmetic.  The t quantiles are the standard table's
 * (df 1 to 30, 40, 60, 120, infinity), interpolated in 1/df between rows.
 */
#include "trend.h"

#include <math.h>

static const double t95[] = { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
			      2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
			      2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };
static const struct { double df, t; } t95_tail[] = { { 30, 2.042 }, { 40, 2.021 }, { 60, 2.000 },
						      { 120, 1.980 }, { INFINITY, 1.960 } };

double student_t95(int df)
{
	if (df < 1)
		return INFINITY;
	if (df <= 30)
		return t95[df - 1];
	for (int i = 1; i < 5; i++)
		if (df <= t95_tail[i].df) {
			double a = 1 / t95_tail[i - 1].df, b = 1 / t95_tail[i].df, u = (a - 1.0 / df) / (a - b);

			return t95_tail[i - 1].t + u * (t95_tail[i].t - t95_tail[i - 1].t);
		}
	return 1.960;
}

double trend_band(const struct trend *t, double x)
{
	return t->tq * t->s * sqrt(1.0 / t->n + (x - t->xbar) * (x - t->xbar) / t->sxx);
}

/* The first whole day from `from` on at which the line, or its band's edge
 * on side, reaches the target, by steps of an hour up to `until`; NAN if
 * none. */
static double first_day(const struct trend *t, int side, double from, double until)
{
	for (double x = from; x <= until + 1e-9; x += 1.0 / 24) {
		double y = t->intercept + t->slope * x + side * trend_band(t, x);

		if (y >= t->target - 1e-9)
			return ceil(x - 1e-9);
	}
	return NAN;
}

void trend_fit(const double *x, const double *y, int n, double target, int horizon, struct trend *t)
{
	double xbar = 0, ybar = 0, sxx = 0, sxy = 0, sse = 0, s, se_slope, tq, last, until;

	t->n = n;
	t->target = target;
	t->horizon = horizon;
	t->slope = t->intercept = t->slope_lo = t->slope_hi = NAN;
	t->cross = t->earliest = t->latest = NAN;
	if (n < TREND_MIN_DAYS) {
		t->verdict = TREND_TOO_FEW;
		return;
	}
	for (int i = 0; i < n; i++) {
		xbar += x[i] / n;
		ybar += y[i] / n;
	}
	for (int i = 0; i < n; i++) {
		sxx += (x[i] - xbar) * (x[i] - xbar);
		sxy += (x[i] - xbar) * (y[i] - ybar);
	}
	if (sxx <= 0) {
		t->verdict = TREND_TOO_FEW;
		return;
	}
	t->slope = sxy / sxx;
	t->intercept = ybar - t->slope * xbar;
	for (int i = 0; i < n; i++) {
		double r = y[i] - (t->intercept + t->slope * x[i]);

		sse += r * r;
	}
	s = n > 2 ? sqrt(sse / (n - 2)) : 0;
	se_slope = s / sqrt(sxx);
	tq = student_t95(n - 2);
	t->xbar = xbar;
	t->sxx = sxx;
	t->s = s;
	t->tq = tq;
	t->slope_lo = t->slope - tq * se_slope;
	t->slope_hi = t->slope + tq * se_slope;
	last = x[n - 1];
	if (y[n - 1] >= target) {
		t->verdict = TREND_ALREADY;
		t->cross = last;
		return;
	}
	if (!(t->slope_lo > 0)) {
		t->verdict = TREND_NOT_WITHIN;	/* no growth the data support */
		return;
	}
	until = last + horizon;
	t->cross = ceil((target - t->intercept) / t->slope - 1e-9);
	if (t->cross > until) {
		t->verdict = TREND_NOT_WITHIN;
		t->cross = NAN;
		return;
	}
	t->verdict = TREND_REACHES;
	t->earliest = first_day(t, +1, x[0], until);
	t->latest = first_day(t, -1, x[0], until);
}
