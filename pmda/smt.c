/*
 * smt.*: the calibrated CPU time per CPU, per core and for the system, and
 * the SMT factor tables the model uses.
 */
#include <stdio.h>

#include "shared.h"
#include "source_intel.h"

enum {	/* CLUSTER_CPU */
	SMT_CPU_THROUGHPUT = 0,
	SMT_CPU_LOWER = 1,
	SMT_CPU_UPPER = 2,
	SMT_CPU_BUSY = 3,
	SMT_CPU_SOURCE = 4,
	SMT_CPU_ELAPSED = 5,
	SMT_CPU_HW_THROUGHPUT = 6,
};

enum {	/* CLUSTER_CORE */
	SMT_CORE_THROUGHPUT = 0,
	SMT_CORE_LOWER = 1,
	SMT_CORE_UPPER = 2,
	SMT_CORE_CAPACITY = 3,
	SMT_CORE_LEVEL = 4,
	SMT_CORE_THREADS = 5,
	SMT_CORE_MODEL = 6,
	SMT_CORE_SOURCE = 7,
	SMT_CORE_SOCKET = 8,
	SMT_CORE_MODEL_ERROR = 9,
	SMT_CORE_MODEL_CPU = 10,
	SMT_CORE_CAPACITY_LEFT = 11,
};

enum {	/* CLUSTER_ALL */
	SMT_ALL_THROUGHPUT = 0,
	SMT_ALL_LOWER = 1,
	SMT_ALL_UPPER = 2,
	SMT_ALL_CAPACITY = 3,
	SMT_ALL_NCORES = 4,
	SMT_ALL_NCPUS = 5,
	SMT_ALL_THREADS_PER_CORE = 6,
	SMT_ALL_MODEL = 7,
	SMT_ALL_CAPACITY_LEFT = 8,
};

enum {	/* CLUSTER_MODEL */
	SMT_MODEL_THREADS = 0,
	SMT_MODEL_FACTORS = 1,
	SMT_MODEL_CPU_SHARE = 2,
	SMT_MODEL_PRELIMINARY = 3,
	SMT_MODEL_CORES = 4,
	SMT_MODEL_BASIS = 5,
	SMT_MODEL_ORIGIN = 6,
};

static const struct metric cpu_metrics[] = {
	{ "smt.throughput_cpu", SMT_CPU_THROUGHPUT, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_COUNTER, MS_UNITS },
	{ "smt.throughput_cpu_lower", SMT_CPU_LOWER, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_COUNTER, MS_UNITS },
	{ "smt.throughput_cpu_upper", SMT_CPU_UPPER, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_COUNTER, MS_UNITS },
	{ "smt.busy_cpu", SMT_CPU_BUSY, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_COUNTER, MS_UNITS },
	{ "smt.source", SMT_CPU_SOURCE, PM_TYPE_STRING, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS },
	{ "smt.elapsed_cpu", SMT_CPU_ELAPSED, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_COUNTER, MS_UNITS },
	{ "smt.hw.throughput_cpu", SMT_CPU_HW_THROUGHPUT, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_COUNTER, MS_UNITS },
};

static const struct metric core_metrics[] = {
	{ "smt.core.throughput_cpu", SMT_CORE_THROUGHPUT, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_COUNTER, MS_UNITS },
	{ "smt.core.throughput_cpu_lower", SMT_CORE_LOWER, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_COUNTER, MS_UNITS },
	{ "smt.core.throughput_cpu_upper", SMT_CORE_UPPER, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_COUNTER, MS_UNITS },
	{ "smt.core.capacity", SMT_CORE_CAPACITY, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_COUNTER, MS_UNITS },
	{ "smt.core.level", SMT_CORE_LEVEL, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_INSTANT, NO_UNITS },
	{ "smt.core.threads", SMT_CORE_THREADS, PM_TYPE_U32, CORE_INDOM, PM_SEM_INSTANT, COUNT_UNITS },
	{ "smt.core.model", SMT_CORE_MODEL, PM_TYPE_STRING, CORE_INDOM, PM_SEM_INSTANT, NO_UNITS },
	{ "smt.core.source", SMT_CORE_SOURCE, PM_TYPE_STRING, CORE_INDOM, PM_SEM_INSTANT, NO_UNITS },
	{ "smt.core.socket", SMT_CORE_SOCKET, PM_TYPE_U32, CORE_INDOM, PM_SEM_DISCRETE, NO_UNITS },
	{ "smt.core.model_error", SMT_CORE_MODEL_ERROR, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_INSTANT, NO_UNITS },
	{ "smt.core.model_cpu", SMT_CORE_MODEL_CPU, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_COUNTER, MS_UNITS },
	{ "smt.core.capacity_left", SMT_CORE_CAPACITY_LEFT, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_COUNTER, MS_UNITS },
};

static const struct metric all_metrics[] = {
	{ "smt.all.throughput_cpu", SMT_ALL_THROUGHPUT, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS },
	{ "smt.all.throughput_cpu_lower", SMT_ALL_LOWER, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS },
	{ "smt.all.throughput_cpu_upper", SMT_ALL_UPPER, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS },
	{ "smt.all.capacity", SMT_ALL_CAPACITY, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS },
	{ "smt.all.ncores", SMT_ALL_NCORES, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, COUNT_UNITS },
	{ "smt.all.ncpus", SMT_ALL_NCPUS, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, COUNT_UNITS },
	{ "smt.all.threads_per_core", SMT_ALL_THREADS_PER_CORE, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, COUNT_UNITS },
	{ "smt.all.model", SMT_ALL_MODEL, PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_INSTANT, NO_UNITS },
	{ "smt.all.capacity_left", SMT_ALL_CAPACITY_LEFT, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS },
};

static const struct metric model_metrics[] = {
	{ "smt.model.threads", SMT_MODEL_THREADS, PM_TYPE_U32, MODEL_INDOM, PM_SEM_DISCRETE, COUNT_UNITS },
	{ "smt.model.factors", SMT_MODEL_FACTORS, PM_TYPE_STRING, MODEL_INDOM, PM_SEM_DISCRETE, NO_UNITS },
	{ "smt.model.cpu_share", SMT_MODEL_CPU_SHARE, PM_TYPE_STRING, MODEL_INDOM, PM_SEM_DISCRETE, NO_UNITS },
	{ "smt.model.preliminary", SMT_MODEL_PRELIMINARY, PM_TYPE_U32, MODEL_INDOM, PM_SEM_DISCRETE, NO_UNITS },
	{ "smt.model.cores", SMT_MODEL_CORES, PM_TYPE_U32, MODEL_INDOM, PM_SEM_INSTANT, COUNT_UNITS },
	{ "smt.model.basis", SMT_MODEL_BASIS, PM_TYPE_STRING, MODEL_INDOM, PM_SEM_DISCRETE, NO_UNITS },
	{ "smt.model.origin", SMT_MODEL_ORIGIN, PM_TYPE_STRING, MODEL_INDOM, PM_SEM_DISCRETE, NO_UNITS },
};

static char model_text[2][SMT_MAX_THREADS * 12];	/* scratch for smt.model strings */

/* smt.source's word: a measured basis's name, "model", or "none" before a
 * full window. */
static const char *source_name(const char *source)
{
	return source ? source : "none";
}

/* What Intel's overlap counters say of cpu, whatever the basis. */
static const struct intel_clock *hw_clock(int cpu)
{
	const struct intel_state *in = sampler_intel(&sampler);
	return in && in->clk && cpu < in->ncpus ? &in->clk[cpu] : NULL;
}

static int fetch_cpu(unsigned int item, void *priv, pmAtomValue *atom)
{
	const struct smt_cpu_values *v = priv;

	if (item == SMT_CPU_HW_THROUGHPUT) {
		const struct intel_clock *hw = hw_clock((int)(v - sampler.cpu));
		if (hw == NULL || !hw->have)
			return PMDA_FETCH_NOVALUES;
		atom->d = hw->throughput;
		return PMDA_FETCH_STATIC;
	}
	if (v->basis == NULL && item != SMT_CPU_SOURCE)
		return PMDA_FETCH_NOVALUES;	/* no complete window yet */
	switch (item) {
	case SMT_CPU_THROUGHPUT: atom->d = v->throughput; break;
	case SMT_CPU_LOWER: atom->d = v->lower; break;
	case SMT_CPU_UPPER: atom->d = v->upper; break;
	case SMT_CPU_BUSY: atom->d = v->busy; break;
	case SMT_CPU_SOURCE: atom->cp = (char *)source_name(v->basis); break;
	case SMT_CPU_ELAPSED: atom->d = v->elapsed; break;
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

static int fetch_core(unsigned int item, void *priv, pmAtomValue *atom)
{
	const struct topo_core *c = priv;
	const struct smt_core_values *v = &sampler.core[c->first_cpu];
	const struct smt_cpu_values *first = &sampler.cpu[c->first_cpu];

	switch (item) {
	case SMT_CORE_THROUGHPUT: case SMT_CORE_LOWER: case SMT_CORE_UPPER: case SMT_CORE_CAPACITY:
	case SMT_CORE_CAPACITY_LEFT:
		if (!v->counted)
			return PMDA_FETCH_NOVALUES;	/* no complete window yet */
		atom->d = item == SMT_CORE_THROUGHPUT ? v->throughput :
			  item == SMT_CORE_LOWER ? v->lower :
			  item == SMT_CORE_UPPER ? v->upper :
			  item == SMT_CORE_CAPACITY ? v->capacity : v->capacity_left;
		break;
	case SMT_CORE_LEVEL:
		if (!v->have_level)
			return PMDA_FETCH_NOVALUES;
		atom->d = v->level;
		break;
	case SMT_CORE_THREADS: atom->ul = (uint32_t)c->nthreads; break;
	case SMT_CORE_MODEL:
		if (v->table == NULL)
			return PMDA_FETCH_NOVALUES;
		atom->cp = (char *)v->table->name;
		break;
	case SMT_CORE_SOURCE:
		atom->cp = (char *)source_name(v->counted ? v->basis : first->basis);
		break;
	case SMT_CORE_SOCKET: atom->ul = (uint32_t)c->socket; break;
	case SMT_CORE_MODEL_ERROR:
		if (!v->have_error)
			return PMDA_FETCH_NOVALUES;	/* no PURR to compare with */
		atom->d = v->model_error;
		break;
	case SMT_CORE_MODEL_CPU:
		if (!v->counted)
			return PMDA_FETCH_NOVALUES;
		atom->d = v->model_cpu;
		break;
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

/* The most cores using one table, and its name, for smt.all.model. */
static const char *system_model(char *buf, size_t size)
{
	const struct smt_table *first = NULL;

	buf[0] = '\0';
	for (int i = 0; i < sampler.topo.ncores; i++) {
		const struct smt_table *t = sampler.core[sampler.topo.cores[i].first_cpu].table;
		if (first == NULL)
			first = t;
		else if (t != first)
			return "mixed (see smt.core.model)";
	}
	if (first && first->nthreads < 2 && sampler.topo.max_threads > 1)
		return "none (no SMT table for this processor: see smtcpu.status[\"topology\"])";
	snprintf(buf, size, "%s", first ? first->name : "");
	return buf;
}

static int fetch_all(unsigned int item, void *priv, pmAtomValue *atom)
{
	static char model[SMT_NAME_MAX];

	(void)priv;
	switch (item) {
	case SMT_ALL_THROUGHPUT: atom->d = sampler.all.throughput; break;
	case SMT_ALL_LOWER: atom->d = sampler.all.lower; break;
	case SMT_ALL_UPPER: atom->d = sampler.all.upper; break;
	case SMT_ALL_CAPACITY: atom->d = sampler.all.capacity; break;
	case SMT_ALL_NCORES: atom->ul = (uint32_t)sampler.topo.ncores; break;
	case SMT_ALL_NCPUS: atom->ul = (uint32_t)sampler.topo.nonline; break;
	case SMT_ALL_THREADS_PER_CORE: atom->ul = (uint32_t)sampler.topo.max_threads; break;
	case SMT_ALL_MODEL: atom->cp = (char *)system_model(model, sizeof model); break;
	case SMT_ALL_CAPACITY_LEFT: atom->d = sampler.all.capacity_left; break;
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

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

const struct cluster cpu_cluster = CLUSTER(cpu_metrics, fetch_cpu);
const struct cluster core_cluster = CLUSTER(core_metrics, fetch_core);
const struct cluster all_cluster = CLUSTER(all_metrics, fetch_all);
const struct cluster model_cluster = CLUSTER(model_metrics, fetch_model);
