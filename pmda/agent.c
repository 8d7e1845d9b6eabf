/*
 * smtcpu.*: the agent itself, its sources' statuses, sampling period and
 * passes, and the stores that set the period or ask for a pass.
 */
#include "shared.h"
#include "source_sched.h"
#include "sysroot.h"

enum {	/* CLUSTER_AGENT */
	AGENT_STATUS = 0,		/* smtcpu.status */
	AGENT_CONTROL_PERIOD = 1,	/* smtcpu.control.period */
	AGENT_CONTROL_SAMPLE = 2,	/* smtcpu.control.sample */
	AGENT_SAMPLER_PASSES = 3,	/* smtcpu.sampler.passes */
	AGENT_SAMPLER_TIME = 4,		/* smtcpu.sampler.time */
	AGENT_ROOT = 5,			/* smtcpu.root */
	AGENT_CONFIG = 6,		/* smtcpu.config */
	AGENT_SCHED_MISSED = 7,		/* smtcpu.sched.missed */
	AGENT_SCHED_REREADS = 8,	/* smtcpu.sched.rereads */
	AGENT_SCHED_UNSETTLED = 9,	/* smtcpu.sched.unsettled */
};

static const struct metric agent_metrics[] = {
	{ "smtcpu.status", AGENT_STATUS, PM_TYPE_STRING, SOURCE_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "Whether each data source has values, and if not, why",
	  "\"ok\", or the reason there are no values from this source: a file that\n"
	  "cannot be read, hardware that is not present, permission refused, a\n"
	  "configuration file error (FILE:LINE: why), a file larger than smtcpu's\n"
	  "bound for it.  Instances: cpustat (/proc/stat), config (the\n"
	  "configuration file), topology (the online CPU list), purr and lparcfg\n"
	  "(POWER), amd_df, amd_l3 and amd_xgmi (AMD's uncore counters), sched (the\n"
	  "software PURR: its BPF program, or why it is not loaded), intel_smt\n"
	  "(Intel's SMT overlap counters) and core (the core counters)." },
	{ "smtcpu.control.period", AGENT_CONTROL_PERIOD, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_DISCRETE, MS_UNITS,
	  "Longest time without a sampling pass, milliseconds",
	  "A fetch runs a sampling pass, so that its values are as of that fetch,\n"
	  "unless the last pass is younger than \"fresh\" in smtcpu.conf (5 ms) or\n"
	  "20 times a pass's CPU time (the least of the last 8), whichever is longer: that also bounds the\n"
	  "passes a second, whatever the clients.  With no fetch for a period, the\n"
	  "PMDA passes by itself, so that CPUs going offline and ended processes\n"
	  "are counted and retired.  0: passes only at start and when told\n"
	  "(smtcpu.control.sample), as fixtures need.  Storable: pmstore\n"
	  "smtcpu.control.period 500, or 0." },
	{ "smtcpu.control.sample", AGENT_CONTROL_SAMPLE, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, NO_UNITS,
	  "Store any value to take one sampling pass now",
	  "For tests and for tools that want values as of now; reads as 0.  The\n"
	  "pass waits out what is left of \"fresh\" (5 ms) since the last, so that\n"
	  "stores too make at most 1000 / fresh passes a second." },
	{ "smtcpu.sampler.passes", AGENT_SAMPLER_PASSES, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS,
	  "Sampling passes taken",
	  "Sampling passes taken since the PMDA started, a counter: one for each\n"
	  "fetch that found the last pass older than the fresh bound, one for each\n"
	  "period without a fetch, and one for each store to smtcpu.control.sample." },
	{ "smtcpu.sampler.time", AGENT_SAMPLER_TIME, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS,
	  "Time spent in sampling passes",
	  "Elapsed time of all passes, a counter in milliseconds: its rate is the\n"
	  "fraction of one CPU the sampling costs." },
	{ "smtcpu.root", AGENT_ROOT, PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS,
	  "Directory below which /proc and /sys are read",
	  "\"/\" on a live system; a fixture tree in tests (-r DIR or $SMTCPU_ROOT)." },
	{ "smtcpu.config", AGENT_CONFIG, PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS,
	  "Configuration file path",
	  "The file is optional; smtcpu.status[\"config\"] says whether it was read\n"
	  "without errors." },
	{ "smtcpu.sched.missed", AGENT_SCHED_MISSED, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS,
	  "Switches the kernel did not trace, found and corrected",
	  "The software PURR keeps, per CPU, which process runs or whether it idles,\n"
	  "from the sched_switch tracepoint.  Some kernels leave switches untraced\n"
	  "(seen on a 6.18 kernel: every switch out of PID 1's threads).  Each one\n"
	  "found is counted here and corrected then: when the idle loop starts on a\n"
	  "CPU the program has busy (the cpu_idle tracepoint), the thread's spell ends\n"
	  "and the core stops counting it busy; when a task switches out whose start\n"
	  "the program did not see, its spell is taken from the kernel's record of\n"
	  "when it began to run, and what ran before goes to the process (or idle)\n"
	  "the program last saw there.\n"
	  "No value unless the program runs (smtcpu.status[\"sched\"])." },
	{ "smtcpu.sched.rereads", AGENT_SCHED_REREADS, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS,
	  "Reads of the software PURR's maps made again",
	  "A charge leaves a CPU's record in the program's cores map for the\n"
	  "process and cgroup maps after the pass has read those maps, it would be\n"
	  "in neither reading, and the process would seem to stand still for a pass\n"
	  "and then catch up.  The program counts, per CPU, each charge it takes\n"
	  "out and each that has landed; a pass that sees either move across its\n"
	  "reading of the maps and cores reads them again, up to three times in\n"
	  "all.  Counted here: each read made again.  No value unless the program\n"
	  "runs (smtcpu.status[\"sched\"])." },
	{ "smtcpu.sched.unsettled", AGENT_SCHED_UNSETTLED, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS,
	  "Passes whose reads of the software PURR never settled",
	  "Passes in which a charge moved across every one of the three reads (see\n"
	  "smtcpu.sched.rereads): their per-process and per-cgroup figures may lag\n"
	  "by what moved, which the next pass counts.  On a machine switching\n"
	  "between processes tens of thousands of times a second on every CPU some\n"
	  "charge always moves; each one is a single spell, or up to 10 ms of one\n"
	  "process's run, on one CPU.  No value unless the program runs." },
};

static int fetch_agent(unsigned int item, void *priv, pmAtomValue *atom)
{
	switch (item) {
	case AGENT_STATUS: atom->cp = (char *)priv; break;
	case AGENT_CONTROL_PERIOD: atom->ul = sampler.config.period_ms; break;
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

/* smtcpu.control.period, within its bounds or told; smtcpu.control.sample,
 * a pass (pmda_smtcpu.c takes stores from root alone). */
static int store_agent(unsigned int item, const pmValueSet *vs, bool *pass)
{
	pmAtomValue av;
	int sts;

	if (item != AGENT_CONTROL_PERIOD && item != AGENT_CONTROL_SAMPLE)
		return PM_ERR_PERMISSION;
	if (vs->numval != 1)
		return PM_ERR_INST;
	if ((sts = pmExtractValue(vs->valfmt, &vs->vlist[0], PM_TYPE_U32, &av, PM_TYPE_U32)) < 0)
		return sts;
	if (item == AGENT_CONTROL_SAMPLE) {
		*pass = true;
		return 0;
	}
	if (av.ul != CONFIG_PERIOD_TOLD &&
	    (av.ul < CONFIG_MIN_PERIOD_MS || av.ul > CONFIG_MAX_PERIOD_MS))
		return PM_ERR_BADSTORE;
	sampler.config.period_ms = av.ul;
	return 0;
}

/* The sources' statuses: named by the sampler at its start, once. */
static void refresh_agent(double now)
{
	static bool named;

	(void)now;
	if (named)
		return;
	for (int slot = 0; slot < sampler.nstatus; slot++)
		pmdaCacheStore(indom(SOURCE_INDOM), PMDA_CACHE_ADD, sampler.status_name[slot],
			       (void *)&sampler.status[slot]);
	pmdaCacheOp(indom(SOURCE_INDOM), PMDA_CACHE_SAVE);
	named = true;
}

const struct cluster agent_cluster = {
	METRICS(agent_metrics),
	.fetch = fetch_agent,
	.refresh = refresh_agent,
	.store = store_agent,
};
