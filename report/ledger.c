/*
 * The ledger: what each counter grew by over each interval of one run.
 * A run breaks where the reader says (pmlogger stopped: an archive's end,
 * a mark), unless the break is short and the counters ran on across it,
 * and where smt.all.capacity shows the agent started again: it went back,
 * or grew by far more or far less than the cores could deliver.  The
 * record after a break is a baseline, counted for nothing.  A service that
 * appears within a run counts from zero (it is new), one whose counter
 * went back counts from zero again (its cgroup was made again); so nothing
 * is counted twice or below zero.
 */
#include "ledger.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How far smt.all.capacity's growth may stray from cores x elapsed and still
 * be one run: passes fall a period either side of a sample (2 s of each
 * core), and a core with threads offline delivers less (never below a
 * quarter of a core in any table). */
#define CAPACITY_OVER 1.05
#define CAPACITY_SLACK_MS 2000.0
#define CAPACITY_UNDER 0.25
/* A break of pmlogger's no longer than this many sampling intervals (the
 * daily rotation of a pmlogger farm) is crossed by the counters, where
 * smt.all.capacity shows the agent ran on: too short for a service to come
 * and go unseen.  A longer one is a gap. */
#define BRIDGE_INTERVALS 2

static bool is_counter(enum figure f)
{
	return f != FIG_NCORES && f != FIG_LPAR_ENTITLED && f < FIG_SVC_THROUGHPUT;
}

void ledger_init(struct ledger *l, interval_fn fn, void *arg)
{
	memset(l, 0, sizeof *l);
	l->fn = fn;
	l->arg = arg;
	l->first = l->last = -1;
}

static int add_gap(struct ledger *l, double t0, double t1, bool lacking, const char *why)
{
	if (l->ngaps == l->gapcap) {
		int cap = l->gapcap ? 2 * l->gapcap : 16;
		struct gap *g = realloc(l->gaps, (size_t)cap * sizeof *g);

		if (g == NULL)
			return -1;
		l->gaps = g;
		l->gapcap = cap;
	}
	l->gaps[l->ngaps].t0 = t0;
	l->gaps[l->ngaps].t1 = t1;
	l->gaps[l->ngaps].lacking = lacking;
	snprintf(l->gaps[l->ngaps].why, sizeof l->gaps[l->ngaps].why, "%s", why);
	l->ngaps++;
	return 0;
}

/* Room for n CPUs' and services' state. */
static int room(struct ledger *l)
{
	if (l->cpus.n > l->cpucap) {
		int cap = 2 * l->cpus.n;
		double *last = realloc(l->cpu_last, (size_t)cap * sizeof *last);
		long *seen;

		if (last == NULL)
			return -1;
		l->cpu_last = last;
		if ((seen = realloc(l->cpu_seen, (size_t)cap * sizeof *seen)) == NULL)
			return -1;
		l->cpu_seen = seen;
		for (int i = l->cpucap; i < cap; i++)
			l->cpu_seen[i] = -1;
		l->cpucap = cap;
	}
	if (l->services.n > l->svccap) {
		int cap = 2 * l->services.n;
		double (*last)[NSVC] = realloc(l->svc_last, (size_t)cap * sizeof *last);
		long *seen, *epoch, *rowseq;
		int *row;

		if (last == NULL)
			return -1;
		l->svc_last = last;
		if ((row = realloc(l->svc_row, (size_t)cap * sizeof *row)) == NULL)
			return -1;
		l->svc_row = row;
		if ((rowseq = realloc(l->svc_rowseq, (size_t)cap * sizeof *rowseq)) == NULL)
			return -1;
		l->svc_rowseq = rowseq;
		if ((seen = realloc(l->svc_seen, (size_t)cap * sizeof *seen)) == NULL)
			return -1;
		l->svc_seen = seen;
		if ((epoch = realloc(l->svc_epoch, (size_t)cap * sizeof *epoch)) == NULL)
			return -1;
		l->svc_epoch = epoch;
		for (int i = l->svccap; i < cap; i++) {
			l->svc_seen[i] = -1;
			l->svc_epoch[i] = 0;
			l->svc_rowseq[i] = -1;
			for (int k = 0; k < NSVC; k++)
				l->svc_last[i][k] = NAN;
		}
		l->svccap = cap;
	}
	return 0;
}

/* The number of observation i's instance in t: known by its address where
 * it was the same observation's last record, else interned. */
static int number_of(struct ledger *l, struct intern *t, const struct record *rec, int i)
{
	const char *name = rec->obs[i].instance;
	int id;

	if (i < l->hintcap && l->hint_gen == rec->names_gen && l->hint_name[i] == name)
		return l->hint_id[i];
	if ((id = intern(t, name)) < 0)
		return -1;
	if (i >= l->hintcap) {
		int cap = 2 * (i + 1);
		const char **names = realloc(l->hint_name, (size_t)cap * sizeof *names);
		int *ids;

		if (names == NULL)
			return id;
		l->hint_name = names;
		if ((ids = realloc(l->hint_id, (size_t)cap * sizeof *ids)) == NULL)
			return id;
		l->hint_id = ids;
		for (int k = l->hintcap; k < cap; k++)
			l->hint_name[k] = NULL;
		l->hintcap = cap;
	}
	l->hint_name[i] = name;
	l->hint_id[i] = id;
	return id;
}

/* The service's row in this record's growth, made on first touch. */
static int touch(struct ledger *l, int id)
{
	if (l->svc_rowseq[id] == l->seq)
		return l->svc_row[id];
	if (l->ntouched == l->touchcap) {
		int cap = l->touchcap ? 2 * l->touchcap : 64;
		int *t = realloc(l->touched, (size_t)cap * sizeof *t);
		double (*g)[NSVC];

		if (t == NULL)
			return -1;
		l->touched = t;
		if ((g = realloc(l->grew, (size_t)cap * sizeof *g)) == NULL)
			return -1;
		l->grew = g;
		l->touchcap = cap;
	}
	l->touched[l->ntouched] = id;
	for (int k = 0; k < NSVC; k++)
		l->grew[l->ntouched][k] = NAN;
	l->svc_row[id] = l->ntouched;
	l->svc_rowseq[id] = l->seq;
	return l->ntouched++;
}

/* The most v can be from what was counted, where the reader rounded it to
 * `digits` significant digits (0: exact).  Counters that large change by
 * whole steps of the last digit kept: without this allowance an agent up
 * for months reads as started again. */
static double rounding(int digits, double v)
{
	return digits > 0 && v != 0 && isfinite(v) ? 0.5 * pow(10, floor(log10(fabs(v))) - digits + 1) : 0;
}

/* Why the interval up to t is not one run, or NULL if it is. */
static const char *broken(struct ledger *l, const struct record *rec, const double *now, char *buf, size_t len)
{
	double dt = rec->time - l->last, dcap, full, rounded;

	if (rec->mark && (rec->lacking || !(l->typical > 0 && dt <= BRIDGE_INTERVALS * l->typical * 1.01)))
		return rec->why ? rec->why : "pmlogger stopped";
	dcap = now[FIG_CAPACITY] - l->sys_last[FIG_CAPACITY];
	if (dcap < 0)
		return "the agent started again (smt.all.capacity went back)";
	if (l->ncores <= 0)
		return NULL;
	full = l->ncores * dt * 1000;
	rounded = rounding(rec->digits, now[FIG_CAPACITY]) + rounding(rec->digits, l->sys_last[FIG_CAPACITY]);
	if (dcap > full * CAPACITY_OVER + l->ncores * CAPACITY_SLACK_MS + rounded) {
		snprintf(buf, len, "the agent started again or its counters jumped (smt.all.capacity grew %.0f s in "
			 "%.0f s of %g cores)", dcap / 1000, dt, l->ncores);
		return buf;
	}
	if (dcap < full * CAPACITY_UNDER - rounded) {
		snprintf(buf, len, "the agent started again or stopped counting (smt.all.capacity grew %.0f s in "
			 "%.0f s of %g cores)", dcap / 1000, dt, l->ncores);
		return buf;
	}
	return NULL;
}

/* A service's growth from last to v: from zero where it is new or its
 * counter went back, none where that is more than its CPUs could run. */
static double service_growth(const struct ledger *l, int id, int k, double v, double dt, int digits)
{
	double last = l->svc_last[id][k], most = dt * 1000 * (l->cpus.n > 0 ? l->cpus.n : 4096);
	double d = (!isnan(last) && v >= last) ? v - last : v;

	return d <= most * 1.01 + 1 + rounding(digits, v) + rounding(digits, last) ? d : 0;
}

int ledger_feed(struct ledger *l, const struct record *rec)
{
	double now[FIG_SVC_THROUGHPUT] = { 0 }, busy = 0, dt;
	bool has[FIG_SVC_THROUGHPUT] = { false }, covered = false;
	const char *why = NULL;
	char buf[200];
	struct interval iv;

	for (int i = 0; i < rec->nobs; i++) {
		enum figure f = rec->obs[i].figure;

		if (f < FIG_SVC_THROUGHPUT && f != FIG_CPU_BUSY) {
			now[f] = rec->obs[i].value;
			has[f] = true;
		}
	}
	if (!has[FIG_CAPACITY] || (l->last >= 0 && rec->time <= l->last))
		return 0;	/* no smtcpu values (the agent was not there) */
	l->seq++;
	dt = l->last >= 0 ? rec->time - l->last : 0;
	if (l->first < 0) {
		l->first = rec->time;
		l->epoch = 1;
		if (rec->mark && rec->lacking) {	/* lacking before the first */
			l->start_lack.from = rec->lack_from;
			l->start_lack.to = rec->time;
			snprintf(l->start_lack.why, sizeof l->start_lack.why, "%s", rec->why ? rec->why : "lacking");
		}
	} else if ((why = broken(l, rec, now, buf, sizeof buf)) != NULL) {
		if (add_gap(l, l->last, rec->time, rec->mark && rec->lacking, why) < 0)
			return -1;
		l->epoch++;
	} else {
		covered = true;
		if (rec->mark)
			l->bridged++;
	}

	memset(&iv, 0, sizeof iv);
	l->ntouched = 0;
	if (l->hint_gen != rec->names_gen) {
		for (int i = 0; i < l->hintcap; i++)
			l->hint_name[i] = NULL;
		l->hint_gen = rec->names_gen;
	}
	for (int i = 0; i < rec->nobs; i++) {
		const struct observation *o = &rec->obs[i];
		int id, row, k;

		if (o->instance == NULL)
			continue;
		if (o->figure == FIG_CPU_BUSY) {
			if ((id = number_of(l, &l->cpus, rec, i)) < 0 || room(l) < 0)
				return -1;
			if (covered && l->cpu_seen[id] == l->seq - 1 && o->value >= l->cpu_last[id])
				busy += o->value - l->cpu_last[id];
			l->cpu_last[id] = o->value;
			l->cpu_seen[id] = l->seq;
			continue;
		}
		if (o->figure < FIG_SVC_THROUGHPUT)
			continue;
		if ((id = number_of(l, &l->services, rec, i)) < 0 || room(l) < 0 || (row = touch(l, id)) < 0)
			return -1;
		k = (int)(o->figure - FIG_SVC_THROUGHPUT);
		if (covered)
			l->grew[row][k] = service_growth(l, id, k, o->value, dt, rec->digits);
		l->svc_last[id][k] = o->value;
	}
	for (int i = 0; i < l->ntouched; i++) {
		l->svc_seen[l->touched[i]] = l->seq;
		l->svc_epoch[l->touched[i]] = l->epoch;
	}

	if (covered) {
		iv.t0 = l->last;
		iv.t1 = rec->time;
		for (int f = 0; f < FIG_SVC_THROUGHPUT; f++) {
			if (f == FIG_CPU_BUSY)
				continue;
			if (is_counter((enum figure)f)) {
				iv.have[f] = has[f] && l->sys_have[f] && now[f] >= l->sys_last[f];
				iv.sys[f] = iv.have[f] ? now[f] - l->sys_last[f] : 0;
			} else {
				iv.have[f] = has[f];
				iv.sys[f] = now[f];
			}
		}
		iv.have[FIG_CPU_BUSY] = l->cpus.n > 0;
		iv.sys[FIG_CPU_BUSY] = busy;
		iv.nsvc = l->ntouched;
		iv.svc = l->touched;
		iv.grew = (const double (*)[NSVC])l->grew;
		l->fn(l->arg, &iv);
		l->covered += dt;
		if (l->typical <= 0)
			l->typical = dt;
	}
	for (int f = 0; f < FIG_SVC_THROUGHPUT; f++)
		if (has[f]) {
			l->sys_last[f] = now[f];
			l->sys_have[f] = true;
		} else if (is_counter((enum figure)f))
			l->sys_have[f] = false;
	if (has[FIG_NCORES] && now[FIG_NCORES] > 0)
		l->ncores = now[FIG_NCORES];
	l->last = rec->time;
	return 0;
}

static int by_start(const void *x, const void *y)
{
	const struct gap *a = x, *b = y;

	return (a->t0 > b->t0) - (a->t0 < b->t0);
}

int ledger_finish(struct ledger *l, double start, double end, const struct lack *end_lack)
{
	double slack = l->typical > 0 ? 1.5 * l->typical : 60;

	if (l->first < 0)
		return 0;
	/* time the reader says it lacks is named however short; before and
	 * after the lack, the window's ends may have no samples at all */
	if (l->start_lack.why[0] && l->first > start) {
		double from = l->start_lack.from > start ? l->start_lack.from : start;

		if (from - start <= slack)
			from = start;
		else if (add_gap(l, start, from, false, "no samples from the window's start") < 0)
			return -1;
		if (add_gap(l, from, l->first, true, l->start_lack.why) < 0)
			return -1;
	} else if (l->first - start > slack && add_gap(l, start, l->first, false, "no samples from the window's start") < 0)
		return -1;
	if (end_lack && end_lack->why[0] && end > l->last) {
		double to = end_lack->to < end ? end_lack->to : end;

		if (end - to <= slack)
			to = end;
		else if (add_gap(l, to, end, false, "no samples to the window's end") < 0)
			return -1;
		if (add_gap(l, l->last, to, true, end_lack->why) < 0)
			return -1;
	} else if (end - l->last > slack && add_gap(l, l->last, end, false, "no samples to the window's end") < 0)
		return -1;
	if (l->ngaps > 1)
		qsort(l->gaps, (size_t)l->ngaps, sizeof *l->gaps, by_start);
	return 0;
}

void ledger_free(struct ledger *l)
{
	intern_free(&l->services);
	intern_free(&l->cpus);
	free(l->gaps);
	free(l->cpu_last);
	free(l->cpu_seen);
	free(l->svc_last);
	free(l->svc_seen);
	free(l->svc_epoch);
	free(l->svc_row);
	free(l->svc_rowseq);
	free(l->touched);
	free(l->grew);
	free(l->hint_name);
	free(l->hint_id);
	memset(l, 0, sizeof *l);
}
