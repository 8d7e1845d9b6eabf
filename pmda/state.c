/*
 * What the PMDA's files share (pmda/shared.h), apart from pmda_smtcpu.c so
 * that the clusters read it from here and nothing here calls back: the
 * sampler, the sampling period, the configuration file, and the sources'
 * states as the clusters see them.
 */
#include "shared.h"
#include "source_amd.h"
#include "source_core.h"
#include "source_intel.h"
#include "source_power.h"
#include "source_sched.h"

/* (sampler.config.period_ms is the sampling period: the configuration
 * file's at start, then -t's, then any store to smtcpu.control.period's;
 * the core source's timers follow it) */
struct sampler sampler;
char config_path[MAXPATHLEN];
bool dso_mode;

/* The sources' states, as the sampler holds them for its table's sources;
 * an empty one (nothing opened, nothing counted) until it has them. */
#define STATE_OF(type, name, source)					\
	const struct type *name(void)					\
	{								\
		static const struct type none;				\
		const struct type *st = sampler_state(&sampler, &source); \
		return st ? st : &none;					\
	}

STATE_OF(amd, amd, amd_source)
STATE_OF(sched_state, sched, sched_source)
STATE_OF(power_state, power, power_source)
STATE_OF(intel_state, intel, intel_source)
STATE_OF(core_state, core_counters, core_source)

const struct sched_table *sched_table_of(int serial)
{
	return serial == PROC_INDOM ? &sched()->procs : &sched()->cgroups;
}
