/*
 * What the PMDA's files share (pmda/shared.h), apart from pmda_smtcpu.c so
 * that the clusters read it from here and nothing here calls back: the
 * sampler, the sampling period, the configuration file, and the sources'
 * states as the clusters see them.
 */
#include "shared.h"
#include "source_amd.h"
#include "source_sched.h"

struct sampler sampler;
/* The sampling period, ms: the PMDA's own, from the configuration file at
 * start, then -t, then any store to smtcpu.control.period. */
unsigned period_ms;
char config_path[MAXPATHLEN];
bool dso_mode;

/* The sources' states; empty ones until the sampler has them. */
const struct amd *amd(void)
{
	static const struct amd none;
	const struct amd *a = sampler_amd(&sampler);
	return a ? a : &none;
}

const struct sched_state *sched(void)
{
	static const struct sched_state none;
	const struct sched_state *st = sampler_sched(&sampler);
	return st ? st : &none;
}

const struct sched_table *sched_table_of(int serial)
{
	return serial == PROC_INDOM ? &sched()->procs : &sched()->cgroups;
}
