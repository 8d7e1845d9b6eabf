/*
 * smt.model.*: the SMT factor tables the model uses, built in and from the
 * configuration file, as instances.
 */
#include <stdio.h>

#include "shared.h"

enum {	/* CLUSTER_MODEL */
	SMT_MODEL_THREADS = 0,
	SMT_MODEL_FACTORS = 1,
	SMT_MODEL_CPU_SHARE = 2,
	SMT_MODEL_PRELIMINARY = 3,
	SMT_MODEL_CORES = 4,
	SMT_MODEL_BASIS = 5,
	SMT_MODEL_ORIGIN = 6,
};

static const struct metric model_metrics[] = {
	{ "smt.model.threads", SMT_MODEL_THREADS, PM_TYPE_U32, MODEL_INDOM, PM_SEM_DISCRETE, COUNT_UNITS,
	  "Threads per core S of the factor table",
	  "The table's S: the factor table gives T(1) .. T(S) for a core of S\n"
	  "threads.  A core uses a table of its own thread count." },
	{ "smt.model.factors", SMT_MODEL_FACTORS, PM_TYPE_STRING, MODEL_INDOM, PM_SEM_DISCRETE, NO_UNITS,
	  "Core throughput T(1) .. T(S) with 1 to S busy threads",
	  "Relative to one thread alone on the core, T(1) = 1.  POWER7 SMT4 is\n"
	  "\"1 1.4 1.5 1.6\": four busy threads deliver 1.6 times one." },
	{ "smt.model.cpu_share", SMT_MODEL_CPU_SHARE, PM_TYPE_STRING, MODEL_INDOM, PM_SEM_DISCRETE, NO_UNITS,
	  "Share of a core credited to each thread at each SMT level, percent",
	  "c(k) = 100 * T(k) / (k * T(S)) for k = 1 .. S: the CPU% of a thread\n"
	  "busy alongside k-1 others (seed 000 Table-1; POWER7 SMT4:\n"
	  "\"62.50 43.75 31.25 25.00\")." },
	{ "smt.model.preliminary", SMT_MODEL_PRELIMINARY, PM_TYPE_U32, MODEL_INDOM, PM_SEM_DISCRETE, NO_UNITS,
	  "Whether the table's figures are unverified (1) or measured (0)",
	  "The POWER8 tables are preliminary: their single-thread figures come\n"
	  "from a study that calls them preliminary, and their other levels are\n"
	  "derived by a rule (see README)." },
	{ "smt.model.cores", SMT_MODEL_CORES, PM_TYPE_U32, MODEL_INDOM, PM_SEM_INSTANT, COUNT_UNITS,
	  "Cores using the factor table now",
	  "How many cores use this factor table now (the configuration's model\n"
	  "line, or the table chosen for the processor and the core's threads)." },
	{ "smt.model.basis", SMT_MODEL_BASIS, PM_TYPE_STRING, MODEL_INDOM, PM_SEM_DISCRETE, NO_UNITS,
	  "Where the factor table's figures come from",
	  "For a built-in table, the source of its figures; for a table from the\n"
	  "configuration file, FILE:LINE, or what its \"basis\" line says: the runs it\n"
	  "was fitted to and how well it fits them, or the host, CPUs, kernel and\n"
	  "date it was calibrated on (see smt.model.origin and smtcpu-model(1))." },
	{ "smt.model.origin", SMT_MODEL_ORIGIN, PM_TYPE_STRING, MODEL_INDOM, PM_SEM_DISCRETE, NO_UNITS,
	  "How the factor table's figures were come by",
	  "\"built-in\" (smtcpu's own table), \"configured\" (a configuration file's\n"
	  "table with no basis line), \"fitted\" (smtcpu-model --fit, least squares\n"
	  "on measured runs), \"calibrated\" (smtcpu-model --calibrate, measured on a\n"
	  "host) or \"stated\" (figures quoted from a source named in the basis), so\n"
	  "that a chart or an archive says which model produced its numbers." },
};

static char model_text[2][SMT_MAX_THREADS * 12];	/* scratch for smt.model strings */

static int cores_using(const struct smt_table *t)
{
	int n = 0;
	for (int i = 0; i < sampler.topo.ncores; i++)
		n += sampler.core[sampler.topo.cores[i].first_cpu].table == t;
	return n;
}

/* Formats T(k) or the per-thread share c(k) for k = 1..S. */
static char *format_levels(char *buf, size_t size, const struct smt_table *t, int shares)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int k = 1; k <= t->nthreads && used < size; k++) {
		double v = shares ? 100 * smt_thread_share(t, k) : t->T[k];
		used += (size_t)snprintf(buf + used, size - used, shares ? "%s%.2f" : "%s%.4g",
					 k > 1 ? " " : "", v);
	}
	return buf;
}

static int fetch_model(unsigned int item, void *priv, pmAtomValue *atom)
{
	const struct smt_table *t = priv;

	switch (item) {
	case SMT_MODEL_THREADS: atom->ul = (uint32_t)t->nthreads; break;
	case SMT_MODEL_FACTORS:
		atom->cp = format_levels(model_text[0], sizeof model_text[0], t, 0);
		break;
	case SMT_MODEL_CPU_SHARE:
		atom->cp = format_levels(model_text[1], sizeof model_text[1], t, 1);
		break;
	case SMT_MODEL_PRELIMINARY: atom->ul = t->preliminary; break;
	case SMT_MODEL_CORES: atom->ul = (uint32_t)cores_using(t); break;
	case SMT_MODEL_BASIS: atom->cp = (char *)t->basis; break;
	case SMT_MODEL_ORIGIN: atom->cp = (char *)smt_origin_name(t->origin); break;
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

/* Tables: the configuration file's, then the built-in ones it does not
 * replace; fixed from the start. */
static void refresh_models(double now)
{
	static bool named;
	int ntables;
	const struct smt_table *builtin = smt_builtin_tables(&ntables);

	(void)now;
	if (named)
		return;
	pmdaCacheOp(indom(MODEL_INDOM), PMDA_CACHE_INACTIVE);
	for (int i = 0; i < sampler.config.ntables; i++)
		pmdaCacheStore(indom(MODEL_INDOM), PMDA_CACHE_ADD, sampler.config.tables[i].name,
			       (void *)&sampler.config.tables[i]);
	for (int i = 0; i < ntables; i++)
		if (config_find_table(&sampler.config, builtin[i].name) == &builtin[i])
			pmdaCacheStore(indom(MODEL_INDOM), PMDA_CACHE_ADD, builtin[i].name,
				       (void *)&builtin[i]);
	pmdaCacheOp(indom(MODEL_INDOM), PMDA_CACHE_SAVE);
	named = true;
}

const struct cluster model_cluster = {
	METRICS(model_metrics),
	.fetch = fetch_model,
	.refresh = refresh_models,
};
