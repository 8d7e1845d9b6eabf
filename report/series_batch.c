/*
 * Requests of many series (series_batch.h).
 */
#ifndef SMTCPU_NO_SERIES

#include "series_batch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MOST_PARAMS 8

/* Where a batch's answer goes: parsed to json, or scanned to value. */
struct sink {
	series_json_fn json;
	pmproxy_value_fn value;
	void *arg;
};

static int take_json(struct rest *r, const char *path, const char *body, size_t len, const struct sink *to,
		     char *err, size_t errlen)
{
	json_t *answer = rest_parse(r, path, body, len, err, errlen);
	int sts;

	if (answer == NULL)
		return -1;
	sts = to->json(to->arg, answer, err, errlen);
	json_decref(answer);
	return sts;
}

static int take_values(struct rest *r, const char *path, const char *body, size_t len, const struct sink *to,
		       char *err, size_t errlen)
{
	const char *p = body;
	char what[1200];

	while (p < body + len && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	if (p == body + len || *p != '[') {
		/* (JSON but not a list: no values, as its parsed tree holds) */
		json_t *answer = rest_parse(r, path, body, len, err, errlen);

		json_decref(answer);
		return answer ? 0 : -1;
	}
	snprintf(what, sizeof what, "pmproxy at %s: its answer to %s", rest_url(r), path);
	return pmproxy_values_scan(body, len, what, to->value, to->arg, err, errlen);
}

/* Each batch's request, its answer to the sink. */
static int batches(struct rest *r, const char *path, const char *const *ids, int n, const struct series_batching *b,
		   const char *const *params, const struct sink *to, char *err, size_t errlen)
{
	const char *all[2 * MOST_PARAMS + 3] = { "series" };
	char *list = malloc((size_t)b->most * (SERIES_ID_LEN + 1) + 1);
	int k = 2, sts = -1;

	if (list == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; params && params[i] && k < 2 * MOST_PARAMS + 2; i++)
		all[k++] = params[i];
	all[k] = NULL;
	all[1] = list;
	for (int i = 0, j; i < n; i = j) {
		long weight = 0;
		size_t used = 0;
		const char *body;
		size_t len;

		for (j = i; j < n && j - i < b->most; j++) {
			long w = b->weights ? b->weights[j] : 0;

			if (j > i && weight + w > b->most_weight)
				break;
			weight += w;
			if (used)
				list[used++] = ',';
			memcpy(list + used, ids[j], SERIES_ID_LEN);
			used += SERIES_ID_LEN;
		}
		list[used] = '\0';
		if (rest_get_body(r, path, all, &body, &len, err, errlen) < 0 ||
		    (to->json ? take_json : take_values)(r, path, body, len, to, err, errlen) < 0)
			goto out;
	}
	sts = 0;
out:
	free(list);
	return sts;
}

int series_json(struct rest *r, const char *path, const char *const *ids, int n, const struct series_batching *b,
		const char *const *params, series_json_fn fn, void *arg, char *err, size_t errlen)
{
	struct sink to = { .json = fn, .arg = arg };

	return batches(r, path, ids, n, b, params, &to, err, errlen);
}

int series_values(struct rest *r, const char *const *ids, int n, const struct series_batching *b,
		  const char *const *params, pmproxy_value_fn fn, void *arg, char *err, size_t errlen)
{
	struct sink to = { .value = fn, .arg = arg };

	return batches(r, "/series/values", ids, n, b, params, &to, err, errlen);
}

#endif
