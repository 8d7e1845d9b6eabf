/*
 * The store's series of the figures, by host (series_index.h).
 */
#ifndef SMTCPU_NO_SERIES

#include "series_index.h"
#include "intern.h"
#include "pmproxy_json.h"
#include "series_times.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An instances answer lists each of a series' instances, some 200 bytes
 * each: a host of 2048 CPUs' smt.busy_cpu is 400 kB. */
#define INSTANCES_PER_REQUEST 32

struct series_index {
	struct rest *rest;
	struct series_stream *streams;	/* by host, each host's in the figures' order */
	int nstreams;
	struct intern hosts;		/* the hostname labels, numbered */
	int *first, *count;		/* [hosts.n] each host's streams */
	struct intern insts;		/* the instances' series IDs, numbered */
	char **names;			/* [insts.n] their names, printable */
	int namecap;
};

/* What a build of the index keeps on the way. */
struct build {
	struct series_index *ix;
	/* the series as the queries list them, before they are put by host */
	struct series_stream *s;
	int *host;			/* [n] the number of its hostname, -1 none */
	char (*named)[SERIES_ID_LEN + 1];	/* [n] the series whose labels name its
						   host: its own, or its first instance */
	int n, cap;
	struct intern known;		/* the series' IDs, numbered as s */
	int *src;			/* [n] the number of its source, -1 none */
	struct intern sources;		/* the sources' IDs, numbered */
	struct intern naming;		/* the series whose labels are asked for, numbered */
	int *naming_host;		/* [naming.n] the number of its hostname, -1 none */
};

bool series_queryable(const char *name)
{
	size_t len = strlen(name);

	if (len == 0 || len > 255)
		return false;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (*p == '"' || *p == '\\' || *p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

bool series_is_id(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!isxdigit((unsigned char)s[n]) || n >= SERIES_ID_LEN)
			return false;
	return n == SERIES_ID_LEN;
}

static int oom(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory");
	return -1;
}

static int names_room(struct series_index *ix)
{
	if (ix->insts.n > ix->namecap) {
		int cap = 2 * ix->insts.n;
		char **names = realloc(ix->names, (size_t)cap * sizeof *names);

		if (names == NULL)
			return -1;
		for (int i = ix->namecap; i < cap; i++)
			names[i] = NULL;
		ix->names = names;
		ix->namecap = cap;
	}
	return 0;
}

/* An entry of an instances answer into the table: its number, -2 not an
 * instance's, -1 out of memory. */
static int add_instance(struct series_index *ix, json_t *one)
{
	const char *inst = json_string_value(json_object_get(one, "instance"));
	const char *name = json_string_value(json_object_get(one, "name"));
	char clean[512];
	int num;

	if (inst == NULL || name == NULL || !series_is_id(inst))
		return -2;
	if ((num = intern(&ix->insts, inst)) < 0 || names_room(ix) < 0)
		return -1;
	if (ix->names[num] == NULL) {
		pmproxy_name(clean, sizeof clean, name);
		if ((ix->names[num] = strdup(clean)) == NULL)
			return -1;
	}
	return num;
}

static int instances_answer(void *arg, json_t *answer, char *err, size_t errlen)
{
	struct build *b = arg;
	json_t *one;
	size_t i;

	json_array_foreach(answer, i, one) {
		const char *series = json_string_value(json_object_get(one, "series"));
		int k = series ? intern_find(&b->known, series) : -1, num;

		if ((num = add_instance(b->ix, one)) == -1)
			return oom(err, errlen);
		if (num < 0 || k < 0)
			continue;
		/* (an instance's labels name a metric's host, which the metric's
		 * own do not where it has instances: pmproxy's schema.c) */
		if (b->s[k].ninstances++ == 0)
			memcpy(b->named[k], b->ix->insts.names[num], SERIES_ID_LEN + 1);
	}
	return 0;
}

static int labels_answer(void *arg, json_t *answer, char *err, size_t errlen)
{
	struct build *b = arg;
	json_t *one;
	size_t i;

	json_array_foreach(answer, i, one) {
		const char *series = json_string_value(json_object_get(one, "series"));
		const char *host = json_string_value(json_object_get(json_object_get(one, "labels"), "hostname"));
		int j = series ? intern_find(&b->naming, series) : -1;

		if (j < 0 || host == NULL || b->naming_host[j] >= 0)
			continue;
		if ((b->naming_host[j] = intern(&b->ix->hosts, host)) < 0)
			return oom(err, errlen);
	}
	return 0;
}

/* One figure's query: its series appended. */
static int collect(struct build *b, enum figure f, const char *metric, const char *host, char *err, size_t errlen)
{
	char expr[512];
	const char *params[] = { "expr", expr, NULL };
	json_t *ids, *one;
	size_t i;

	if (host)
		snprintf(expr, sizeof expr, "%s{hostname:\"%s\"}", metric, host);
	else
		snprintf(expr, sizeof expr, "%s", metric);
	if ((ids = rest_get(b->ix->rest, "/series/query", params, err, errlen)) == NULL)
		return -1;
	if (!json_is_array(ids)) {
		snprintf(err, errlen, "pmproxy at %s: its answer to /series/query is not a list of series",
			 rest_url(b->ix->rest));
		json_decref(ids);
		return -1;
	}
	json_array_foreach(ids, i, one) {
		const char *id = json_string_value(one);
		int k;

		if (id == NULL || !series_is_id(id) || intern_find(&b->known, id) >= 0)
			continue;
		if (b->n == b->cap) {
			int cap = b->cap ? 2 * b->cap : 256;
			struct series_stream *s = realloc(b->s, (size_t)cap * sizeof *s);
			int *host = s ? realloc(b->host, (size_t)cap * sizeof *host) : NULL;
			char (*named)[SERIES_ID_LEN + 1] = host ? realloc(b->named, (size_t)cap * sizeof *named) : NULL;

			if (s)
				b->s = s;
			if (host)
				b->host = host;
			if (named)
				b->named = named;
			if (named == NULL)
				goto nomem;
			b->cap = cap;
		}
		if ((k = intern(&b->known, id)) < 0)
			goto nomem;
		memset(&b->s[k], 0, sizeof b->s[k]);
		b->s[k].figure = f;
		memcpy(b->s[k].id, id, SERIES_ID_LEN + 1);
		b->s[k].first_us = b->s[k].last_us = -1;
		b->host[k] = host ? 0 : -1;
		memcpy(b->named[k], figure_has_instances(f) ? "" : id, figure_has_instances(f) ? 1 : SERIES_ID_LEN + 1);
		b->n++;
	}
	json_decref(ids);
	return 0;
nomem:
	json_decref(ids);
	return oom(err, errlen);
}

static int descs_answer(void *arg, json_t *answer, char *err, size_t errlen)
{
	struct build *b = arg;
	json_t *one;
	size_t i;

	json_array_foreach(answer, i, one) {
		const char *series = json_string_value(json_object_get(one, "series"));
		const char *source = json_string_value(json_object_get(one, "source"));
		int k = series ? intern_find(&b->known, series) : -1;

		if (k < 0 || source == NULL || !series_is_id(source) || b->src[k] >= 0)
			continue;
		if ((b->src[k] = intern(&b->sources, source)) < 0)
			return oom(err, errlen);
	}
	return 0;
}

/* Each series' host.  Its source is the context it was logged from, the
 * ID a hash of the context's labels (libpcp_web's util.c), hostname among
 * them; so the labels of one series a source are asked for (its own, or
 * where it has instances its first instance's: schema.c keeps them there),
 * and name the host of every series of the source.  pmproxy looks up each
 * label's every value for each series asked (query.c): a series a host,
 * not one a figure. */
static int hosts_of(struct build *b, char *err, size_t errlen)
{
	struct series_batching many = { SERIES_PER_REQUEST, NULL, 0 };
	size_t room = (size_t)(b->n ? b->n : 1);
	const char **ids = malloc(room * sizeof *ids);
	int *naming_of = NULL, n = 0, sts = -1;

	if (ids == NULL || (b->src = malloc(room * sizeof *b->src)) == NULL ||
	    (b->naming_host = malloc(room * sizeof *b->naming_host)) == NULL)
		goto nomem;
	for (int k = 0; k < b->n; k++) {
		ids[k] = b->s[k].id;
		b->src[k] = -1;
	}
	if (series_json(b->ix->rest, "/series/descs", ids, b->n, &many, NULL, descs_answer, b, err, errlen) < 0)
		goto out;
	if ((naming_of = malloc((size_t)(b->sources.n ? b->sources.n : 1) * sizeof *naming_of)) == NULL)
		goto nomem;
	for (int j = 0; j < b->sources.n; j++)
		naming_of[j] = -1;
	/* (a series' own labels first, an instance's where none has them) */
	for (int pass = 0; pass < 2; pass++)
		for (int k = 0; k < b->n; k++) {
			int j = b->src[k];

			if (j < 0 || naming_of[j] >= 0 || b->named[k][0] == '\0' ||
			    figure_has_instances(b->s[k].figure) != (pass == 1))
				continue;
			if ((naming_of[j] = intern(&b->naming, b->named[k])) < 0)
				goto nomem;
			if (naming_of[j] == n) {
				b->naming_host[n] = -1;
				ids[n++] = b->named[k];
			}
		}
	if (series_json(b->ix->rest, "/series/labels", ids, n, &many, NULL, labels_answer, b, err, errlen) < 0)
		goto out;
	for (int k = 0; k < b->n; k++)
		if (b->src[k] >= 0 && naming_of[b->src[k]] >= 0)
			b->host[k] = b->naming_host[naming_of[b->src[k]]];
	sts = 0;
	goto out;
nomem:
	oom(err, errlen);
out:
	free(ids);
	free(naming_of);
	return sts;
}

/* The instances and hosts of the series collected. */
static int describe(struct build *b, bool fleet, char *err, size_t errlen)
{
	struct series_batching insts = { INSTANCES_PER_REQUEST, NULL, 0 };
	const char **ids = malloc((size_t)(b->n ? b->n : 1) * sizeof *ids);
	int n = 0, sts;

	if (ids == NULL)
		return oom(err, errlen);
	for (int k = 0; k < b->n; k++)
		if (figure_has_instances(b->s[k].figure))
			ids[n++] = b->s[k].id;
	sts = n ? series_json(b->ix->rest, "/series/instances", ids, n, &insts, NULL, instances_answer, b, err, errlen)
		: 0;
	free(ids);
	return sts == 0 && fleet ? hosts_of(b, err, errlen) : sts;
}

/* The series put by host, each host's in the order collected. */
static int by_host(struct build *b, char *err, size_t errlen)
{
	struct series_index *ix = b->ix;
	int nhosts = ix->hosts.n, *at;

	if ((ix->first = calloc((size_t)nhosts + 1, sizeof *ix->first)) == NULL ||
	    (ix->count = calloc((size_t)nhosts + 1, sizeof *ix->count)) == NULL ||
	    (ix->streams = malloc((size_t)(b->n ? b->n : 1) * sizeof *ix->streams)) == NULL ||
	    (at = calloc((size_t)nhosts + 1, sizeof *at)) == NULL)
		return oom(err, errlen);
	for (int k = 0; k < b->n; k++)
		if (b->host[k] >= 0)
			ix->count[b->host[k]]++;
	for (int h = 1; h < nhosts; h++)
		ix->first[h] = ix->first[h - 1] + ix->count[h - 1];
	for (int k = 0; k < b->n; k++) {
		int h = b->host[k];

		if (h >= 0)
			ix->streams[ix->first[h] + at[h]++] = b->s[k];
	}
	ix->nstreams = nhosts ? ix->first[nhosts - 1] + ix->count[nhosts - 1] : 0;
	free(at);
	return 0;
}

struct series_index *series_index_build(struct rest *r, enum sample_by by, const char *host, char *err,
					size_t errlen)
{
	struct series_index *ix = calloc(1, sizeof *ix);
	struct build b = { .ix = ix };
	int sts = -1;

	if (ix == NULL) {
		oom(err, errlen);
		return NULL;
	}
	ix->rest = r;
	if (host && intern(&ix->hosts, host) < 0) {
		oom(err, errlen);
		goto out;
	}
	for (int f = 0; f < NFIGURES; f++)
		if (collect(&b, (enum figure)f, figure_metric((enum figure)f, by), host, err, errlen) < 0)
			goto out;
	if (describe(&b, host == NULL, err, errlen) < 0 || by_host(&b, err, errlen) < 0 ||
	    series_times(r, ix->streams, ix->nstreams, ix->first, ix->count, ix->hosts.n, err, errlen) < 0)
		goto out;
	sts = 0;
out:
	free(b.s);
	free(b.host);
	free(b.named);
	free(b.src);
	free(b.naming_host);
	intern_free(&b.known);
	intern_free(&b.naming);
	intern_free(&b.sources);
	if (sts < 0) {
		series_index_free(ix);
		return NULL;
	}
	return ix;
}

const struct series_stream *series_index_host(const struct series_index *ix, const char *host, int *n)
{
	int h = intern_find(&ix->hosts, host);

	*n = h >= 0 ? ix->count[h] : 0;
	return *n ? &ix->streams[ix->first[h]] : NULL;
}

static int reask(void *arg, json_t *answer, char *err, size_t errlen)
{
	json_t *one;
	size_t i;

	json_array_foreach(answer, i, one)
		if (add_instance(arg, one) == -1)
			return oom(err, errlen);
	return 0;
}

int series_index_instance(struct series_index *ix, const char *stream_id, const char *inst, bool *asked, char *err,
			  size_t errlen)
{
	int num = intern(&ix->insts, inst);

	if (num < 0 || names_room(ix) < 0)
		return oom(err, errlen);
	if (ix->names[num] == NULL && !*asked) {
		struct series_batching one = { 1, NULL, 0 };

		*asked = true;
		if (series_json(ix->rest, "/series/instances", &stream_id, 1, &one, NULL, reask, ix, err, errlen) < 0)
			return -1;
	}
	if (ix->names[num] == NULL) {
		char name[16];

		snprintf(name, sizeof name, "#%.12s", inst);
		if ((ix->names[num] = strdup(name)) == NULL)
			return oom(err, errlen);
	}
	return num;
}

const char *series_index_name(const struct series_index *ix, int num)
{
	return ix->names[num];
}

void series_index_free(struct series_index *ix)
{
	if (ix == NULL)
		return;
	for (int i = 0; i < ix->insts.n && i < ix->namecap; i++)
		free(ix->names[i]);
	free(ix->names);
	intern_free(&ix->insts);
	intern_free(&ix->hosts);
	free(ix->first);
	free(ix->count);
	free(ix->streams);
	free(ix);
}

#endif
