/*
 * The smtcpu PMDA's clusters (a PMID's middle number) and instance domains
 * (an InDom's serial).  Both are in the PMIDs and InDoms that clients,
 * archives and pmns hold, so a number, once given, never changes.
 */
#ifndef SMTCPU_PMDA_CLUSTERS_H
#define SMTCPU_PMDA_CLUSTERS_H

enum {
	CLUSTER_CPU = 0,		/*  0 smt.* per CPU, smt.hw.* (pmda/smt.c) */
	CLUSTER_CORE = 1,		/*  1 smt.core.* (pmda/core.c) */
	CLUSTER_ALL = 2,		/*  2 smt.all.* (pmda/smt.c) */
	CLUSTER_MODEL = 3,		/*  3 smt.model.* (pmda/model.c) */
	/* pmda/agent.c */
	CLUSTER_AGENT = 4,		/*  4 smtcpu.* */
	/* pmda/power.c */
	CLUSTER_PURR_CPU = 5,		/*  5 kernel.percpu.cpu.*purr, purr.percpu.* */
	CLUSTER_PURR_ALL = 6,		/*  6 purr.all.*, purr.timebase, purr.nominal_clock */
	CLUSTER_LPAR = 7,		/*  7 lpar.* */
	/* pmda/amd.c */
	CLUSTER_DF = 8,			/*  8 amd.df.* */
	CLUSTER_L3 = 9,			/*  9 amd.l3.* */
	/* pmda/sched.c */
	CLUSTER_PROC = 10,		/* 10 smt.proc.* */
	CLUSTER_CGROUP = 11,		/* 11 smt.cgroup.* */
	/* pmda/corectr.c */
	CLUSTER_CORECTR = 12,		/* 12 core.percpu.* */
	CLUSTER_CORECTR_ALL = 13,	/* 13 core.all.* */
	/* pmda/sched.c */
	CLUSTER_SCHED_MAP = 14,		/* 14 smtcpu.sched.map.* */
	CLUSTER_SCHED_UID = 15,		/* 15 smtcpu.sched.uid.* */

	NUM_CLUSTERS			/* one more than the highest cluster */
};

enum {
	CPU_INDOM = 0,			/* cpuN, numbered as the linux PMDA's CPUs */
	CORE_INDOM = 1,			/* coreN, N its first CPU */
	MODEL_INDOM = 2,		/* SMT factor tables, by name */
	SOURCE_INDOM = 3,		/* the data sources smtcpu.status names */
	SOCKET_INDOM = 4,		/* socketN */
	CHANNEL_INDOM = 5,		/* socketN/chM, DRAM channels */
	CCX_INDOM = 6,			/* ccxN, L3 complexes */
	LINK_INDOM = 7,			/* socketN/linkM, xGMI links */
	PROC_INDOM = 8,			/* processes the software PURR has charged */
	CGROUP_INDOM = 9,		/* cgroups the software PURR has charged */
	MAP_INDOM = 10,			/* the software PURR's charge maps: tasks, cgroups */
	UID_INDOM = 11,			/* uids holding processes in the tasks map */

	NUM_INDOMS
};

#endif
