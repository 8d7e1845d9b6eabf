/*
 * The chargeback's sums and its table.  "other" is the system's calibrated
 * time less the services' (the root cgroup's charge, interrupts, whatever
 * no service was charged for); were the services charged more than the
 * system counted (the software PURR and a PURR basis differ a little), it
 * is 0 and the excess is said.  Bounds of other and idle follow from the
 * system's and the services': other's least is the system's least less
 * the services' most.
 */
#include "chargeback.h"
#include "service_name.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS_PER_HOUR 3.6e6

void chargeback_init(struct chargeback *c, enum sample_by by, double start, double end)
{
	memset(c, 0, sizeof *c);
	c->by = by;
	c->start = start;
	c->end = end > start ? end : start + 1;
	c->have_bounds = true;
}

static int room(struct chargeback *c, int n)
{
	int cap;
	double *sum;
	double **timeline;
	bool *bounds;

	if (n <= c->svccap)
		return 0;
	cap = n * 2;
	if ((sum = realloc(c->svc_sum, (size_t)cap * NSVC * sizeof *sum)) == NULL)
		return -1;
	c->svc_sum = sum;
	if ((timeline = realloc(c->svc_timeline, (size_t)cap * sizeof *timeline)) == NULL)
		return -1;
	c->svc_timeline = timeline;
	if ((bounds = realloc(c->svc_bounds, (size_t)cap * sizeof *bounds)) == NULL)
		return -1;
	c->svc_bounds = bounds;
	for (int i = c->svccap; i < cap; i++) {
		for (int k = 0; k < NSVC; k++)
			c->svc_sum[i * NSVC + k] = 0;
		c->svc_timeline[i] = NULL;
		c->svc_bounds[i] = true;
	}
	c->svccap = cap;
	return 0;
}

static double bucket_width(const struct chargeback *c)
{
	return (c->end - c->start) / TIMELINE_BUCKETS;
}

void chargeback_add(void *arg, const struct interval *iv)
{
	struct chargeback *c = arg;
	double w = bucket_width(c), len = iv->t1 - iv->t0;
	int first, last;

	c->capacity += iv->sys[FIG_CAPACITY];
	c->left += iv->sys[FIG_CAPACITY_LEFT];
	c->throughput += iv->sys[FIG_THROUGHPUT];
	c->lower += iv->sys[FIG_LOWER];
	c->upper += iv->sys[FIG_UPPER];
	/* (the agent's own sum where it was logged: what a fleet's store keeps) */
	if (iv->have[FIG_ALL_BUSY])
		c->busy += iv->sys[FIG_ALL_BUSY];
	else if (iv->have[FIG_CPU_BUSY])
		c->busy += iv->sys[FIG_CPU_BUSY];
	else
		c->busy_unknown = true;
	if (!iv->have[FIG_LOWER] || !iv->have[FIG_UPPER])
		c->have_bounds = false;
	if (iv->have[FIG_NCORES])
		c->ncores = iv->sys[FIG_NCORES];
	for (int i = 0; i < iv->nsvc; i++) {
		int id = iv->svc[i];

		if (room(c, id + 1) < 0) {
			c->failed = 1;
			return;
		}
		for (int k = 0; k < NSVC; k++)
			if (!isnan(iv->grew[i][k]))
				c->svc_sum[id * NSVC + k] += iv->grew[i][k];
		if (iv->grew[i][SVC_THROUGHPUT] > 0 &&
		    (isnan(iv->grew[i][SVC_LOWER]) || isnan(iv->grew[i][SVC_UPPER])))
			c->svc_bounds[id] = false;
	}
	if (len <= 0)
		return;
	first = (int)floor((iv->t0 - c->start) / w);
	last = (int)floor((iv->t1 - c->start) / w);
	for (int b = first < 0 ? 0 : first; b <= last && b < TIMELINE_BUCKETS; b++) {
		double lo = c->start + b * w, hi = lo + w;
		double part = (fmin(hi, iv->t1) - fmax(lo, iv->t0)) / len;

		if (part <= 0)
			continue;
		c->bucket_covered[b] += part * len;
		c->bucket_sys[b][0] += part * iv->sys[FIG_CAPACITY];
		c->bucket_sys[b][1] += part * iv->sys[FIG_THROUGHPUT];
		c->bucket_sys[b][2] += part * iv->sys[FIG_LOWER];
		c->bucket_sys[b][3] += part * iv->sys[FIG_UPPER];
		c->bucket_left[b] += part * iv->sys[FIG_CAPACITY_LEFT];
		for (int i = 0; i < iv->nsvc; i++) {
			int id = iv->svc[i];
			double g = iv->grew[i][SVC_THROUGHPUT];

			if (isnan(g) || g <= 0)
				continue;
			if (c->svc_timeline[id] == NULL &&
			    (c->svc_timeline[id] = calloc(TIMELINE_BUCKETS, sizeof(double))) == NULL) {
				c->failed = 1;
				return;
			}
			c->svc_timeline[id][b] += part * g;
		}
	}
}

/* ms per bucket into mean cores over each bucket's covered time. */
static void as_cores(const struct chargeback *c, const double *ms, double *cores, int stride)
{
	for (int b = 0; b < TIMELINE_BUCKETS; b++)
		cores[b] = c->bucket_covered[b] > 0 ? ms[b * stride] / (c->bucket_covered[b] * 1000) : NAN;
}

static int by_core_hours(const void *x, const void *y)
{
	const struct charge_row *a = x, *b = y;

	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	if (a->core_h != b->core_h)
		return a->core_h < b->core_h ? 1 : -1;
	return strcmp(a->name, b->name);
}

static void finish_row(struct charge_row *r, double capacity_h)
{
	r->share_pct = capacity_h > 0 ? 100 * r->core_h / capacity_h : NAN;
	r->ratio = (!isnan(r->cpu_h) && r->cpu_h > 0) ? r->core_h / r->cpu_h : NAN;
}

/* Two services of one name (web.service under two slices) are told
 * apart by their whole path. */
static void unique_names(struct charge_row *rows, int n)
{
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (rows[i].kind == ROW_SERVICE && rows[j].kind == ROW_SERVICE &&
			    strcmp(rows[i].name, rows[j].name) == 0) {
				service_name(rows[i].name, sizeof rows[i].name, rows[i].instance, BY_PROCESS);
				service_name(rows[j].name, sizeof rows[j].name, rows[j].instance, BY_PROCESS);
			}
}

int chargeback_table(const struct chargeback *c, const struct ledger *l, struct charge_table *t)
{
	double svc_core = 0, svc_lower = 0, svc_upper = 0, svc_busy = 0;
	double (*other_ms)[1], *other_line, *idle_line;
	struct charge_row *r;
	int n = 0;

	memset(t, 0, sizeof *t);
	if (c->failed)
		return -1;
	t->rows = calloc((size_t)l->services.n + 2, sizeof *t->rows);
	other_line = calloc(TIMELINE_BUCKETS, sizeof *other_line);
	idle_line = calloc(TIMELINE_BUCKETS, sizeof *idle_line);
	other_ms = calloc(TIMELINE_BUCKETS, sizeof *other_ms);
	if (t->rows == NULL || other_line == NULL || idle_line == NULL || other_ms == NULL) {
		free(other_line);
		free(idle_line);
		free(other_ms);
		charge_table_free(t);
		return -1;
	}
	t->capacity_h = c->capacity / MS_PER_HOUR;
	t->cores = c->ncores;
	t->covered_h = l->covered / 3600;
	t->bucket_start = c->start;
	t->bucket_width = bucket_width(c);
	for (int b = 0; b < TIMELINE_BUCKETS; b++)
		other_ms[b][0] = c->bucket_sys[b][1];
	for (int id = 0; id < l->services.n && id < c->svccap; id++) {
		const double *s = &c->svc_sum[id * NSVC];

		if (!is_service(l->services.names[id], c->by)) {
			continue;
		}
		if (s[SVC_THROUGHPUT] <= 0 && s[SVC_BUSY] <= 0)
			continue;
		r = &t->rows[n++];
		r->kind = ROW_SERVICE;
		r->instance = l->services.names[id];
		service_name(r->name, sizeof r->name, r->instance, c->by);
		r->core_h = s[SVC_THROUGHPUT] / MS_PER_HOUR;
		r->lower_h = c->svc_bounds[id] ? s[SVC_LOWER] / MS_PER_HOUR : NAN;
		r->upper_h = c->svc_bounds[id] ? s[SVC_UPPER] / MS_PER_HOUR : NAN;
		r->cpu_h = s[SVC_BUSY] / MS_PER_HOUR;
		svc_core += s[SVC_THROUGHPUT];
		svc_lower += c->svc_bounds[id] ? s[SVC_LOWER] : s[SVC_THROUGHPUT];
		svc_upper += c->svc_bounds[id] ? s[SVC_UPPER] : s[SVC_THROUGHPUT];
		svc_busy += s[SVC_BUSY];
		if ((r->timeline = calloc(TIMELINE_BUCKETS, sizeof *r->timeline)) == NULL) {
			free(other_line);
			free(idle_line);
			free(other_ms);
			charge_table_free(t);
			return -1;
		}
		if (c->svc_timeline[id]) {
			as_cores(c, c->svc_timeline[id], r->timeline, 1);
			for (int b = 0; b < TIMELINE_BUCKETS; b++)
				other_ms[b][0] -= c->svc_timeline[id][b];
		} else
			for (int b = 0; b < TIMELINE_BUCKETS; b++)
				r->timeline[b] = c->bucket_covered[b] > 0 ? 0 : NAN;
	}
	unique_names(t->rows, n);

	r = &t->rows[n++];
	r->kind = ROW_OTHER;
	snprintf(r->name, sizeof r->name, "other");
	r->core_h = fmax(0, c->throughput - svc_core) / MS_PER_HOUR;
	t->overcharged_h = fmax(0, svc_core - c->throughput) / MS_PER_HOUR;
	r->lower_h = c->have_bounds ? fmax(0, c->lower - svc_upper) / MS_PER_HOUR : NAN;
	r->upper_h = c->have_bounds ? fmax(0, c->upper - svc_lower) / MS_PER_HOUR : NAN;
	r->cpu_h = c->busy_unknown ? NAN : fmax(0, c->busy - svc_busy) / MS_PER_HOUR;
	for (int b = 0; b < TIMELINE_BUCKETS; b++)
		other_ms[b][0] = fmax(0, other_ms[b][0]);
	as_cores(c, &other_ms[0][0], other_line, 1);
	r->timeline = other_line;

	r = &t->rows[n++];
	r->kind = ROW_IDLE;
	snprintf(r->name, sizeof r->name, "idle");
	r->core_h = c->left / MS_PER_HOUR;
	r->lower_h = c->have_bounds ? fmax(0, c->capacity - c->upper) / MS_PER_HOUR : NAN;
	r->upper_h = c->have_bounds ? fmax(0, c->capacity - c->lower) / MS_PER_HOUR : NAN;
	r->cpu_h = NAN;
	as_cores(c, c->bucket_left, idle_line, 1);
	r->timeline = idle_line;
	free(other_ms);

	t->nrows = n;
	for (int i = 0; i < n; i++) {
		finish_row(&t->rows[i], t->capacity_h);
		t->total_h += t->rows[i].core_h;
	}
	qsort(t->rows, (size_t)n, sizeof *t->rows, by_core_hours);
	t->difference_pct = t->capacity_h > 0 ? 100 * (t->total_h - t->capacity_h) / t->capacity_h : NAN;
	as_cores(c, &c->bucket_sys[0][0], t->timeline_capacity, 4);
	as_cores(c, &c->bucket_sys[0][2], t->timeline_lower, 4);
	as_cores(c, &c->bucket_sys[0][3], t->timeline_upper, 4);
	return 0;
}

void charge_table_free(struct charge_table *t)
{
	for (int i = 0; i < t->nrows; i++)
		free(t->rows[i].timeline);
	free(t->rows);
	memset(t, 0, sizeof *t);
}

void chargeback_free(struct chargeback *c)
{
	for (int i = 0; i < c->svccap; i++)
		free(c->svc_timeline[i]);
	free(c->svc_timeline);
	free(c->svc_sum);
	free(c->svc_bounds);
	memset(c, 0, sizeof *c);
}
