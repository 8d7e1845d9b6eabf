/*
 * A source of the sampler beside /proc/stat and the topology: whatever else
 * a pass reads (src/sources/ has one folder each).  Each owns its state
 * (state_size bytes, zeroed, that the sampler holds for it), names its
 * smtcpu.status instances and sets them (source_set_status), has four
 * steps, and may offer a measured basis; the sampler walks, in order, the
 * table its caller gives sampler_init (the PMDA: sampler_sources, below).  A
 * source sees only its context (what it reads, and its own status slots),
 * never the sampler or the table.  Adding a source is its own files, a line
 * in sources/sources.c's table and the PMDA's metrics.
 */
#ifndef SMTCPU_SOURCE_H
#define SMTCPU_SOURCE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config.h"
#include "printable.h"
#include "cpuinfo.h"
#include "cpustat.h"
#include "topology.h"

#define SOURCE_STATUS_LEN 256	/* an smtcpu.status value, its NUL included */

/* What the sampler gives a source: what it reads (the sampler's, for its
 * life, rescanned before sync) and where it says how it is. */
struct source_ctx {
	const struct smt_config *config;
	const struct cpuinfo *cpuinfo;
	const struct topology *topo;
	char (*status)[SOURCE_STATUS_LEN];	/* its own smtcpu.status slots, [nstatus] */
	int nstatus;
};

/* One thread's /proc/stat over its core's window, for a measured basis. */
struct basis_thread {
	double busy_ms;			/* busy time, ms */
	struct cpustat_times delta;	/* each field's ticks */
};

enum basis_check { BASIS_GO, BASIS_HOLD, BASIS_RESTART };

/*
 * A measured basis: a source that measures the calibrated time of a CPU (a
 * register, the scheduler's account, overlap counters) offers it through
 * these, each for the threads of one core (cpus[0..n)).  For each core the
 * sampler takes the first source in the table's order that measures every
 * thread over the core's window, and the model where none does.
 */
struct source_basis {
	const char *name;	/* smt.source's word for it */
	bool whole_core;	/* its capacity is the core's whole time, not the model's */
	/* Once a pass, before any core: whether it may measure a core at all
	 * (what it reads exists here); when not, none of the calls below is
	 * made this pass.  Turning on restarts every core's window, since its
	 * own marks were not kept meanwhile.  NULL: always. */
	bool (*active)(const void *state);
	/* Before the window is taken: BASIS_HOLD when a reading it needs is
	 * missing this pass (the window is held over to the next, so nothing
	 * it counted is lost), BASIS_RESTART when its baselines cannot serve
	 * (the core's window starts again, uncounted), else BASIS_GO.  NULL:
	 * always BASIS_GO. */
	enum basis_check (*check)(void *state, const int *cpus, int n);
	/* Each thread's calibrated ms over the window since the last mark, in
	 * ms[0..n); false when it did not measure them all. */
	bool (*measure)(void *state, const int *cpus, int n, const struct basis_thread *w,
			double *ms);
	/* A window was counted (whatever its basis): what the source derives
	 * from it for its own metrics.  May be NULL. */
	void (*counted)(void *state, const int *cpus, int n, const struct basis_thread *w);
	/* The core's next window begins now. */
	void (*mark)(void *state, const int *cpus, int n);
};

#define SOURCE_MAX 8		/* sources in the table */
#define SOURCE_MAX_STATUS 16	/* smtcpu.status instances, the sampler's own included */

struct sampler_source {
	const char *name;
	const char *const *status_names;	/* its smtcpu.status instances */
	int nstatus;
	size_t state_size;
	/* Opens what there is and says why not.  Only -ENOMEM stops the
	 * sampler; a source with nothing to read is a status, not an error. */
	int (*init)(const struct source_ctx *ctx, void *state);
	/* The online CPUs changed (after the topology's rescan); may be NULL. */
	void (*sync)(const struct source_ctx *ctx, void *state);
	/* One read a pass, before the sampler turns /proc/stat's deltas into
	 * smt.* values; cpus_changed as for sync. */
	void (*read)(const struct source_ctx *ctx, void *state, bool cpus_changed);
	/* A client asks for readings the source takes only while they are
	 * asked for (what: its own bits), because each costs the machine more
	 * than the metrics that need it are worth unasked (an interrupt to
	 * every CPU a pass).  It reads them from the next pass on, for a while.
	 * Returns true when it did not read them at the last pass, so what it
	 * serves is not current.  May be NULL: it reads all it has. */
	bool (*ask)(const struct source_ctx *ctx, void *state, unsigned what);
	/* Closes what init opened; the sampler frees the state itself. */
	void (*free)(const struct source_ctx *ctx, void *state);
	/* What it measures of each CPU, if it measures (see above); NULL if not. */
	const struct source_basis *basis;
};

/* The shipped table (sources/sources.c): every source, in the order they
 * are read.  The PMDA passes it to sampler_init; the sampler never names it,
 * so a test passes its own. */
extern const struct sampler_source *const sampler_sources[];
extern const int sampler_nsources;

/* Sets the source's k-th status instance: "ok", or why it has no values,
 * printable (a path or a word from a file may hold anything).
 * Here, not in an object of the sampler's: a source calls nothing above it. */
__attribute__((format(printf, 3, 4)))
static inline void source_set_status(const struct source_ctx *ctx, int k, const char *fmt, ...)
{
	va_list ap;

	if (k < 0 || k >= ctx->nstatus)
		return;
	va_start(ap, fmt);
	vsnprintf(ctx->status[k], sizeof ctx->status[k], fmt, ap);
	va_end(ap);
	printable_copy(ctx->status[k], sizeof ctx->status[k], ctx->status[k], sizeof ctx->status[k]);
}

#endif
