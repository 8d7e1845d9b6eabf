/*
 * smt.core.*: the calibrated time, capacity and model of each core, and
 * the cores' instances and labels.
 */
#include <stdio.h>

#include "shared.h"

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
	SMT_CORE_BUSY_THREADS = 12,
};

static const struct metric core_metrics[] = {
	{ "smt.core.throughput_cpu", SMT_CORE_THROUGHPUT, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "SMT-calibrated busy time of each core",
	  "Sum of smt.throughput_cpu over the threads of the core.  Counter in\n"
	  "milliseconds: its rate is the fraction of the core in use, from 0 to 1." },
	{ "smt.core.throughput_cpu_lower", SMT_CORE_LOWER, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "Least calibrated busy time of the core consistent with /proc/stat",
	  "The core's busy time credited as if its threads' busy periods were\n"
	  "nested inside one another (the most overlap their busy fractions allow,\n"
	  "which delivers the least throughput).  This is the bound for the core\n"
	  "as a whole, tighter than the sum of the threads' lower bounds.\n"
	  "Counter, milliseconds." },
	{ "smt.core.throughput_cpu_upper", SMT_CORE_UPPER, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "Most calibrated busy time of the core consistent with /proc/stat",
	  "The core's busy time credited as if its threads' busy periods were\n"
	  "spread out as evenly as possible (the least overlap, which delivers the\n"
	  "most throughput).  Counter, milliseconds." },
	{ "smt.core.capacity", SMT_CORE_CAPACITY, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "Time the core could have delivered, in calibrated milliseconds",
	  "Elapsed time of the counted windows times the most the core can deliver\n"
	  "with the threads it has online: 1 with all its threads online,\n"
	  "T(n)/T(S) with n of S.  Counter in milliseconds; what the core left of\n"
	  "it is smt.core.capacity_left." },
	{ "smt.core.level", SMT_CORE_LEVEL, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "SMT level in effect on the core over the last window",
	  "The mean number of busy threads of the core over the last sampling\n"
	  "window: the sum of its threads' busy fractions.  1.0 is one thread's\n"
	  "worth of work, S is every thread busy all the time." },
	{ "smt.core.threads", SMT_CORE_THREADS, PM_TYPE_U32, CORE_INDOM, PM_SEM_INSTANT, COUNT_UNITS,
	  "Online threads of the core",
	  "Hardware threads of this core that are online now (the SMT mode, which\n"
	  "can differ between cores)." },
	{ "smt.core.model", SMT_CORE_MODEL, PM_TYPE_STRING, CORE_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "SMT factor table used for the core",
	  "Name of the factor table (an instance of smt.model.*) the model applies\n"
	  "to this core, chosen from /proc/cpuinfo and the threads online, or set\n"
	  "by \"model NAME\" in the configuration file." },
	{ "smt.core.source", SMT_CORE_SOURCE, PM_TYPE_STRING, CORE_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "Where the core's calibrated values come from",
	  "\"purr\", \"sched\", \"hw\", \"model\" or \"none\", as smt.source." },
	{ "smt.core.socket", SMT_CORE_SOCKET, PM_TYPE_U32, CORE_INDOM, PM_SEM_DISCRETE, NO_UNITS,
	  "Physical package of the core",
	  "The topology/physical_package_id of the core's threads (0 where the\n"
	  "kernel reports -1, as POWER LPARs may)." },
	{ "smt.core.model_error", SMT_CORE_MODEL_ERROR, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "How far the model's estimate was from the measured value over the last window",
	  "(model estimate - measured) / window, in cores, the measured value being\n"
	  "the core's measured basis (smt.core.source): PURR's busy share (\"purr\"),\n"
	  "the software PURR's (\"sched\") or Intel's overlap counters' (\"hw\"): +0.05\n"
	  "means the model credited this core 5% of a core more than was measured.\n"
	  "The window is /proc/stat's, or what either figure covers where that is\n"
	  "longer (a guest whose vCPU waited misses ticks): never more than a core.\n"
	  "Against PURR it shows how well the factor table fits; against \"sched\" and\n"
	  "\"hw\", whose table is the same, it shows only what the model's\n"
	  "independence assumption got wrong: threads that are busy together more\n"
	  "often than chance (positive: the model credited too much time alone) or\n"
	  "less often (negative).  No values where no basis measured the core." },
	{ "smt.core.model_cpu", SMT_CORE_MODEL_CPU, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "The SMT model's estimate of the core's busy time",
	  "What smt.core.throughput_cpu would be from the factor table, whatever\n"
	  "the core's source: beside a PURR-based throughput_cpu, the rate of\n"
	  "each over any interval shows how well the table fits.  Counter,\n"
	  "milliseconds." },
	{ "smt.core.capacity_left", SMT_CORE_CAPACITY_LEFT, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "Calibrated time the core could have delivered and did not",
	  "What each counted window left of the core's capacity: smt.core.capacity\n"
	  "less smt.core.throughput_cpu over the window, never below zero.  Where a\n"
	  "window counts more than its capacity (its threads' windows differ by a\n"
	  "tick, or a measured basis runs past the model's capacity), nothing is\n"
	  "left and the excess is carried into the core's next window, so that the\n"
	  "counter never goes back.  Counter, milliseconds:\n"
	  "    rate(smt.core.capacity_left) / rate(smt.core.capacity)\n"
	  "is the fraction of the core left, between 0 and 1." },
	{ "smt.core.busy_threads", SMT_CORE_BUSY_THREADS, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "Busy time of the core's threads, summed: its rate is the mean busy threads",
	  "Milliseconds of busy time of the core's threads (user+nice+sys+irq+\n"
	  "softirq in /proc/stat, as smt.busy_cpu), summed over the threads, each\n"
	  "at most its window, over the windows the core has counted.  Counter:\n"
	  "its rate is the mean number of busy threads over any interval, where\n"
	  "smt.core.level is the last window's alone; divided by smt.core.threads,\n"
	  "the core's busy fraction as CPU% counts it, before calibration." },
};

/* A figure the core has once it has counted a window. */
static double counted(const struct smt_core_values *v, unsigned int item)
{
	switch (item) {
	case SMT_CORE_THROUGHPUT: return v->throughput;
	case SMT_CORE_LOWER: return v->lower;
	case SMT_CORE_UPPER: return v->upper;
	case SMT_CORE_CAPACITY: return v->capacity;
	case SMT_CORE_CAPACITY_LEFT: return v->capacity_left;
	case SMT_CORE_MODEL_CPU: return v->model_cpu;
	case SMT_CORE_BUSY_THREADS: return v->busy_threads;
	default: return 0;	/* (fetch_core asks only for the items above) */
	}
}

static int fetch_core(unsigned int item, void *priv, pmAtomValue *atom)
{
	const struct topo_core *c = priv;
	const struct smt_core_values *v = &sampler.core[c->first_cpu];
	const struct smt_cpu_values *first = &sampler.cpu[c->first_cpu];

	switch (item) {
	case SMT_CORE_THROUGHPUT: case SMT_CORE_LOWER: case SMT_CORE_UPPER: case SMT_CORE_CAPACITY:
	case SMT_CORE_CAPACITY_LEFT: case SMT_CORE_MODEL_CPU: case SMT_CORE_BUSY_THREADS:
		if (!v->counted)
			return PMDA_FETCH_NOVALUES;	/* no complete window yet */
		atom->d = counted(v, item);
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
		atom->cp = (char *)basis_word(v->counted ? v->basis : first->basis);
		break;
	case SMT_CORE_SOCKET: atom->ul = (uint32_t)c->socket; break;
	case SMT_CORE_MODEL_ERROR:
		if (!v->have_error)
			return PMDA_FETCH_NOVALUES;	/* no PURR to compare with */
		atom->d = v->model_error;
		break;
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

/* Cores follow the topology: one that leaves is hidden, and keeps its
 * instance id when it returns. */
static void refresh_cores(double now)
{
	static bool named;
	static unsigned seen;	/* sampler.topo.generation the cores reflect */
	char name[32];

	(void)now;
	if (named && sampler.topo.generation == seen)
		return;
	pmdaCacheOp(indom(CORE_INDOM), PMDA_CACHE_INACTIVE);
	for (int i = 0; i < sampler.topo.ncores; i++) {
		snprintf(name, sizeof name, "core%d", sampler.topo.cores[i].first_cpu);
		pmdaCacheStore(indom(CORE_INDOM), PMDA_CACHE_ADD, name, &sampler.topo.cores[i]);
	}
	pmdaCacheOp(indom(CORE_INDOM), PMDA_CACHE_SAVE);
	named = true;
	seen = sampler.topo.generation;
}

static int label_core(pmInDom in, int inst, void *priv, pmLabelSet **lp)
{
	const struct topo_core *c = priv;

	if (in != indom(CORE_INDOM))
		return 0;
	if (inst == (int)PM_IN_NULL)
		return pmdaAddLabels(lp, "{\"device_type\":\"cpu\"}");
	return pmdaAddLabels(lp, "{\"core\":%d,\"socket\":%d}", c->first_cpu, c->socket);
}

const struct cluster core_cluster = {
	METRICS(core_metrics),
	.fetch = fetch_core,
	.refresh = refresh_cores,
	.label = label_core,
};
