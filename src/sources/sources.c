#include "source.h"
#include "source_amd.h"
#include "source_core.h"
#include "source_intel.h"
#include "source_power.h"
#include "source_sched.h"

/* PURR first: its per-CPU readings decide how each core is counted; the
 * software PURR is the basis where PURR is not, Intel's counters where
 * neither is. */
const struct sampler_source *const sampler_sources[] = { &power_source, &amd_source,
							  &sched_source, &intel_source,
							  &core_source };
const int sampler_nsources = sizeof sampler_sources / sizeof sampler_sources[0];

_Static_assert(sizeof sampler_sources / sizeof sampler_sources[0] <= SOURCE_MAX,
	       "more sources than SOURCE_MAX");
