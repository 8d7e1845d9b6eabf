/*
 * Many series in one request of pmproxy's: /series/values, /series/labels
 * and /series/instances take series=ID,ID,... (pmproxy 6.0.3's series.c
 * splits it at the commas) and answer for each ID, every value or entry
 * naming its series.  A fleet's lookups are a few such requests rather than
 * some for each host and figure: the requests' round trips, not the bytes,
 * were most of a fleet's time.
 */
#ifndef SMTCPU_SERIES_BATCH_H
#define SMTCPU_SERIES_BATCH_H

#include <jansson.h>
#include <stddef.h>

#include "pmproxy_rest.h"
#include "pmproxy_values.h"

#define SERIES_ID_LEN 40

/* pmproxy takes a request line of at most 8000 bytes (http.c,
 * MAX_PARAMS_SIZE); an ID is 43 escaped, with its comma. */
#define SERIES_PER_REQUEST 150

/* The values an answer holds at most, some 150 bytes of JSON each: a page
 * of a host's values, or the series' latest or first. */
#define SERIES_VALUES_PER_ANSWER 50000

/* A request's IDs (each SERIES_ID_LEN long): at most `most`, weighing
 * at most most_weight together (weights[i], ids[i]'s; NULL: nothing) but
 * for a lone ID, whatever it weighs. */
struct series_batching {
	int most;
	const int *weights;
	long most_weight;
};

/* path?series=IDs&params (params as rest_get takes them, or NULL) for
 * ids[0..n) a batch at a time, each answer's JSON to fn (the answer freed
 * after).  0, or -1 with err set: pmproxy's, or fn's. */
typedef int (*series_json_fn)(void *arg, json_t *answer, char *err, size_t errlen);
int series_json(struct rest *r, const char *path, const char *const *ids, int n, const struct series_batching *b,
		const char *const *params, series_json_fn fn, void *arg, char *err, size_t errlen);

/* /series/values?series=IDs&params, each value to fn. */
int series_values(struct rest *r, const char *const *ids, int n, const struct series_batching *b,
		  const char *const *params, pmproxy_value_fn fn, void *arg, char *err, size_t errlen);

#endif
