/*
 * What the smtcpu PMDA's files share: the shape of a metric's row and of a
 * cluster (its rows, fetch and hooks), and the state pmda/state.c and
 * pmda/indoms.c hold for them all (the sampler, the sampling period, the
 * sources' states, the instance domains).
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
struct core_state;
struct intel_state;
struct power_state;
struct sched_state;
struct sched_table;

#define MS_UNITS	PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_MSEC, 0)
#define US_UNITS	PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_USEC, 0)
#define HZ_UNITS	PMDA_PMUNITS(0, -1, 1, 0, PM_TIME_SEC, PM_COUNT_ONE)
#define NO_UNITS	PMDA_PMUNITS(0, 0, 0, 0, 0, 0)
#define COUNT_UNITS	PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE)
#define BYTE_UNITS	PMDA_PMUNITS(1, 0, 0, PM_SPACE_BYTE, 0, 0)
#define BYTE_RATE_UNITS	PMDA_PMUNITS(1, -1, 0, PM_SPACE_BYTE, PM_TIME_SEC, 0)

/* A metric, defined here once: pmns and help are made from these rows at
 * build time (pmda/gen/metric_text.c).  indom is a serial from clusters.h,
 * or PM_INDOM_NULL; oneline and help are its help text. */
struct metric {
	const char *name;
	unsigned int item;
	int type;
	pmInDom indom;
	int sem;
	pmUnits units;
	const char *oneline;
	const char *help;
};

/* A cluster: its metrics, their fetch, and what it does for the instance
 * domains it owns.  Every hook but fetch may be NULL. */
struct cluster {
	const struct metric *metrics;
	int nmetrics;
	/* priv is the instance's private data from the instance domain's
	 * cache (NULL for a metric with none). */
	int (*fetch)(unsigned int item, void *priv, pmAtomValue *atom);
	/* A fetch names item (before any value is fetched): true when its
	 * values are read only while asked for and are not current, so that a
	 * pass must come first.  NULL: every item is read at every pass. */
	bool (*asked)(unsigned int item);
	/* After every pass, and once at start (now in monotonic seconds):
	 * brings the instance domains it owns up to date.  One cluster of a
	 * file refreshes the domains the file's clusters share. */
	void (*refresh)(double now);
	/* Labels of instance inst (priv its data) of a domain it owns, or of
	 * the domain itself when inst is PM_IN_NULL; 0 when it adds none. */
	int (*label)(pmInDom in, int inst, void *priv, pmLabelSet **lp);
	/* Every instance of in for a request naming them all, when the cache's
	 * active ones are not all it names; PM_ERR_INDOM for a domain not its own. */
	int (*list)(pmInDom in, pmInResult **result);
	/* A store of vs's values to item: 0, with *pass set when a pass must
	 * follow, or an error.  NULL: none of its metrics takes a store. */
	int (*store)(unsigned int item, const pmValueSet *vs, bool *pass);
};

/* A cluster's rows, for the initialiser of its struct cluster. */
#define METRICS(rows) .metrics = rows, .nmetrics = (int)(sizeof rows / sizeof rows[0])



/* pmda/state.c: what every file here reads, and pmda_smtcpu.c sets up. */
extern struct sampler sampler;
extern char config_path[MAXPATHLEN];	/* the configuration file read at start */
extern bool dso_mode;			/* a DSO in a client: says nothing of how it starts */

/* pmda/indoms.c: the instance domains, by serial (clusters.h). */
struct indom_doc {
	/* Its instances keep their ids across restarts: the cache its owner
	 * saves is loaded at start.  (CPUs are numbered afresh instead, as the
	 * linux PMDA numbers them.) */
	bool loaded;
	const char *oneline;
	const char *help;
};
extern pmdaIndom indomtab[NUM_INDOMS];
extern const struct indom_doc indom_docs[NUM_INDOMS];

pmInDom indom(int serial);

/* The sources' states; empty ones until the sampler has them. */
const struct amd *amd(void);
const struct sched_state *sched(void);
const struct power_state *power(void);
const struct intel_state *intel(void);
const struct core_state *core_counters(void);
/* The software PURR's table for PROC_INDOM or CGROUP_INDOM. */
const struct sched_table *sched_table_of(int serial);

/* Every cluster, by number (pmda/clusters.c). */
extern const struct cluster *const clusters[NUM_CLUSTERS];

/* smt.source's word for a window's basis: a measured basis's name,
 * "model", or "none" before a full window. */
static inline const char *basis_word(const char *basis)
{
	return basis ? basis : "none";
}

/* An estimated count to the nearest whole one. */
static inline uint64_t whole(double v)
{
	return (uint64_t)(v + 0.5);
}

#endif
