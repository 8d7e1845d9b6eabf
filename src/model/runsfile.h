/*
 * Measured runs for smtcpu-model --fit, one a line ("#" starts a comment):
 *
 *   run THROUGHPUT B1 B2 ... Bc    a run's throughput with B1 .. Bc busy
 *                                  threads on cores 1 .. c (the shape of
 *                                  seed 000's Table-3)
 *   level K PER_THREAD             each busy thread's throughput with K busy
 *                                  threads on every core in use (the shape
 *                                  of seed 000's Table-2)
 *   threads S                      threads per core (default: the most busy
 *                                  on any core of any run)
 *
 * Throughput is in any unit, the same on every line.
 */
#ifndef SMTCPU_RUNSFILE_H
#define SMTCPU_RUNSFILE_H

#include <stddef.h>

#include "smtfit.h"

#define RUNS_MAX 1024
#define RUNS_MAX_BYTES (1 << 20)

struct runs_file {
	struct smt_run runs[RUNS_MAX];
	int nruns;
	int threads;		/* S: from a threads line, else the most busy seen */
	char error[320];	/* "FILE:LINE: why" */
};

/* Parses text (len bytes); path names it in messages.  Returns 0, or -1
 * with f->error set at the first bad line. */
int runs_parse(struct runs_file *f, const char *path, const char *text, size_t len);

/* Reads and parses path.  Returns 0 or -1 with f->error set. */
int runs_load(struct runs_file *f, const char *path);

#endif
