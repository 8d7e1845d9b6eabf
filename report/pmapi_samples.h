/*
 * samples.h's reader over libpcp: archives (one, several, or pmlogger's
 * directories of them, each opened on its own and read in time order), or
 * a live host fetched every interval.
 */
#ifndef SMTCPU_PMAPI_SAMPLES_H
#define SMTCPU_PMAPI_SAMPLES_H

#include <stddef.h>

#include "samples.h"

/* paths: each an archive, a comma-separated list of them, or a directory.
 * NULL with err set on failure: an archive that cannot be opened, one
 * without smtcpu's metrics, archives of more than one host, a bad window.
 * hostzone: the reports use the archives' timezone (-z). */
struct sample_reader *pmapi_open_archives(char *const *paths, int npaths, const struct window_args *w,
					  enum sample_by by, bool hostzone, char *err, size_t errlen);

/* A live host (-h): samples fetches, interval seconds apart. */
struct sample_reader *pmapi_open_host(const char *host, double interval, int samples, enum sample_by by,
				      bool hostzone, char *err, size_t errlen);

#endif
