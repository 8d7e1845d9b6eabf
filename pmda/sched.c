/*
 * smt.proc.* and smt.cgroup.*: what the software PURR charged each process
 * and cgroup.  An instance's private data is its table slot + 1
 * (pmda_smtcpu.c publishes them).
 */
#include "shared.h"
#include "source_sched.h"

enum {	/* CLUSTER_PROC */
	SMT_PROC_THROUGHPUT = 0,
	SMT_PROC_BUSY = 1,
};

enum {	/* CLUSTER_CGROUP */
	SMT_CGROUP_THROUGHPUT = 0,
	SMT_CGROUP_BUSY = 1,
};

static const struct metric proc_metrics[] = {
	{ "smt.proc.throughput_cpu", SMT_PROC_THROUGHPUT, PM_TYPE_DOUBLE, PROC_INDOM, PM_SEM_COUNTER, MS_UNITS },
	{ "smt.proc.busy_cpu", SMT_PROC_BUSY, PM_TYPE_DOUBLE, PROC_INDOM, PM_SEM_COUNTER, MS_UNITS },
};

static const struct metric cgroup_metrics[] = {
	{ "smt.cgroup.throughput_cpu", SMT_CGROUP_THROUGHPUT, PM_TYPE_DOUBLE, CGROUP_INDOM, PM_SEM_COUNTER, MS_UNITS },
	{ "smt.cgroup.busy_cpu", SMT_CGROUP_BUSY, PM_TYPE_DOUBLE, CGROUP_INDOM, PM_SEM_COUNTER, MS_UNITS },
};

/* What the software PURR charged an instance of PROC_INDOM or CGROUP_INDOM,
 * in fractional ms, as smt.busy_cpu: whole ms would lose half a ms on
 * average per short-lived process, and the sum over processes would fall
 * short of the system's.  busy: the raw busy time, not the calibrated. */
static int charged(int serial, void *priv, bool busy, pmAtomValue *atom)
{
	const struct sched_table *t = sched_table_of(serial);
	int slot = (int)(intptr_t)priv - 1;

	if (slot < 0 || slot >= t->cap || !t->e[slot].used)
		return PM_ERR_INST;
	atom->d = (double)(busy ? t->e[slot].busy : t->e[slot].clock) / 1e6;
	return PMDA_FETCH_STATIC;
}

static int fetch_proc(unsigned int item, void *priv, pmAtomValue *atom)
{
	switch (item) {
	case SMT_PROC_THROUGHPUT: return charged(PROC_INDOM, priv, false, atom);
	case SMT_PROC_BUSY: return charged(PROC_INDOM, priv, true, atom);
	}
	return PM_ERR_PMID;
}

static int fetch_cgroup(unsigned int item, void *priv, pmAtomValue *atom)
{
	switch (item) {
	case SMT_CGROUP_THROUGHPUT: return charged(CGROUP_INDOM, priv, false, atom);
	case SMT_CGROUP_BUSY: return charged(CGROUP_INDOM, priv, true, atom);
	}
	return PM_ERR_PMID;
}

const struct cluster proc_cluster = CLUSTER(proc_metrics, fetch_proc);
const struct cluster cgroup_cluster = CLUSTER(cgroup_metrics, fetch_cgroup);
