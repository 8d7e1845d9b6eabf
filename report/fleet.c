/*
 * The fleet's ranking (fleet.h).  One window for every host: the union of
 * their first and last samples, narrowed by -S/-T as for one host, so that
 * a host whose samples end early is named for the time it lacks.  Each
 * host's figures are its report's own (report_run), read through its own
 * reader and forgotten before the next host's are read.
 */
#include "fleet.h"
#include "intern.h"
#include "report_run.h"
#include "series_samples.h"
#include "time_window.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fleet_job {
	int (*host)(struct fleet *f, int i, struct sample_reader *r, struct fleet_job *job, char *err, size_t errlen);
	double percentile;
	int horizon;
	struct intern services;		/* chargeback: names to fleet.services */
	int servicecap, daycap;
};

/* What the host's ledger says of its covered time. */
static int keep_ledger(struct fleet_host *h, const struct ledger *l)
{
	h->covered = l->covered;
	h->bridged = l->bridged;
	if (l->ngaps == 0)
		return 0;
	if ((h->gaps = malloc((size_t)l->ngaps * sizeof *h->gaps)) == NULL)
		return -1;
	memcpy(h->gaps, l->gaps, (size_t)l->ngaps * sizeof *h->gaps);
	h->ngaps = l->ngaps;
	return 0;
}

static int capacity_host(struct fleet *f, int i, struct sample_reader *r, struct fleet_job *job, char *err,
			 size_t errlen)
{
	struct capacity_run run;
	const struct day *best = NULL;
	struct fleet_day *d;
	int sts = -1;

	if (capacity_run(&run, r, job->percentile, job->horizon, err, errlen) < 0)
		goto out;
	if (keep_ledger(&f->hosts[i], &run.l) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (int k = 0; k < run.rep.ndays; k++) {
		const struct day *day = &run.rep.days[k];

		if (day->have && (best == NULL || day->left < best->left))
			best = day;
	}
	if (best == NULL) {
		snprintf(err, errlen, isnan(job->percentile) ? "no day with an hour at least half covered"
							       : "no day with covered time");
		goto out;
	}
	if (f->ndays == job->daycap) {
		int cap = job->daycap ? 2 * job->daycap : 64;
		struct fleet_day *days = realloc(f->days, (size_t)cap * sizeof *days);

		if (days == NULL) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		f->days = days;
		job->daycap = cap;
	}
	d = &f->days[f->ndays++];
	d->host = i;
	snprintf(d->date, sizeof d->date, "%s", best->date);
	d->peak_start = best->peak_start;
	d->used = best->used;
	d->left = best->left;
	d->cap = best->cap;
	d->physc = best->physc;
	d->entitled = best->entitled;
	d->entc_pct = best->entc_pct;
	d->pool_idle = best->pool_idle;
	sts = 0;
out:
	capacity_run_free(&run);
	return sts;
}

static int charge_host(struct fleet *f, int i, struct sample_reader *r, struct fleet_job *job, char *err,
		       size_t errlen)
{
	struct charge_run run;
	int sts = -1;

	if (charge_run(&run, r, f->by, err, errlen) < 0)
		goto out;
	if (keep_ledger(&f->hosts[i], &run.l) < 0)
		goto oom;
	for (int k = 0; k < run.t.nrows; k++) {
		const struct charge_row *row = &run.t.rows[k];
		struct fleet_service *s;
		int id;

		if (row->kind != ROW_SERVICE)
			continue;
		if ((id = intern(&job->services, row->name)) < 0)
			goto oom;
		if (id == f->nservices) {
			if (f->nservices == job->servicecap) {
				int cap = job->servicecap ? 2 * job->servicecap : 64;
				struct fleet_service *grown = realloc(f->services, (size_t)cap * sizeof *grown);

				if (grown == NULL)
					goto oom;
				f->services = grown;
				job->servicecap = cap;
			}
			s = &f->services[f->nservices++];
			memset(s, 0, sizeof *s);
			snprintf(s->name, sizeof s->name, "%s", row->name);
		}
		s = &f->services[id];
		/* (a bound a host did not log makes the sum's unknown: NAN) */
		s->core_h += row->core_h;
		s->lower_h += row->lower_h;
		s->upper_h += row->upper_h;
		s->cpu_h += row->cpu_h;
		s->hosts++;
	}
	sts = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	charge_run_free(&run);
	return sts;
}

/* The hosts, the window, then each host's reader to job->host. */
static int each_host(struct fleet *f, const char *url, const struct window_args *w, struct fleet_job *job,
		     char *err, size_t errlen)
{
	struct series_store *s = series_store_open(url, f->by, err, errlen);
	char **names;
	double lo = 0, hi = 0;
	int n, bounded = 0, done = 0, sts = -1;

	if (s == NULL)
		return -1;
	snprintf(f->url, sizeof f->url, "%s", series_store_url(s));
	if (series_store_hosts(s, &f->store, err, errlen) < 0)
		goto out;
	names = f->store.with;
	n = f->store.nwith;
	if (n == 0) {
		snprintf(err, errlen, "no host in the store at %s holds smtcpu's metrics (%s)", f->url,
			 figure_metric(FIG_CAPACITY, f->by));
		goto out;
	}
	if ((f->hosts = calloc((size_t)n, sizeof *f->hosts)) == NULL) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	f->nhosts = n;
	for (int i = 0; i < n; i++) {
		double first, last;

		snprintf(f->hosts[i].name, sizeof f->hosts[i].name, "%s", names[i]);
		if (series_store_bounds(s, names[i], &first, &last, f->hosts[i].error, sizeof f->hosts[i].error) < 0)
			continue;
		lo = bounded == 0 || first < lo ? first : lo;
		hi = bounded == 0 || last > hi ? last : hi;
		bounded++;
	}
	if (bounded == 0) {
		snprintf(err, errlen, "%s", f->hosts[0].error);
		goto out;
	}
	if (time_window(w, lo, hi, "the store's samples of the fleet run", &f->start, &f->end, err, errlen) < 0)
		goto out;
	for (int i = 0; i < n; i++) {
		struct fleet_host *h = &f->hosts[i];
		struct sample_reader *r;

		if (h->error[0] ||
		    (r = series_store_reader(s, names[i], f->start, f->end, h->error, sizeof h->error)) == NULL)
			continue;
		if (job->host(f, i, r, job, h->error, sizeof h->error) == 0)
			done++;
		r->close(r);
	}
	if (done == 0) {
		for (int i = 0; i < n && !err[0]; i++)
			if (f->hosts[i].error[0])
				snprintf(err, errlen, "%s", f->hosts[i].error);
		goto out;
	}
	sts = 0;
out:
	series_store_close(s);
	return sts;
}

static int by_left(const void *x, const void *y)
{
	const struct fleet_day *a = x, *b = y;

	if (a->left != b->left)
		return a->left < b->left ? -1 : 1;
	return a->host - b->host;
}

static int by_core_hours(const void *x, const void *y)
{
	const struct fleet_service *a = x, *b = y;

	if (a->core_h != b->core_h)
		return a->core_h > b->core_h ? -1 : 1;
	return strcmp(a->name, b->name);
}

int fleet_capacity(struct fleet *f, const char *url, const struct window_args *w, double percentile, int horizon,
		   char *err, size_t errlen)
{
	struct fleet_job job = { .host = capacity_host, .percentile = percentile, .horizon = horizon };

	memset(f, 0, sizeof *f);
	f->percentile = percentile;
	err[0] = '\0';
	if (each_host(f, url, w, &job, err, errlen) < 0)
		return -1;
	if (f->ndays > 1)
		qsort(f->days, (size_t)f->ndays, sizeof *f->days, by_left);
	return 0;
}

int fleet_chargeback(struct fleet *f, const char *url, const struct window_args *w, enum sample_by by, char *err,
		     size_t errlen)
{
	struct fleet_job job = { .host = charge_host };
	int sts;

	memset(f, 0, sizeof *f);
	f->by = by;
	f->percentile = NAN;
	err[0] = '\0';
	sts = each_host(f, url, w, &job, err, errlen);
	intern_free(&job.services);
	if (sts == 0 && f->nservices > 1)
		qsort(f->services, (size_t)f->nservices, sizeof *f->services, by_core_hours);
	return sts;
}

void fleet_free(struct fleet *f)
{
	for (int i = 0; i < f->nhosts; i++)
		free(f->hosts[i].gaps);
	free(f->hosts);
	store_hosts_free(&f->store);
	free(f->days);
	free(f->services);
	memset(f, 0, sizeof *f);
}
