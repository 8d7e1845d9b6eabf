/*
 * pcp smtcpu capacity: for each day of the window, the peak clock hour's
 * (or a percentile's) cores used and left, and on a POWER LPAR physc
 * against the entitlement and the pool's idle cores; then the trend of the
 * daily peaks and the day they reach the capacity (and the entitlement).
 */
#ifndef SMTCPU_CAPACITY_H
#define SMTCPU_CAPACITY_H

#include <stdbool.h>
#include <time.h>

#include "ledger.h"
#include "trend.h"

/* An hour's sums (ms, us for lpar.*), over its covered seconds. */
struct hour {
	double start, covered;
	double capacity, throughput, purr, tbr, pool_idle;
	double entitled;		/* the last value in the hour, NAN none */
	bool lpar, pool;
	int day;			/* its day's number in struct capacity */
};

struct day {
	char date[16];			/* YYYY-MM-DD */
	double midnight;
	double covered_h;
	bool have;			/* an hour at least half covered (or, for a
					   percentile, some covered time) */
	double peak_start, used, left, cap;	/* cores */
	double physc, entitled, entc_pct, pool_idle;	/* NAN where not an LPAR */
};

/* A day's figures on a row, used to pool_idle: their decimals on a CSV
 * row, and their widths and decimals as text (the first three where no
 * LPAR figures are shown). */
#define DAY_FIGURES 7
#define DAY_BASE_FIGURES 3
#define DAY_CSV_DECIMALS ((const int[DAY_FIGURES]){ 6, 6, 6, 6, 6, 4, 6 })
#define DAY_TEXT_WIDTHS ((const int[DAY_FIGURES]){ 8, 8, 8, 7, 8, 7, 9 })
#define DAY_TEXT_DECIMALS ((const int[DAY_FIGURES]){ 3, 3, 3, 3, 2, 1, 3 })

/* One covered interval's use, for a percentile. */
struct use_sample { int day; double start, seconds, used, physc; };

struct capacity {
	double percentile;		/* NAN: the peak hour */
	int horizon;
	struct hour *hours;
	int nhours, hourcap;
	struct use_sample *uses;
	int nuses, usecap;
	struct day *days;
	int ndays, daycap;
	int failed;
};

struct capacity_report {
	struct day *days;		/* = capacity's */
	int ndays;
	double capacity_cores;		/* the last day's with a figure */
	struct trend trend;		/* peaks against capacity_cores */
	bool lpar;
	double entitlement;		/* the last */
	bool entitlement_changed;	/* it was not the same throughout */
	struct trend entitlement_trend;	/* physc against entitlement */
};

void capacity_init(struct capacity *c, double percentile, int horizon);

/* The ledger's callback: arg is the struct capacity. */
void capacity_add(void *arg, const struct interval *iv);

/* The days and trends: 0, or -1 out of memory. */
int capacity_report(struct capacity *c, struct capacity_report *r);

/* The date of day number d (from the first day) into buf. */
void capacity_date(const struct capacity_report *r, double d, char *buf, size_t len);

void capacity_free(struct capacity *c);

#endif
