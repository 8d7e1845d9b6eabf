/*
 * The first and last time of each of the store's series, many series a
 * request (series_batch.h).  The latest is cheap for pmproxy to find
 * (XREVRANGE, COUNT 1); the first costs it a read of the series up to the
 * time asked for (its XRANGE has no COUNT), which the old reader paid in
 * full for every series, twice: here a host's capacity series is read
 * whole, its other series only up to a little past that first time.
 */
#ifndef SMTCPU_SERIES_TIMES_H
#define SMTCPU_SERIES_TIMES_H

#include <stddef.h>

#include "pmproxy_rest.h"
#include "series_index.h"

/* streams[0..nstreams): each host's (h) from first[h], count[h] of them;
 * their first_us and last_us set (-1 where none).  0, or -1 with err set. */
int series_times(struct rest *r, struct series_stream *streams, int nstreams, const int *first, const int *count,
		 int nhosts, char *err, size_t errlen);

#endif
