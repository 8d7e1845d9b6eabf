/*
 * Which metric holds each figure of samples.h.
 */
#include "samples.h"

static const char *const system_metrics[NFIGURES] = {
	[FIG_CAPACITY] = "smt.all.capacity",
	[FIG_CAPACITY_LEFT] = "smt.all.capacity_left",
	[FIG_THROUGHPUT] = "smt.all.throughput_cpu",
	[FIG_LOWER] = "smt.all.throughput_cpu_lower",
	[FIG_UPPER] = "smt.all.throughput_cpu_upper",
	[FIG_NCORES] = "smt.all.ncores",
	[FIG_CPU_BUSY] = "smt.busy_cpu",
	[FIG_LPAR_PURR] = "lpar.purr",
	[FIG_LPAR_TBR] = "lpar.tbr",
	[FIG_LPAR_POOL_IDLE] = "lpar.pool.idle_time",
	[FIG_LPAR_ENTITLED] = "lpar.entitled_capacity",
	[FIG_ALL_BUSY] = "smt.all.busy_cpu",
};

static const char *const service_metrics[2][NFIGURES] = {
	[BY_CGROUP] = {
		[FIG_SVC_THROUGHPUT] = "smt.cgroup.throughput_cpu",
		[FIG_SVC_LOWER] = "smt.cgroup.throughput_cpu_lower",
		[FIG_SVC_UPPER] = "smt.cgroup.throughput_cpu_upper",
		[FIG_SVC_BUSY] = "smt.cgroup.busy_cpu",
	},
	[BY_PROCESS] = {
		[FIG_SVC_THROUGHPUT] = "smt.proc.throughput_cpu",
		[FIG_SVC_LOWER] = "smt.proc.throughput_cpu_lower",
		[FIG_SVC_UPPER] = "smt.proc.throughput_cpu_upper",
		[FIG_SVC_BUSY] = "smt.proc.busy_cpu",
	},
};

const char *figure_metric(enum figure f, enum sample_by by)
{
	if (f >= FIG_SVC_THROUGHPUT)
		return service_metrics[by == BY_PROCESS][f];
	return system_metrics[f];
}

bool figure_has_instances(enum figure f)
{
	return f == FIG_CPU_BUSY || f >= FIG_SVC_THROUGHPUT;
}
