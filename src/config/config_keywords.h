/*
 * The configuration file's keywords, a row each (config_keywords.c): from
 * the table come a line's dispatch, its error texts and the keyword list
 * smtcpu-model --keywords prints.
 */
#ifndef SMTCPU_CONFIG_KEYWORDS_H
#define SMTCPU_CONFIG_KEYWORDS_H

#include <stddef.h>

#include "config.h"

/* A line of the file, split into words; word[0] is its keyword. */
struct config_line {
	struct smt_config *cfg;
	int number;
	char **word;
	int nwords;
	int *model_line;	/* a model line's number: an unknown table is checked at the end */
};

struct config_keyword {
	const char *name;
	const char *synopsis;		/* its arguments; a "|" parts alternatives */
	const char *description;	/* one line */
	const char *takes;		/* the error text, after the name, for arguments that do not fit */
	void (*parse)(const struct config_line *line, const struct config_keyword *keyword);
	size_t field;			/* offsetof the field the shared parsers set */
	unsigned min, max;		/* its range, for durations (ms) and counts */
};

/* The table, in the order an unknown keyword's error lists it. */
const struct config_keyword *config_keywords(int *n);

/* A line of at least one word: its keyword's parser, or an error. */
void config_apply(const struct config_line *line);

/* An error on line number of cfg's file: logged as FILE:LINE: why, counted,
 * and kept when the first. */
void config_fail(struct smt_config *cfg, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
