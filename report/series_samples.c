/*
 * samples.h's records from pmproxy's series (series_samples.h).  Each
 * figure's metric is one series per host (or more, where its metadata
 * changed), each series a stream of (time, instance, value); a record is
 * every stream's values at the earliest time any of them holds next.  The
 * host's streams are read together a page at a time, one request a page
 * (series_batch.h), each page every stream's values up to one time.  The
 * figures are logged together, in one pmlogger group (pcp-smtcpu(1),
 * NOTES), so the store holds each at every time of the host's: where it
 * holds some and not others, those it lacks were lost (a node of the
 * store's, entries trimmed), and the time is no record.  What is known to
 * be lacking is said by the record after it, or at the end by end_why.  A
 * series whose times are not capacity's (logged in another group) is read,
 * never required.  The services' series hold no value at a time without
 * services, so they are required only together: some of them at a time and
 * not the others is a lack.  Which series there are, and their times, come
 * from the store's index (series_index.h): the fleet's, looked up once for
 * every host, or the one host's.
 */
#include "series_samples.h"

#include <stdlib.h>

#ifndef SMTCPU_NO_SERIES

#include "intern.h"
#include "pcp_compat.h"
#include "pmproxy_json.h"
#include "pmproxy_rest.h"
#include "printable.h"
#include "series_batch.h"
#include "series_index.h"
#include "series_store.h"
#include "time_window.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libpcp_web writes a double into the store as %e (series_stream_value) */
#define STORE_DIGITS 7
#define US 1000000
/* A page's fewest times. */
#define PAGE_TIMES_MIN 16
/* The time a first page asks for, and the most a page may: pmproxy reads
 * the whole span from the store before it counts out a page's times. */
#define FIRST_SPAN_US ((int64_t)6 * 3600 * US)
#define LONGEST_SPAN_US ((int64_t)7 * 86400 * US)

struct value {
	int64_t us;
	int inst;		/* the index's instance number, -1 none */
	double v;
};

/* One series of a figure's, its values of the page read. */
struct stream {
	const struct series_stream *s;	/* the index's, the host's [i] */
	bool outside;			/* no value in the window */
	bool separate;			/* logged apart from smt.all.capacity */
	struct value *page;
	int n, at, cap;
	int times;			/* the page's times so far, the last */
	int64_t last;
	bool asked;			/* its instances asked for again */
	/* the instances of its last time, in order: each time lists them
	 * alike, so a value's is known without a look-up */
	struct seen {
		char id[SERIES_ID_LEN + 1];
		int num;
	} *seen;
	int nseen, seencap, pos;
	int64_t pos_us;
};

struct series_reader {
	struct sample_reader r;
	struct series_store *store;
	bool owns_store;
	struct stream *streams;
	int nstreams;
	const struct series_stream *host;	/* [nstreams] the index's */
	struct intern ids;		/* the streams' series IDs, numbered as streams */
	int last_k;			/* the stream of the answer's last value */
	const char **ask;		/* [nstreams] a page's series */
	int64_t start_us, end_us;	/* asked of the store: the window and a microsecond */
	int64_t next_us, span_us;	/* the next page's start and length */
	int64_t lo, hi;			/* the page read */
	bool done;			/* no page after the last */
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

static double us_seconds(int64_t us)
{
	return (double)(us / US) + (double)(us % US) / 1e6;
}

static void us_text(char *buf, size_t len, int64_t us)
{
	snprintf(buf, len, "%" PRId64 ".%06" PRId64, us / US, us % US);
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

/* A value's instance: its number, -1 where inst is no series ID, -2 with
 * err set. */
static int instance_of(struct series_reader *p, struct stream *st, int64_t us, const char *inst, char *err,
		       size_t errlen)
{
	int num;

	if (us != st->pos_us) {
		st->pos = 0;
		st->pos_us = us;
	}
	if (st->pos < st->nseen && strcmp(st->seen[st->pos].id, inst) == 0)
		return st->seen[st->pos++].num;
	if (!series_is_id(inst))
		return -1;
	if ((num = series_index_instance(p->store->index, st->s->id, inst, &st->asked, err, errlen)) < 0)
		return -2;
	if (st->pos == st->seencap) {
		int cap = st->seencap ? 2 * st->seencap : 16;
		struct seen *seen = realloc(st->seen, (size_t)cap * sizeof *seen);

		if (seen == NULL)
			return num;	/* (not kept: looked up again) */
		st->seen = seen;
		st->seencap = cap;
	}
	memcpy(st->seen[st->pos].id, inst, SERIES_ID_LEN + 1);
	st->seen[st->pos++].num = num;
	st->nseen = st->pos > st->nseen ? st->pos : st->nseen;
	return num;
}

/* A value of the page's answer into its stream. */
static int take_value(void *arg, const struct pmproxy_value *v, char *err, size_t errlen)
{
	struct series_reader *p = arg;
	int k = -1, num = -1;
	struct stream *st;
	char *end;
	int64_t us;
	double x;

	if (v->series == NULL || v->value == NULL)
		return 0;
	/* (an answer's values come a series at a time) */
	if (p->last_k >= 0 && strcmp(v->series, p->streams[p->last_k].s->id) == 0)
		k = p->last_k;
	else if ((k = intern_find(&p->ids, v->series)) < 0)
		return 0;
	p->last_k = k;
	st = &p->streams[k];
	if (v->stamp == NULL || pmproxy_stamp(v->stamp, &us) < 0) {
		char shown[64];

		printable_copy(shown, sizeof shown, v->stamp ? v->stamp : "none", v->stamp ? strlen(v->stamp) : 4);
		snprintf(err, errlen, "pmproxy at %s: a value's timestamp %s is not the store's MS.SEQ",
			 rest_url(p->store->rest), shown);
		return -1;
	}
	x = strtod(v->value, &end);
	if (*end != '\0' || end == v->value || !isfinite(x) || us < p->lo || us > p->hi)
		return 0;	/* (not a number: not had) */
	if (v->instance && (num = instance_of(p, st, us, v->instance, err, errlen)) == -2)
		return -1;
	if (figure_has_instances(st->s->figure) && num < 0)
		return 0;
	if (us != st->last) {
		st->times++;
		st->last = us;
	}
	if (push(st, us, figure_has_instances(st->s->figure) ? num : -1, x) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* A page's request: the series with a value from lo to hi, each read for
 * at most per times. */
struct page {
	int64_t lo, hi;
	int per, nask;
	char a[32], b[32], c[16];
	const char *window[7];
};

/* The page of a host's series (streams[0..n), the index's) from lo, span
 * long but not past end_us, its series into ask. */
static void plan(struct page *q, const struct series_stream *streams, int n, int64_t lo, int64_t span,
		 int64_t end_us, const char **ask)
{
	int values = 0;

	q->lo = lo;
	q->hi = lo + span - 1 < end_us ? lo + span - 1 : end_us;
	q->nask = 0;
	for (int i = 0; i < n; i++) {
		/* (within the window: those with no value in it are none) */
		if (streams[i].first_us < 0 || streams[i].first_us > q->hi || streams[i].last_us < lo)
			continue;
		ask[q->nask++] = streams[i].id;
		values += streams[i].ninstances > 0 ? streams[i].ninstances : 1;
	}
	/* (samples counts each series' times: the page's values are at most
	 * SERIES_VALUES_PER_ANSWER) */
	q->per = SERIES_VALUES_PER_ANSWER / (values > 0 ? values : 1);
	q->per = q->per > PAGE_TIMES_MIN ? q->per : PAGE_TIMES_MIN;
	us_text(q->a, sizeof q->a, q->lo);
	us_text(q->b, sizeof q->b, q->hi);
	snprintf(q->c, sizeof q->c, "%d", q->per);
	q->window[0] = "start", q->window[1] = q->a;
	q->window[2] = "finish", q->window[3] = q->b;
	q->window[4] = "samples", q->window[5] = q->c;
	q->window[6] = NULL;
}

/* A page is one request, but for a host of very many series. */
static const struct series_batching page_batching = { SERIES_PER_REQUEST, NULL, 0 };

/* The next page: every stream's values from next_us to a time, one
 * request for them all, until a page holds a value or none is left. */
static int read_page(struct series_reader *p, char *err, size_t errlen)
{
	for (int i = 0; i < p->nstreams; i++)
		p->streams[i].n = p->streams[i].at = 0;
	while (!p->done) {
		int64_t cut = INT64_MAX;
		struct page q;
		bool any = false;

		plan(&q, p->host, p->nstreams, p->next_us, p->span_us, p->end_us, p->ask);
		for (int i = 0; i < p->nstreams; i++) {
			p->streams[i].times = 0;
			p->streams[i].last = p->streams[i].pos_us = -1;
			p->streams[i].asked = false;
		}
		p->lo = q.lo;
		p->hi = q.hi;
		if (q.nask &&
		    series_values(p->store->rest, p->ask, q.nask, &page_batching, q.window, take_value, p, err, errlen) < 0)
			return -1;
		/* cut where a stream's times ran out: pmproxy 6.0.3 counts whole
		 * times, but were the last time's instances cut short, the next
		 * page holds them all again; the other streams' values from there
		 * come again too */
		for (int i = 0; i < p->nstreams; i++)
			if (p->streams[i].times >= q.per && p->streams[i].last < cut)
				cut = p->streams[i].last;
		if (cut != INT64_MAX) {
			for (int i = 0; i < p->nstreams; i++) {
				struct stream *st = &p->streams[i];

				while (st->n > 0 && st->page[st->n - 1].us >= cut)
					st->n--;
			}
			p->next_us = cut;
			p->span_us = cut - q.lo + 1 > US ? cut - q.lo + 1 : US;
		} else {
			p->next_us = q.hi + 1;
			if (p->span_us < LONGEST_SPAN_US)
				p->span_us *= 2;
		}
		p->done = p->next_us > p->end_us;
		for (int i = 0; i < p->nstreams; i++)
			any |= p->streams[i].n > 0;
		if (any)
			break;
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

			if (st->at < st->n && st->page[st->at].us < t)
				t = st->page[st->at].us;
		}
		if (t == INT64_MAX && !p->done) {
			if (read_page(p, r->error, sizeof r->error) < 0)
				return -1;
			continue;
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
			enum figure f = st->s->figure;
			bool again = present[f];	/* a second series of the figure's */

			if (st->at >= st->n || st->page[st->at].us != t)
				continue;
			for (; st->at < st->n && st->page[st->at].us == t; st->at++) {
				const struct value *v = &st->page[st->at];

				if (!again && add_observation(p, f, v->inst >= 0 ? series_index_name(p->store->index, v->inst) : NULL,
							      v->v) < 0) {
					snprintf(r->error, sizeof r->error, "out of memory");
					return -1;
				}
			}
			present[f] = true;
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
	for (int i = 0; i < p->nstreams; i++) {
		free(p->streams[i].page);
		free(p->streams[i].seen);
	}
	free(p->streams);
	free(p->ask);
	intern_free(&p->ids);
	free(p->obs);
	if (p->owns_store)
		series_store_close(p->store);
	free(p);
}

struct sample_reader *series_store_reader(struct series_store *s, const char *host, double start, double end,
					  char *err, size_t errlen)
{
	struct series_reader *p = calloc(1, sizeof *p);
	const struct series_stream *streams;
	const struct stream *capacity = NULL;
	int n;

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
	p->next_us = p->start_us;
	p->span_us = FIRST_SPAN_US;
	if ((streams = series_store_look_up(s, host, &n, err, errlen)) == NULL)
		goto fail;
	if ((p->streams = calloc((size_t)n, sizeof *p->streams)) == NULL ||
	    (p->ask = calloc((size_t)n, sizeof *p->ask)) == NULL)
		goto oom;
	p->nstreams = n;
	p->host = streams;
	p->last_k = -1;
	for (int i = 0; i < n; i++) {
		struct stream *st = &p->streams[i];

		st->s = &streams[i];
		st->outside = st->s->first_us < 0 || st->s->first_us > p->end_us || st->s->last_us < p->start_us;
		if (intern(&p->ids, st->s->id) != i)
			goto oom;	/* (the index holds each series once) */
	}
	if (read_page(p, err, errlen) < 0)
		goto fail;
	for (int i = 0; i < n && capacity == NULL; i++)
		if (p->streams[i].s->figure == FIG_CAPACITY && p->streams[i].n > 0)
			capacity = &p->streams[i];
	for (int i = 0; i < n; i++) {
		struct stream *st = &p->streams[i];

		st->separate = capacity && st != capacity && apart(st, capacity);
		p->required[st->s->figure] |= !st->outside && !st->separate;
	}
	return &p->r;
oom:
	snprintf(err, errlen, "out of memory");
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

#else	/* built without libcurl or jansson */

#include <stdio.h>

#define NO_SERIES "this pcp-smtcpu was built without libcurl and jansson: --pmproxy is not available"

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

#endif
