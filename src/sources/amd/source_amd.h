/* The AMD uncore source, and its state for the PMDA's amd.* metrics. */
#ifndef SMTCPU_SOURCE_AMD_H
#define SMTCPU_SOURCE_AMD_H

#include "amd.h"
#include "source.h"

extern const struct sampler_source amd_source;

#endif
