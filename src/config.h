/*
 * The configuration file: line-oriented, "#" starts a comment.
 *
 *   period 1s                      sampling period (ms, or with "ms" / "s")
 *   table NAME T1 T2 ... [preliminary]
 *                                  add a factor table, or replace a built-in one
 *   model NAME                     use table NAME for every core instead of
 *                                  choosing one from /proc/cpuinfo
 *
 * A bad line is reported as FILE:LINE: why, and skipped; the rest applies.
 */
#ifndef SMTCPU_CONFIG_H
#define SMTCPU_CONFIG_H

#include <limits.h>

#include "smtmodel.h"

#define CONFIG_MAX_TABLES 16
#define CONFIG_DEFAULT_PERIOD_MS 1000
#define CONFIG_MIN_PERIOD_MS 10
#define CONFIG_MAX_PERIOD_MS 86400000u

struct smt_config {
	char path[PATH_MAX];
	unsigned period_ms;
	struct smt_table tables[CONFIG_MAX_TABLES];	/* from the file */
	int ntables;
	char model[SMT_NAME_MAX];	/* forced table, "" to choose per core */
	int nerrors;
	char first_error[512];		/* "FILE:LINE: why" */
};

/* Defaults, then path's settings.  A missing file is not an error when
 * optional.  Returns the number of errors (each logged), or -errno when the
 * file cannot be read. */
int config_load(struct smt_config *cfg, const char *path, int optional);

/* A table by name: the file's first, then the built-in ones; NULL if none. */
const struct smt_table *config_find_table(const struct smt_config *cfg, const char *name);

/* "1s", "500ms", "250" (ms) -> milliseconds; 0 when not a valid period. */
unsigned config_parse_period(const char *text);

#endif
