#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_keywords.h"
#include "log.h"
#include "readfile.h"

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

int config_pmu_counters(const struct smt_config *cfg, const char *pmu, int fallback)
{
	for (int i = 0; i < cfg->ncounters; i++)
		if (strcmp(cfg->counters[i].pmu, pmu) == 0)
			return cfg->counters[i].n;
	return fallback;
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

/* Words on a line: a basis line's text may run to a sentence. */
#define CONFIG_MAX_WORDS 64

static void apply_line(struct smt_config *cfg, int lineno, char *text, int *model_line)
{
	char *word[CONFIG_MAX_WORDS];
	int n = split_words(text, word, CONFIG_MAX_WORDS);

	if (n > 0)
		config_apply(&(struct config_line){ cfg, lineno, word, n, model_line });
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
			config_fail(cfg, lineno, "line longer than %d characters", CONFIG_MAX_LINE);
		} else if (memchr(start, '\0', n) != NULL) {
			config_fail(cfg, lineno, "a NUL byte in the line (not a text file?)");
		} else {
			memcpy(line, start, n);
			line[n] = '\0';
			apply_line(cfg, lineno, line, &model_line);
		}
	}
	if (cfg->model[0] && config_find_table(cfg, cfg->model) == NULL) {
		config_fail(cfg, model_line, "model: no such table; choosing per core instead");
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
