/*
 * samples.h's records from pmproxy's series (series_samples.h).  Each
 * figure's metric is one series per host (or more, where its metadata
 * changed), each series a stream of (time, instance, value) read a page at
 * a time; a record is every stream's values at the earliest time any of
 * them holds next.  The figures are logged together, in one pmlogger group
 * (pcp-smtcpu(1), NOTES), so the store holds each at every time of the
 * host's: where it holds some and not others, those it lacks were lost
 * (a node of the store's, entries trimmed), and the time is no record.
 * What is known to be lacking is said by the record after it, or at the
 * end by end_why.  A series whose times are not capacity's (logged in
 * another group) is read, never required.  The services' series hold no
 * value at a time without services, so they are required only together:
 * some of them at a time and not the others is a lack.
 */
#include "series_samples.h"

#include <stdlib.h>

#ifndef SMTCPU_NO_SERIES

#include "intern.h"
#include "pcp_compat.h"
#include "pmproxy_json.h"
#include "pmproxy_rest.h"
#include "printable.h"
#include "time_window.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SERIES_ID_LEN 40
/* libpcp_web writes a double into the store as %e (series_stream_value) */
#define STORE_DIGITS 7
#define US 1000000
/* A page's values (some 150 bytes of JSON each), and its fewest times. */
#define PAGE_VALUES 50000
#define PAGE_TIMES_MIN 16
/* The time a first page asks for, and the most a page may: pmproxy reads
 * the whole span from the store before it counts out a page's times. */
#define FIRST_SPAN_US ((int64_t)6 * 3600 * US)
#define LONGEST_SPAN_US ((int64_t)7 * 86400 * US)

struct value {
	int64_t us;
	int inst;		/* the store's instance number, -1 none */
	double v;
};

/* One series of a figure's, read a page at a time. */
struct stream {
	enum figure figure;
	char id[SERIES_ID_LEN + 1];
	int ninstances;
	int64_t first_us, last_us;	/* its first and last value in the store, -1 none */
	bool separate;			/* logged apart from smt.all.capacity */
	struct value *page;
	int n, at, cap;
	int64_t next_us, span_us;	/* the next page's start and length */
	bool done;			/* no page after this one */
};

struct series_store {
	struct rest *rest;
	enum sample_by by;
	struct intern insts;		/* the instances' series IDs, numbered */
	char **names;			/* [insts.n] their names, printable; NULL unknown */
	int namecap;
};

struct series_reader {
	struct sample_reader r;
	struct series_store *store;
	bool owns_store;
	struct stream *streams;
	int nstreams;
	int64_t start_us, end_us;	/* asked of the store: the window and a microsecond */
	struct timespec from;		/* the window's start, as the archive reader positions */
	bool required[NFIGURES];
	struct observation *obs;
	int nobs, obscap;
	/* the times left out since the last record, what they lacked */
	bool lacking;
	int64_t lack_first, lack_last;
	bool lack_fig[NFIGURES];
	char why[200];
};

static bool is_service_figure(enum figure f)
{
	return f >= FIG_SVC_THROUGHPUT;
}

/* A name a pmseries query can carry between double quotes. */
static bool queryable(const char *name)
{
	size_t len = strlen(name);

	if (len == 0 || len > 255)
		return false;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (*p == '"' || *p == '\\' || *p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

static bool is_series_id(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!isxdigit((unsigned char)s[n]) || n >= SERIES_ID_LEN)
			return false;
	return n == SERIES_ID_LEN;
}

static double us_seconds(int64_t us)
{
	return (double)(us / US) + (double)(us % US) / 1e6;
}

static void us_text(char *buf, size_t len, int64_t us)
{
	snprintf(buf, len, "%" PRId64 ".%06" PRId64, us / US, us % US);
}

/* The series IDs of metric for host: an answer to free, or NULL. */
static json_t *series_of(struct series_store *s, const char *metric, const char *host, char *err, size_t errlen)
{
	char expr[512];
	const char *params[] = { "expr", expr, NULL };
	json_t *ids;

	snprintf(expr, sizeof expr, "%s{hostname:\"%s\"}", metric, host);
	if ((ids = rest_get(s->rest, "/series/query", params, err, errlen)) != NULL && !json_is_array(ids)) {
		snprintf(err, errlen, "pmproxy at %s: its answer to /series/query is not a list of series",
			 rest_url(s->rest));
		json_decref(ids);
		return NULL;
	}
	return ids;
}

static int names_room(struct series_store *s)
{
	if (s->insts.n > s->namecap) {
		int cap = 2 * s->insts.n;
		char **names = realloc(s->names, (size_t)cap * sizeof *names);

		if (names == NULL)
			return -1;
		for (int i = s->namecap; i < cap; i++)
			names[i] = NULL;
		s->names = names;
		s->namecap = cap;
	}
	return 0;
}

/* The series' instances and their names into the store's table: the
 * number of them, or -1 with err set. */
static int add_instances(struct series_store *s, const char *id, char *err, size_t errlen)
{
	const char *params[] = { "series", id, NULL };
	json_t *insts = rest_get(s->rest, "/series/instances", params, err, errlen), *one;
	size_t i;
	int n = 0;

	if (insts == NULL)
		return -1;
	json_array_foreach(insts, i, one) {
		const char *inst = json_string_value(json_object_get(one, "instance"));
		const char *name = json_string_value(json_object_get(one, "name"));
		char clean[512];
		int num;

		if (inst == NULL || name == NULL || !is_series_id(inst))
			continue;
		if ((num = intern(&s->insts, inst)) < 0 || names_room(s) < 0)
			goto oom;
		if (s->names[num] == NULL) {
			pmproxy_name(clean, sizeof clean, name);
			if ((s->names[num] = strdup(clean)) == NULL)
				goto oom;
		}
		n++;
	}
	json_decref(insts);
	return n;
oom:
	json_decref(insts);
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* The earliest and latest time in an answer of values, -1 none. */
static int value_times(struct series_store *s, const char *const *params, int64_t *lo, int64_t *hi, char *err,
		       size_t errlen)
{
	json_t *vals = rest_get(s->rest, "/series/values", params, err, errlen), *one;
	size_t i;

	if (vals == NULL)
		return -1;
	*lo = *hi = -1;
	json_array_foreach(vals, i, one) {
		const char *stamp = json_string_value(json_object_get(one, "timestamp"));
		int64_t us;

		if (stamp == NULL || pmproxy_stamp(stamp, &us) < 0)
			continue;
		if (*lo < 0 || us < *lo)
			*lo = us;
		if (us > *hi)
			*hi = us;
	}
	json_decref(vals);
	return 0;
}

/* A stream's first and last value in the store. */
static int stream_bounds(struct series_store *s, struct stream *st, char *err, size_t errlen)
{
	const char *latest[] = { "series", st->id, NULL };
	const char *earliest[] = { "series", st->id, "start", "0", "samples", "1", NULL };
	int64_t lo, hi, lo2, hi2;

	if (value_times(s, latest, &lo, &hi, err, errlen) < 0 || value_times(s, earliest, &lo2, &hi2, err, errlen) < 0)
		return -1;
	st->first_us = lo2 >= 0 ? lo2 : lo;
	st->last_us = hi;
	return 0;
}

/* The streams of every figure the store holds for host, in the figures'
 * order, with their bounds. */
static int look_up(struct series_store *s, const char *host, struct stream **out, int *nout, char *err,
		   size_t errlen)
{
	struct stream *streams = NULL;
	int n = 0;
	bool capacity = false;

	if (!queryable(host)) {
		char shown[256];

		printable_copy(shown, sizeof shown, host, strlen(host));
		snprintf(err, errlen, "%s: a host name no pmseries query can carry", shown);
		return -1;
	}
	for (int f = 0; f < NFIGURES; f++) {
		json_t *ids = series_of(s, figure_metric((enum figure)f, s->by), host, err, errlen), *one;
		size_t i;

		if (ids == NULL)
			goto fail;
		json_array_foreach(ids, i, one) {
			const char *id = json_string_value(one);
			struct stream *grown, *st;

			if (id == NULL || !is_series_id(id))
				continue;
			if ((grown = realloc(streams, (size_t)(n + 1) * sizeof *streams)) == NULL) {
				json_decref(ids);
				snprintf(err, errlen, "out of memory");
				goto fail;
			}
			streams = grown;
			st = &streams[n++];
			memset(st, 0, sizeof *st);
			st->figure = (enum figure)f;
			memcpy(st->id, id, SERIES_ID_LEN + 1);
			if ((figure_has_instances(st->figure) &&
			     (st->ninstances = add_instances(s, st->id, err, errlen)) < 0) ||
			    stream_bounds(s, st, err, errlen) < 0) {
				json_decref(ids);
				goto fail;
			}
			capacity |= f == FIG_CAPACITY && st->first_us >= 0;
		}
		json_decref(ids);
	}
	if (!capacity) {
		snprintf(err, errlen, "%s: the store at %s holds no samples of smtcpu's metrics for the host (%s)",
			 host, rest_url(s->rest), figure_metric(FIG_CAPACITY, s->by));
		goto fail;
	}
	*out = streams;
	*nout = n;
	return 0;
fail:
	free(streams);
	return -1;
}

/* A value's instance, by its series ID: its number in the store's table,
 * named from the series' instances where it is new (pmproxy's discovery
 * may have met it since), else by the ID. */
static int instance_of(struct series_store *s, const char *stream_id, const char *inst, bool *asked, char *err,
		       size_t errlen)
{
	int num = intern(&s->insts, inst);

	if (num < 0 || names_room(s) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (s->names[num] == NULL && !*asked) {
		*asked = true;
		if (add_instances(s, stream_id, err, errlen) < 0)
			return -1;
	}
	if (s->names[num] == NULL) {
		char name[16];

		snprintf(name, sizeof name, "#%.12s", inst);
		if ((s->names[num] = strdup(name)) == NULL) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return num;
}

static int push(struct stream *st, int64_t us, int inst, double v)
{
	if (st->n == st->cap) {
		int cap = st->cap ? 2 * st->cap : 1024;
		struct value *page = realloc(st->page, (size_t)cap * sizeof *page);

		if (page == NULL)
			return -1;
		st->page = page;
		st->cap = cap;
	}
	st->page[st->n++] = (struct value){ us, inst, v };
	return 0;
}

/* The page's values into st from one answer; its times in *times, the
 * last in *last.  0, or -1 with err set. */
static int take_page(struct series_reader *p, struct stream *st, json_t *vals, int64_t lo, int64_t hi, int *times,
		     int64_t *last, char *err, size_t errlen)
{
	bool asked = false;
	json_t *one;
	size_t i;

	json_array_foreach(vals, i, one) {
		const char *series = json_string_value(json_object_get(one, "series"));
		const char *stamp = json_string_value(json_object_get(one, "timestamp"));
		const char *value = json_string_value(json_object_get(one, "value"));
		const char *inst = json_string_value(json_object_get(one, "instance"));
		int num = -1;
		char *end;
		int64_t us;
		double v;

		if (series == NULL || strcmp(series, st->id) != 0 || value == NULL)
			continue;
		if (stamp == NULL || pmproxy_stamp(stamp, &us) < 0) {
			char shown[64];

			printable_copy(shown, sizeof shown, stamp ? stamp : "none", stamp ? strlen(stamp) : 4);
			snprintf(err, errlen, "pmproxy at %s: a value's timestamp %s is not the store's MS.SEQ",
				 rest_url(p->store->rest), shown);
			return -1;
		}
		v = strtod(value, &end);
		if (*end != '\0' || end == value || !isfinite(v) || us < lo || us > hi)
			continue;	/* (not a number: not had) */
		if (inst && is_series_id(inst) &&
		    (num = instance_of(p->store, st->id, inst, &asked, err, errlen)) < 0)
			return -1;
		if (figure_has_instances(st->figure) && num < 0)
			continue;
		if (us != *last) {
			(*times)++;
			*last = us;
		}
		if (push(st, us, figure_has_instances(st->figure) ? num : -1, v) < 0) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* The stream's next page with a value in it, or none left (done). */
static int read_page(struct series_reader *p, struct stream *st, char *err, size_t errlen)
{
	st->n = st->at = 0;
	while (st->n == 0 && !st->done) {
		int64_t lo = st->next_us, hi = lo + st->span_us - 1, last = -1;
		int per = PAGE_VALUES / (st->ninstances > 0 ? st->ninstances : 1), times = 0;
		char a[32], b[32], c[16];
		const char *params[] = { "series", st->id, "start", a, "finish", b, "samples", c, NULL };
		json_t *vals;

		if (hi > p->end_us)
			hi = p->end_us;
		us_text(a, sizeof a, lo);
		us_text(b, sizeof b, hi);
		snprintf(c, sizeof c, "%d", per > PAGE_TIMES_MIN ? per : PAGE_TIMES_MIN);
		if ((vals = rest_get(p->store->rest, "/series/values", params, err, errlen)) == NULL)
			return -1;
		if (take_page(p, st, vals, lo, hi, &times, &last, err, errlen) < 0) {
			json_decref(vals);
			return -1;
		}
		json_decref(vals);
		if (times >= (per > PAGE_TIMES_MIN ? per : PAGE_TIMES_MIN)) {
			/* cut: pmproxy 6.0.3 counts whole times, but were the
			 * last time's instances cut short, the next page holds
			 * them all again */
			st->next_us = last + (times > 1 ? 0 : 1);
			while (times > 1 && st->n > 0 && st->page[st->n - 1].us == last)
				st->n--;
			st->span_us = last - lo + 1 > US ? last - lo + 1 : US;
		} else {
			st->next_us = hi + 1;
			if (st->span_us < LONGEST_SPAN_US)
				st->span_us *= 2;
		}
		st->done = st->next_us > p->end_us;
	}
	return 0;
}

/* Whether the first pages say st is logged apart from capacity's stream
 * c: their times overlap and share none. */
static bool apart(const struct stream *st, const struct stream *c)
{
	int i = 0, j = 0;

	if (st->n == 0 || c->n == 0 || st->page[0].us > c->page[c->n - 1].us || c->page[0].us > st->page[st->n - 1].us)
		return false;
	while (i < st->n && j < c->n) {
		if (st->page[i].us == c->page[j].us)
			return false;
		if (st->page[i].us < c->page[j].us)
			i++;
		else
			j++;
	}
	return true;
}

static int add_observation(struct series_reader *p, enum figure f, const char *inst, double v)
{
	if (p->nobs == p->obscap) {
		int cap = p->obscap ? 2 * p->obscap : 256;
		struct observation *o = realloc(p->obs, (size_t)cap * sizeof *o);

		if (o == NULL)
			return -1;
		p->obs = o;
		p->obscap = cap;
	}
	p->obs[p->nobs++] = (struct observation){ f, inst, v };
	return 0;
}

static void describe(struct series_reader *p)
{
	char a[32], b[32], names[160] = "";
	int n = 0;

	for (int f = 0; f < NFIGURES; f++) {
		size_t used = strlen(names);

		if (!p->lack_fig[f])
			continue;
		if (n++ < 2)
			snprintf(names + used, sizeof names - used, "%s%s", n > 1 ? " and " : "",
				 figure_metric((enum figure)f, p->store->by));
	}
	if (n > 2) {
		size_t used = strlen(names);

		snprintf(names + used, sizeof names - used, " and %d more", n - 2);
	}
	time_stamp(a, sizeof a, (double)p->lack_first / US);
	time_stamp(b, sizeof b, (double)p->lack_last / US);
	if (p->lack_first == p->lack_last)
		snprintf(p->why, sizeof p->why, "the store lacks this host's %s at %s", names, a);
	else
		snprintf(p->why, sizeof p->why, "the store lacks this host's %s from %s to %s", names, a, b);
}

/* Whether the time t, whose figures are present[], lacks one it must hold:
 * if so, added to the run of times left out. */
static bool lacks(struct series_reader *p, const bool *present, int64_t t)
{
	bool services = false, any = false;

	for (int f = FIG_SVC_THROUGHPUT; f < NFIGURES; f++)
		services |= p->required[f] && present[f];
	for (int f = 0; f < NFIGURES; f++) {
		if (!p->required[f] || present[f] || (is_service_figure((enum figure)f) && !services))
			continue;
		if (!any && !p->lacking) {
			memset(p->lack_fig, 0, sizeof p->lack_fig);
			p->lack_first = t;
		}
		any = true;
		p->lack_fig[f] = true;
	}
	if (any) {
		p->lacking = true;
		p->lack_last = t;
	}
	return any;
}

static bool before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static int next_record(struct sample_reader *r, struct record *rec)
{
	struct series_reader *p = (struct series_reader *)r;

	rec->mark = rec->lacking = false;
	rec->why = NULL;
	rec->digits = STORE_DIGITS;
	for (;;) {
		bool present[NFIGURES] = { false };
		int64_t t = INT64_MAX;
		struct timespec ts;

		for (int i = 0; i < p->nstreams; i++) {
			struct stream *st = &p->streams[i];

			if (st->at == st->n && !st->done && read_page(p, st, r->error, sizeof r->error) < 0)
				return -1;
			if (st->at < st->n && st->page[st->at].us < t)
				t = st->page[st->at].us;
		}
		if (t == INT64_MAX) {
			if (p->lacking) {
				describe(p);
				r->end_lack.from = us_seconds(p->lack_first);
				r->end_lack.to = us_seconds(p->lack_last);
				snprintf(r->end_lack.why, sizeof r->end_lack.why, "%s", p->why);
				p->lacking = false;
			}
			return 0;
		}
		p->nobs = 0;
		for (int i = 0; i < p->nstreams; i++) {
			struct stream *st = &p->streams[i];
			bool again = present[st->figure];	/* a second series of the figure's */

			if (st->at >= st->n || st->page[st->at].us != t)
				continue;
			for (; st->at < st->n && st->page[st->at].us == t; st->at++) {
				const struct value *v = &st->page[st->at];

				if (!again && add_observation(p, st->figure, v->inst >= 0 ? p->store->names[v->inst] : NULL,
							      v->v) < 0) {
					snprintf(r->error, sizeof r->error, "out of memory");
					return -1;
				}
			}
			present[st->figure] = true;
		}
		ts.tv_sec = (time_t)(t / US);
		ts.tv_nsec = (long)(t % US) * 1000;
		if (before(&ts, &p->from) || pcp_seconds(&ts) > r->end || lacks(p, present, t))
			continue;
		rec->time = pcp_seconds(&ts);
		rec->nobs = p->nobs;
		rec->obs = p->obs;
		rec->names_gen = 1;	/* the store's names live as long as it */
		if (p->lacking) {
			describe(p);
			rec->mark = rec->lacking = true;
			rec->lack_from = us_seconds(p->lack_first);
			rec->why = p->why;
			p->lacking = false;
		}
		return 1;
	}
}

static void close_reader(struct sample_reader *r)
{
	struct series_reader *p = (struct series_reader *)r;

	if (p == NULL)
		return;
	for (int i = 0; i < p->nstreams; i++)
		free(p->streams[i].page);
	free(p->streams);
	free(p->obs);
	if (p->owns_store)
		series_store_close(p->store);
	free(p);
}

struct series_store *series_store_open(const char *url, enum sample_by by, char *err, size_t errlen)
{
	struct series_store *s = calloc(1, sizeof *s);

	if (s == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->by = by;
	if ((s->rest = rest_open(url, err, errlen)) == NULL) {
		free(s);
		return NULL;
	}
	return s;
}

const char *series_store_url(const struct series_store *s)
{
	return rest_url(s->rest);
}

void series_store_close(struct series_store *s)
{
	if (s == NULL)
		return;
	for (int i = 0; i < s->insts.n && i < s->namecap; i++)
		free(s->names[i]);
	free(s->names);
	intern_free(&s->insts);
	rest_close(s->rest);
	free(s);
}

int series_store_bounds(struct series_store *s, const char *host, double *first, double *last, char *err,
			size_t errlen)
{
	struct stream *streams;
	int n;
	int64_t lo = -1, hi = -1;

	if (look_up(s, host, &streams, &n, err, errlen) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (streams[i].first_us < 0)
			continue;
		if (lo < 0 || streams[i].first_us < lo)
			lo = streams[i].first_us;
		if (streams[i].last_us > hi)
			hi = streams[i].last_us;
	}
	free(streams);
	*first = us_seconds(lo);
	*last = us_seconds(hi);
	return 0;
}

struct sample_reader *series_store_reader(struct series_store *s, const char *host, double start, double end,
					  char *err, size_t errlen)
{
	struct series_reader *p = calloc(1, sizeof *p);
	const struct stream *capacity = NULL;

	if (p == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->store = s;
	p->r.next = next_record;
	p->r.close = close_reader;
	printable_copy(p->r.host, sizeof p->r.host, host, strlen(host));
	p->r.start = start;
	p->r.end = end;
	p->from = pcp_timespec(start);
	/* a microsecond either side: the records are chosen as the archive
	 * reader chooses them, by from and end */
	p->start_us = (int64_t)floor(start * US) - 1;
	p->end_us = (int64_t)ceil(end * US) + 1;
	if (look_up(s, host, &p->streams, &p->nstreams, err, errlen) < 0)
		goto fail;
	for (int i = 0; i < p->nstreams; i++) {
		struct stream *st = &p->streams[i];

		st->next_us = p->start_us;
		st->span_us = FIRST_SPAN_US;
		st->done = st->first_us < 0 || st->first_us > p->end_us || st->last_us < p->start_us;
		if (st->done)
			continue;
		if (read_page(p, st, err, errlen) < 0)
			goto fail;
		if (st->figure == FIG_CAPACITY && st->n > 0 && capacity == NULL)
			capacity = st;
	}
	for (int i = 0; i < p->nstreams; i++) {
		struct stream *st = &p->streams[i];
		bool in_window = !(st->first_us < 0 || st->first_us > p->end_us || st->last_us < p->start_us);

		st->separate = capacity && st != capacity && apart(st, capacity);
		p->required[st->figure] |= in_window && !st->separate;
	}
	return &p->r;
fail:
	close_reader(&p->r);
	return NULL;
}

struct sample_reader *series_open_host(const char *url, const char *hostname, const struct window_args *w,
				       enum sample_by by, char *err, size_t errlen)
{
	struct series_store *s = series_store_open(url, by, err, errlen);
	struct series_reader *p;
	double first, last, start, end;
	char held[384];

	if (s == NULL)
		return NULL;
	snprintf(held, sizeof held, "the store's samples of %.255s run", hostname);
	if (series_store_bounds(s, hostname, &first, &last, err, errlen) < 0 ||
	    time_window(w, first, last, held, &start, &end, err, errlen) < 0 ||
	    (p = (struct series_reader *)series_store_reader(s, hostname, start, end, err, errlen)) == NULL) {
		series_store_close(s);
		return NULL;
	}
	p->owns_store = true;
	return &p->r;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int append(char ***names, int *n, const char *name)
{
	char **grown = realloc(*names, (size_t)(*n + 1) * sizeof **names);
	char clean[256];

	if (grown == NULL)
		return -1;
	*names = grown;
	printable_copy(clean, sizeof clean, name, strlen(name));
	if ((grown[*n] = strdup(clean)) == NULL)
		return -1;
	(*n)++;
	return 0;
}

int series_store_hosts(struct series_store *s, char ***hosts, int *n, char ***odd, int *nodd, char *err,
		       size_t errlen)
{
	const char *params[] = { "names", "hostname", NULL };
	json_t *labels = rest_get(s->rest, "/series/labels", params, err, errlen), *names, *one;
	size_t i;

	*hosts = *odd = NULL;
	*n = *nodd = 0;
	if (labels == NULL)
		return -1;
	names = json_object_get(labels, "hostname");
	json_array_foreach(names, i, one) {
		const char *name = json_string_value(one);
		json_t *ids;
		int sts = 0;

		if (name == NULL)
			continue;
		if (!queryable(name))
			sts = append(odd, nodd, name);
		else if ((ids = series_of(s, figure_metric(FIG_CAPACITY, s->by), name, err, errlen)) == NULL)
			goto fail;
		else {
			if (json_array_size(ids) > 0)
				sts = append(hosts, n, name);
			json_decref(ids);
		}
		if (sts < 0) {
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
	}
	json_decref(labels);
	if (*n > 1)
		qsort(*hosts, (size_t)*n, sizeof **hosts, by_name);
	if (*nodd > 1)
		qsort(*odd, (size_t)*nodd, sizeof **odd, by_name);
	return 0;
fail:
	json_decref(labels);
	series_names_free(*hosts, *n);
	series_names_free(*odd, *nodd);
	*hosts = *odd = NULL;
	*n = *nodd = 0;
	return -1;
}

#else	/* built without libcurl or jansson */

#include <stdio.h>

#define NO_SERIES "this pcp-smtcpu was built without libcurl and jansson: --pmproxy is not available"

struct series_store *series_store_open(const char *url, enum sample_by by, char *err, size_t errlen)
{
	(void)url, (void)by;
	snprintf(err, errlen, NO_SERIES);
	return NULL;
}

const char *series_store_url(const struct series_store *s)
{
	(void)s;
	return "";
}

int series_store_hosts(struct series_store *s, char ***hosts, int *n, char ***odd, int *nodd, char *err,
		       size_t errlen)
{
	(void)s, (void)hosts, (void)n, (void)odd, (void)nodd;
	snprintf(err, errlen, NO_SERIES);
	return -1;
}

int series_store_bounds(struct series_store *s, const char *host, double *first, double *last, char *err,
			size_t errlen)
{
	(void)s, (void)host, (void)first, (void)last;
	snprintf(err, errlen, NO_SERIES);
	return -1;
}

struct sample_reader *series_store_reader(struct series_store *s, const char *host, double start, double end,
					  char *err, size_t errlen)
{
	(void)s, (void)host, (void)start, (void)end;
	snprintf(err, errlen, NO_SERIES);
	return NULL;
}

struct sample_reader *series_open_host(const char *url, const char *hostname, const struct window_args *w,
				       enum sample_by by, char *err, size_t errlen)
{
	(void)url, (void)hostname, (void)w, (void)by;
	snprintf(err, errlen, NO_SERIES);
	return NULL;
}

void series_store_close(struct series_store *s)
{
	(void)s;
}

#endif

void series_names_free(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
