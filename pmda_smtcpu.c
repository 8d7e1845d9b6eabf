/*
 * smtcpu PMDA: SMT-calibrated CPU utilisation for PCP.
 *
 * Glue only: the metric table, instance domains, fetch from the sampler's
 * snapshot, stores to the control metrics, labels, and the daemon's loop.
 * Everything that reads the machine or models it lives in src/.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "domain.h"
#include "log.h"
#include "monoclock.h"
#include "sampler.h"
#include "source_amd.h"
#include "source_power.h"
#include "source_core.h"
#include "source_intel.h"
#include "source_sched.h"
#include "sysroot.h"

/* PCP 7 renamed the fetch result type; PCP 6 has only pmResult. */
#ifndef SMTCPU_HAVE_PMDARESULT
typedef pmResult pmdaResult;
#endif

enum {
	CPU_INDOM, CORE_INDOM, MODEL_INDOM, SOURCE_INDOM, SOCKET_INDOM, CHANNEL_INDOM, CCX_INDOM,
	LINK_INDOM, PROC_INDOM, CGROUP_INDOM,
	NUM_INDOMS
};

enum {
	CLUSTER_CPU,		/* smt.*  per CPU */
	CLUSTER_CORE,		/* smt.core.* */
	CLUSTER_ALL,		/* smt.all.* */
	CLUSTER_MODEL,		/* smt.model.* */
	CLUSTER_AGENT,		/* smtcpu.* */
	CLUSTER_PURR_CPU,	/* kernel.percpu.cpu.*purr, purr.percpu.* */
	CLUSTER_PURR_ALL,	/* purr.all.*, purr.timebase, purr.nominal_clock */
	CLUSTER_LPAR,		/* lpar.* */
	CLUSTER_DF,		/* amd.df.* */
	CLUSTER_L3,		/* amd.l3.* */
	CLUSTER_PROC,		/* smt.proc.* */
	CLUSTER_CGROUP,		/* smt.cgroup.* */
	CLUSTER_CORECTR,	/* core.percpu.* */
	CLUSTER_CORECTR_ALL,	/* core.all.* */
};

static pmdaIndom indomtab[NUM_INDOMS] = {
	{ CPU_INDOM, 0, NULL },
	{ CORE_INDOM, 0, NULL },
	{ MODEL_INDOM, 0, NULL },
	{ SOURCE_INDOM, 0, NULL },
	{ SOCKET_INDOM, 0, NULL },
	{ CHANNEL_INDOM, 0, NULL },
	{ CCX_INDOM, 0, NULL },
	{ LINK_INDOM, 0, NULL },
	{ PROC_INDOM, 0, NULL },
	{ CGROUP_INDOM, 0, NULL },
};

#define MS_UNITS	PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_MSEC, 0)
#define US_UNITS	PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_USEC, 0)
#define HZ_UNITS	PMDA_PMUNITS(0, -1, 1, 0, PM_TIME_SEC, PM_COUNT_ONE)
#define NO_UNITS	PMDA_PMUNITS(0, 0, 0, 0, 0, 0)
#define COUNT_UNITS	PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE)
#define BYTE_UNITS	PMDA_PMUNITS(1, 0, 0, PM_SPACE_BYTE, 0, 0)
#define BYTE_RATE_UNITS	PMDA_PMUNITS(1, -1, 0, PM_SPACE_BYTE, PM_TIME_SEC, 0)
#define METRIC(cluster, item, type, indom, sem, units) \
	{ NULL, { PMDA_PMID(cluster, item), type, indom, sem, units } }

static pmdaMetric metrictab[] = {
	/* smt.throughput_cpu{,_lower,_upper}, smt.busy_cpu, smt.source, smt.elapsed_cpu */
	METRIC(CLUSTER_CPU, 0, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_COUNTER, MS_UNITS),
	METRIC(CLUSTER_CPU, 1, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_COUNTER, MS_UNITS),
	METRIC(CLUSTER_CPU, 2, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_COUNTER, MS_UNITS),
	METRIC(CLUSTER_CPU, 3, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_COUNTER, MS_UNITS),
	METRIC(CLUSTER_CPU, 4, PM_TYPE_STRING, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_CPU, 5, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_COUNTER, MS_UNITS),
	/* smt.hw.throughput_cpu */
	METRIC(CLUSTER_CPU, 6, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_COUNTER, MS_UNITS),
	/* smt.core.{throughput_cpu,_lower,_upper,capacity,level,threads,model,source,socket} */
	METRIC(CLUSTER_CORE, 0, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_COUNTER, MS_UNITS),
	METRIC(CLUSTER_CORE, 1, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_COUNTER, MS_UNITS),
	METRIC(CLUSTER_CORE, 2, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_COUNTER, MS_UNITS),
	METRIC(CLUSTER_CORE, 3, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_COUNTER, MS_UNITS),
	METRIC(CLUSTER_CORE, 4, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_CORE, 5, PM_TYPE_U32, CORE_INDOM, PM_SEM_INSTANT, COUNT_UNITS),
	METRIC(CLUSTER_CORE, 6, PM_TYPE_STRING, CORE_INDOM, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_CORE, 7, PM_TYPE_STRING, CORE_INDOM, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_CORE, 8, PM_TYPE_U32, CORE_INDOM, PM_SEM_DISCRETE, NO_UNITS),
	/* smt.core.{model_error,model_cpu} */
	METRIC(CLUSTER_CORE, 9, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_CORE, 10, PM_TYPE_DOUBLE, CORE_INDOM, PM_SEM_COUNTER, MS_UNITS),
	/* smt.all.{throughput_cpu,_lower,_upper,capacity,ncores,ncpus,threads_per_core,model} */
	METRIC(CLUSTER_ALL, 0, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS),
	METRIC(CLUSTER_ALL, 1, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS),
	METRIC(CLUSTER_ALL, 2, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS),
	METRIC(CLUSTER_ALL, 3, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS),
	METRIC(CLUSTER_ALL, 4, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, COUNT_UNITS),
	METRIC(CLUSTER_ALL, 5, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, COUNT_UNITS),
	METRIC(CLUSTER_ALL, 6, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, COUNT_UNITS),
	METRIC(CLUSTER_ALL, 7, PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_ALL, 8, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS),
	/* smt.model.{threads,factors,cpu_share,preliminary,cores,basis,origin} */
	METRIC(CLUSTER_MODEL, 0, PM_TYPE_U32, MODEL_INDOM, PM_SEM_DISCRETE, COUNT_UNITS),
	METRIC(CLUSTER_MODEL, 1, PM_TYPE_STRING, MODEL_INDOM, PM_SEM_DISCRETE, NO_UNITS),
	METRIC(CLUSTER_MODEL, 2, PM_TYPE_STRING, MODEL_INDOM, PM_SEM_DISCRETE, NO_UNITS),
	METRIC(CLUSTER_MODEL, 3, PM_TYPE_U32, MODEL_INDOM, PM_SEM_DISCRETE, NO_UNITS),
	METRIC(CLUSTER_MODEL, 4, PM_TYPE_U32, MODEL_INDOM, PM_SEM_INSTANT, COUNT_UNITS),
	METRIC(CLUSTER_MODEL, 5, PM_TYPE_STRING, MODEL_INDOM, PM_SEM_DISCRETE, NO_UNITS),
	METRIC(CLUSTER_MODEL, 6, PM_TYPE_STRING, MODEL_INDOM, PM_SEM_DISCRETE, NO_UNITS),
	/* smtcpu.{status,control.period,control.sample,sampler.passes,sampler.time,root,config} */
	METRIC(CLUSTER_AGENT, 0, PM_TYPE_STRING, SOURCE_INDOM, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_AGENT, 1, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_DISCRETE, MS_UNITS),
	METRIC(CLUSTER_AGENT, 2, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_AGENT, 3, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS),
	METRIC(CLUSTER_AGENT, 4, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER, MS_UNITS),
	METRIC(CLUSTER_AGENT, 5, PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS),
	METRIC(CLUSTER_AGENT, 6, PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS),
	/* smtcpu.sched.missed */
	METRIC(CLUSTER_AGENT, 7, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS),
	/* kernel.percpu.cpu.{purr,spurr,idle_purr,idle_spurr}, purr.percpu.{user,sys,wait,idle} */
	METRIC(CLUSTER_PURR_CPU, 0, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, US_UNITS),
	METRIC(CLUSTER_PURR_CPU, 1, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, US_UNITS),
	METRIC(CLUSTER_PURR_CPU, 2, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, US_UNITS),
	METRIC(CLUSTER_PURR_CPU, 3, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, US_UNITS),
	METRIC(CLUSTER_PURR_CPU, 4, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, US_UNITS),
	METRIC(CLUSTER_PURR_CPU, 5, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, US_UNITS),
	METRIC(CLUSTER_PURR_CPU, 6, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, US_UNITS),
	METRIC(CLUSTER_PURR_CPU, 7, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, US_UNITS),
	/* purr.all.{purr,spurr,idle_purr,idle_spurr,user,sys,wait,idle}, purr.timebase,
	 * purr.nominal_clock */
	METRIC(CLUSTER_PURR_ALL, 0, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS),
	METRIC(CLUSTER_PURR_ALL, 1, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS),
	METRIC(CLUSTER_PURR_ALL, 2, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS),
	METRIC(CLUSTER_PURR_ALL, 3, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS),
	METRIC(CLUSTER_PURR_ALL, 4, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS),
	METRIC(CLUSTER_PURR_ALL, 5, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS),
	METRIC(CLUSTER_PURR_ALL, 6, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS),
	METRIC(CLUSTER_PURR_ALL, 7, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS),
	METRIC(CLUSTER_PURR_ALL, 8, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_DISCRETE, HZ_UNITS),
	METRIC(CLUSTER_PURR_ALL, 9, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS),
	/* lpar.{entitled_capacity,capped,shared,donating,virtual_processors},
	 * lpar.pool.{id,capacity,cores,idle_time}, lpar.{purr,tbr,version} */
	METRIC(CLUSTER_LPAR, 0, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_LPAR, 1, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS),
	METRIC(CLUSTER_LPAR, 2, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS),
	METRIC(CLUSTER_LPAR, 3, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS),
	METRIC(CLUSTER_LPAR, 4, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, COUNT_UNITS),
	METRIC(CLUSTER_LPAR, 5, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS),
	METRIC(CLUSTER_LPAR, 6, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_LPAR, 7, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, COUNT_UNITS),
	METRIC(CLUSTER_LPAR, 8, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS),
	METRIC(CLUSTER_LPAR, 9, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS),
	METRIC(CLUSTER_LPAR, 10, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS),
	METRIC(CLUSTER_LPAR, 11, PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS),
	/* amd.df.{dram_bw,dram_read,dram_write,peak_bw} per socket,
	 * amd.df.channel.{bytes,read,write,duty_cycle}, amd.df.peak_source */
	METRIC(CLUSTER_DF, 0, PM_TYPE_U64, SOCKET_INDOM, PM_SEM_COUNTER, BYTE_UNITS),
	METRIC(CLUSTER_DF, 1, PM_TYPE_U64, SOCKET_INDOM, PM_SEM_COUNTER, BYTE_UNITS),
	METRIC(CLUSTER_DF, 2, PM_TYPE_U64, SOCKET_INDOM, PM_SEM_COUNTER, BYTE_UNITS),
	METRIC(CLUSTER_DF, 3, PM_TYPE_DOUBLE, SOCKET_INDOM, PM_SEM_DISCRETE, BYTE_RATE_UNITS),
	METRIC(CLUSTER_DF, 4, PM_TYPE_U64, CHANNEL_INDOM, PM_SEM_COUNTER, BYTE_UNITS),
	METRIC(CLUSTER_DF, 5, PM_TYPE_U64, CHANNEL_INDOM, PM_SEM_COUNTER, BYTE_UNITS),
	METRIC(CLUSTER_DF, 6, PM_TYPE_U64, CHANNEL_INDOM, PM_SEM_COUNTER, BYTE_UNITS),
	METRIC(CLUSTER_DF, 7, PM_TYPE_DOUBLE, CHANNEL_INDOM, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_DF, 8, PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS),
	/* amd.df.dram_util{,_duty_cycle} per socket */
	METRIC(CLUSTER_DF, 9, PM_TYPE_DOUBLE, SOCKET_INDOM, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_DF, 10, PM_TYPE_DOUBLE, SOCKET_INDOM, PM_SEM_INSTANT, NO_UNITS),
	/* amd.df.xgmi.{outbound,inbound} per socket, amd.df.xgmi.link.{outbound,
	 * inbound,duty_cycle} per link */
	METRIC(CLUSTER_DF, 11, PM_TYPE_U64, SOCKET_INDOM, PM_SEM_COUNTER, BYTE_UNITS),
	METRIC(CLUSTER_DF, 12, PM_TYPE_U64, SOCKET_INDOM, PM_SEM_COUNTER, BYTE_UNITS),
	METRIC(CLUSTER_DF, 13, PM_TYPE_U64, LINK_INDOM, PM_SEM_COUNTER, BYTE_UNITS),
	METRIC(CLUSTER_DF, 14, PM_TYPE_U64, LINK_INDOM, PM_SEM_COUNTER, BYTE_UNITS),
	METRIC(CLUSTER_DF, 15, PM_TYPE_DOUBLE, LINK_INDOM, PM_SEM_INSTANT, NO_UNITS),
	/* amd.l3.{accesses,misses,miss_ratio} per L3 complex */
	METRIC(CLUSTER_L3, 0, PM_TYPE_U64, CCX_INDOM, PM_SEM_COUNTER, COUNT_UNITS),
	METRIC(CLUSTER_L3, 1, PM_TYPE_U64, CCX_INDOM, PM_SEM_COUNTER, COUNT_UNITS),
	METRIC(CLUSTER_L3, 2, PM_TYPE_DOUBLE, CCX_INDOM, PM_SEM_INSTANT, NO_UNITS),
	/* smt.proc.{throughput_cpu,busy_cpu} per process, smt.cgroup.* per cgroup */
	METRIC(CLUSTER_PROC, 0, PM_TYPE_DOUBLE, PROC_INDOM, PM_SEM_COUNTER, MS_UNITS),
	METRIC(CLUSTER_PROC, 1, PM_TYPE_DOUBLE, PROC_INDOM, PM_SEM_COUNTER, MS_UNITS),
	METRIC(CLUSTER_CGROUP, 0, PM_TYPE_DOUBLE, CGROUP_INDOM, PM_SEM_COUNTER, MS_UNITS),
	METRIC(CLUSTER_CGROUP, 1, PM_TYPE_DOUBLE, CGROUP_INDOM, PM_SEM_COUNTER, MS_UNITS),
	/* core.percpu.{cycles,instructions,ref_cycles,tsc,aperf,mperf,fp_ops,
	 * l2.access,l2.miss,l2.hit} (estimated counts), .{ipc,cpi,freq,busy}
	 * of the last window, .duty.{hw,msr,fp,l2} */
	METRIC(CLUSTER_CORECTR, 0, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS),
	METRIC(CLUSTER_CORECTR, 1, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS),
	METRIC(CLUSTER_CORECTR, 2, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS),
	METRIC(CLUSTER_CORECTR, 3, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS),
	METRIC(CLUSTER_CORECTR, 4, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS),
	METRIC(CLUSTER_CORECTR, 5, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS),
	METRIC(CLUSTER_CORECTR, 6, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS),
	METRIC(CLUSTER_CORECTR, 7, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS),
	METRIC(CLUSTER_CORECTR, 8, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS),
	METRIC(CLUSTER_CORECTR, 9, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS),
	METRIC(CLUSTER_CORECTR, 10, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_CORECTR, 11, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_CORECTR, 12, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_CORECTR, 13, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_CORECTR, 14, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_CORECTR, 15, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_CORECTR, 16, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS),
	METRIC(CLUSTER_CORECTR, 17, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS),
	/* core.all.{cycles,instructions,fp_ops,ipc} */
	METRIC(CLUSTER_CORECTR_ALL, 0, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS),
	METRIC(CLUSTER_CORECTR_ALL, 1, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS),
	METRIC(CLUSTER_CORECTR_ALL, 2, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS),
	METRIC(CLUSTER_CORECTR_ALL, 3, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_INSTANT, NO_UNITS),
};

/* The software PURR's processes and cgroups are instances for as long as
 * the sampler's tables hold them; a table slot is published once per
 * holder (gen), its instance's private data being the slot + 1. */
struct published {
	uint32_t gen;
	int inst;
	bool live;
};

struct publisher {
	int serial;			/* PROC_INDOM or CGROUP_INDOM */
	uint32_t changes;		/* the table's, when last published */
	struct published *slot;
	int cap;
};

static struct publisher publishers[2] = { { PROC_INDOM, 0, NULL, 0 },
					  { CGROUP_INDOM, 0, NULL, 0 } };

static struct sampler sampler;
static unsigned topology_seen;	/* sampler.topo.generation the indoms reflect */
static unsigned amd_seen;	/* amd()->generation, likewise */
static int dso_mode;
static double last_pass;	/* monotonic seconds of the last pass */
static bool period_changed;	/* a store to smtcpu.control.period: reschedule */
static char config_path[MAXPATHLEN];
static char model_text[2][SMT_MAX_THREADS * 12];	/* scratch for smt.model strings */

/* The sources' states; empty ones until the sampler has them. */
static const struct amd *amd(void)
{
	static const struct amd none;
	const struct amd *a = sampler_amd(&sampler);
	return a ? a : &none;
}

static const struct sched_state *sched(void)
{
	static const struct sched_state none;
	const struct sched_state *st = sampler_sched(&sampler);
	return st ? st : &none;
}

static const struct sched_table *sched_table_of(int serial)
{
	return serial == PROC_INDOM ? &sched()->procs : &sched()->cgroups;
}

/* Instances for slots newly taken, none for those released (culled, so a
 * long-lived PMDA does not keep every process that ever ran). */
static void publish(struct publisher *p)
{
	const struct sched_table *t = sched_table_of(p->serial);
	pmInDom in = indomtab[p->serial].it_indom;

	if (t->changes == p->changes && p->cap >= t->cap)
		return;
	if (t->cap > p->cap) {
		struct published *grown = realloc(p->slot, (size_t)t->cap * sizeof *grown);
		if (grown == NULL)
			return;		/* tried again at the next pass */
		memset(grown + p->cap, 0, (size_t)(t->cap - p->cap) * sizeof *grown);
		p->slot = grown;
		p->cap = t->cap;
	}
	for (int i = 0; i < t->cap; i++) {
		const struct sched_entry *e = &t->e[i];
		struct published *q = &p->slot[i];
		char *name;

		if (q->live && (!e->used || e->gen != q->gen)) {
			if (pmdaCacheLookup(in, q->inst, &name, NULL) >= 0)
				pmdaCacheStore(in, PMDA_CACHE_CULL, name, NULL);
			q->live = false;
		}
		if (e->used && !q->live) {
			int inst = pmdaCacheStore(in, PMDA_CACHE_ADD, e->name, (void *)(intptr_t)(i + 1));
			if (inst >= 0) {
				q->inst = inst;
				q->gen = e->gen;
				q->live = true;
			}
		}
	}
	p->changes = t->changes;
}

static const struct power_state *power(void)
{
	static const struct power_state none;
	const struct power_state *p = sampler_power(&sampler);
	return p ? p : &none;
}

static pmInDom indom(int serial)
{
	return indomtab[serial].it_indom;
}

/* The sampling period, ms: the PMDA's own, from the configuration file at
 * start, then -t, then any store to smtcpu.control.period. */
static unsigned period_ms;

static double period_s(void)
{
	return period_ms / 1000.0;
}

static void log_sink(enum smt_log_level level, const char *message)
{
	static const int priority[] = { LOG_INFO, LOG_WARNING, LOG_ERR };
	pmNotifyErr(priority[level], "%s", message);
}

/* Sockets, channels and L3 complexes are those the counters were opened
 * on at start-up. */
static void refresh_amd_instances(void)
{
	const struct amd *a = amd();
	char name[48];

	for (int s = 0; s < a->nsockets; s++) {
		snprintf(name, sizeof name, "socket%d", a->socket[s].id);
		pmdaCacheStore(indom(SOCKET_INDOM), PMDA_CACHE_ADD, name, (void *)&a->socket[s]);
		for (int ch = 0; ch < a->socket[s].nchannels; ch++) {
			snprintf(name, sizeof name, "socket%d/ch%d", a->socket[s].id, ch);
			pmdaCacheStore(indom(CHANNEL_INDOM), PMDA_CACHE_ADD, name,
				       (void *)&a->channel[s][ch]);
		}
		for (int n = 0; n < a->socket[s].nlinks; n++) {
			snprintf(name, sizeof name, "socket%d/link%d", a->socket[s].id, n);
			pmdaCacheStore(indom(LINK_INDOM), PMDA_CACHE_ADD, name, (void *)&a->link[s][n]);
		}
	}
	for (int i = 0; i < a->nccx; i++) {
		snprintf(name, sizeof name, "ccx%d", i);
		pmdaCacheStore(indom(CCX_INDOM), PMDA_CACHE_ADD, name, &a->ccx[i]);
	}
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

/* Instance domains follow the topology: CPUs and cores that leave are
 * hidden, not forgotten, so they keep their instance ids when they return. */
static void refresh_instances(void)
{
	char name[32];
	int ntables;
	const struct smt_table *builtin = smt_builtin_tables(&ntables);

	pmdaCacheOp(indom(CPU_INDOM), PMDA_CACHE_INACTIVE);
	pmdaCacheOp(indom(CORE_INDOM), PMDA_CACHE_INACTIVE);
	for (int cpu = 0; cpu < sampler.topo.ncpus; cpu++)
		if (sampler.topo.online[cpu]) {
			snprintf(name, sizeof name, "cpu%d", cpu);
			pmdaCacheStore(indom(CPU_INDOM), PMDA_CACHE_ADD, name, &sampler.cpu[cpu]);
		}
	for (int i = 0; i < sampler.topo.ncores; i++) {
		int first = sampler.topo.cores[i].first_cpu;
		snprintf(name, sizeof name, "core%d", first);
		pmdaCacheStore(indom(CORE_INDOM), PMDA_CACHE_ADD, name, &sampler.topo.cores[i]);
	}
	/* Tables: the configuration file's, then the built-in ones it does
	 * not replace. */
	pmdaCacheOp(indom(MODEL_INDOM), PMDA_CACHE_INACTIVE);
	for (int i = 0; i < sampler.config.ntables; i++)
		pmdaCacheStore(indom(MODEL_INDOM), PMDA_CACHE_ADD, sampler.config.tables[i].name,
			       (void *)&sampler.config.tables[i]);
	for (int i = 0; i < ntables; i++)
		if (config_find_table(&sampler.config, builtin[i].name) == &builtin[i])
			pmdaCacheStore(indom(MODEL_INDOM), PMDA_CACHE_ADD, builtin[i].name,
				       (void *)&builtin[i]);
	refresh_amd_instances();
	for (int src = 0; src < sampler.nstatus; src++)
		pmdaCacheStore(indom(SOURCE_INDOM), PMDA_CACHE_ADD, sampler.status_name[src],
			       (void *)&sampler.status[src]);
	for (int i = 0; i < NUM_INDOMS; i++)
		if (i != PROC_INDOM && i != CGROUP_INDOM)	/* not worth keeping */
			pmdaCacheOp(indom(i), PMDA_CACHE_SAVE);
	topology_seen = sampler.topo.generation;
	amd_seen = amd()->generation;
}

static void sample_now(void)
{
	sampler_pass(&sampler);
	last_pass = mono_seconds();
	if (sampler.topo.generation != topology_seen || amd()->generation != amd_seen)
		refresh_instances();
	for (int i = 0; i < 2; i++)
		publish(&publishers[i]);
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
	snprintf(buf, size, "%s", first ? first->name : "");
	return buf;
}

static int cores_using(const struct smt_table *t)
{
	int n = 0;
	for (int i = 0; i < sampler.topo.ncores; i++)
		n += sampler.core[sampler.topo.cores[i].first_cpu].table == t;
	return n;
}

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

	if (item == 6) {
		const struct intel_clock *hw = hw_clock((int)(v - sampler.cpu));
		if (hw == NULL || !hw->have)
			return PMDA_FETCH_NOVALUES;
		atom->d = hw->throughput;
		return PMDA_FETCH_STATIC;
	}
	if (v->source == NULL && item != 4)
		return PMDA_FETCH_NOVALUES;	/* no complete window yet */
	switch (item) {
	case 0: atom->d = v->throughput; break;
	case 1: atom->d = v->lower; break;
	case 2: atom->d = v->upper; break;
	case 3: atom->d = v->busy; break;
	case 4: atom->cp = (char *)source_name(v->source); break;
	case 5: atom->d = v->elapsed; break;
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

static int fetch_core(unsigned int item, const struct topo_core *c, pmAtomValue *atom)
{
	const struct smt_core_values *v = &sampler.core[c->first_cpu];
	const struct smt_cpu_values *first = &sampler.cpu[c->first_cpu];

	switch (item) {
	case 0: case 1: case 2: case 3:
		if (!v->counted)
			return PMDA_FETCH_NOVALUES;	/* no complete window yet */
		atom->d = item == 0 ? v->throughput : item == 1 ? v->lower :
			  item == 2 ? v->upper : v->capacity;
		break;
	case 4:
		if (!v->have_level)
			return PMDA_FETCH_NOVALUES;
		atom->d = v->level;
		break;
	case 5: atom->ul = (uint32_t)c->nthreads; break;
	case 6:
		if (v->table == NULL)
			return PMDA_FETCH_NOVALUES;
		atom->cp = (char *)v->table->name;
		break;
	case 7: atom->cp = (char *)source_name(v->counted ? v->source : first->source); break;
	case 8: atom->ul = (uint32_t)c->socket; break;
	case 9:
		if (!v->have_error)
			return PMDA_FETCH_NOVALUES;	/* no PURR to compare with */
		atom->d = v->model_error;
		break;
	case 10:
		if (!v->counted)
			return PMDA_FETCH_NOVALUES;
		atom->d = v->model_cpu;
		break;
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

static int fetch_all(unsigned int item, pmAtomValue *atom)
{
	static char model[SMT_NAME_MAX];

	switch (item) {
	case 0: atom->d = sampler.all.throughput; break;
	case 1: atom->d = sampler.all.lower; break;
	case 2: atom->d = sampler.all.upper; break;
	case 3: atom->d = sampler.all.capacity; break;
	case 4: atom->ul = (uint32_t)sampler.topo.ncores; break;
	case 5: atom->ul = (uint32_t)sampler.topo.nonline; break;
	case 6: atom->ul = (uint32_t)sampler.topo.max_threads; break;
	case 7: atom->cp = (char *)system_model(model, sizeof model); break;
	case 8: atom->d = sampler.all.capacity - sampler.all.throughput; break;
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
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

static int fetch_model(unsigned int item, const struct smt_table *t, pmAtomValue *atom)
{
	switch (item) {
	case 0: atom->ul = (uint32_t)t->nthreads; break;
	case 1: atom->cp = format_levels(model_text[0], sizeof model_text[0], t, 0); break;
	case 2: atom->cp = format_levels(model_text[1], sizeof model_text[1], t, 1); break;
	case 3: atom->ul = t->preliminary; break;
	case 4: atom->ul = (uint32_t)cores_using(t); break;
	case 5: atom->cp = (char *)t->basis; break;
	case 6: atom->cp = (char *)smt_origin_name(t->origin); break;
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

static int fetch_agent(unsigned int item, void *priv, pmAtomValue *atom)
{
	switch (item) {
	case 0: atom->cp = (char *)priv; break;
	case 1: atom->ul = period_ms; break;
	case 2: atom->ul = 0; break;
	case 3: atom->ull = sampler.passes; break;
	case 4: atom->d = sampler.pass_time * 1000; break;
	case 5: atom->cp = (char *)sr_root(); break;
	case 6: atom->cp = config_path; break;
	case 7:
		if (!sched()->on)
			return PMDA_FETCH_NOVALUES;
		atom->ull = sched()->missed;
		break;
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

/* Timebase ticks to microseconds, exactly for any 64-bit count. */
static uint64_t ticks_to_us(uint64_t ticks)
{
	uint64_t tb = sampler.cpuinfo.timebase;
	return ticks / tb * 1000000 + ticks % tb * 1000000 / tb;
}

static int fetch_purr_cpu(unsigned int item, const struct smt_cpu_values *cv, pmAtomValue *atom)
{
	const struct power_state *ps = power();
	int cpu = (int)(cv - sampler.cpu);
	const struct purr_values *v;

	if (sampler.cpuinfo.timebase == 0 || ps == NULL || ps->cpu == NULL || cpu >= ps->ncpus)
		return PMDA_FETCH_NOVALUES;
	v = &ps->cpu[cpu];
	if (item < PURR_NCOUNTERS) {
		/* A file that failed its last read has no value, not a frozen one. */
		if (!v->have[item] || !ps->purr.cpu[cpu].seen[item])
			return PMDA_FETCH_NOVALUES;
		atom->ull = ticks_to_us(v->total[item]);
	} else if (item < PURR_NCOUNTERS + PMODE_COUNT) {
		if (!v->have[PURR])	/* from 0 at the first reading */
			return PMDA_FETCH_NOVALUES;
		atom->ull = (uint64_t)(v->mode[item - PURR_NCOUNTERS] * 1e6 /
				       (double)sampler.cpuinfo.timebase);
	} else {
		return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

static int fetch_purr_all(unsigned int item, pmAtomValue *atom)
{
	uint64_t tb = sampler.cpuinfo.timebase;

	if (item == 8) {
		if (tb == 0)
			return PMDA_FETCH_NOVALUES;
		atom->ull = tb;
		return PMDA_FETCH_STATIC;
	}
	if (item == 9) {
		if (sampler.cpuinfo.clock_mhz == 0)
			return PMDA_FETCH_NOVALUES;
		atom->d = sampler.cpuinfo.clock_mhz;
		return PMDA_FETCH_STATIC;
	}
	const struct power_state *ps = power();

	if (tb == 0 || ps == NULL)
		return PMDA_FETCH_NOVALUES;
	if (item < PURR_NCOUNTERS) {
		if (!ps->have_all[item])
			return PMDA_FETCH_NOVALUES;
		atom->ull = ticks_to_us(ps->all[item]);
	} else if (item < PURR_NCOUNTERS + PMODE_COUNT) {
		if (!ps->have_all[PURR])
			return PMDA_FETCH_NOVALUES;
		atom->ull = (uint64_t)(ps->all_mode[item - PURR_NCOUNTERS] * 1e6 / (double)tb);
	} else {
		return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

static int fetch_lpar(unsigned int item, pmAtomValue *atom)
{
	static const enum lpar_key key[] = {
		LPAR_ENTITLED, LPAR_CAPPED, LPAR_SHARED, LPAR_DONATING, LPAR_VPROCS,
		LPAR_POOL, LPAR_POOL_CAPACITY, LPAR_POOL_CORES,
	};
	const struct lparcfg *l = &power()->lparcfg;

	if (l->fd < 0 || l->version[0] == '\0')
		return PMDA_FETCH_NOVALUES;
	if (item < sizeof key / sizeof key[0]) {
		int64_t v = l->value[key[item]];
		if (!l->have[key[item]])
			return PMDA_FETCH_NOVALUES;
		if (key[item] == LPAR_ENTITLED || key[item] == LPAR_POOL_CAPACITY)
			atom->d = (double)v / 100;	/* hundredths of a core */
		else
			atom->ul = (uint32_t)v;
		return PMDA_FETCH_STATIC;
	}
	if (item >= 8 && item <= 10) {
		int c = (int)item - 8;	/* LPAR_C_POOL_IDLE, LPAR_C_PURR, LPAR_C_TBR */
		if (!power()->lpar.have[c] || sampler.cpuinfo.timebase == 0)
			return PMDA_FETCH_NOVALUES;
		atom->ull = ticks_to_us(power()->lpar.total[c]);
		return PMDA_FETCH_STATIC;
	}
	if (item == 11) {
		atom->cp = (char *)l->version;
		return PMDA_FETCH_STATIC;
	}
	return PM_ERR_PMID;
}

static uint64_t whole(double v)
{
	return (uint64_t)(v + 0.5);
}

static int fetch_df(unsigned int item, void *priv, pmAtomValue *atom)
{
	const struct amd_socket *so = priv;
	const struct amd_channel *ch = priv;
	const struct amd_link *l = priv;
	int rw = amd()->rw_apart;

	switch (item) {
	case 0: case 1: case 2:
		if (!so->have || (item > 0 && !rw))
			return PMDA_FETCH_NOVALUES;
		atom->ull = whole(item == 0 ? so->bytes : item == 1 ? so->read : so->write);
		break;
	case 3:
		if (so->peak <= 0)
			return PMDA_FETCH_NOVALUES;
		atom->d = so->peak;
		break;
	case 4: case 5: case 6:
		if (!ch->have || (item > 4 && !rw))
			return PMDA_FETCH_NOVALUES;
		atom->ull = whole(item == 4 ? ch->bytes : item == 5 ? ch->read : ch->write);
		break;
	case 7: atom->d = ch->duty; break;	/* 0 says why the bytes have no value */
	case 8: atom->cp = (char *)amd()->peak_source; break;
	case 9: case 10:
		if (!so->have_util)
			return PMDA_FETCH_NOVALUES;
		atom->d = item == 9 ? so->util : so->util_duty;
		break;
	case 11: case 12:
		if (!so->have_xgmi || (item == 12 && !amd()->links_in))
			return PMDA_FETCH_NOVALUES;
		atom->ull = whole(item == 11 ? so->xgmi_out : so->xgmi_in);
		break;
	case 13: case 14:
		if (!l->have || (item == 14 && !amd()->links_in))
			return PMDA_FETCH_NOVALUES;
		atom->ull = whole(item == 13 ? l->out : l->in);
		break;
	case 15: atom->d = l->duty; break;
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

static int fetch_l3(unsigned int item, const struct amd_ccx *c, pmAtomValue *atom)
{
	if (!c->have || (item == 2 && !c->have_ratio))
		return PMDA_FETCH_NOVALUES;
	switch (item) {
	case 0: atom->ull = whole(c->accesses); break;
	case 1: atom->ull = whole(c->misses); break;
	case 2: atom->d = c->ratio; break;
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

static const struct core_state *core(void)
{
	static const struct core_state none;
	const struct core_state *st = sampler_core(&sampler);
	return st ? st : &none;
}

/* A figure's counter, in whole counts. */
static int core_count(int cpu, enum core_figure f, pmAtomValue *atom)
{
	double v;

	if (!core_total(core(), cpu, f, &v))
		return PMDA_FETCH_NOVALUES;
	atom->ull = whole(v);
	return PMDA_FETCH_STATIC;
}

/* a / b over the last window, where both have one */
static int core_ratio(int cpu, enum core_figure a, enum core_figure b, pmAtomValue *atom)
{
	double x, y, sx, sy;

	if (!core_window(core(), cpu, a, &x, &sx) || !core_window(core(), cpu, b, &y, &sy) ||
	    y <= 0)
		return PMDA_FETCH_NOVALUES;
	atom->d = x / y;
	return PMDA_FETCH_STATIC;
}

static int fetch_corectr(unsigned int item, const struct smt_cpu_values *v, pmAtomValue *atom)
{
	static const enum core_figure counters[] = {
		CORE_CYCLES, CORE_INSTRUCTIONS, CORE_REF_CYCLES, CORE_TSC, CORE_APERF,
		CORE_MPERF, CORE_FP_OPS, CORE_L2_ACCESS, CORE_L2_MISS, CORE_L2_HIT,
	};
	static const enum core_group duty_of[] = { CORE_G_HW, CORE_G_MSR, CORE_G_FP, CORE_G_L2 };
	int cpu = (int)(v - sampler.cpu);
	double tsc, aperf, mperf, secs;

	if (item < sizeof counters / sizeof counters[0])
		return core_count(cpu, counters[item], atom);
	switch (item) {
	case 10: return core_ratio(cpu, CORE_INSTRUCTIONS, CORE_CYCLES, atom);
	case 11: return core_ratio(cpu, CORE_CYCLES, CORE_INSTRUCTIONS, atom);
	case 12:	/* turbostat's Bzy_MHz: the TSC's rate x aperf / mperf */
		if (!core_window(core(), cpu, CORE_TSC, &tsc, &secs) ||
		    !core_window(core(), cpu, CORE_APERF, &aperf, &secs) ||
		    !core_window(core(), cpu, CORE_MPERF, &mperf, &secs) || mperf <= 0)
			return PMDA_FETCH_NOVALUES;
		atom->d = tsc / secs * aperf / mperf / 1e6;
		return PMDA_FETCH_STATIC;
	case 13:	/* turbostat's Busy%: mperf / tsc */
		return core_ratio(cpu, CORE_MPERF, CORE_TSC, atom);
	case 14: case 15: case 16: case 17:
		if (!core_duty(core(), cpu, duty_of[item - 14], &atom->d))
			return PMDA_FETCH_NOVALUES;
		return PMDA_FETCH_STATIC;
	}
	return PM_ERR_PMID;
}

static int fetch_corectr_all(unsigned int item, pmAtomValue *atom)
{
	static const enum core_figure sums[] = { CORE_CYCLES, CORE_INSTRUCTIONS, CORE_FP_OPS };
	double total = 0, v, instr = 0, cycles = 0, secs;
	int have = 0;

	for (int cpu = 0; cpu < sampler.topo.ncpus; cpu++) {
		if (item < 3 && core_total(core(), cpu, sums[item], &v)) {
			total += v;
			have++;
		} else if (item == 3 && core_window(core(), cpu, CORE_INSTRUCTIONS, &v, &secs)) {
			instr += v;
			if (core_window(core(), cpu, CORE_CYCLES, &v, &secs))
				cycles += v;
			have++;
		}
	}
	if (item > 3)
		return PM_ERR_PMID;
	if (!have || (item == 3 && cycles <= 0))
		return PMDA_FETCH_NOVALUES;
	if (item < 3)
		atom->ull = whole(total);
	else
		atom->d = instr / cycles;
	return PMDA_FETCH_STATIC;
}

static int fetch_sched(unsigned int cluster, unsigned int item, void *priv, pmAtomValue *atom)
{
	const struct sched_table *t = sched_table_of(cluster == CLUSTER_PROC ? PROC_INDOM
									      : CGROUP_INDOM);
	int slot = (int)(intptr_t)priv - 1;

	if (slot < 0 || slot >= t->cap || !t->e[slot].used)
		return PM_ERR_INST;
	switch (item) {
	/* Fractional ms, as smt.busy_cpu: whole ms would lose half a ms
	 * on average per short-lived process, and the sum over processes
	 * would fall short of the system's. */
	case 0: atom->d = (double)t->e[slot].clock / 1e6; break;
	case 1: atom->d = (double)t->e[slot].busy / 1e6; break;
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

static int smtcpu_fetchCallBack(pmdaMetric *mdesc, unsigned int inst, pmAtomValue *atom)
{
	unsigned int cluster = pmID_cluster(mdesc->m_desc.pmid);
	unsigned int item = pmID_item(mdesc->m_desc.pmid);
	void *priv = NULL;

	if (mdesc->m_desc.indom != PM_INDOM_NULL &&
	    pmdaCacheLookup(mdesc->m_desc.indom, (int)inst, NULL, &priv) != PMDA_CACHE_ACTIVE)
		return PM_ERR_INST;
	switch (cluster) {
	case CLUSTER_CPU: return fetch_cpu(item, priv, atom);
	case CLUSTER_CORE: return fetch_core(item, priv, atom);
	case CLUSTER_ALL: return fetch_all(item, atom);
	case CLUSTER_MODEL: return fetch_model(item, priv, atom);
	case CLUSTER_AGENT: return fetch_agent(item, priv, atom);
	case CLUSTER_PURR_CPU: return fetch_purr_cpu(item, priv, atom);
	case CLUSTER_PURR_ALL: return fetch_purr_all(item, atom);
	case CLUSTER_LPAR: return fetch_lpar(item, atom);
	case CLUSTER_DF: return fetch_df(item, priv, atom);
	case CLUSTER_L3: return fetch_l3(item, priv, atom);
	case CLUSTER_PROC: case CLUSTER_CGROUP: return fetch_sched(cluster, item, priv, atom);
	case CLUSTER_CORECTR: return fetch_corectr(item, priv, atom);
	case CLUSTER_CORECTR_ALL: return fetch_corectr_all(item, atom);
	}
	return PM_ERR_PMID;
}

/* The daemon samples on its own clock; the DSO, with no loop of its own,
 * samples when a fetch finds the period has passed. */
static int smtcpu_fetch(int numpmid, pmID pmidlist[], pmdaResult **resp, pmdaExt *pmda)
{
	if (dso_mode && mono_seconds() - last_pass >= period_s())
		sample_now();
	return pmdaFetch(numpmid, pmidlist, resp, pmda);
}

static int smtcpu_store(pmdaResult *result, pmdaExt *pmda)
{
	(void)pmda;
	for (int i = 0; i < result->numpmid; i++) {
		pmValueSet *vs = result->vset[i];
		pmAtomValue av;
		int sts;

		if (pmID_cluster(vs->pmid) != CLUSTER_AGENT ||
		    (pmID_item(vs->pmid) != 1 && pmID_item(vs->pmid) != 2))
			return PM_ERR_PERMISSION;
		if (vs->numval != 1)
			return PM_ERR_INST;
		if ((sts = pmExtractValue(vs->valfmt, &vs->vlist[0], PM_TYPE_U32, &av,
					  PM_TYPE_U32)) < 0)
			return sts;
		if (pmID_item(vs->pmid) == 1) {
			if (av.ul < CONFIG_MIN_PERIOD_MS || av.ul > CONFIG_MAX_PERIOD_MS)
				return PM_ERR_BADSTORE;
			period_ms = av.ul;
			period_changed = true;
		} else {
			sample_now();
		}
	}
	return 0;
}

static int smtcpu_instance(pmInDom in, int inst, char *name, pmInResult **result, pmdaExt *pmda)
{
	if (dso_mode && mono_seconds() - last_pass >= period_s())
		sample_now();
	return pmdaInstance(in, inst, name, result, pmda);
}

static int smtcpu_labelCallBack(pmInDom in, unsigned int inst, pmLabelSet **lp)
{
	void *priv = NULL;

	if (pmdaCacheLookup(in, (int)inst, NULL, &priv) != PMDA_CACHE_ACTIVE)
		return 0;
	if (in == indom(CPU_INDOM)) {
		int cpu = (int)((struct smt_cpu_values *)priv - sampler.cpu);
		int core = sampler.topo.core_of[cpu];
		return pmdaAddLabels(lp, "{\"cpu\":%d,\"core\":%d,\"socket\":%d}", cpu,
				     core >= 0 ? sampler.topo.cores[core].first_cpu : -1,
				     sampler.topo.socket_of[cpu]);
	}
	if (in == indom(CORE_INDOM)) {
		const struct topo_core *c = priv;
		return pmdaAddLabels(lp, "{\"core\":%d,\"socket\":%d}", c->first_cpu, c->socket);
	}
	if (in == indom(CCX_INDOM)) {
		const struct amd_ccx *c = priv;
		return pmdaAddLabels(lp, "{\"cpu\":%d,\"socket\":%d}", c->cpu, c->socket);
	}
	return 0;
}

static int smtcpu_label(int ident, int type, pmLabelSet **lp, pmdaExt *pmda)
{
	if (type == PM_LABEL_INDOM) {
		pmInDom in = (pmInDom)ident;
		if (in == indom(CPU_INDOM) || in == indom(CORE_INDOM))
			pmdaAddLabels(lp, "{\"device_type\":\"cpu\"}");
	}
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
	pmdaSetFetchCallBack(dp, smtcpu_fetchCallBack);
	pmdaSetLabelCallBack(dp, smtcpu_labelCallBack);

	for (int i = 0; i < NUM_INDOMS; i++)
		indomtab[i].it_indom = pmInDom_build(dp->domain, (unsigned int)i);
	pmdaInit(dp, indomtab, NUM_INDOMS, metrictab, sizeof metrictab / sizeof metrictab[0]);
	if (dp->status != 0)
		return;
	for (int i = 0; i < NUM_INDOMS; i++)
		if (i != PROC_INDOM && i != CGROUP_INDOM && i != CPU_INDOM)
			pmdaCacheOp(indom(i), PMDA_CACHE_LOAD);

	sts = sampler_init(&sampler, config_path[0] ? config_path : NULL, 1);
	if (!sampler_usable(&sampler)) {
		pmNotifyErr(LOG_ERR, "cannot start: %s", pmErrStr(sts));
		dp->status = sts < 0 ? sts : -ENOMEM;
		return;
	}
	period_ms = sampler.config.period_ms;
	number_cpus();
	/* Say once why sources have no values (config errors are logged already). */
	for (int src = 0; src < sampler.nstatus && !dso_mode; src++)
		if (src != SRC_CONFIG && strcmp(sampler.status[src], "ok") != 0)
			pmNotifyErr(LOG_INFO, "%s: %s", sampler.status_name[src], sampler.status[src]);
	if (!dso_mode && amd()->nsockets)
		pmNotifyErr(LOG_INFO, "DRAM peak: %s", amd()->peak_source);
	refresh_instances();
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
	dso_mode = 1;
	default_config();
	smtcpu_setup(dp, getenv("SMTCPU_ROOT"));
}

/* Serves PDUs from pmcd and samples every period, in one thread. */
static void daemon_loop(pmdaInterface *dp)
{
	int fd = __pmdaInFd(dp);
	double next = mono_seconds() + period_s();

	for (;;) {
		double wait = next - mono_seconds();
		struct timeval tv;
		fd_set ready;
		int sts;

		if (wait < 0)
			wait = 0;
		tv.tv_sec = (time_t)wait;
		tv.tv_usec = (suseconds_t)((wait - (double)tv.tv_sec) * 1e6);
		FD_ZERO(&ready);
		FD_SET(fd, &ready);
		sts = select(fd + 1, &ready, NULL, NULL, &tv);
		if (sts < 0 && errno != EINTR) {
			pmNotifyErr(LOG_ERR, "select: %s", strerror(errno));
			break;
		}
		if (sts > 0 && FD_ISSET(fd, &ready) && __pmdaMainPDU(dp) < 0)
			break;		/* pmcd closed the pipe */
		if (period_changed) {	/* the new period counts from the last pass */
			period_changed = false;
			next = last_pass + period_s();
		}
		if (mono_seconds() >= next) {
			sample_now();
			next += period_s();
			if (next < last_pass)	/* fell behind: no burst to catch up */
				next = last_pass + period_s();
		}
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
	{ "period", 1, 't', "TIME", "sampling period, e.g. 1s or 500ms [default 1s]" },
	PMOPT_HELP,
	PMDA_OPTIONS_END
};

static pmdaOptions opts = {
	.short_options = "c:D:d:h:l:r:t:?",
	.long_options = longopts,
};

int main(int argc, char **argv)
{
	pmdaInterface dispatch;
	char helppath[MAXPATHLEN];
	const char *root = getenv("SMTCPU_ROOT");
	unsigned period = 0;
	int c;

	pmSetProgname(argv[0]);
	snprintf(helppath, sizeof helppath, "%s/smtcpu/help", pmGetConfig("PCP_PMDAS_DIR"));
	pmdaDaemon(&dispatch, PMDA_INTERFACE_7, pmGetProgname(), SMTCPU, "smtcpu.log", helppath);
	default_config();

	while ((c = pmdaGetOptions(argc, argv, &opts, &dispatch)) != EOF) {
		switch (c) {
		case 'c':
			snprintf(config_path, sizeof config_path, "%s", opts.optarg);
			break;
		case 'r':
			root = opts.optarg;
			break;
		case 't':
			if ((period = config_parse_period(opts.optarg)) == 0) {
				pmprintf("%s: -t %s: expected a period from %ums to %us, e.g. 1s\n",
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
	if (period)
		period_ms = period;	/* the command line wins */
	pmdaConnect(&dispatch);
	daemon_loop(&dispatch);
	exit(0);
}
