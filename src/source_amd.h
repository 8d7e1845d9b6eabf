/* The AMD uncore source's state, for the PMDA's amd.* metrics. */
#ifndef SMTCPU_SOURCE_AMD_H
#define SMTCPU_SOURCE_AMD_H

#include "amd.h"

struct sampler;

/* NULL before sampler_init. */
const struct amd *sampler_amd(const struct sampler *s);

extern const struct sampler_source amd_source;

#endif
