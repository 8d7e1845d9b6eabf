/*
 * The store behind series_samples.h's readers: pmproxy's REST API and the
 * index of the series it holds (series_index.h), the fleet's or one
 * host's.  For the readers (series_samples.c) alone.
 */
#ifndef SMTCPU_SERIES_STORE_H
#define SMTCPU_SERIES_STORE_H

#include <stddef.h>

#include "pmproxy_rest.h"
#include "samples.h"
#include "series_index.h"
#include "series_samples.h"

struct series_store {
	struct rest *rest;
	enum sample_by by;
	struct series_index *index;
	char *host;			/* the one host the index holds; NULL: every host */
};

/* The host's series in the index, in the figures' order (*n of them),
 * looked up if the index does not hold them: NULL with err set where the
 * host has no samples of capacity, or no query can name it. */
const struct series_stream *series_store_look_up(struct series_store *s, const char *host, int *n, char *err,
						 size_t errlen);

#endif
