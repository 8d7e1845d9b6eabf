#include "config_keywords.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cpulist.h"
#include "log.h"
#include "parsenum.h"
#include "sysroot.h"

/* A limit's macro as text: an error quotes the very limit it checks. */
#define TEXT_OF(macro) TEXT_OF_EXPANDED(macro)
#define TEXT_OF_EXPANDED(value) #value

void config_fail(struct smt_config *cfg, int line, const char *fmt, ...)
{
	char why[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	if (cfg->nerrors++ == 0)
		snprintf(cfg->first_error, sizeof cfg->first_error, "%s:%d: %s",
			 cfg->path, line, why);
	smt_log(SMT_LOG_ERROR, "%s:%d: %s", cfg->path, line, why);
}

unsigned config_parse_duration(const char *text, unsigned min_ms, unsigned max_ms)
{
	double v;
	const char *end = pn_decimal_prefix(text, &v);

	if (end == NULL)
		return 0;
	if (strcmp(end, "s") == 0)
		v *= 1000;
	else if (*end != '\0' && strcmp(end, "ms") != 0)
		return 0;
	if (!(v >= min_ms && v <= max_ms))
		return 0;
	return (unsigned)(v + 0.5);
}

unsigned config_parse_period(const char *text)
{
	return config_parse_duration(text, CONFIG_MIN_PERIOD_MS, CONFIG_MAX_PERIOD_MS);
}

int config_valid_table_name(const char *name)
{
	if (!*name || strlen(name) >= SMT_NAME_MAX)
		return 0;
	for (; *name; name++)
		if (!isalnum((unsigned char)*name) && !strchr("-_.+", *name))
			return 0;
	return 1;
}

/* A positive whole number no larger than max, or 0. */
static int parse_count(const char *text, unsigned max)
{
	long v;

	return pn_long(text, 1, max, &v) == 0 && strchr(text, '\n') == NULL ? (int)v : 0;
}

static double parse_gbs(const char *text)
{
	double v;
	const char *end = pn_decimal_prefix(text, &v);

	if (end == NULL || !(v > 0) || v > 1e5 || (*end && strcmp(end, "GB/s") != 0))
		return 0;
	return v;
}

/* Whether word is one of the alternatives ("on|off") of the synopsis's
 * first argument: the synopsis is the one list of them. */
static int among_choices(const char *synopsis, const char *word)
{
	const char *end = synopsis + strcspn(synopsis, " ");
	size_t len = strlen(word);

	for (const char *at = synopsis; at < end; at += strcspn(at, "| ") + 1)
		if (strcspn(at, "| ") == len && strncmp(at, word, len) == 0)
			return 1;
	return 0;
}

static void wrong_arguments(const struct config_line *l, const struct config_keyword *kw)
{
	config_fail(l->cfg, l->number, "%s %s", kw->name, kw->takes);
}

static void *field_of(const struct config_line *l, const struct config_keyword *kw)
{
	return (char *)l->cfg + kw->field;
}

/* "xgmi on", "sched off": the int field is 1 or 0. */
static void set_on_off(const struct config_line *l, const struct config_keyword *kw)
{
	if (l->nwords != 2 || !among_choices(kw->synopsis, l->word[1]))
		wrong_arguments(l, kw);
	else
		*(int *)field_of(l, kw) = strcmp(l->word[1], "on") == 0;
}

/* The unsigned field, in ms, within [min, max]. */
static void set_duration(const struct config_line *l, const struct config_keyword *kw)
{
	unsigned ms = l->nwords == 2 ? config_parse_duration(l->word[1], kw->min, kw->max) : 0;

	if (ms == 0)
		wrong_arguments(l, kw);
	else
		*(unsigned *)field_of(l, kw) = ms;
}

static void set_period(const struct config_line *l, const struct config_keyword *kw)
{
	if (l->nwords == 2 && strcmp(l->word[1], "told") == 0)
		l->cfg->period_ms = CONFIG_PERIOD_TOLD;
	else
		set_duration(l, kw);
}

/* A count within [min, max] into an int or unsigned field: C lets either
 * type reach an object of the other (C11 6.5p7), and counts are positive. */
static void set_count(const struct config_line *l, const struct config_keyword *kw)
{
	int count = l->nwords == 2 ? parse_count(l->word[1], kw->max) : 0;

	if (count == 0 || (unsigned)count < kw->min)
		wrong_arguments(l, kw);
	else
		*(unsigned *)field_of(l, kw) = (unsigned)count;
}

static void set_gbs(const struct config_line *l, const struct config_keyword *kw)
{
	double gbs = l->nwords == 2 ? parse_gbs(l->word[1]) : 0;

	if (gbs == 0)
		wrong_arguments(l, kw);
	else
		*(double *)field_of(l, kw) = gbs;
}

static void parse_table(const struct config_line *l, const struct config_keyword *kw)
{
	struct smt_config *cfg = l->cfg;
	struct smt_table t;
	char why[256];
	int slot = cfg->ntables;

	memset(&t, 0, sizeof t);
	if (l->nwords < 3) {
		wrong_arguments(l, kw);
		return;
	}
	if (!config_valid_table_name(l->word[1])) {
		config_fail(cfg, l->number, "a %s's name must be letters, digits, - _ . + (under %d)",
			    kw->name, SMT_NAME_MAX);
		return;
	}
	snprintf(t.name, sizeof t.name, "%s", l->word[1]);
	snprintf(t.basis, sizeof t.basis, "%s:%d", cfg->path, l->number);
	t.origin = SMT_ORIGIN_CONFIGURED;
	for (int i = 2; i < l->nwords; i++) {
		const char *end;
		double v;

		if (i == l->nwords - 1 && strcmp(l->word[i], "preliminary") == 0) {
			t.preliminary = true;
			break;
		}
		if (t.nthreads == SMT_MAX_THREADS) {
			config_fail(cfg, l->number, "%s %s: more than %d factors", kw->name, t.name,
				    SMT_MAX_THREADS);
			return;
		}
		end = pn_decimal_prefix(l->word[i], &v);
		if (end == NULL || *end != '\0' || !(v > 0)) {
			config_fail(cfg, l->number, "%s %s: factor %d is not a positive number",
				    kw->name, t.name, i - 1);
			return;
		}
		t.T[++t.nthreads] = v;
	}
	if (smt_table_check(&t, why, sizeof why) < 0) {
		config_fail(cfg, l->number, "%s %s: %s", kw->name, t.name, why);
		return;
	}
	for (int i = 0; i < cfg->ntables; i++)
		if (strcmp(cfg->tables[i].name, t.name) == 0)
			slot = i;	/* a later line replaces an earlier one */
	if (slot == CONFIG_MAX_TABLES) {
		config_fail(cfg, l->number, "more than %d tables", CONFIG_MAX_TABLES);
		return;
	}
	cfg->tables[slot] = t;
	if (slot == cfg->ntables)
		cfg->ntables++;
}

/* How the factors of a table above were come by, for smt.model.origin and
 * smt.model.basis. */
static void parse_basis(const struct config_line *l, const struct config_keyword *kw)
{
	struct smt_config *cfg = l->cfg;
	struct smt_table *t = NULL;
	size_t used = 0;
	int origin = l->nwords >= 4 ? smt_origin_parse(l->word[2]) : -1;

	if (origin < 0) {
		wrong_arguments(l, kw);
		return;
	}
	for (int i = 0; i < cfg->ntables; i++)
		if (strcmp(cfg->tables[i].name, l->word[1]) == 0)
			t = &cfg->tables[i];
	if (t == NULL) {
		config_fail(cfg, l->number, "%s: no table of that name above this line", kw->name);
		return;
	}
	t->origin = (enum smt_origin)origin;
	for (int i = 3; i < l->nwords && used < sizeof t->basis; i++)
		used += (size_t)snprintf(t->basis + used, sizeof t->basis - used, "%s%s",
					 i > 3 ? " " : "", l->word[i]);
}

/* Whether the table exists is known only once every table line is read. */
static void parse_model(const struct config_line *l, const struct config_keyword *kw)
{
	if (l->nwords != 2 || !config_valid_table_name(l->word[1])) {
		wrong_arguments(l, kw);
		return;
	}
	snprintf(l->cfg->model, sizeof l->cfg->model, "%s", l->word[1]);
	*l->model_line = l->number;
}

static void parse_pmu_counters(const struct config_line *l, const struct config_keyword *kw)
{
	struct smt_config *cfg = l->cfg;
	int known = l->nwords == 3 && among_choices(kw->synopsis, l->word[1]);
	int count = known ? parse_count(l->word[2], kw->max) : 0, slot = cfg->ncounters;

	if (count == 0) {
		wrong_arguments(l, kw);
		return;
	}
	for (int i = 0; i < cfg->ncounters; i++)
		if (strcmp(cfg->counters[i].pmu, l->word[1]) == 0)
			slot = i;
	snprintf(cfg->counters[slot].pmu, sizeof cfg->counters[slot].pmu, "%s", l->word[1]);
	cfg->counters[slot].n = count;
	if (slot == cfg->ncounters)
		cfg->ncounters++;
}

/* A trace stands in for the counters of a tree given as the root, never
 * for this machine's: a root daemon would serve what any file named here
 * holds. */
static void parse_replay(const struct config_line *l, const struct config_keyword *kw)
{
	if (l->nwords != 2)
		wrong_arguments(l, kw);
	else if (strcmp(sr_root(), "/") == 0)
		config_fail(l->cfg, l->number, "%s is read only under a root given by -r or "
			    "$SMTCPU_ROOT, never on this machine's; ignored", kw->name);
	else
		snprintf(l->cfg->replay, sizeof l->cfg->replay, "%s", l->word[1]);
}

/* These CPUs are counted as the threads of one core, over what sysfs says
 * (a machine without SMT standing in for one with it). */
static void parse_siblings(const struct config_line *l, const struct config_keyword *kw)
{
	struct smt_config *cfg = l->cfg;
	int cpus[SMT_MAX_THREADS + 1], count;

	if (l->nwords != 2) {
		wrong_arguments(l, kw);
		return;
	}
	count = cpulist_collect(l->word[1], cpus, SMT_MAX_THREADS + 1);
	if (count < 2 || count > SMT_MAX_THREADS)
		config_fail(cfg, l->number, "%s takes a CPU list of 2 to %d CPUs", kw->name,
			    SMT_MAX_THREADS);
	else if (cfg->nsiblings == CONFIG_MAX_SIBLINGS)
		config_fail(cfg, l->number, "more than %d %s lines", CONFIG_MAX_SIBLINGS, kw->name);
	else
		snprintf(cfg->siblings[cfg->nsiblings++], sizeof cfg->siblings[0], "%s", l->word[1]);
}

#define FIELD(name) offsetof(struct smt_config, name)

static const struct config_keyword keywords[] = {
	{ "period", "DURATION|told",
	  "the longest without a pass; told: passes only at start and when told",
	  "takes one duration from " TEXT_OF(CONFIG_MIN_PERIOD_MS) "ms to "
	  TEXT_OF(CONFIG_MAX_PERIOD_S) "s, or \"told\", e.g. \"period 1s\" or \"period 500ms\"",
	  set_period, FIELD(period_ms), CONFIG_MIN_PERIOD_MS, CONFIG_MAX_PERIOD_MS },
	{ "fresh", "DURATION",
	  "how old a pass may be and still serve a fetch; also the least time between passes",
	  "takes one duration from " TEXT_OF(CONFIG_MIN_FRESH_MS) "ms to "
	  TEXT_OF(CONFIG_MAX_FRESH_MS) "ms, e.g. \"fresh 5ms\"",
	  set_duration, FIELD(fresh_ms), CONFIG_MIN_FRESH_MS, CONFIG_MAX_FRESH_MS },
	{ "table", "NAME T1 T2 ... [preliminary]",
	  "add a factor table, or replace a built-in one",
	  "needs a name and at least one factor: table NAME T1 T2 ...",
	  parse_table, 0, 0, 0 },
	{ "basis", "NAME fitted|calibrated|stated TEXT...",
	  "how the factors of table NAME (above) were come by, and where from",
	  "takes a table name, fitted, calibrated or stated, and where the factors come from, "
	  "e.g. \"basis mybox-smt2 stated vendor sheet\"",
	  parse_basis, 0, 0, 0 },
	{ "model", "NAME",
	  "use table NAME for every core instead of choosing one from /proc/cpuinfo",
	  "takes one table name (letters, digits, - _ . +)",
	  parse_model, 0, 0, 0 },
	{ "pmu_counters", "amd_df|amd_l3|amd_umc N",
	  "counters the PMU has (every amd_umc_N for amd_umc), instead of the family table's",
	  "takes amd_df, amd_l3 or amd_umc and a count from 1 to "
	  TEXT_OF(CONFIG_MAX_PMU_COUNTERS) ", e.g. \"pmu_counters amd_df 4\"",
	  parse_pmu_counters, 0, 1, CONFIG_MAX_PMU_COUNTERS },
	{ "dram_channels", "N",
	  "DRAM channels per socket to count, instead of the family's",
	  "takes a count from 1 to " TEXT_OF(CONFIG_MAX_DRAM_CHANNELS),
	  set_count, FIELD(dram_channels), 1, CONFIG_MAX_DRAM_CHANNELS },
	{ "dram_peak", "RATE",
	  "peak DRAM bandwidth per socket in GB/s (\"204.8\" or \"204.8GB/s\"), instead of SMBIOS's",
	  "takes GB/s per socket, e.g. \"dram_peak 204.8GB/s\"",
	  set_gbs, FIELD(dram_peak_gbs), 0, 0 },
	{ "xgmi", "on|off",
	  "count cross-socket link traffic (on); off leaves the Data Fabric counters to DRAM",
	  "takes on or off",
	  set_on_off, FIELD(xgmi), 0, 0 },
	{ "replay", "FILE",
	  "read the counters from a recorded trace instead of perf_event_open (tests)",
	  "takes one trace file",
	  parse_replay, 0, 0, 0 },
	{ "sched", "on|off",
	  "measure SMT overlap from the scheduler with a BPF program, the software PURR (on)",
	  "takes on or off",
	  set_on_off, FIELD(sched), 0, 0 },
	{ "siblings", "LIST",
	  "count these CPUs as one core's threads, whatever sysfs says",
	  "takes one CPU list, e.g. \"siblings 0-1\"",
	  parse_siblings, 0, 0, 0 },
	{ "retire", "DURATION",
	  "how long a process that ended, or a cgroup removed, is served; then as long inactive",
	  "takes one duration from " TEXT_OF(CONFIG_MIN_RETIRE_S) "s to "
	  TEXT_OF(CONFIG_MAX_PERIOD_S) "s, e.g. \"retire 60s\"",
	  set_duration, FIELD(retire_ms), CONFIG_MIN_RETIRE_MS, CONFIG_MAX_PERIOD_MS },
	{ "processes", "N",
	  "how many processes the software PURR holds at once (each uid at most half)",
	  "takes a count from " TEXT_OF(CONFIG_MIN_PROCESSES) " to "
	  TEXT_OF(CONFIG_MAX_PROCESSES) ", e.g. \"processes 65536\"",
	  set_count, FIELD(processes), CONFIG_MIN_PROCESSES, CONFIG_MAX_PROCESSES },
};

#define NKEYWORDS (int)(sizeof keywords / sizeof keywords[0])

const struct config_keyword *config_keywords(int *n)
{
	*n = NKEYWORDS;
	return keywords;
}

/* "unknown setting (expected period, fresh, ... or processes)" */
static void unknown_keyword(const struct config_line *l)
{
	char expected[256];
	size_t used = 0;

	for (int i = 0; i < NKEYWORDS && used < sizeof expected; i++)
		used += (size_t)snprintf(expected + used, sizeof expected - used, "%s%s",
					 i == 0 ? "" : i == NKEYWORDS - 1 ? " or " : ", ",
					 keywords[i].name);
	config_fail(l->cfg, l->number, "unknown setting (expected %s)", expected);
}

void config_apply(const struct config_line *line)
{
	for (int i = 0; i < NKEYWORDS; i++)
		if (strcmp(line->word[0], keywords[i].name) == 0) {
			keywords[i].parse(line, &keywords[i]);
			return;
		}
	unknown_keyword(line);
}
