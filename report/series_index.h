/*
 * What pmproxy's store holds of the figures: each host's series of each
 * figure's metric (one a host, or more where its metadata changed), with
 * the series' first and last time and its instances' names.  For one host
 * its metrics' queries name the host; for a fleet each metric is one query
 * of every host's series, told apart by the hostname label of their
 * source, and the instances, sources and times (series_times.h) are asked
 * for many series a request (series_batch.h), so that the fleet's lookups
 * cost a few dozen requests however many hosts it has, and one a host for
 * the first times.
 */
#ifndef SMTCPU_SERIES_INDEX_H
#define SMTCPU_SERIES_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmproxy_rest.h"
#include "samples.h"
#include "series_batch.h"

struct series_stream {
	enum figure figure;
	char id[SERIES_ID_LEN + 1];
	int ninstances;			/* as /series/instances lists them */
	int64_t first_us, last_us;	/* its first and last time, -1 none */
};

struct series_index;

/* host's series (host NULL: every host's), through r, which must outlive
 * the index.  NULL with err set. */
struct series_index *series_index_build(struct rest *r, enum sample_by by, const char *host, char *err,
					size_t errlen);

/* The series of the host named host (as its hostname label says, byte for
 * byte), in the figures' order: *n of them, NULL and 0 for none. */
const struct series_stream *series_index_host(const struct series_index *ix, const char *host, int *n);

/* A value's instance by its series ID inst: its number in the index's
 * table, named from the series' instances where it is new (pmproxy's
 * discovery may have met it since; asked once while *asked is false), else
 * by the ID.  -1 with err set. */
int series_index_instance(struct series_index *ix, const char *stream_id, const char *inst, bool *asked, char *err,
			  size_t errlen);

/* An instance's name, printable; the same pointer while the index lives. */
const char *series_index_name(const struct series_index *ix, int num);

void series_index_free(struct series_index *ix);

/* A name a pmseries query can carry between double quotes. */
bool series_queryable(const char *name);

/* Whether s is a series ID: SERIES_ID_LEN hex digits. */
bool series_is_id(const char *s);

#endif
