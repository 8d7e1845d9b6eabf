#include "runsfile.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsenum.h"
#include "readfile.h"

static int fail(struct runs_file *f, const char *path, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct runs_file *f, const char *path, int line, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	snprintf(f->error, sizeof f->error, "%s:%d: %s", path, line, why);
	return -1;
}

static int positive(const char *word, double *v)
{
	const char *end = word ? pn_decimal_prefix(word, v) : NULL;
	return end != NULL && *end == '\0' && *v > 0;
}

/* One line's words; 0, or -1 with the error set. */
static int parse_line(struct runs_file *f, const char *path, int line, char *text, int *most)
{
	char *save, *word = strtok_r(text, " \t\r", &save), *arg;
	struct smt_run *run = &f->runs[f->nruns];
	long k;

	if (word == NULL)
		return 0;
	if (strcmp(word, "threads") == 0) {
		arg = strtok_r(NULL, " \t\r", &save);
		if (arg == NULL || pn_long(arg, 1, SMT_MAX_THREADS, &k) < 0 ||
		    strtok_r(NULL, " \t\r", &save) != NULL)
			return fail(f, path, line, "threads takes one count from 1 to %d",
				    SMT_MAX_THREADS);
		f->threads = (int)k;
		return 0;
	}
	if (strcmp(word, "run") != 0 && strcmp(word, "level") != 0)
		return fail(f, path, line, "expected run, level or threads, not \"%.40s\"", word);
	if (f->nruns == RUNS_MAX)
		return fail(f, path, line, "more than %d runs", RUNS_MAX);
	memset(run, 0, sizeof *run);
	if (strcmp(word, "level") == 0) {
		double per_thread;
		arg = strtok_r(NULL, " \t\r", &save);
		if (arg == NULL || pn_long(arg, 1, SMT_MAX_THREADS, &k) < 0 ||
		    !positive(strtok_r(NULL, " \t\r", &save), &per_thread) ||
		    strtok_r(NULL, " \t\r", &save) != NULL)
			return fail(f, path, line, "level takes K, busy threads per core from 1 to "
				    "%d, and the throughput of each thread, e.g. \"level 2 73\"",
				    SMT_MAX_THREADS);
		run->cores[k] = 1;
		run->throughput = (double)k * per_thread;	/* one core's worth */
		if (k > *most)
			*most = (int)k;
	} else {
		int busy = 0;
		if (!positive(strtok_r(NULL, " \t\r", &save), &run->throughput))
			return fail(f, path, line, "run takes a positive throughput, then the busy "
				    "threads on each core, e.g. \"run 476 2 1 1 1\"");
		while ((arg = strtok_r(NULL, " \t\r", &save)) != NULL) {
			if (pn_long(arg, 0, SMT_MAX_THREADS, &k) < 0)
				return fail(f, path, line, "busy threads on a core must be 0 to %d, "
					    "not \"%.40s\"", SMT_MAX_THREADS, arg);
			run->cores[k]++;
			busy += k > 0;
			if (k > *most)
				*most = (int)k;
		}
		if (busy == 0)
			return fail(f, path, line, "a run needs a core with a busy thread");
	}
	f->nruns++;
	return 0;
}

int runs_parse(struct runs_file *f, const char *path, const char *text, size_t len)
{
	char line[1024];
	int lineno = 0, most = 0;
	size_t at = 0;

	f->nruns = 0;
	f->threads = 0;
	f->error[0] = '\0';
	while (at < len) {
		const char *start = text + at, *nl = memchr(start, '\n', len - at);
		size_t n = nl ? (size_t)(nl - start) : len - at;
		char *hash;

		at += n + (nl != NULL);
		lineno++;
		if (n >= sizeof line)
			return fail(f, path, lineno, "line longer than %zu characters",
				    sizeof line - 1);
		if (memchr(start, '\0', n) != NULL)
			return fail(f, path, lineno, "a NUL byte in the line (not a text file?)");
		memcpy(line, start, n);
		line[n] = '\0';
		if ((hash = strchr(line, '#')) != NULL)
			*hash = '\0';
		if (parse_line(f, path, lineno, line, &most) < 0)
			return -1;
	}
	if (f->nruns == 0)
		return fail(f, path, lineno, "no run or level lines");
	if (f->threads == 0)
		f->threads = most;
	else if (most > f->threads)
		return fail(f, path, lineno, "a run has %d busy threads on a core, more than "
			    "\"threads %d\"", most, f->threads);
	return 0;
}

int runs_load(struct runs_file *f, const char *path)
{
	char why[64], *text;
	size_t len;
	int sts = rf_load(-1, path, RUNS_MAX_BYTES, &text, &len);

	if (sts < 0) {
		snprintf(f->error, sizeof f->error, "%s: %s", path,
			 rf_strerror(sts, RUNS_MAX_BYTES, why, sizeof why));
		return -1;
	}
	sts = runs_parse(f, path, text, len);
	free(text);
	return sts;
}
