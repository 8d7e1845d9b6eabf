/*
 * core.percpu.* and core.all.*: the core PMU's counters on every CPU, as
 * estimated counts, and the ratios of the last window (IPC, frequency,
 * turbostat's busy share), with each group's duty cycle.
 */
#include "shared.h"
#include "source_core.h"

enum {	/* CLUSTER_CORECTR */
	CORE_PERCPU_CYCLES = 0,
	CORE_PERCPU_INSTRUCTIONS = 1,
	CORE_PERCPU_REF_CYCLES = 2,
	CORE_PERCPU_TSC = 3,
	CORE_PERCPU_APERF = 4,
	CORE_PERCPU_MPERF = 5,
	CORE_PERCPU_FP_OPS = 6,
	CORE_PERCPU_L2_ACCESS = 7,
	CORE_PERCPU_L2_MISS = 8,
	CORE_PERCPU_L2_HIT = 9,
	CORE_PERCPU_IPC = 10,
	CORE_PERCPU_CPI = 11,
	CORE_PERCPU_FREQ = 12,
	CORE_PERCPU_BUSY = 13,
	CORE_PERCPU_DUTY_HW = 14,
	CORE_PERCPU_DUTY_MSR = 15,
	CORE_PERCPU_DUTY_FP = 16,
	CORE_PERCPU_DUTY_L2 = 17,
};

enum {	/* CLUSTER_CORECTR_ALL */
	CORE_ALL_CYCLES = 0,
	CORE_ALL_INSTRUCTIONS = 1,
	CORE_ALL_FP_OPS = 2,
	CORE_ALL_IPC = 3,
};

static const struct metric corectr_metrics[] = {
	{ "core.percpu.cycles", CORE_PERCPU_CYCLES, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS },
	{ "core.percpu.instructions", CORE_PERCPU_INSTRUCTIONS, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS },
	{ "core.percpu.ref_cycles", CORE_PERCPU_REF_CYCLES, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS },
	{ "core.percpu.tsc", CORE_PERCPU_TSC, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS },
	{ "core.percpu.aperf", CORE_PERCPU_APERF, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS },
	{ "core.percpu.mperf", CORE_PERCPU_MPERF, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS },
	{ "core.percpu.fp_ops", CORE_PERCPU_FP_OPS, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS },
	{ "core.percpu.l2.access", CORE_PERCPU_L2_ACCESS, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS },
	{ "core.percpu.l2.miss", CORE_PERCPU_L2_MISS, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS },
	{ "core.percpu.l2.hit", CORE_PERCPU_L2_HIT, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS },
	{ "core.percpu.ipc", CORE_PERCPU_IPC, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS },
	{ "core.percpu.cpi", CORE_PERCPU_CPI, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS },
	{ "core.percpu.freq", CORE_PERCPU_FREQ, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS },
	{ "core.percpu.busy", CORE_PERCPU_BUSY, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS },
	{ "core.percpu.duty.hw", CORE_PERCPU_DUTY_HW, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS },
	{ "core.percpu.duty.msr", CORE_PERCPU_DUTY_MSR, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS },
	{ "core.percpu.duty.fp", CORE_PERCPU_DUTY_FP, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS },
	{ "core.percpu.duty.l2", CORE_PERCPU_DUTY_L2, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS },
};

static const struct metric corectr_all_metrics[] = {
	{ "core.all.cycles", CORE_ALL_CYCLES, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS },
	{ "core.all.instructions", CORE_ALL_INSTRUCTIONS, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS },
	{ "core.all.fp_ops", CORE_ALL_FP_OPS, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS },
	{ "core.all.ipc", CORE_ALL_IPC, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_INSTANT, NO_UNITS },
};

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

/* turbostat's Bzy_MHz: the TSC's rate x aperf / mperf */
static int core_freq(int cpu, pmAtomValue *atom)
{
	double tsc, aperf, mperf, secs;

	if (!core_window(core(), cpu, CORE_TSC, &tsc, &secs) ||
	    !core_window(core(), cpu, CORE_APERF, &aperf, &secs) ||
	    !core_window(core(), cpu, CORE_MPERF, &mperf, &secs) || mperf <= 0)
		return PMDA_FETCH_NOVALUES;
	atom->d = tsc / secs * aperf / mperf / 1e6;
	return PMDA_FETCH_STATIC;
}

/* The share of the time a group of counters was on the PMU. */
static int core_group_duty(int cpu, enum core_group g, pmAtomValue *atom)
{
	if (!core_duty(core(), cpu, g, &atom->d))
		return PMDA_FETCH_NOVALUES;
	return PMDA_FETCH_STATIC;
}

static int fetch_corectr(unsigned int item, void *priv, pmAtomValue *atom)
{
	int cpu = (int)((const struct smt_cpu_values *)priv - sampler.cpu);

	switch (item) {
	case CORE_PERCPU_CYCLES: return core_count(cpu, CORE_CYCLES, atom);
	case CORE_PERCPU_INSTRUCTIONS: return core_count(cpu, CORE_INSTRUCTIONS, atom);
	case CORE_PERCPU_REF_CYCLES: return core_count(cpu, CORE_REF_CYCLES, atom);
	case CORE_PERCPU_TSC: return core_count(cpu, CORE_TSC, atom);
	case CORE_PERCPU_APERF: return core_count(cpu, CORE_APERF, atom);
	case CORE_PERCPU_MPERF: return core_count(cpu, CORE_MPERF, atom);
	case CORE_PERCPU_FP_OPS: return core_count(cpu, CORE_FP_OPS, atom);
	case CORE_PERCPU_L2_ACCESS: return core_count(cpu, CORE_L2_ACCESS, atom);
	case CORE_PERCPU_L2_MISS: return core_count(cpu, CORE_L2_MISS, atom);
	case CORE_PERCPU_L2_HIT: return core_count(cpu, CORE_L2_HIT, atom);
	case CORE_PERCPU_IPC: return core_ratio(cpu, CORE_INSTRUCTIONS, CORE_CYCLES, atom);
	case CORE_PERCPU_CPI: return core_ratio(cpu, CORE_CYCLES, CORE_INSTRUCTIONS, atom);
	case CORE_PERCPU_FREQ: return core_freq(cpu, atom);
	case CORE_PERCPU_BUSY:	/* turbostat's Busy%: mperf / tsc */
		return core_ratio(cpu, CORE_MPERF, CORE_TSC, atom);
	case CORE_PERCPU_DUTY_HW: return core_group_duty(cpu, CORE_G_HW, atom);
	case CORE_PERCPU_DUTY_MSR: return core_group_duty(cpu, CORE_G_MSR, atom);
	case CORE_PERCPU_DUTY_FP: return core_group_duty(cpu, CORE_G_FP, atom);
	case CORE_PERCPU_DUTY_L2: return core_group_duty(cpu, CORE_G_L2, atom);
	}
	return PM_ERR_PMID;
}

/* A figure's counter summed over the CPUs that have it. */
static int core_sum(enum core_figure f, pmAtomValue *atom)
{
	double total = 0, v;
	int have = 0;

	for (int cpu = 0; cpu < sampler.topo.ncpus; cpu++)
		if (core_total(core(), cpu, f, &v)) {
			total += v;
			have++;
		}
	if (!have)
		return PMDA_FETCH_NOVALUES;
	atom->ull = whole(total);
	return PMDA_FETCH_STATIC;
}

/* Instructions per cycle over the last window, of the CPUs that count
 * instructions. */
static int core_all_ipc(pmAtomValue *atom)
{
	double instr = 0, cycles = 0, v, secs;

	for (int cpu = 0; cpu < sampler.topo.ncpus; cpu++)
		if (core_window(core(), cpu, CORE_INSTRUCTIONS, &v, &secs)) {
			instr += v;
			if (core_window(core(), cpu, CORE_CYCLES, &v, &secs))
				cycles += v;
		}
	if (cycles <= 0)
		return PMDA_FETCH_NOVALUES;
	atom->d = instr / cycles;
	return PMDA_FETCH_STATIC;
}

static int fetch_corectr_all(unsigned int item, void *priv, pmAtomValue *atom)
{
	(void)priv;
	switch (item) {
	case CORE_ALL_CYCLES: return core_sum(CORE_CYCLES, atom);
	case CORE_ALL_INSTRUCTIONS: return core_sum(CORE_INSTRUCTIONS, atom);
	case CORE_ALL_FP_OPS: return core_sum(CORE_FP_OPS, atom);
	case CORE_ALL_IPC: return core_all_ipc(atom);
	}
	return PM_ERR_PMID;
}

const struct cluster corectr_cluster = CLUSTER(corectr_metrics, fetch_corectr);
const struct cluster corectr_all_cluster = CLUSTER(corectr_all_metrics, fetch_corectr_all);
