/*
 * smtcpu.*: the agent itself, its sources' statuses, sampling period and
 * passes.  Its items are in shared.h, for the store.
 */
#include "shared.h"
#include "source_sched.h"
#include "sysroot.h"

static const struct metric agent_metrics[] = {
	{ "smtcpu.status", AGENT_STATUS, PM_TYPE_STRING, SOURCE_INDOM, PM_SEM_INSTANT, NO_UNITS },
	{ "smtcpu.control.period", AGENT_CONTROL_PERIOD, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_DISCRETE, MS_UNITS },
	{ "smtcpu.control.sample", AGENT_CONTROL_SAMPLE, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, NO_UNITS },
	{ "smtcpu.sampler.passes", AGENT_SAMPLER_PASSES, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS },
	{ "smtcpu.sampler.time", AGENT_SAMPLER_TIME, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS },
	{ "smtcpu.root", AGENT_ROOT, PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS },
	{ "smtcpu.config", AGENT_CONFIG, PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS },
	{ "smtcpu.sched.missed", AGENT_SCHED_MISSED, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS },
	{ "smtcpu.sched.rereads", AGENT_SCHED_REREADS, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS },
	{ "smtcpu.sched.unsettled", AGENT_SCHED_UNSETTLED, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS },
};

static int fetch_agent(unsigned int item, void *priv, pmAtomValue *atom)
{
	switch (item) {
	case AGENT_STATUS: atom->cp = (char *)priv; break;
	case AGENT_CONTROL_PERIOD: atom->ul = period_ms; break;
	case AGENT_CONTROL_SAMPLE: atom->ul = 0; break;
	case AGENT_SAMPLER_PASSES: atom->ull = sampler.passes; break;
	case AGENT_SAMPLER_TIME: atom->d = sampler.pass_time * 1000; break;
	case AGENT_ROOT: atom->cp = (char *)sr_root(); break;
	case AGENT_CONFIG: atom->cp = config_path; break;
	case AGENT_SCHED_MISSED:
		if (!sched()->on)
			return PMDA_FETCH_NOVALUES;
		atom->ull = sched()->missed;
		break;
	case AGENT_SCHED_REREADS:
	case AGENT_SCHED_UNSETTLED:
		if (!sched()->on)
			return PMDA_FETCH_NOVALUES;
		atom->ull = item == AGENT_SCHED_REREADS ? sched()->rereads : sched()->unsettled;
		break;
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

const struct cluster agent_cluster = CLUSTER(agent_metrics, fetch_agent);
