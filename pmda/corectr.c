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
	CORE_PERCPU_READS_INTERRUPTING = 18,
	CORE_PERCPU_READS_ON_CPU = 19,
};

enum {	/* CLUSTER_CORECTR_ALL */
	CORE_ALL_CYCLES = 0,
	CORE_ALL_INSTRUCTIONS = 1,
	CORE_ALL_FP_OPS = 2,
	CORE_ALL_IPC = 3,
};

static const struct metric corectr_metrics[] = {
	{ "core.percpu.cycles", CORE_PERCPU_CYCLES, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS,
	  "Unhalted core cycles (PERF_TYPE_HARDWARE cycles)",
	  "Cycles the CPU ran, not halted, at whatever clock it ran: perf's \"cycles\",\n"
	  "which the kernel maps to each vendor's event (on AMD Zen 0x76, on POWER\n"
	  "PM_RUN_CYC, which stops while the OS idles).  An estimated count: scaled\n"
	  "by core.percpu.duty.hw when other users of the counters make the kernel\n"
	  "multiplex them.  No values without a core PMU (smtcpu.status[\"core\"])." },
	{ "core.percpu.instructions", CORE_PERCPU_INSTRUCTIONS, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS,
	  "Instructions retired (PERF_TYPE_HARDWARE instructions)",
	  "Instructions retired on this CPU, counted in one group with\n"
	  "core.percpu.cycles so that the two share every window; scaled like it." },
	{ "core.percpu.ref_cycles", CORE_PERCPU_REF_CYCLES, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS,
	  "Unhalted cycles at the nominal clock",
	  "Intel's ref-cycles, or AMD's P0-frequency unhalted cycles (event 0x120,\n"
	  "umask 0x01, Zen4 and Zen5): cycles not halted, counted at the nominal\n"
	  "clock whatever the clock was.  Zen2 and Zen3 have no such event: there\n"
	  "core.percpu.mperf is the same measure." },
	{ "core.percpu.tsc", CORE_PERCPU_TSC, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS,
	  "Time stamp counter ticks (the msr PMU's tsc)",
	  "The TSC, read through perf's msr PMU (event tsc): it runs at the nominal\n"
	  "clock, halted or not, so its rate is that clock in Hz." },
	{ "core.percpu.aperf", CORE_PERCPU_APERF, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS,
	  "APERF: cycles at the actual clock, not halted (msr PMU)",
	  "With core.percpu.mperf and core.percpu.tsc it gives the effective clock\n"
	  "(core.percpu.freq) and the busy fraction (core.percpu.busy).  The msr PMU\n"
	  "offers aperf only where the CPU has APERF/MPERF and, in a virtual machine,\n"
	  "where the hypervisor shows them; smtcpu.status[\"core\"] says when not." },
	{ "core.percpu.mperf", CORE_PERCPU_MPERF, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS,
	  "MPERF: cycles at the nominal clock, not halted (msr PMU)",
	  "See core.percpu.aperf." },
	{ "core.percpu.fp_ops", CORE_PERCPU_FP_OPS, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS,
	  "SSE/AVX floating-point operations retired (AMD Zen)",
	  "PMCx003 with every umask bit of the generation (0xff on Zen2 and Zen3,\n"
	  "0x1f on Zen4, 0x0f on Zen5, as perf's fp_ret_sse_avx_ops.all): a fused\n"
	  "multiply-add counts two.  Its rate is FLOPS.  The kernel pairs the event\n"
	  "with the Merge event on a second counter itself (up to 64 a cycle)." },
	{ "core.percpu.l2.access", CORE_PERCPU_L2_ACCESS, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS,
	  "L2 accesses (AMD Zen, perf's recommended formula)",
	  "l2_request_g1.all_no_prefetch + l2_pf_hit_l2 + l2_pf_miss_l2_hit_l3 +\n"
	  "l2_pf_miss_l2_l3: demand requests and L2 prefetches." },
	{ "core.percpu.l2.miss", CORE_PERCPU_L2_MISS, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS,
	  "L2 misses (AMD Zen, perf's recommended formula)",
	  "l2_cache_req_stat.ic_dc_miss_in_l2 + l2_pf_miss_l2_hit_l3 + l2_pf_miss_l2_l3." },
	{ "core.percpu.l2.hit", CORE_PERCPU_L2_HIT, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS,
	  "L2 hits (AMD Zen, perf's recommended formula)",
	  "l2_cache_req_stat.ic_dc_hit_in_l2 + l2_pf_hit_l2." },
	{ "core.percpu.ipc", CORE_PERCPU_IPC, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "Instructions per cycle over the last window",
	  "core.percpu.instructions over core.percpu.cycles between the last two\n"
	  "passes, from one group: no rate conversion needed." },
	{ "core.percpu.cpi", CORE_PERCPU_CPI, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "Cycles per instruction over the last window",
	  "The inverse of core.percpu.ipc." },
	{ "core.percpu.freq", CORE_PERCPU_FREQ, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "Effective clock over the last window, in MHz",
	  "turbostat's Bzy_MHz: the TSC's rate times APERF's growth over MPERF's,\n"
	  "both counted only while the CPU was not halted: the clock it ran at when\n"
	  "it ran.  /proc/cpuinfo's \"cpu MHz\" is a one-tick sample, not this." },
	{ "core.percpu.busy", CORE_PERCPU_BUSY, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "Fraction of the last window the CPU was not halted",
	  "turbostat's Busy%: MPERF's growth over the TSC's, 0 to 1." },
	{ "core.percpu.duty.hw", CORE_PERCPU_DUTY_HW, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "Duty cycle of the cycles and instructions group",
	  "The fraction of the last window the group was on the counters (time\n"
	  "running over time enabled); below 1 the counts are estimates scaled up by\n"
	  "its inverse, because other users (perf, the perfevent PMDA, the NMI\n"
	  "watchdog) share the counters." },
	{ "core.percpu.duty.msr", CORE_PERCPU_DUTY_MSR, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "Duty cycle of the msr group (always 1: never multiplexed)",
	  "The share of the last window the msr PMU's group (TSC, APERF, MPERF) was\n"
	  "counting on this CPU.  The msr PMU's counters are free-running and never\n"
	  "share counters, so it is 1 whenever the group is open." },
	{ "core.percpu.duty.fp", CORE_PERCPU_DUTY_FP, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "Duty cycle of the FP operations group (AMD Zen)",
	  "The share of the last window the FP operations group was on this CPU's\n"
	  "counters (the rest of the time another group had them: the count is\n"
	  "scaled up by 1 / duty).  AMD Zen only." },
	{ "core.percpu.duty.l2", CORE_PERCPU_DUTY_L2, PM_TYPE_DOUBLE, CPU_INDOM, PM_SEM_INSTANT, NO_UNITS,
	  "Duty cycle of the L2 accesses group (AMD Zen)",
	  "The share of the last window the L2 group (accesses, misses, hits) was\n"
	  "on this CPU's counters; its counts are scaled up by 1 / duty.  AMD Zen\n"
	  "only." },
	{ "core.percpu.reads.interrupting", CORE_PERCPU_READS_INTERRUPTING, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER,
	  COUNT_UNITS,
	  "Reads of this CPU's counter groups that interrupted it",
	  "Each group of this CPU's core counters that a sampling pass read with\n"
	  "read(2) from the agent's CPU, which the kernel serves by an interrupt to\n"
	  "this CPU (unless the agent ran on it then).  So are read: every group\n"
	  "where the BPF program that reads counters on their own CPU is not\n"
	  "loaded (smtcpu.status[\"core\"] says why) or cannot read it; a group's\n"
	  "first period; and a CPU's groups once its timer has not read them for a\n"
	  "period and a quarter (some kernels run no cpu-clock sample on an idle\n"
	  "CPU) or the period was just made longer.  Its rate is the interrupts a\n"
	  "second the core counters cost this CPU beyond their timer.  A replayed\n"
	  "trace's reads count here too." },
	{ "core.percpu.reads.on_cpu", CORE_PERCPU_READS_ON_CPU, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, COUNT_UNITS,
	  "Reads of this CPU's counter groups served from its own timer",
	  "Each group of this CPU's core counters that a sampling pass served from\n"
	  "the readings the BPF program took on this CPU at its timer (the\n"
	  "cpu-clock event at the sampling period), carried to the pass's time: no\n"
	  "interrupt from the agent's CPU.  The timer itself is one interrupt a\n"
	  "period on this CPU, whatever the number of groups." },
};

static const struct metric corectr_all_metrics[] = {
	{ "core.all.cycles", CORE_ALL_CYCLES, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS,
	  "Unhalted cycles of every CPU (sum of core.percpu.cycles)",
	  "The sum over every online CPU of core.percpu.cycles' increments, a\n"
	  "counter: its rate is the machine's cycles a second.  No value where no CPU\n"
	  "has the cycles counter (no core PMU: see smtcpu.status[\"core\"])." },
	{ "core.all.instructions", CORE_ALL_INSTRUCTIONS, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS,
	  "Instructions retired on every CPU",
	  "The sum over every online CPU of core.percpu.instructions' increments, a\n"
	  "counter: its rate is the machine's instructions a second.  No value where\n"
	  "no CPU has the instructions counter." },
	{ "core.all.fp_ops", CORE_ALL_FP_OPS, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, COUNT_UNITS,
	  "Floating-point operations retired on every CPU (AMD Zen)",
	  "The sum over every online CPU of core.percpu.fp_ops' increments, a\n"
	  "counter: its rate is the machine's FLOPS.  AMD Zen only (the FP operations\n"
	  "retired event); no value elsewhere." },
	{ "core.all.ipc", CORE_ALL_IPC, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_INSTANT, NO_UNITS,
	  "Instructions per cycle of the whole machine, last window",
	  "The sum over CPUs of instructions over the sum of cycles, in the last\n"
	  "window." },
};

/* A figure's counter, in whole counts. */
static int core_count(int cpu, enum core_figure f, pmAtomValue *atom)
{
	double v;

	if (!core_total(core_counters(), cpu, f, &v))
		return PMDA_FETCH_NOVALUES;
	atom->ull = whole(v);
	return PMDA_FETCH_STATIC;
}

/* a / b over the last window, where both have one */
static int core_ratio(int cpu, enum core_figure a, enum core_figure b, pmAtomValue *atom)
{
	double x, y, sx, sy;

	if (!core_window(core_counters(), cpu, a, &x, &sx) || !core_window(core_counters(), cpu, b, &y, &sy) ||
	    y <= 0)
		return PMDA_FETCH_NOVALUES;
	atom->d = x / y;
	return PMDA_FETCH_STATIC;
}

/* turbostat's Bzy_MHz: the TSC's rate x aperf / mperf */
static int core_freq(int cpu, pmAtomValue *atom)
{
	double tsc, aperf, mperf, secs;

	if (!core_window(core_counters(), cpu, CORE_TSC, &tsc, &secs) ||
	    !core_window(core_counters(), cpu, CORE_APERF, &aperf, &secs) ||
	    !core_window(core_counters(), cpu, CORE_MPERF, &mperf, &secs) || mperf <= 0)
		return PMDA_FETCH_NOVALUES;
	atom->d = tsc / secs * aperf / mperf / 1e6;
	return PMDA_FETCH_STATIC;
}

/* The share of the time a group of counters was on the PMU. */
static int core_group_duty(int cpu, enum core_group g, pmAtomValue *atom)
{
	if (!core_duty(core_counters(), cpu, g, &atom->d))
		return PMDA_FETCH_NOVALUES;
	return PMDA_FETCH_STATIC;
}

/* cpu's group reads, by one way or the other */
static int core_group_reads(int cpu, bool on_cpu, pmAtomValue *atom)
{
	uint64_t interrupting, own;

	if (!core_reads(core_counters(), cpu, &interrupting, &own))
		return PMDA_FETCH_NOVALUES;
	atom->ull = on_cpu ? own : interrupting;
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
	case CORE_PERCPU_READS_INTERRUPTING:
	case CORE_PERCPU_READS_ON_CPU: return core_group_reads(cpu, item == CORE_PERCPU_READS_ON_CPU, atom);
	}
	return PM_ERR_PMID;
}

/* A figure's counter summed over the CPUs that have it. */
static int core_sum(enum core_figure f, pmAtomValue *atom)
{
	double total = 0, v;
	int have = 0;

	for (int cpu = 0; cpu < sampler.topo.ncpus; cpu++)
		if (core_total(core_counters(), cpu, f, &v)) {
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
		if (core_window(core_counters(), cpu, CORE_INSTRUCTIONS, &v, &secs)) {
			instr += v;
			if (core_window(core_counters(), cpu, CORE_CYCLES, &v, &secs))
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

const struct cluster corectr_cluster = { METRICS(corectr_metrics), .fetch = fetch_corectr };
const struct cluster corectr_all_cluster = { METRICS(corectr_all_metrics), .fetch = fetch_corectr_all };
