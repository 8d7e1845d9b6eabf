/*
 * A fixture's /proc/stat moved on between sampling passes, and the passes
 * timed, for the bench programs that sample fixtures (bench.c, agent.c).
 */
#ifndef SMTCPU_BENCH_MOVESTAT_H
#define SMTCPU_BENCH_MOVESTAT_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sampler.h"

#include "pingpong.h"

/* Rewrites /proc/stat in place with every CPU's user and idle moved on. */
static inline void move_stat(const char *root, int ncpus, int round)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/proc/stat", root);
	if ((f = fopen(path, "r+")) == NULL) {
		perror(path);
		exit(1);
	}
	fprintf(f, "cpu  0 0 0 0 0 0 0 0 0 0\n");
	for (int c = 0; c < ncpus; c++) {
		int busy = (c * 7 + round * 13) % 100;
		fprintf(f, "cpu%d %d 100 2000 %d 300 50 70 0 0 0\n", c,
			5000 + round * 100 + busy, 90000 + round * 100 + (100 - busy));
	}
	fprintf(f, "intr 123456789 44 9 0 0 0\nctxt 987654321\nbtime 1763700000\n"
		   "processes 123456\nprocs_running 1\nprocs_blocked 0\n");
	if (ftruncate(fileno(f), ftell(f)) < 0)
		perror("ftruncate");
	fclose(f);
}

/* One sampling pass over the fixture root, timed, after its /proc/stat
 * moved on (not timed): seconds. */
static inline double timed_pass(struct sampler *s, const char *root, int *round)
{
	move_stat(root, s->topo.nonline, (*round)++);
	double start = now();
	sampler_pass(s);
	return now() - start;
}

#endif
