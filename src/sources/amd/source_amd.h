/* The AMD uncore source, and its state for the PMDA's amd.* metrics. */
#ifndef SMTCPU_SOURCE_AMD_H
#define SMTCPU_SOURCE_AMD_H

#include "amd.h"
#include "sampler.h"

extern const struct sampler_source amd_source;

/* NULL before sampler_init. */
static inline const struct amd *sampler_amd(const struct sampler *s)
{
	return sampler_state(s, &amd_source);
}

#endif
