/*
 * The capacity report's sums: each covered interval split at clock hours
 * (in the reports' timezone, pmLocaltime's), hours gathered into days.
 */
#include "capacity.h"
#include "pcp_compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An hour counts for the peak only if at least this much of it is covered. */
#define HOUR_COVERED_ENOUGH 1800.0

void capacity_init(struct capacity *c, double percentile, int horizon)
{
	memset(c, 0, sizeof *c);
	c->percentile = percentile;
	c->horizon = horizon;
}

static void local(double t, struct tm *tm, double *into_hour, double *into_day)
{
	time_t tt = (time_t)floor(t);
	double frac = t - (double)tt;

	pmLocaltime(&tt, tm);
	*into_hour = tm->tm_min * 60 + tm->tm_sec + frac;
	*into_day = tm->tm_hour * 3600 + *into_hour;
}

static void *grow(void *p, int *cap, size_t size)
{
	int n = *cap ? 2 * *cap : 64;
	void *q = realloc(p, (size_t)n * size);

	if (q)
		*cap = n;
	return q;
}

/* The day holding t: the last one, or a new one. */
static int day_of(struct capacity *c, double t)
{
	struct tm tm;
	double into_hour, into_day;
	char date[16];
	struct day *d;

	local(t, &tm, &into_hour, &into_day);
	strftime(date, sizeof date, "%Y-%m-%d", &tm);
	if (c->ndays && strcmp(c->days[c->ndays - 1].date, date) == 0)
		return c->ndays - 1;
	if (c->ndays == c->daycap) {
		void *q = grow(c->days, &c->daycap, sizeof *c->days);

		if (q == NULL)
			return -1;
		c->days = q;
	}
	d = &c->days[c->ndays];
	memset(d, 0, sizeof *d);
	snprintf(d->date, sizeof d->date, "%s", date);
	d->midnight = t - into_day;
	return c->ndays++;
}

/* The hour starting at or before t: the last one, or a new one. */
static struct hour *hour_of(struct capacity *c, double t)
{
	struct tm tm;
	double into_hour, into_day, start;
	struct hour *h;
	int day;

	local(t, &tm, &into_hour, &into_day);
	start = t - into_hour;
	if (c->nhours && fabs(c->hours[c->nhours - 1].start - start) < 1e-3)
		return &c->hours[c->nhours - 1];
	if ((day = day_of(c, t)) < 0)
		return NULL;
	if (c->nhours == c->hourcap) {
		void *q = grow(c->hours, &c->hourcap, sizeof *c->hours);

		if (q == NULL)
			return NULL;
		c->hours = q;
	}
	h = &c->hours[c->nhours++];
	memset(h, 0, sizeof *h);
	h->start = start;
	h->entitled = NAN;
	h->day = day;
	return h;
}

void capacity_add(void *arg, const struct interval *iv)
{
	struct capacity *c = arg;
	double len = iv->t1 - iv->t0, a = iv->t0;
	bool lpar = iv->have[FIG_LPAR_PURR] && iv->have[FIG_LPAR_TBR] && iv->sys[FIG_LPAR_TBR] > 0;
	struct use_sample *u;

	if (len <= 0 || c->failed)
		return;
	while (a < iv->t1 - 1e-9) {
		struct hour *h = hour_of(c, a + 1e-6);
		double b, part;

		if (h == NULL) {
			c->failed = 1;
			return;
		}
		b = fmin(h->start + 3600, iv->t1);
		part = (b - a) / len;
		h->covered += b - a;
		h->capacity += part * iv->sys[FIG_CAPACITY];
		h->throughput += part * iv->sys[FIG_THROUGHPUT];
		if (lpar) {
			h->lpar = true;
			h->purr += part * iv->sys[FIG_LPAR_PURR];
			h->tbr += part * iv->sys[FIG_LPAR_TBR];
			if (iv->have[FIG_LPAR_POOL_IDLE]) {
				h->pool = true;
				h->pool_idle += part * iv->sys[FIG_LPAR_POOL_IDLE];
			}
		}
		if (iv->have[FIG_LPAR_ENTITLED])
			h->entitled = iv->sys[FIG_LPAR_ENTITLED];
		c->days[h->day].covered_h += (b - a) / 3600;
		a = b;
	}
	if (c->nuses == c->usecap) {
		void *q = grow(c->uses, &c->usecap, sizeof *c->uses);

		if (q == NULL) {
			c->failed = 1;
			return;
		}
		c->uses = q;
	}
	u = &c->uses[c->nuses++];
	u->day = c->hours[c->nhours - 1].day;
	u->start = iv->t0;
	u->seconds = len;
	u->used = iv->sys[FIG_THROUGHPUT] / (len * 1000);
	u->physc = lpar ? iv->sys[FIG_LPAR_PURR] / iv->sys[FIG_LPAR_TBR] : NAN;
}

static void set_lpar(struct day *d, const struct hour *h)
{
	d->physc = h->lpar ? h->purr / h->tbr : NAN;
	d->entitled = h->entitled;
	d->entc_pct = h->lpar && h->entitled > 0 ? 100 * d->physc / h->entitled : NAN;
	d->pool_idle = h->pool ? h->pool_idle / h->tbr : NAN;
}

/* Each day's peak hour. */
static void peak_hours(struct capacity *c)
{
	for (int i = 0; i < c->nhours; i++) {
		const struct hour *h = &c->hours[i];
		struct day *d = &c->days[h->day];
		double used;

		if (h->covered < HOUR_COVERED_ENOUGH)
			continue;
		used = h->throughput / (h->covered * 1000);
		if (d->have && used <= d->used)
			continue;
		d->have = true;
		d->peak_start = h->start;
		d->used = used;
		d->cap = h->capacity / (h->covered * 1000);
		d->left = d->cap - used;
		set_lpar(d, h);
	}
}

static int by_use(const void *x, const void *y)
{
	const struct use_sample *a = x, *b = y;

	if (a->day != b->day)
		return a->day - b->day;
	return (a->used > b->used) - (a->used < b->used);
}

/* Each day's percentile of its intervals' use, weighted by their length;
 * the capacity is the day's mean. */
static void percentiles(struct capacity *c)
{
	if (c->nuses > 1)
		qsort(c->uses, (size_t)c->nuses, sizeof *c->uses, by_use);
	for (int i = 0; i < c->nuses;) {
		int day = c->uses[i].day, j, k;
		double total = 0, sum = 0, cap = 0, covered = 0, ent = NAN;
		struct day *d = &c->days[day];

		for (j = i; j < c->nuses && c->uses[j].day == day; j++)
			total += c->uses[j].seconds;
		for (k = i; k < j; k++) {
			sum += c->uses[k].seconds;
			if (sum >= total * c->percentile / 100 - 1e-9)
				break;
		}
		if (k == j)
			k = j - 1;
		for (int h = 0; h < c->nhours; h++)
			if (c->hours[h].day == day) {
				cap += c->hours[h].capacity;
				covered += c->hours[h].covered;
				if (!isnan(c->hours[h].entitled))
					ent = c->hours[h].entitled;
			}
		d->have = covered > 0;
		d->peak_start = c->uses[k].start;
		d->used = c->uses[k].used;
		d->cap = covered > 0 ? cap / (covered * 1000) : NAN;
		d->left = d->cap - d->used;
		d->physc = c->uses[k].physc;
		d->entitled = ent;
		d->entc_pct = !isnan(d->physc) && ent > 0 ? 100 * d->physc / ent : NAN;
		d->pool_idle = NAN;
		i = j;
	}
}

int capacity_report(struct capacity *c, struct capacity_report *r)
{
	double *x, *y, *py, *px;
	int n = 0, np = 0;

	memset(r, 0, sizeof *r);
	if (c->failed)
		return -1;
	for (int i = 0; i < c->ndays; i++) {
		c->days[i].physc = c->days[i].entitled = c->days[i].entc_pct = c->days[i].pool_idle = NAN;
		c->days[i].used = c->days[i].left = c->days[i].cap = NAN;
		c->days[i].have = false;
	}
	if (isnan(c->percentile))
		peak_hours(c);
	else
		percentiles(c);
	r->days = c->days;
	r->ndays = c->ndays;
	r->entitlement = NAN;
	x = calloc((size_t)c->ndays + 1, sizeof *x);
	y = calloc((size_t)c->ndays + 1, sizeof *y);
	px = calloc((size_t)c->ndays + 1, sizeof *px);
	py = calloc((size_t)c->ndays + 1, sizeof *py);
	if (!x || !y || !px || !py) {
		free(x), free(y), free(px), free(py);
		return -1;
	}
	r->capacity_cores = NAN;
	for (int i = 0; i < c->ndays; i++) {
		const struct day *d = &c->days[i];
		double dayno = round((d->midnight - c->days[0].midnight) / 86400);

		if (!d->have)
			continue;
		x[n] = dayno;
		y[n++] = d->used;
		r->capacity_cores = d->cap;
		if (!isnan(d->physc) && !isnan(d->entitled)) {
			r->lpar = true;
			if (!isnan(r->entitlement) && fabs(r->entitlement - d->entitled) > 1e-9)
				r->entitlement_changed = true;
			r->entitlement = d->entitled;
			px[np] = dayno;
			py[np++] = d->physc;
		}
	}
	trend_fit(x, y, n, r->capacity_cores, c->horizon, &r->trend);
	if (r->lpar)
		trend_fit(px, py, np, r->entitlement, c->horizon, &r->entitlement_trend);
	free(x), free(y), free(px), free(py);
	return 0;
}

void capacity_date(const struct capacity_report *r, double d, char *buf, size_t len)
{
	struct tm tm;
	time_t t;

	if (r->ndays == 0 || isnan(d)) {
		snprintf(buf, len, "-");
		return;
	}
	/* noon of the day, so that a change of summer time does not move it */
	t = (time_t)(r->days[0].midnight + d * 86400 + 43200);
	pmLocaltime(&t, &tm);
	strftime(buf, len, "%Y-%m-%d", &tm);
}

void capacity_free(struct capacity *c)
{
	free(c->hours);
	free(c->uses);
	free(c->days);
	memset(c, 0, sizeof *c);
}
