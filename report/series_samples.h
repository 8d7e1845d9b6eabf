/*
 * samples.h's reader over pmproxy's series: the key-value store that
 * pmproxy's discovery or pmseries --load fills from pmlogger's archives,
 * read through pmproxy's REST API.  A host's values of the figures are
 * grouped by their timestamps into records, in time order, as the
 * archive's records were; a time at which the store lacks a figure the
 * host's other times have is given as no record, and the record after it
 * names the lack (samples.h: mark, lacking).
 *
 * The store keeps a double as printf's %e, seven significant digits: a
 * counter of smtcpu's comes back rounded to them, and the records say so
 * (samples.h: digits); pcp-smtcpu(1), NOTES, says what it does to a report.
 */
#ifndef SMTCPU_SERIES_SAMPLES_H
#define SMTCPU_SERIES_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>

#include "samples.h"

struct series_store;

/* pmproxy at url (http://HOST:PORT), services by `by`.  NULL with err set. */
struct series_store *series_store_open(const char *url, enum sample_by by, char *err, size_t errlen);

/* The URL, printable. */
const char *series_store_url(const struct series_store *s);

/* The hosts the store names (its hostname labels), each list by name,
 * printable. */
struct store_hosts {
	char **with;		/* hosts with series of smtcpu's figures
				 * (smt.all.capacity, samples.h's others) */
	int nwith;
	char **odd;		/* names no query can carry (a quote, a backslash,
				 * a control character): not read */
	int nodd;
	char **without;		/* hosts with series, none of the figures' */
	int nwithout;
};

/* The store's hosts into h: 0, or -1 with err set (h then holds none).
 * Every host's series are looked up here at once, for the bounds and
 * readers of any host after; without it, a host's are looked up when
 * first asked for, and another host's replace them (so not while a reader
 * of the first lives).  Free h with store_hosts_free. */
int series_store_hosts(struct series_store *s, struct store_hosts *h, char *err, size_t errlen);
void store_hosts_free(struct store_hosts *h);

/* The first and last time (seconds since the epoch) of the host's samples
 * of the figures: 0, or -1 with err set (none in the store). */
int series_store_bounds(struct series_store *s, const char *host, double *first, double *last, char *err,
			size_t errlen);

/* The host's samples from start to end (seconds since the epoch); the
 * reader uses s, which must outlive it.  NULL with err set. */
struct sample_reader *series_store_reader(struct series_store *s, const char *host, double start, double end,
					  char *err, size_t errlen);

/* One host, its window as PCP's tools take it (against its first and last
 * sample in the store); the reader holds its own store. */
struct sample_reader *series_open_host(const char *url, const char *hostname, const struct window_args *w,
				       enum sample_by by, char *err, size_t errlen);

void series_store_close(struct series_store *s);

#endif
