/*
 * The store's lookups (series_store.h, series_samples.h): every host's
 * series at once for a fleet, or one host's, and what they hold of it.
 */
#include "series_samples.h"

#include <stdlib.h>

#ifndef SMTCPU_NO_SERIES

#include "printable.h"
#include "series_store.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#define US 1000000

static double us_seconds(int64_t us)
{
	return (double)(us / US) + (double)(us % US) / 1e6;
}

/* The index holding host's series: the fleet's, else one of its own. */
static struct series_index *index_of(struct series_store *s, const char *host, char *err, size_t errlen)
{
	if (s->index && (s->host == NULL || strcmp(s->host, host) == 0))
		return s->index;
	series_index_free(s->index);
	free(s->host);
	s->index = NULL;
	if ((s->host = strdup(host)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	return s->index = series_index_build(s->rest, s->by, host, err, errlen);
}

const struct series_stream *series_store_look_up(struct series_store *s, const char *host, int *n, char *err,
						 size_t errlen)
{
	const struct series_stream *streams;
	struct series_index *ix;
	bool capacity = false;

	if (!series_queryable(host)) {
		char shown[256];

		printable_copy(shown, sizeof shown, host, strlen(host));
		snprintf(err, errlen, "%s: a host name no pmseries query can carry", shown);
		return NULL;
	}
	if ((ix = index_of(s, host, err, errlen)) == NULL)
		return NULL;
	streams = series_index_host(ix, host, n);
	for (int i = 0; i < *n; i++)
		capacity |= streams[i].figure == FIG_CAPACITY && streams[i].first_us >= 0;
	if (!capacity) {
		snprintf(err, errlen, "%s: the store at %s holds no samples of smtcpu's metrics for the host (%s)",
			 host, rest_url(s->rest), figure_metric(FIG_CAPACITY, s->by));
		return NULL;
	}
	return streams;
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
	series_index_free(s->index);
	free(s->host);
	rest_close(s->rest);
	free(s);
}

int series_store_bounds(struct series_store *s, const char *host, double *first, double *last, char *err,
			size_t errlen)
{
	const struct series_stream *streams;
	int n;
	int64_t lo = -1, hi = -1;

	if ((streams = series_store_look_up(s, host, &n, err, errlen)) == NULL)
		return -1;
	for (int i = 0; i < n; i++) {
		if (streams[i].first_us < 0)
			continue;
		if (lo < 0 || streams[i].first_us < lo)
			lo = streams[i].first_us;
		if (streams[i].last_us > hi)
			hi = streams[i].last_us;
	}
	*first = us_seconds(lo);
	*last = us_seconds(hi);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sort_names(char **names, int n)
{
	if (n > 1)
		qsort(names, (size_t)n, sizeof *names, by_name);
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

/* Whether the index holds any of smtcpu's series for host: one that lacks
 * capacity's is kept, for its report to name what it lacks. */
static bool holds_figures(const struct series_index *ix, const char *host)
{
	int n;

	series_index_host(ix, host, &n);
	return n > 0;
}

/* The same, without the fleet's index: a host that cannot be looked up is
 * kept, for its report to say why. */
static bool host_listed(struct series_store *s, const char *host)
{
	char why[256];
	struct series_index *ix = index_of(s, host, why, sizeof why);

	return ix == NULL || holds_figures(ix, host);
}

int series_store_hosts(struct series_store *s, struct store_hosts *h, char *err, size_t errlen)
{
	const char *params[] = { "names", "hostname", NULL };
	bool fleetwide = true;
	json_t *labels = rest_get(s->rest, "/series/labels", params, err, errlen), *names, *one;
	size_t i;

	memset(h, 0, sizeof *h);
	if (labels == NULL)
		return -1;
	/* every host's series, looked up at once */
	series_index_free(s->index);
	free(s->host);
	s->host = NULL;
	if ((s->index = series_index_build(s->rest, s->by, NULL, err, errlen)) == NULL) {
		/* (a host's metadata half lost, when a node of a clustered store
		 * was lost while it was loaded, fails pmproxy's query of every
		 * host's series: then each host is looked up alone) */
		fleetwide = false;
		err[0] = '\0';
	}
	names = json_object_get(labels, "hostname");
	json_array_foreach(names, i, one) {
		const char *name = json_string_value(one);
		int sts;

		if (name == NULL)
			continue;
		if (!series_queryable(name))
			sts = append(&h->odd, &h->nodd, name);
		else if (fleetwide ? holds_figures(s->index, name) : host_listed(s, name))
			sts = append(&h->with, &h->nwith, name);
		else
			sts = append(&h->without, &h->nwithout, name);
		if (sts < 0) {
			json_decref(labels);
			store_hosts_free(h);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	json_decref(labels);
	sort_names(h->with, h->nwith);
	sort_names(h->odd, h->nodd);
	sort_names(h->without, h->nwithout);
	return 0;
}

#else	/* built without libcurl or jansson */

#include <stdio.h>
#include <string.h>

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

int series_store_hosts(struct series_store *s, struct store_hosts *h, char *err, size_t errlen)
{
	(void)s;
	memset(h, 0, sizeof *h);
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

void series_store_close(struct series_store *s)
{
	(void)s;
}

#endif

static void names_free(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

void store_hosts_free(struct store_hosts *h)
{
	names_free(h->with, h->nwith);
	names_free(h->odd, h->nodd);
	names_free(h->without, h->nwithout);
	memset(h, 0, sizeof *h);
}
