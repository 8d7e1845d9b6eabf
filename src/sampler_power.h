/*
 * The sampler's POWER sources: PURR counters per CPU and the LPAR's
 * lparcfg counters, with the status that says whether smt.* can come from
 * PURR.  Internal to the sampler.
 */
#ifndef SMTCPU_SAMPLER_POWER_H
#define SMTCPU_SAMPLER_POWER_H

#include "sampler.h"

/* Sets s->status[src], "ok" or why a source has no values. */
void sampler_set_status(struct sampler *s, enum smt_source src, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Opens what there is and sets status[SRC_PURR] and [SRC_LPARCFG]. */
int power_init(struct sampler *s);
void power_free(struct sampler *s);

/* After the online set changed: files follow the CPUs; a CPU that went
 * offline starts its counters' baselines again when it returns. */
void power_sync(struct sampler *s);

/* Reads every PURR file and lparcfg once, and adds the increments.
 * cpus_changed: CPUs went offline or online since the last pass. */
void power_read(struct sampler *s, bool cpus_changed);

/* Whether a core's smt.* values come from PURR: PURR is trustworthy here
 * and every thread has purr and idle_purr open. */
int power_core_uses_purr(const struct sampler *s, const struct topo_core *c);

/* Timebase ticks to milliseconds (0 when the timebase is unknown). */
double power_ms_per_tick(const struct sampler *s);

#endif
