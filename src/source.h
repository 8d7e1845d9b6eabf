/*
 * A source of the sampler beside /proc/stat and the topology: PURR and
 * lparcfg, the AMD uncore counters, and those to come.  Each owns its state
 * (state_size bytes, zeroed, that the sampler holds for it), names its
 * smtcpu.status instances and sets them (source_set_status), and has four
 * steps; the sampler walks one table of them (sources.c) in order.  Adding a
 * source is its own files, a line in that table and the PMDA's metrics.
 */
#ifndef SMTCPU_SOURCE_H
#define SMTCPU_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

struct sampler;

#define SOURCE_MAX 8		/* sources in the table */
#define SOURCE_MAX_STATUS 16	/* smtcpu.status instances, the sampler's own included */

struct sampler_source {
	const char *name;
	const char *const *status_names;	/* its smtcpu.status instances */
	int nstatus;
	size_t state_size;
	/* Opens what there is and says why not.  Only -ENOMEM stops the
	 * sampler; a source with nothing to read is a status, not an error. */
	int (*init)(struct sampler *s, void *state);
	/* The online CPUs changed (after the topology's rescan); may be NULL. */
	void (*sync)(struct sampler *s, void *state);
	/* One read a pass, before the sampler turns /proc/stat's deltas into
	 * smt.* values; cpus_changed as for sync. */
	void (*read)(struct sampler *s, void *state, bool cpus_changed);
	/* Closes what init opened; the sampler frees the state itself. */
	void (*free)(struct sampler *s, void *state);
};

/* Every source, in the order they are read. */
extern const struct sampler_source *const sampler_sources[];
extern const int sampler_nsources;

/* The state the sampler holds for src; NULL before sampler_init. */
void *source_state(const struct sampler *s, const struct sampler_source *src);

/* Sets src's k-th status instance: "ok", or why it has no values. */
void source_set_status(struct sampler *s, const struct sampler_source *src, int k,
		       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
