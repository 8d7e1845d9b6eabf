/*
 * The configuration file: line-oriented, "#" starts a comment.
 *
 *   period 1s|told                 the longest without a pass (ms, or with
 *                                  "ms" / "s"); told: passes only when told
 *   fresh 5ms                      how old a pass may be and still serve a
 *                                  fetch; also the least time between passes
 *   table NAME T1 T2 ... [preliminary]
 *                                  add a factor table, or replace a built-in one
 *   basis NAME fitted|calibrated|stated TEXT...
 *                                  how the factors of table NAME (above) were
 *                                  come by, and where from
 *   model NAME                     use table NAME for every core instead of
 *                                  choosing one from /proc/cpuinfo
 *   pmu_counters PMU N             counters the PMU has (amd_df, amd_l3,
 *                                  amd_umc), instead of the family table's
 *   dram_channels N                DRAM channels per socket to count
 *   dram_peak RATE                 peak DRAM bandwidth per socket, in GB/s
 *                                  ("204.8" or "204.8GB/s"), instead of SMBIOS
 *   xgmi on|off                    count cross-socket link traffic (on); off
 *                                  leaves the Data Fabric counters to DRAM
 *   replay FILE                    read counters from a recorded trace
 *                                  instead of perf_event_open (tests)
 *   sched on|off                   measure SMT overlap from the scheduler
 *                                  with a BPF program (on)
 *   siblings LIST                  count these CPUs as one core's threads,
 *                                  whatever sysfs says (e.g. "siblings 0-1")
 *   retire 60s                     how long a process that ended, or a cgroup
 *                                  removed, is served; then as long inactive
 *   processes 65536                how many processes the software PURR holds
 *                                  at once (each uid at most half)
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
#define CONFIG_MAX_PERIOD_MS 86400000u
#define CONFIG_PERIOD_TOLD 0		/* passes only at start and when told */
#define CONFIG_DEFAULT_FRESH_MS 5
#define CONFIG_MIN_FRESH_MS 1
#define CONFIG_MAX_FRESH_MS 1000
#define CONFIG_DEFAULT_RETIRE_MS 60000
#define CONFIG_MIN_RETIRE_MS 1000	/* clients must have time to name what left */
#define CONFIG_DEFAULT_PROCESSES 65536
#define CONFIG_MIN_PROCESSES 1024
#define CONFIG_MAX_PROCESSES (4 << 20)
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
