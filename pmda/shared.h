/*
 * What the smtcpu PMDA's files share: the shape of a cluster (its metric
 * table and fetch), and the state pmda_smtcpu.c keeps for them all (the
 * sampler, instance domains, the sampling period).
 */
#ifndef SMTCPU_PMDA_SHARED_H
#define SMTCPU_PMDA_SHARED_H

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <stdbool.h>
#include <stdint.h>

#include "clusters.h"
#include "sampler.h"

struct amd;
struct sched_state;
struct sched_table;

#define MS_UNITS	PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_MSEC, 0)
#define US_UNITS	PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_USEC, 0)
#define HZ_UNITS	PMDA_PMUNITS(0, -1, 1, 0, PM_TIME_SEC, PM_COUNT_ONE)
#define NO_UNITS	PMDA_PMUNITS(0, 0, 0, 0, 0, 0)
#define COUNT_UNITS	PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE)
#define BYTE_UNITS	PMDA_PMUNITS(1, 0, 0, PM_SPACE_BYTE, 0, 0)
#define BYTE_RATE_UNITS	PMDA_PMUNITS(1, -1, 0, PM_SPACE_BYTE, PM_TIME_SEC, 0)

/* A metric: its name in pmns (qa/lib/doccheck holds the two together),
 * its item in the cluster, and its descriptor; indom is a serial from
 * clusters.h, or PM_INDOM_NULL. */
struct metric {
	const char *name;
	unsigned int item;
	int type;
	pmInDom indom;
	int sem;
	pmUnits units;
};

/* A cluster's metrics, and the fetch of one of them; priv is the
 * instance's private data from the instance domain's cache (NULL for a
 * metric with none). */
struct cluster {
	const struct metric *metrics;
	int nmetrics;
	int (*fetch)(unsigned int item, void *priv, pmAtomValue *atom);
	/* A fetch names item (before any value is fetched): true when its
	 * values are read only while asked for and are not current, so that a
	 * pass must come first.  NULL: every item is read at every pass. */
	bool (*asked)(unsigned int item);
};

#define CLUSTER(metrics, fetch) { metrics, (int)(sizeof metrics / sizeof metrics[0]), fetch, NULL }
#define CLUSTER_ASKED(metrics, fetch, asked) \
	{ metrics, (int)(sizeof metrics / sizeof metrics[0]), fetch, asked }

extern const struct cluster cpu_cluster, core_cluster, all_cluster, model_cluster;	/* smt.c */
extern const struct cluster agent_cluster;						/* agent.c */
extern const struct cluster purr_cpu_cluster, purr_all_cluster, lpar_cluster;	/* power.c */
extern const struct cluster df_cluster, l3_cluster;					/* amd.c */
extern const struct cluster proc_cluster, cgroup_cluster, sched_map_cluster;		/* sched.c */
extern const struct cluster sched_uid_cluster;						/* sched.c */
extern const struct cluster corectr_cluster, corectr_all_cluster;			/* corectr.c */

/* CLUSTER_AGENT's items, here rather than in agent.c because the store
 * (pmda_smtcpu.c) takes smtcpu.control.*. */
enum {
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

/* pmda/state.c: what every file here reads, and pmda_smtcpu.c sets up. */
extern struct sampler sampler;
extern unsigned period_ms;		/* the sampling period */
extern char config_path[MAXPATHLEN];	/* the configuration file read at start */
extern pmdaIndom indomtab[NUM_INDOMS];	/* by serial (clusters.h) */

pmInDom indom(int serial);

/* The sources' states; empty ones until the sampler has them. */
const struct amd *amd(void);
const struct sched_state *sched(void);
/* The software PURR's table for PROC_INDOM or CGROUP_INDOM. */
const struct sched_table *sched_table_of(int serial);

/* The software PURR's processes and cgroups as instances (pmda/sched.c),
 * after each pass; now in monotonic seconds.  The charge maps' instances,
 * at start. */
void sched_publish(double now);
void sched_map_instances(void);
/* Every instance of PROC_INDOM or CGROUP_INDOM, those that left a moment
 * ago (inactive) too, for an instance request naming them all. */
int sched_instance_list(pmInDom in, pmInResult **result);

/* An estimated count to the nearest whole one. */
static inline uint64_t whole(double v)
{
	return (uint64_t)(v + 0.5);
}

#endif
