/*
 * Every cluster of the PMDA, by its number (clusters.h): what pmdaInit's
 * metric table, fetch, instances, labels, stores and the help are made from.
 */
#include "shared.h"

extern const struct cluster cpu_cluster, all_cluster;				/* smt.c */
extern const struct cluster core_cluster;					/* core.c */
extern const struct cluster model_cluster;					/* model.c */
extern const struct cluster agent_cluster;					/* agent.c */
extern const struct cluster purr_cpu_cluster, purr_all_cluster, lpar_cluster;	/* power.c */
extern const struct cluster df_cluster, l3_cluster;				/* amd.c */
extern const struct cluster proc_cluster, cgroup_cluster, sched_map_cluster;	/* sched.c */
extern const struct cluster sched_uid_cluster;					/* sched.c */
extern const struct cluster corectr_cluster, corectr_all_cluster;		/* corectr.c */

const struct cluster *const clusters[NUM_CLUSTERS] = {
	[CLUSTER_CPU] = &cpu_cluster,
	[CLUSTER_CORE] = &core_cluster,
	[CLUSTER_ALL] = &all_cluster,
	[CLUSTER_MODEL] = &model_cluster,
	[CLUSTER_AGENT] = &agent_cluster,
	[CLUSTER_PURR_CPU] = &purr_cpu_cluster,
	[CLUSTER_PURR_ALL] = &purr_all_cluster,
	[CLUSTER_LPAR] = &lpar_cluster,
	[CLUSTER_DF] = &df_cluster,
	[CLUSTER_L3] = &l3_cluster,
	[CLUSTER_PROC] = &proc_cluster,
	[CLUSTER_CGROUP] = &cgroup_cluster,
	[CLUSTER_CORECTR] = &corectr_cluster,
	[CLUSTER_CORECTR_ALL] = &corectr_all_cluster,
	[CLUSTER_SCHED_MAP] = &sched_map_cluster,
	[CLUSTER_SCHED_UID] = &sched_uid_cluster,
};
