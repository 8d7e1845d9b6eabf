/*
 * What the PMDA's files share (pmda/shared.h), apart from pmda_smtcpu.c so
 * that the clusters read it from here and nothing here calls back: the
 * sampler, the sampling period, the configuration file, the instance
 * domains, and the sources' states as the clusters see them.
 */
#include "shared.h"
#include "source_amd.h"
#include "source_sched.h"

pmdaIndom indomtab[NUM_INDOMS] = {
	{ CPU_INDOM, 0, NULL },
	{ CORE_INDOM, 0, NULL },
	{ MODEL_INDOM, 0, NULL },
	{ SOURCE_INDOM, 0, NULL },
	{ SOCKET_INDOM, 0, NULL },
	{ CHANNEL_INDOM, 0, NULL },
	{ CCX_INDOM, 0, NULL },
	{ LINK_INDOM, 0, NULL },
	{ PROC_INDOM, 0, NULL },
	{ CGROUP_INDOM, 0, NULL },
	{ MAP_INDOM, 0, NULL },
	{ UID_INDOM, 0, NULL },
};

struct sampler sampler;
/* The sampling period, ms: the PMDA's own, from the configuration file at
 * start, then -t, then any store to smtcpu.control.period. */
unsigned period_ms;
char config_path[MAXPATHLEN];

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

pmInDom indom(int serial)
{
	return indomtab[serial].it_indom;
}
