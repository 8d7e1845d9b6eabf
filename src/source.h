/*
 * A source of the sampler beside /proc/stat and the topology: PURR and
 * lparcfg, the AMD uncore counters, and those to come.  Each keeps its state,
 * sets its smtcpu.status instances (sampler_set_status) and has four steps;
 * the sampler walks one table of them (sources.c) in order.  Adding a source
 * is its own files, a line in that table and the PMDA's metrics.
 */
#ifndef SMTCPU_SOURCE_H
#define SMTCPU_SOURCE_H

#include <stdbool.h>

struct sampler;

struct sampler_source {
	const char *name;
	/* Opens what there is and says why not.  Only -ENOMEM stops the
	 * sampler; a source with nothing to read is a status, not an error. */
	int (*init)(struct sampler *s);
	/* The online CPUs changed (after the topology's rescan); may be NULL. */
	void (*sync)(struct sampler *s);
	/* One read a pass, before the sampler turns /proc/stat's deltas into
	 * smt.* values; cpus_changed as for sync. */
	void (*read)(struct sampler *s, bool cpus_changed);
	void (*free)(struct sampler *s);
};

extern const struct sampler_source power_source, amd_source;

/* Every source, in the order they are read. */
extern const struct sampler_source *const sampler_sources[];
extern const int sampler_nsources;

#endif
