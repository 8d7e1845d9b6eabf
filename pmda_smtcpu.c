/*
 * smtcpu PMDA: SMT-calibrated CPU utilisation for PCP.
 *
 * Glue only: pmdaInit's tables from the clusters' (pmda/clusters.c), and
 * PCP's callbacks handed to the cluster each PMID or instance domain
 * belongs to; start-up, options and the daemon's loop.  The clusters serve
 * the sampler's snapshot; everything that reads the machine or models it
 * lives in src/.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "domain.h"
#include "pmda/clients.h"
#include "pmda/passes.h"
#include "pmda/privileges.h"
#include "pmda/shared.h"
#include "log.h"
#include "monoclock.h"
#include "sampler.h"
#include "sysroot.h"

/* PCP 7 renamed the fetch result type; PCP 6 has only pmResult. */
#ifndef SMTCPU_HAVE_PMDARESULT
typedef pmResult pmdaResult;
#endif

/* pmdaInit's metric table, made from the clusters' at start. */
static pmdaMetric *metrictab;
static int nmetrics;

static int make_metrictab(void)
{
	int n = 0;

	for (int c = 0; c < NUM_CLUSTERS; c++)
		n += clusters[c]->nmetrics;
	if ((metrictab = calloc((size_t)n, sizeof *metrictab)) == NULL)
		return -ENOMEM;
	for (int c = 0; c < NUM_CLUSTERS; c++)
		for (int i = 0; i < clusters[c]->nmetrics; i++) {
			const struct metric *m = &clusters[c]->metrics[i];
			pmDesc desc = { PMDA_PMID(c, m->item), m->type, m->indom, m->sem, m->units };
			metrictab[nmetrics++].m_desc = desc;
		}
	return 0;
}

static bool all_access;		/* -A: processes to every client */
static struct proc_mount proc_mount;	/* how /proc hides processes */

static void log_sink(enum smt_log_level level, const char *message)
{
	static const int priority[] = { LOG_INFO, LOG_WARNING, LOG_ERR };
	pmNotifyErr(priority[level], "%s", message);
}

static int smtcpu_fetchCallBack(pmdaMetric *mdesc, unsigned int inst, pmAtomValue *atom)
{
	unsigned int cluster = pmID_cluster(mdesc->m_desc.pmid);
	unsigned int item = pmID_item(mdesc->m_desc.pmid);
	void *priv = NULL;

	if (mdesc->m_desc.indom != PM_INDOM_NULL &&
	    pmdaCacheLookup(mdesc->m_desc.indom, (int)inst, NULL, &priv) != PMDA_CACHE_ACTIVE)
		return PM_ERR_INST;
	if (cluster >= NUM_CLUSTERS)
		return PM_ERR_PMID;
	return clusters[cluster]->fetch(item, priv, atom);
}

/* A fetch is served values as of itself: a pass runs unless the last is
 * younger than pass_gap(), which also bounds the passes a second whatever
 * the clients.  A first ask for readings taken only while asked for runs
 * one too (every item is told it was asked for).  Told, a fetch never
 * passes, so that a fixture's step is read whole or not at all. */
static int smtcpu_fetch(int numpmid, pmID pmidlist[], pmdaResult **resp, pmdaExt *pmda)
{
	bool pass = pass_due();

	for (int i = 0; i < numpmid; i++) {
		unsigned int cluster = pmID_cluster(pmidlist[i]);

		if (cluster < NUM_CLUSTERS && clusters[cluster]->asked &&
		    clusters[cluster]->asked(pmID_item(pmidlist[i])))
			pass = true;
	}
	if (pass && !passes_told())
		sample_now();
	return pmdaFetch(numpmid, pmidlist, resp, pmda);
}

/* Stores come from root only (pmda/clients.c), to a cluster that takes
 * them; a request runs one pass at most, however many values asking for
 * one it holds. */
static int smtcpu_store(pmdaResult *result, pmdaExt *pmda)
{
	bool pass = false;

	(void)pmda;
	if (!client_may_store())
		return PM_ERR_PERMISSION;
	for (int i = 0; i < result->numpmid; i++) {
		pmValueSet *vs = result->vset[i];
		unsigned int cluster = pmID_cluster(vs->pmid);
		int sts;

		if (cluster >= NUM_CLUSTERS || clusters[cluster]->store == NULL)
			return PM_ERR_PERMISSION;
		if ((sts = clusters[cluster]->store(pmID_item(vs->pmid), vs, &pass)) < 0)
			return sts;
	}
	if (pass) {
		wait_out_fresh();
		sample_now();
	}
	return 0;
}

/* An instance that has left (a process, a cgroup, a CPU offline) keeps its
 * name by identifier while it is in the cache: a client that fetched it
 * just before still resolves it.  pmdaInstance answers active ones only. */
static int inactive_name(pmInDom in, int inst, pmInResult **result)
{
	pmInResult *res;
	char *name;

	if (pmdaCacheLookup(in, inst, &name, NULL) != PMDA_CACHE_INACTIVE)
		return PM_ERR_INST;
	if ((res = calloc(1, sizeof *res)) == NULL ||
	    (res->namelist = calloc(1, sizeof *res->namelist)) == NULL ||
	    (res->namelist[0] = strdup(name)) == NULL) {
		if (res)
			free(res->namelist);
		free(res);
		return -ENOMEM;
	}
	res->indom = in;
	res->numinst = 1;
	*result = res;
	return 0;
}

/* Instance names go to every client, as the proc PMDA's do: pmcd 6 does
 * not say which client an instance request is from (its context is
 * another's, and a client's credentials come only with its first fetch),
 * so a check would refuse pmlogger its names.  The values are checked. */
static int smtcpu_instance(pmInDom in, int inst, char *name, pmInResult **result, pmdaExt *pmda)
{
	int sts;

	if (pass_due())
		sample_now();
	for (int c = 0; c < NUM_CLUSTERS && name == NULL && inst == (int)PM_IN_NULL; c++)
		if (clusters[c]->list && (sts = clusters[c]->list(in, result)) != PM_ERR_INDOM)
			return sts;
	sts = pmdaInstance(in, inst, name, result, pmda);
	if (sts == PM_ERR_INST && name == NULL && inst != (int)PM_IN_NULL)
		sts = inactive_name(in, inst, result);
	return sts;
}

/* Each cluster labels the instances, and the domains, it owns. */
static int smtcpu_labelCallBack(pmInDom in, unsigned int inst, pmLabelSet **lp)
{
	void *priv = NULL;
	int sts;

	if (pmdaCacheLookup(in, (int)inst, NULL, &priv) != PMDA_CACHE_ACTIVE)
		return 0;
	for (int c = 0; c < NUM_CLUSTERS; c++)
		if (clusters[c]->label && (sts = clusters[c]->label(in, (int)inst, priv, lp)) != 0)
			return sts;
	return 0;
}

static int smtcpu_label(int ident, int type, pmLabelSet **lp, pmdaExt *pmda)
{
	if (type == PM_LABEL_INDOM)
		for (int c = 0; c < NUM_CLUSTERS; c++)
			if (clusters[c]->label &&
			    clusters[c]->label((pmInDom)ident, (int)PM_IN_NULL, NULL, lp) != 0)
				break;
	return pmdaLabel(ident, type, lp, pmda);
}

static void smtcpu_setup(pmdaInterface *dp, const char *root)
{
	int sts;

	smt_log_set_sink(log_sink);
	if (root && (sts = sr_set_root(root)) < 0)
		pmNotifyErr(LOG_ERR, "root %.64s...: %s; no file is read (not even below \"/\")",
			    root, strerror(-sts));

	dp->version.seven.fetch = smtcpu_fetch;
	dp->version.seven.store = smtcpu_store;
	dp->version.seven.instance = smtcpu_instance;
	dp->version.seven.label = smtcpu_label;
	dp->version.seven.attribute = clients_attribute;
	pmdaSetEndContextCallBack(dp, clients_end);
	if (!dso_mode)
		pmdaSetCommFlags(dp, PMDA_FLAG_AUTHORIZE);
	pmdaSetFetchCallBack(dp, smtcpu_fetchCallBack);
	pmdaSetLabelCallBack(dp, smtcpu_labelCallBack);

	for (int i = 0; i < NUM_INDOMS; i++)
		indomtab[i].it_indom = pmInDom_build(dp->domain, (unsigned int)i);
	if ((sts = make_metrictab()) < 0) {
		dp->status = sts;
		return;
	}
	pmdaInit(dp, indomtab, NUM_INDOMS, metrictab, nmetrics);
	if (dp->status != 0)
		return;
	for (int i = 0; i < NUM_INDOMS; i++)
		if (indom_docs[i].loaded)
			pmdaCacheOp(indom(i), PMDA_CACHE_LOAD);

	sts = sampler_init(&sampler, sampler_sources, sampler_nsources,
			   config_path[0] ? config_path : NULL, 1);
	if (!sampler_usable(&sampler)) {
		pmNotifyErr(LOG_ERR, "cannot start: %s", pmErrStr(sts));
		dp->status = sts < 0 ? sts : -ENOMEM;
		return;
	}
	if (!proc_mount_read(&proc_mount) && strcmp(sr_root(), "/") == 0)
		pmNotifyErr(LOG_WARNING, "/proc/self/mountinfo names no /proc: processes are "
			    "shown to every client with credentials");
	clients_setup(dso_mode, all_access, &proc_mount);
	/* Say once why sources have no values (config errors are logged already). */
	for (int slot = 0; slot < sampler.nstatus && !dso_mode; slot++)
		if (slot != SLOT_CONFIG && strcmp(sampler.status[slot], "ok") != 0)
			pmNotifyErr(LOG_INFO, "%s: %s", sampler.status_name[slot], sampler.status[slot]);
	refresh_instances();	/* the instances there are before the first pass */
	sample_now();
}

static void default_config(void)
{
	const char *env = getenv("SMTCPU_CONFIG");

	if (env)
		snprintf(config_path, sizeof config_path, "%s", env);
	else
		snprintf(config_path, sizeof config_path, "%s/smtcpu/smtcpu.conf",
			 pmGetConfig("PCP_PMDAS_DIR"));
}

/* Entry point for the DSO (local context tests): root and configuration
 * from $SMTCPU_ROOT and $SMTCPU_CONFIG, help text from $SMTCPU_HELP. */
void smtcpu_init(pmdaInterface *dp)
{
	char helppath[MAXPATHLEN];
	const char *help = getenv("SMTCPU_HELP");

	if (help)
		snprintf(helppath, sizeof helppath, "%s", help);
	else
		snprintf(helppath, sizeof helppath, "%s/smtcpu/help", pmGetConfig("PCP_PMDAS_DIR"));
	pmdaDSO(dp, PMDA_INTERFACE_7, "smtcpu DSO", helppath);
	if (dp->status != 0)
		return;
	dso_mode = true;
	default_config();
	smtcpu_setup(dp, getenv("SMTCPU_ROOT"));
}

/* Serves PDUs from pmcd, in one thread, and passes when a period has gone
 * by without one (never, told): whatever no client asks for still has its
 * windows closed, processes culled and CPUs leaving counted. */
static void daemon_loop(pmdaInterface *dp)
{
	int fd = __pmdaInFd(dp);

	for (;;) {
		double wait = last_pass + period_s() - mono_seconds();
		struct timeval tv, *timeout = NULL;
		fd_set ready;
		int sts;

		if (!passes_told()) {
			if (wait < 0)
				wait = 0;
			tv.tv_sec = (time_t)wait;
			tv.tv_usec = (suseconds_t)((wait - (double)tv.tv_sec) * 1e6);
			timeout = &tv;
		}
		FD_ZERO(&ready);
		FD_SET(fd, &ready);
		sts = select(fd + 1, &ready, NULL, NULL, timeout);
		if (sts < 0 && errno != EINTR) {
			pmNotifyErr(LOG_ERR, "select: %s", strerror(errno));
			break;
		}
		if (sts > 0 && FD_ISSET(fd, &ready) && __pmdaMainPDU(dp) < 0)
			break;		/* pmcd closed the pipe */
		if (!passes_told() && mono_seconds() - last_pass >= period_s())
			sample_now();
	}
}

static pmLongOptions longopts[] = {
	PMDA_OPTIONS_HEADER("Options"),
	PMOPT_DEBUG,
	PMDAOPT_DOMAIN,
	PMDAOPT_LOGFILE,
	PMDAOPT_HELPTEXT,
	{ "config", 1, 'c', "FILE", "configuration file [default $PCP_PMDAS_DIR/smtcpu/smtcpu.conf]" },
	{ "root", 1, 'r', "DIR", "read /proc and /sys below DIR [default $SMTCPU_ROOT or /]" },
	{ "period", 1, 't', "TIME", "the longest without a pass, e.g. 1s, or told [default 1s]" },
	{ "all-access", 0, 'A', NULL, "every client sees every process (no credential checks)" },
	{ "username", 1, 'U', "USER", "run as USER once started [default $PCP_USER, pcp]" },
	PMOPT_HELP,
	PMDA_OPTIONS_END
};

static pmdaOptions opts = {
	.short_options = "Ac:D:d:h:l:r:t:U:?",
	.long_options = longopts,
};

int main(int argc, char **argv)
{
	pmdaInterface dispatch;
	char helppath[MAXPATHLEN];
	const char *root = getenv("SMTCPU_ROOT");
	const char *user = pmGetOptionalConfig("PCP_USER");
	char said[256];
	unsigned period = 0;
	bool told = false;
	int c;

	/* Fixed thresholds, not the C library's moving ones: a crowd's large
	 * blocks (tens of thousands of processes) would raise them, and what
	 * the crowd freed would stay with the daemon after it has gone. */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	mallopt(M_TRIM_THRESHOLD, 512 * 1024);
	pmSetProgname(argv[0]);
	snprintf(helppath, sizeof helppath, "%s/smtcpu/help", pmGetConfig("PCP_PMDAS_DIR"));
	pmdaDaemon(&dispatch, PMDA_INTERFACE_7, pmGetProgname(), SMTCPU, "smtcpu.log", helppath);
	default_config();

	while ((c = pmdaGetOptions(argc, argv, &opts, &dispatch)) != EOF) {
		switch (c) {
		case 'A':
			all_access = true;
			break;
		case 'U':
			user = opts.optarg;
			break;
		case 'c':
			snprintf(config_path, sizeof config_path, "%s", opts.optarg);
			break;
		case 'r':
			root = opts.optarg;
			break;
		case 't':
			if (strcmp(opts.optarg, "told") == 0)
				told = true;
			else if ((period = config_parse_period(opts.optarg)) == 0) {
				pmprintf("%s: -t %s: expected a period from %ums to %us, e.g. 1s, "
					 "or told\n",
					 pmGetProgname(), opts.optarg, CONFIG_MIN_PERIOD_MS,
					 CONFIG_MAX_PERIOD_MS / 1000);
				opts.errors++;
			}
			break;
		}
	}
	if (opts.errors) {
		pmdaUsageMessage(&opts);
		exit(1);
	}

	pmdaOpenLog(&dispatch);
	smtcpu_setup(&dispatch, root);
	if (dispatch.status != 0) {
		pmNotifyErr(LOG_ERR, "initialisation failed: %s", pmErrStr(dispatch.status));
		exit(1);
	}
	if (period || told)
		sampler.config.period_ms = period;	/* the command line wins */
	privileges_drop(user ? user : "pcp", &proc_mount, said, sizeof said);
	pmNotifyErr(LOG_INFO, "%s", said);
	pmdaConnect(&dispatch);
	daemon_loop(&dispatch);
	exit(0);
}
