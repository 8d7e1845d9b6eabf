/*
 * The series' first and last times (series_times.h).
 */
#ifndef SMTCPU_NO_SERIES

#include "series_times.h"
#include "intern.h"
#include "pmproxy_json.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* How far past a host's first sample of capacity its other series are
 * looked for first: a few samples at pmlogger's intervals. */
#define PAST_ANCHOR_US ((int64_t)600 * 1000000)

struct times {
	struct rest *rest;
	struct series_stream *at;
	struct intern known;		/* at's IDs, numbered as at */
	const char **ids;		/* a request's series */
	int *weights;			/* ids[i]'s values at one time */
	int64_t *early;			/* at[k]'s first time, -1 none */
	bool latest;			/* the answer is of the latest times, else the first */
};

static int time_value(void *arg, const struct pmproxy_value *v, char *err, size_t errlen)
{
	struct times *b = arg;
	int k = v->series ? intern_find(&b->known, v->series) : -1;
	struct series_stream *st;
	int64_t us;

	(void)err, (void)errlen;
	if (k < 0 || v->stamp == NULL || pmproxy_stamp(v->stamp, &us) < 0)
		return 0;
	st = &b->at[k];
	if (!b->latest) {
		if (b->early[k] < 0 || us < b->early[k])
			b->early[k] = us;
		return 0;
	}
	/* (its first time too, where the first's answer has none) */
	if (st->first_us < 0 || us < st->first_us)
		st->first_us = us;
	if (us > st->last_us)
		st->last_us = us;
	return 0;
}

/* A stream's values at one time. */
static int weight(const struct series_stream *st)
{
	return st->ninstances > 0 ? st->ninstances : 1;
}

/* ids[0..n) of the streams: their values' times into time_value. */
static int times_of(struct times *b, const char **ids, int n, const int *weights, const char *const *window,
		    bool latest, char *err, size_t errlen)
{
	struct series_batching times = { SERIES_PER_REQUEST, weights, SERIES_VALUES_PER_ANSWER };

	b->latest = latest;
	return n ? series_values(b->rest, ids, n, &times, window, time_value, b, err, errlen) : 0;
}

/* Every series' latest time; each host's first capacity series' first,
 * the anchor; the host's others' up to a little past the anchor, where
 * they begin but in odd cases (the services' a sample later: none before
 * a service has run); and the rest read whole. */
int series_times(struct rest *r, struct series_stream *streams, int nstreams, const int *first, const int *count,
		 int nhosts, char *err, size_t errlen)
{
	struct times t = { .rest = r, .at = streams }, *b = &t;
	size_t room = (size_t)(nstreams ? nstreams : 1);
	const char *whole[] = { "start", "0", "samples", "1", NULL };
	char upto[32];
	const char *anchored[] = { "start", "0", "finish", upto, "samples", "1", NULL };
	int n = 0, *anchor = NULL, sts = -1;

	if ((b->ids = malloc(room * sizeof *b->ids)) == NULL || (b->weights = malloc(room * sizeof *b->weights)) == NULL ||
	    (b->early = malloc(room * sizeof *b->early)) == NULL ||
	    (anchor = calloc((size_t)nhosts + 1, sizeof *anchor)) == NULL)
		goto nomem;
	for (int k = 0; k < nstreams; k++) {
		if (intern(&b->known, streams[k].id) != k)
			goto nomem;	/* (each series once: the index's) */
		b->ids[k] = streams[k].id;
		b->weights[k] = weight(&streams[k]);
		b->early[k] = -1;
	}
	if (times_of(b, b->ids, nstreams, b->weights, NULL, true, err, errlen) < 0)
		goto out;
	/* the anchors: each host's first capacity series with a time */
	for (int h = 0; h < nhosts; h++) {
		anchor[h] = -1;
		for (int k = first[h]; k < first[h] + count[h] && anchor[h] < 0; k++)
			if (streams[k].figure == FIG_CAPACITY && streams[k].last_us >= 0)
				b->ids[n++] = streams[anchor[h] = k].id;
	}
	if (times_of(b, b->ids, n, NULL, whole, false, err, errlen) < 0)
		goto out;
	for (int h = 0; h < nhosts; h++) {
		int a = anchor[h], f = first[h];

		n = 0;
		for (int k = f; a >= 0 && b->early[a] >= 0 && k < f + count[h]; k++)
			if (k != a && streams[k].last_us >= 0) {
				b->weights[n] = weight(&streams[k]);
				b->ids[n++] = streams[k].id;
			}
		if (n == 0)
			continue;
		snprintf(upto, sizeof upto, "%" PRId64 ".%06" PRId64, (b->early[a] + PAST_ANCHOR_US) / 1000000,
			 (b->early[a] + PAST_ANCHOR_US) % 1000000);
		if (times_of(b, b->ids, n, b->weights, anchored, false, err, errlen) < 0)
			goto out;
	}
	n = 0;
	for (int h = 0; h < nhosts; h++)
		for (int k = first[h]; k < first[h] + count[h]; k++)
			if (k != anchor[h] && streams[k].last_us >= 0 && b->early[k] < 0) {
				b->weights[n] = weight(&streams[k]);
				b->ids[n++] = streams[k].id;
			}
	if (times_of(b, b->ids, n, b->weights, whole, false, err, errlen) < 0)
		goto out;
	for (int k = 0; k < nstreams; k++)
		if (b->early[k] >= 0)
			streams[k].first_us = b->early[k];
	sts = 0;
	goto out;
nomem:
	snprintf(err, errlen, "out of memory");
out:
	free(anchor);
	free(t.ids);
	free(t.weights);
	free(t.early);
	intern_free(&t.known);
	return sts;
}

#endif
