/*
 * The configuration file: line-oriented, "#" starts a comment, a line holds
 * a keyword and its arguments.  The keywords are the table in
 * config_keywords.c: a row each, with its arguments, what it sets and its
 * error text; smtcpu-model --keywords prints it, and qa 029 holds
 * doc/configuration.md and pmdasmtcpu(1) to it.
 *
 * A bad line is reported as FILE:LINE: why, and skipped; the rest applies.
 */
#ifndef SMTCPU_CONFIG_H
#define SMTCPU_CONFIG_H

#include <limits.h>
#include <stddef.h>

#include "smtmodel.h"

#define CONFIG_MAX_TABLES 16
#define CONFIG_MAX_PMUS 4
#define CONFIG_MAX_SIBLINGS 64
#define CONFIG_DEFAULT_PERIOD_MS 1000
#define CONFIG_MIN_PERIOD_MS 10
/* A limit an error text quotes is a plain number, or made of one, so that
 * the text is made of the limit checked (config_keywords.c). */
#define CONFIG_MAX_PERIOD_S 86400
#define CONFIG_MAX_PERIOD_MS (CONFIG_MAX_PERIOD_S * 1000u)
#define CONFIG_PERIOD_TOLD 0		/* passes only at start and when told */
#define CONFIG_DEFAULT_FRESH_MS 5
#define CONFIG_MIN_FRESH_MS 1
#define CONFIG_MAX_FRESH_MS 1000
#define CONFIG_DEFAULT_RETIRE_MS 60000
#define CONFIG_MIN_RETIRE_S 1		/* clients must have time to name what left */
#define CONFIG_MIN_RETIRE_MS (CONFIG_MIN_RETIRE_S * 1000)
#define CONFIG_DEFAULT_PROCESSES 65536
#define CONFIG_MIN_PROCESSES 1024
#define CONFIG_MAX_PROCESSES 4194304	/* 4 << 20 */
#define CONFIG_MAX_PMU_COUNTERS 16
#define CONFIG_MAX_DRAM_CHANNELS 12
#define CONFIG_MAX_LINE 1022		/* characters, without the newline */
#define CONFIG_MAX_BYTES (1 << 20)	/* a configuration file is read whole */

struct smt_config {
	char path[PATH_MAX];
	unsigned period_ms;		/* CONFIG_PERIOD_TOLD, or the longest without a pass */
	unsigned fresh_ms;		/* a fetch runs a pass once the last is this old */
	struct smt_table tables[CONFIG_MAX_TABLES];	/* from the file */
	int ntables;
	char model[SMT_NAME_MAX];	/* forced table, "" to choose per core */
	struct { char pmu[16]; int n; } counters[CONFIG_MAX_PMUS];
	int ncounters;
	int dram_channels;		/* 0: the family's */
	double dram_peak_gbs;		/* 0: from SMBIOS */
	int xgmi;			/* count the xGMI links (default 1) */
	char replay[PATH_MAX];		/* "" for perf_event_open */
	int sched;			/* the software PURR (default 1) */
	unsigned retire_ms;		/* an ended process served, then inactive, each */
	unsigned processes;		/* the software PURR's tasks map holds this many */
	char siblings[CONFIG_MAX_SIBLINGS][64];	/* CPU lists counted as one core */
	int nsiblings;
	int nerrors;
	char first_error[512];		/* "FILE:LINE: why" */
};

/* Defaults, then path's settings.  A missing file is not an error when
 * optional.  Returns the number of errors (each logged), or -errno when the
 * file cannot be read: not a regular file, or over CONFIG_MAX_BYTES. */
int config_load(struct smt_config *cfg, const char *path, int optional);

/* Defaults, then the settings in text (len bytes, which may hold NULs);
 * path names it in messages.  Returns the number of errors. */
int config_parse(struct smt_config *cfg, const char *path, const char *text, size_t len);

/* A table by name: the file's first, then the built-in ones; NULL if none. */
const struct smt_table *config_find_table(const struct smt_config *cfg, const char *name);

/* Whether a table line would take name: letters, digits, - _ . +, under
 * SMT_NAME_MAX characters. */
int config_valid_table_name(const char *name);

/* The configured counter count for a PMU ("amd_umc" for every amd_umc_N),
 * or fallback. */
int config_pmu_counters(const struct smt_config *cfg, const char *pmu, int fallback);

/* "1s", "500ms", "250" (ms) -> milliseconds; 0 when not a valid period. */
unsigned config_parse_period(const char *text);

/* The same, within [min_ms, max_ms]; 0 when not. */
unsigned config_parse_duration(const char *text, unsigned min_ms, unsigned max_ms);

#endif
