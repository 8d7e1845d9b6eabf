/*
 * smt.* per CPU and smt.all.*: the calibrated CPU time of each CPU and of
 * the system, and the CPUs' instances and labels.
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
	SMT_ALL_BUSY = 9,
};

static const struct metric cpu_metrics[] = {
	{ "smt.throughput_cpu", SMT_CPU_THROUGHPUT, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "SMT-calibrated busy time of each CPU",
	  "Busy time of this hardware thread credited in proportion to the core\n"
	  "throughput it delivered, so a core with every thread busy adds up to\n"
	  "one core.  Counter, ms: its rate is the fraction of a core used.\n"
	  "\n"
	  "Source \"model\" (smt.source): from each thread's busy fraction b in\n"
	  "/proc/stat (user+nice+sys+irq+softirq; steal and guest excluded), the\n"
	  "threads of a core taken as independent:\n"
	  "    b_i * sum_k c(k) * P(exactly k-1 of the other threads busy)\n"
	  "with c(k) = T(k) / (k * T(S)) from the core's table (smt.core.model).\n"
	  "POWER7 SMT4: one thread alone 62.5% of the core, four busy 25% each.\n"
	  "\n"
	  "Source \"purr\": measured.  Where PURR is trustworthy (a pSeries LPAR\n"
	  "with idle_purr, not a KVM guest on POWER9+), each window credits\n"
	  "purr - idle_purr, and the bounds equal the value." },
	{ "smt.throughput_cpu_lower", SMT_CPU_LOWER, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "Least SMT-calibrated busy time consistent with /proc/stat",
	  "The lower bound of smt.throughput_cpu: what this thread would be\n"
	  "credited if the other threads of its core overlapped its busy time as\n"
	  "much as their busy fractions allow.  Counter, milliseconds." },
	{ "smt.throughput_cpu_upper", SMT_CPU_UPPER, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "Most SMT-calibrated busy time consistent with /proc/stat",
	  "The upper bound of smt.throughput_cpu: what this thread would be\n"
	  "credited if the other threads of its core overlapped its busy time as\n"
	  "little as their busy fractions allow.  Counter, milliseconds." },
	{ "smt.busy_cpu", SMT_CPU_BUSY, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "Busy time of each CPU as /proc/stat counts it",
	  "user + nice + sys + irq + softirq time of this CPU over the windows the\n"
	  "model has counted: the input of smt.throughput_cpu, for comparing raw\n"
	  "and calibrated utilisation.  Counter, milliseconds." },
	{ "smt.source", SMT_CPU_SOURCE, PM_TYPE_STRING, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "Where each CPU's smt.throughput_cpu comes from",
	  "\"purr\" (the POWER PURR register, where the hypervisor's is trusted),\n"
	  "\"sched\" (the software PURR: a BPF program on the scheduler's context\n"
	  "switches credits each busy thread dt x c(k) while k threads of its core\n"
	  "are busy, so the overlap is measured, not assumed), \"model\" (the SMT\n"
	  "factor table applied to /proc/stat, sibling threads taken as busy\n"
	  "independently), \"hw\" (Intel's CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE and\n"
	  "REF_DISTRIBUTED or REF_XCLK counters, where neither PURR nor the\n"
	  "software PURR is available: see smt.hw.throughput_cpu), or \"none\" (no\n"
	  "complete sampling window yet).  The smtcpu.status instances \"sched\" and\n"
	  "\"intel_smt\" say why either is not used." },
	{ "smt.elapsed_cpu", SMT_CPU_ELAPSED, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "Time each CPU was observed, the denominator of per-CPU percentages",
	  "Milliseconds of the sampling windows counted for this CPU: the sum of\n"
	  "its /proc/stat times over them.  100 * rate(smt.throughput_cpu) /\n"
	  "rate(smt.elapsed_cpu) is the thread's SMT-calibrated consumption as %\n"
	  "of a physical core over exactly the windows counted, as AIX mpstat -s\n"
	  "shows it per logical CPU." },
	{ "smt.hw.throughput_cpu", SMT_CPU_HW_THROUGHPUT, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "SMT-calibrated busy time of each CPU from Intel's overlap counters",
	  "The hardware's own count of SMT overlap, exported beside smt.throughput_cpu\n"
	  "whatever the latter's source, to compare: per core and window, the core\n"
	  "PMU counts each thread's crystal-clock ticks unhalted while its sibling\n"
	  "is halted (CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE) and, from Ice Lake on,\n"
	  "ticks shared out between the unhalted threads (REF_DISTRIBUTED; before,\n"
	  "REF_XCLK, all its unhalted ticks), so the ticks both were unhalted\n"
	  "follow.  The thread's ticks weighted by c(1) alone and c(2) together,\n"
	  "over its unhalted ticks, is the calibrated share of its time, applied to\n"
	  "its /proc/stat busy time.  Hardware halt, not the OS's idle: a thread\n"
	  "polling in idle counts as busy here and not in \"sched\".  Counter,\n"
	  "milliseconds; no values where the counters are not there (smtcpu.status\n"
	  "\"intel_smt\" says why)." },
};

static const struct metric all_metrics[] = {
	{ "smt.all.throughput_cpu", SMT_ALL_THROUGHPUT, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS,
	  "SMT-calibrated busy time of the whole system",
	  "Sum over every core of smt.core.throughput_cpu.  Counter in\n"
	  "milliseconds: its rate is the number of cores' worth of work done." },
	{ "smt.all.throughput_cpu_lower", SMT_ALL_LOWER, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS,
	  "Least calibrated busy time of the system",
	  "Sum over every core of smt.core.throughput_cpu_lower.  Counter,\n"
	  "milliseconds." },
	{ "smt.all.throughput_cpu_upper", SMT_ALL_UPPER, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS,
	  "Most calibrated busy time of the system",
	  "Sum over every core of smt.core.throughput_cpu_upper.  Counter,\n"
	  "milliseconds." },
	{ "smt.all.capacity", SMT_ALL_CAPACITY, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS,
	  "Time the system could have delivered, in calibrated milliseconds",
	  "Sum over every core of smt.core.capacity.  With all threads online its\n"
	  "rate is the number of cores.  Capacity left, in cores, is\n"
	  "rate(smt.all.capacity_left), and utilisation as a fraction, between 0\n"
	  "and 1:\n"
	  "    1 - rate(smt.all.capacity_left) / rate(smt.all.capacity)" },
	{ "smt.all.ncores", SMT_ALL_NCORES, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, COUNT_UNITS,
	  "Cores with at least one thread online",
	  "Cores that have at least one online thread now, as the topology\n"
	  "(thread_siblings_list, or the configuration's siblings lines) makes them:\n"
	  "the number of instances of smt.core.*." },
	{ "smt.all.ncpus", SMT_ALL_NCPUS, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, COUNT_UNITS,
	  "CPUs (hardware threads) online",
	  "Online CPUs (hardware threads) now: the number of instances of smt.*\n"
	  "per CPU." },
	{ "smt.all.threads_per_core", SMT_ALL_THREADS_PER_CORE, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, COUNT_UNITS,
	  "Most threads online on any one core",
	  "The SMT mode of the system: 1, 2, 4 or 8 (the most on one core; see\n"
	  "smt.core.threads where cores differ)." },
	{ "smt.all.model", SMT_ALL_MODEL, PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_INSTANT, NO_UNITS,
	  "SMT factor table in use",
	  "The name of the table used by every core, or \"mixed (see\n"
	  "smt.core.model)\" when cores use different tables; \"none (no SMT table\n"
	  "for this processor ...)\" when cores have more than one thread but smtcpu\n"
	  "has no table for the processor's family (s390, ARM, SPARC ...): each\n"
	  "thread then counts as a core, and smtcpu.status[\"topology\"] says so." },
	{ "smt.all.capacity_left", SMT_ALL_CAPACITY_LEFT, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS,
	  "SMT-calibrated capacity not used, all cores",
	  "The sum over every core of smt.core.capacity_left: what each counted\n"
	  "window left of its core's capacity, never below zero, a window's excess\n"
	  "carried into the core's next.  Counter, milliseconds: a rate is the\n"
	  "cores' worth of work the system could still take on, by the model (or\n"
	  "PURR), and\n"
	  "    smt.all.ncores x rate(smt.all.capacity_left) / rate(smt.all.capacity)\n"
	  "lies between 0 and smt.all.ncores." },
	{ "smt.all.busy_cpu", SMT_ALL_BUSY, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS,
	  "Raw busy time of every CPU, uncalibrated",
	  "The sum over every CPU, online or not, of smt.busy_cpu.  Counter,\n"
	  "milliseconds: its rate is the CPUs' worth of busy time, the naive \"CPU\n"
	  "used\" beside rate(smt.all.throughput_cpu)'s cores.  One series where a\n"
	  "fleet's store keeps no per-CPU metrics (pcp smtcpu chargeback's \"other\"\n"
	  "CPU-hours)." },
};

/* What Intel's overlap counters say of cpu, whatever the basis. */
static const struct intel_clock *hw_clock(int cpu)
{
	const struct intel_state *in = intel();
	return in->clk && cpu < in->ncpus ? &in->clk[cpu] : NULL;
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
	case SMT_CPU_SOURCE: atom->cp = (char *)basis_word(v->basis); break;
	case SMT_CPU_ELAPSED: atom->d = v->elapsed; break;
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
	case SMT_ALL_BUSY:
		atom->d = 0;
		for (int cpu = 0; cpu < sampler.topo.ncpus; cpu++)
			atom->d += sampler.cpu[cpu].busy;
		break;
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

/* cpuN is instance N, as in the linux PMDA's per-CPU metrics, so that
 * clients joining the two by instance (pcp-atop) meet the same CPU: every
 * possible CPU is entered in order once, before any is hidden. */
static void number_cpus(void)
{
	char name[32];

	pmdaCacheOp(indom(CPU_INDOM), PMDA_CACHE_CULL);
	for (int cpu = 0; cpu < sampler.topo.ncpus; cpu++) {
		snprintf(name, sizeof name, "cpu%d", cpu);
		pmdaCacheStore(indom(CPU_INDOM), PMDA_CACHE_ADD, name, &sampler.cpu[cpu]);
	}
}

/* CPUs that go offline are hidden, not forgotten, so they keep their
 * instance ids when they return. */
static void refresh_cpus(double now)
{
	static bool numbered;
	static unsigned seen;	/* sampler.topo.generation the CPUs reflect */
	char name[32];

	(void)now;
	if (numbered && sampler.topo.generation == seen)
		return;
	if (!numbered)
		number_cpus();
	numbered = true;
	pmdaCacheOp(indom(CPU_INDOM), PMDA_CACHE_INACTIVE);
	for (int cpu = 0; cpu < sampler.topo.ncpus; cpu++)
		if (sampler.topo.online[cpu]) {
			snprintf(name, sizeof name, "cpu%d", cpu);
			pmdaCacheStore(indom(CPU_INDOM), PMDA_CACHE_ADD, name, &sampler.cpu[cpu]);
		}
	pmdaCacheOp(indom(CPU_INDOM), PMDA_CACHE_SAVE);
	seen = sampler.topo.generation;
}

static int label_cpu(pmInDom in, int inst, void *priv, pmLabelSet **lp)
{
	int cpu, core;

	if (in != indom(CPU_INDOM))
		return 0;
	if (inst == (int)PM_IN_NULL)
		return pmdaAddLabels(lp, "{\"device_type\":\"cpu\"}");
	cpu = (int)((struct smt_cpu_values *)priv - sampler.cpu);
	core = sampler.topo.core_of[cpu];
	return pmdaAddLabels(lp, "{\"cpu\":%d,\"core\":%d,\"socket\":%d}", cpu,
			     core >= 0 ? sampler.topo.cores[core].first_cpu : -1,
			     sampler.topo.socket_of[cpu]);
}

const struct cluster cpu_cluster = {
	METRICS(cpu_metrics),
	.fetch = fetch_cpu,
	.refresh = refresh_cpus,
	.label = label_cpu,
};

const struct cluster all_cluster = { METRICS(all_metrics), .fetch = fetch_all };
