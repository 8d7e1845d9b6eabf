/*
 * The POWER source's state, for the PMDA's purr.*, kernel.percpu.cpu.*purr
 * and lpar.* metrics.  The per-CPU PURR counters the model uses are the
 * sampler's (smt_cpu_values), as any measured basis would be.
 */
#ifndef SMTCPU_SOURCE_POWER_H
#define SMTCPU_SOURCE_POWER_H

#include <stdbool.h>
#include <stdint.h>

#include "lparcfg.h"
#include "purr.h"

struct sampler;

/* Partition counters from lparcfg, as the PURR counters: increments only. */
enum lpar_counter { LPAR_C_POOL_IDLE, LPAR_C_PURR, LPAR_C_TBR, LPAR_NCOUNTERS };

struct lpar_values {
	uint64_t total[LPAR_NCOUNTERS];		/* ticks, cumulative */
	uint64_t last[LPAR_NCOUNTERS];
	bool have[LPAR_NCOUNTERS];
};

struct power_state {
	struct purr purr;		/* the files of every CPU */
	struct lparcfg lparcfg;
	struct lpar_values lpar;
};

/* Its smtcpu.status instances. */
enum { POWER_STATUS_PURR, POWER_STATUS_LPARCFG };

/* NULL before sampler_init. */
const struct power_state *sampler_power(const struct sampler *s);

extern const struct sampler_source power_source;

#endif
