/*
 * A straight line fitted to daily figures, its uncertainty, and the day it
 * reaches a target: ordinary least squares, 95% intervals from Student's t
 * with n - 2 degrees of freedom, and the crossing's interval where the 95%
 * confidence band of the line reaches the target (inverse regression).
 */
#ifndef SMTCPU_TREND_H
#define SMTCPU_TREND_H

enum trend_verdict {
	TREND_TOO_FEW,		/* fewer than TREND_MIN_DAYS days */
	TREND_NOT_WITHIN,	/* no crossing within the horizon, or no growth */
	TREND_REACHES,		/* crosses on day cross */
	TREND_ALREADY,		/* the last day is at the target or above */
};

#define TREND_MIN_DAYS 3

struct trend {
	int n;
	double slope, intercept;	/* per day, at day 0 */
	double slope_lo, slope_hi;	/* 95% */
	double target;
	int horizon;			/* days after the last one looked at */
	enum trend_verdict verdict;
	/* days from day 0 (NAN where none): the first whole day at or past
	 * the target by the line, by its band's upper edge (earliest) and by
	 * its lower edge (latest; NAN: not within the horizon) */
	double cross, earliest, latest;
	double xbar, sxx, s, tq;	/* for the band */
};

/* Student's t, two-sided 95% (the 0.975 quantile), df >= 1. */
double student_t95(int df);

/* Half the width of the line's 95% confidence band at day x. */
double trend_band(const struct trend *t, double x);

/* The trend of y over days x (n of them, increasing). */
void trend_fit(const double *x, const double *y, int n, double target, int horizon, struct trend *t);

#endif
