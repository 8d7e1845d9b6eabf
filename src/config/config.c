#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "log.h"
#include "parsenum.h"
#include "readfile.h"
#include "sysroot.h"

static void fail(struct smt_config *cfg, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct smt_config *cfg, int line, const char *fmt, ...)
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

const struct smt_table *config_find_table(const struct smt_config *cfg, const char *name)
{
	const struct smt_table *builtin;
	int n;

	for (int i = 0; cfg && i < cfg->ntables; i++)
		if (strcmp(cfg->tables[i].name, name) == 0)
			return &cfg->tables[i];
	builtin = smt_builtin_tables(&n);
	for (int i = 0; i < n; i++)
		if (strcmp(builtin[i].name, name) == 0)
			return &builtin[i];
	return NULL;
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

static void parse_table(struct smt_config *cfg, int line, char **word, int nwords)
{
	struct smt_table t;
	char why[256];
	int slot = cfg->ntables;

	memset(&t, 0, sizeof t);
	if (nwords < 3) {
		fail(cfg, line, "table needs a name and at least one factor: table NAME T1 T2 ...");
		return;
	}
	if (!config_valid_table_name(word[1])) {
		fail(cfg, line, "a table's name must be letters, digits, - _ . + (under %d)",
		     SMT_NAME_MAX);
		return;
	}
	snprintf(t.name, sizeof t.name, "%s", word[1]);
	snprintf(t.basis, sizeof t.basis, "%s:%d", cfg->path, line);
	t.origin = SMT_ORIGIN_CONFIGURED;
	for (int i = 2; i < nwords; i++) {
		const char *end;
		double v;

		if (i == nwords - 1 && strcmp(word[i], "preliminary") == 0) {
			t.preliminary = true;
			break;
		}
		if (t.nthreads == SMT_MAX_THREADS) {
			fail(cfg, line, "table %s: more than %d factors", t.name, SMT_MAX_THREADS);
			return;
		}
		end = pn_decimal_prefix(word[i], &v);
		if (end == NULL || *end != '\0' || !(v > 0)) {
			fail(cfg, line, "table %s: factor %d is not a positive number", t.name, i - 1);
			return;
		}
		t.T[++t.nthreads] = v;
	}
	if (smt_table_check(&t, why, sizeof why) < 0) {
		fail(cfg, line, "table %s: %s", t.name, why);
		return;
	}
	for (int i = 0; i < cfg->ntables; i++)
		if (strcmp(cfg->tables[i].name, t.name) == 0)
			slot = i;	/* a later line replaces an earlier one */
	if (slot == CONFIG_MAX_TABLES) {
		fail(cfg, line, "more than %d tables", CONFIG_MAX_TABLES);
		return;
	}
	cfg->tables[slot] = t;
	if (slot == cfg->ntables)
		cfg->ntables++;
}

int config_pmu_counters(const struct smt_config *cfg, const char *pmu, int fallback)
{
	for (int i = 0; i < cfg->ncounters; i++)
		if (strcmp(cfg->counters[i].pmu, pmu) == 0)
			return cfg->counters[i].n;
	return fallback;
}

/* A positive whole number no larger than max, or 0. */
static int parse_count(const char *text, int max)
{
	long v;

	return pn_long(text, 1, max, &v) == 0 && strchr(text, '\n') == NULL ? (int)v : 0;
}

static void parse_pmu_counters(struct smt_config *cfg, int line, char **word, int n)
{
	static const char *const pmus[] = { "amd_df", "amd_l3", "amd_umc" };
	int count = n == 3 ? parse_count(word[2], 16) : 0, known = 0, slot = cfg->ncounters;

	for (size_t i = 0; n == 3 && i < sizeof pmus / sizeof pmus[0]; i++)
		known |= strcmp(word[1], pmus[i]) == 0;
	if (!known || count == 0) {
		fail(cfg, line, "pmu_counters takes amd_df, amd_l3 or amd_umc and a count from 1 "
		     "to 16, e.g. \"pmu_counters amd_df 4\"");
		return;
	}
	for (int i = 0; i < cfg->ncounters; i++)
		if (strcmp(cfg->counters[i].pmu, word[1]) == 0)
			slot = i;
	snprintf(cfg->counters[slot].pmu, sizeof cfg->counters[slot].pmu, "%s", word[1]);
	cfg->counters[slot].n = count;
	if (slot == cfg->ncounters)
		cfg->ncounters++;
}

static double parse_gbs(const char *text)
{
	double v;
	const char *end = pn_decimal_prefix(text, &v);

	if (end == NULL || !(v > 0) || v > 1e5 || (*end && strcmp(end, "GB/s") != 0))
		return 0;
	return v;
}

/* Splits line into words in place; returns how many (at most max). */
static int split_words(char *line, char **word, int max)
{
	int n = 0;
	char *hash = strchr(line, '#');

	if (hash)
		*hash = '\0';
	for (char *tok = strtok(line, " \t\r\n"); tok && n < max; tok = strtok(NULL, " \t\r\n"))
		word[n++] = tok;
	return n;
}

/* "xgmi on", "sched off": *flag = 1 or 0. */
static void parse_on_off(struct smt_config *cfg, int lineno, int n, char **word, int *flag)
{
	if (n != 2 || (strcmp(word[1], "on") != 0 && strcmp(word[1], "off") != 0))
		fail(cfg, lineno, "%s takes on or off", word[0]);
	else
		*flag = strcmp(word[1], "on") == 0;
}

/* "siblings 0-1": these CPUs are counted as the threads of one core, over
 * what sysfs says (a machine without SMT standing in for one with it). */
static void parse_siblings(struct smt_config *cfg, int lineno, int n, char **word)
{
	int cpus[SMT_MAX_THREADS + 1], count;

	if (n != 2) {
		fail(cfg, lineno, "siblings takes one CPU list, e.g. \"siblings 0-1\"");
		return;
	}
	count = cpulist_collect(word[1], cpus, SMT_MAX_THREADS + 1);
	if (count < 2 || count > SMT_MAX_THREADS)
		fail(cfg, lineno, "siblings takes a CPU list of 2 to %d CPUs", SMT_MAX_THREADS);
	else if (cfg->nsiblings == CONFIG_MAX_SIBLINGS)
		fail(cfg, lineno, "more than %d siblings lines", CONFIG_MAX_SIBLINGS);
	else
		snprintf(cfg->siblings[cfg->nsiblings++], sizeof cfg->siblings[0], "%s", word[1]);
}

/* "basis NAME fitted|calibrated|stated TEXT...": how the factors of a table
 * above were come by, for smt.model.origin and smt.model.basis. */
static void parse_basis(struct smt_config *cfg, int lineno, int n, char **word)
{
	struct smt_table *t = NULL;
	size_t used = 0;
	int origin = n >= 4 ? smt_origin_parse(word[2]) : -1;

	if (origin < 0) {
		fail(cfg, lineno, "basis takes a table name, fitted, calibrated or stated, and "
		     "where the factors come from, e.g. \"basis mybox-smt2 stated vendor sheet\"");
		return;
	}
	for (int i = 0; i < cfg->ntables; i++)
		if (strcmp(cfg->tables[i].name, word[1]) == 0)
			t = &cfg->tables[i];
	if (t == NULL) {
		fail(cfg, lineno, "basis: no table of that name above this line");
		return;
	}
	t->origin = (enum smt_origin)origin;
	for (int i = 3; i < n && used < sizeof t->basis; i++)
		used += (size_t)snprintf(t->basis + used, sizeof t->basis - used, "%s%s",
					 i > 3 ? " " : "", word[i]);
}

/* Words on a line: a basis line's text may run to a sentence. */
#define CONFIG_MAX_WORDS 64

static void apply_line(struct smt_config *cfg, int lineno, char *text, int *model_line)
{
	char *word[CONFIG_MAX_WORDS];
	int n;

	if ((n = split_words(text, word, CONFIG_MAX_WORDS)) == 0)
		return;
	if (strcmp(word[0], "period") == 0) {
		unsigned ms = n == 2 ? config_parse_period(word[1]) : 0;
		if (n == 2 && strcmp(word[1], "told") == 0)
			cfg->period_ms = CONFIG_PERIOD_TOLD;
		else if (ms == 0)
			fail(cfg, lineno, "period takes one duration from %ums to %us, or \"told\", "
			     "e.g. \"period 1s\" or \"period 500ms\"",
			     CONFIG_MIN_PERIOD_MS, CONFIG_MAX_PERIOD_MS / 1000);
		else
			cfg->period_ms = ms;
	} else if (strcmp(word[0], "fresh") == 0) {
		unsigned ms = n == 2 ? config_parse_duration(word[1], CONFIG_MIN_FRESH_MS,
							     CONFIG_MAX_FRESH_MS) : 0;
		if (ms == 0)
			fail(cfg, lineno, "fresh takes one duration from %ums to %ums, "
			     "e.g. \"fresh 5ms\"", CONFIG_MIN_FRESH_MS, CONFIG_MAX_FRESH_MS);
		else
			cfg->fresh_ms = ms;
	} else if (strcmp(word[0], "table") == 0) {
		parse_table(cfg, lineno, word, n);
	} else if (strcmp(word[0], "basis") == 0) {
		parse_basis(cfg, lineno, n, word);
	} else if (strcmp(word[0], "model") == 0) {
		if (n != 2 || !config_valid_table_name(word[1])) {
			fail(cfg, lineno, "model takes one table name (letters, digits, - _ . +)");
		} else {
			snprintf(cfg->model, sizeof cfg->model, "%s", word[1]);
			*model_line = lineno;
		}
	} else if (strcmp(word[0], "pmu_counters") == 0) {
		parse_pmu_counters(cfg, lineno, word, n);
	} else if (strcmp(word[0], "dram_channels") == 0) {
		int channels = n == 2 ? parse_count(word[1], 12) : 0;
		if (channels == 0)
			fail(cfg, lineno, "dram_channels takes a count from 1 to 12");
		else
			cfg->dram_channels = channels;
	} else if (strcmp(word[0], "dram_peak") == 0) {
		double gbs = n == 2 ? parse_gbs(word[1]) : 0;
		if (gbs == 0)
			fail(cfg, lineno, "dram_peak takes GB/s per socket, e.g. \"dram_peak "
			     "204.8GB/s\"");
		else
			cfg->dram_peak_gbs = gbs;
	} else if (strcmp(word[0], "xgmi") == 0) {
		parse_on_off(cfg, lineno, n, word, &cfg->xgmi);
	} else if (strcmp(word[0], "replay") == 0) {
		/* A trace stands in for the counters of a tree given as the
		 * root, never for this machine's: a root daemon would serve
		 * what any file named here holds. */
		if (n != 2)
			fail(cfg, lineno, "replay takes one trace file");
		else if (strcmp(sr_root(), "/") == 0)
			fail(cfg, lineno, "replay is read only under a root given by -r or "
			     "$SMTCPU_ROOT, never on this machine's; ignored");
		else
			snprintf(cfg->replay, sizeof cfg->replay, "%s", word[1]);
	} else if (strcmp(word[0], "sched") == 0) {
		parse_on_off(cfg, lineno, n, word, &cfg->sched);
	} else if (strcmp(word[0], "siblings") == 0) {
		parse_siblings(cfg, lineno, n, word);
	} else if (strcmp(word[0], "retire") == 0) {
		unsigned ms = n == 2 ? config_parse_period(word[1]) : 0;
		if (ms < CONFIG_MIN_RETIRE_MS)
			fail(cfg, lineno, "retire takes one duration from %us to %us, "
			     "e.g. \"retire 60s\"",
			     CONFIG_MIN_RETIRE_MS / 1000, CONFIG_MAX_PERIOD_MS / 1000);
		else
			cfg->retire_ms = ms;
	} else if (strcmp(word[0], "processes") == 0) {
		int count = n == 2 ? parse_count(word[1], CONFIG_MAX_PROCESSES) : 0;
		if (count < CONFIG_MIN_PROCESSES)
			fail(cfg, lineno, "processes takes a count from %d to %d, e.g. \"processes "
			     "65536\"", CONFIG_MIN_PROCESSES, CONFIG_MAX_PROCESSES);
		else
			cfg->processes = (unsigned)count;
	} else {
		fail(cfg, lineno, "unknown setting (expected period, fresh, table, basis, model, "
		     "pmu_counters, dram_channels, dram_peak, xgmi, replay, sched, siblings, retire or "
		     "processes)");
	}
}

static void defaults(struct smt_config *cfg, const char *path)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->period_ms = CONFIG_DEFAULT_PERIOD_MS;
	cfg->fresh_ms = CONFIG_DEFAULT_FRESH_MS;
	cfg->xgmi = 1;
	cfg->sched = 1;
	cfg->retire_ms = CONFIG_DEFAULT_RETIRE_MS;
	cfg->processes = CONFIG_DEFAULT_PROCESSES;
	if (path)
		snprintf(cfg->path, sizeof cfg->path, "%s", path);
}

int config_parse(struct smt_config *cfg, const char *path, const char *text, size_t len)
{
	char line[CONFIG_MAX_LINE + 1];
	int lineno = 0, model_line = 0;
	size_t at = 0;

	defaults(cfg, path);
	while (at < len) {
		const char *start = text + at, *nl = memchr(start, '\n', len - at);
		size_t n = nl ? (size_t)(nl - start) : len - at;

		at += n + (nl != NULL);
		lineno++;
		if (n > CONFIG_MAX_LINE) {
			fail(cfg, lineno, "line longer than %d characters", CONFIG_MAX_LINE);
		} else if (memchr(start, '\0', n) != NULL) {
			fail(cfg, lineno, "a NUL byte in the line (not a text file?)");
		} else {
			memcpy(line, start, n);
			line[n] = '\0';
			apply_line(cfg, lineno, line, &model_line);
		}
	}
	if (cfg->model[0] && config_find_table(cfg, cfg->model) == NULL) {
		fail(cfg, model_line, "model: no such table; choosing per core instead");
		cfg->model[0] = '\0';
	}
	return cfg->nerrors;
}

int config_load(struct smt_config *cfg, const char *path, int optional)
{
	char why[64], *text;
	size_t len;
	int sts;

	defaults(cfg, path);
	if (path == NULL)
		return 0;
	if ((sts = rf_load(-1, path, CONFIG_MAX_BYTES, &text, &len)) < 0) {
		if (optional && sts == -ENOENT)
			return 0;
		cfg->nerrors = 1;
		snprintf(cfg->first_error, sizeof cfg->first_error, "%s: %s", path,
			 rf_strerror(sts, CONFIG_MAX_BYTES, why, sizeof why));
		smt_log(SMT_LOG_ERROR, "%s", cfg->first_error);
		return sts;
	}
	sts = config_parse(cfg, path, text, len);
	free(text);
	return sts;
}
