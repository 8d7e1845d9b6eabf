/*
 * The core accounting of a pass (core_account.c): which measured bases may
 * measure, each core's window over /proc/stat and its basis (the first that
 * measures the core, else the model), and the increments it adds.  The pass
 * (sampler.c) calls these; they call nothing of it.
 */
#ifndef SMTCPU_CORE_ACCOUNT_H
#define SMTCPU_CORE_ACCOUNT_H

#include "sampler.h"

/* Once a pass, after the sources' reads: the bases that may measure it. */
void sampler_find_bases(struct sampler *s);

/* After a rescan: what a basis measured of each CPU gone offline. */
void sampler_count_departed(struct sampler *s);

/* The core's window since its last, counted when it can be, after
 * /proc/stat is read. */
void sampler_count_core(struct sampler *s, const struct topo_core *c);

#endif
