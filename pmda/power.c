/*
 * POWER: PURR per CPU (kernel.percpu.cpu.*purr beside the linux PMDA's
 * per-CPU metrics, purr.percpu.*) and summed (purr.all.*), and the
 * partition's figures from lparcfg (lpar.*).  Counters are in microseconds
 * of the timebase.
 */
#include "shared.h"
#include "source_power.h"

enum {	/* CLUSTER_PURR_CPU */
	PURR_CPU_PURR = 0,		/* kernel.percpu.cpu.purr */
	PURR_CPU_SPURR = 1,
	PURR_CPU_IDLE_PURR = 2,
	PURR_CPU_IDLE_SPURR = 3,
	PURR_CPU_USER = 4,		/* purr.percpu.user */
	PURR_CPU_SYS = 5,
	PURR_CPU_WAIT = 6,
	PURR_CPU_IDLE = 7,
};

enum {	/* CLUSTER_PURR_ALL */
	PURR_ALL_PURR = 0,
	PURR_ALL_SPURR = 1,
	PURR_ALL_IDLE_PURR = 2,
	PURR_ALL_IDLE_SPURR = 3,
	PURR_ALL_USER = 4,
	PURR_ALL_SYS = 5,
	PURR_ALL_WAIT = 6,
	PURR_ALL_IDLE = 7,
	PURR_ALL_TIMEBASE = 8,		/* purr.timebase */
	PURR_ALL_NOMINAL_CLOCK = 9,	/* purr.nominal_clock */
};

/* lpar.*: PARTITION_, as src/lparcfg.h names lparcfg's keys LPAR_. */
enum {	/* CLUSTER_LPAR */
	PARTITION_ENTITLED_CAPACITY = 0,
	PARTITION_CAPPED = 1,
	PARTITION_SHARED = 2,
	PARTITION_DONATING = 3,
	PARTITION_VIRTUAL_PROCESSORS = 4,
	PARTITION_POOL_ID = 5,
	PARTITION_POOL_CAPACITY = 6,
	PARTITION_POOL_CORES = 7,
	PARTITION_POOL_IDLE_TIME = 8,
	PARTITION_PURR = 9,
	PARTITION_TBR = 10,
	PARTITION_VERSION = 11,
};

static const struct metric purr_cpu_metrics[] = {
	{ "kernel.percpu.cpu.purr", PURR_CPU_PURR, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, US_UNITS,
	  "PURR of each CPU: its share of the physical core",
	  "The POWER Processor Utilization of Resources Register of this hardware\n"
	  "thread (/sys/devices/system/cpu/cpuN/purr), converted from timebase\n"
	  "ticks (purr.timebase) to microseconds.  The hardware shares each tick\n"
	  "of the timebase out over the threads of the core by how much of the\n"
	  "core each used, so the rate of this counter is the fraction of a\n"
	  "physical core this thread consumed; summed over the threads of a busy\n"
	  "dedicated core it is 1.  Starts at the register's value and then adds\n"
	  "only increments: a register reset while the CPU was offline never makes\n"
	  "it go backwards.  Inside a KVM guest on POWER9 or later the register\n"
	  "counts the whole timebase while a vCPU is busy (see smtcpu.status)." },
	{ "kernel.percpu.cpu.spurr", PURR_CPU_SPURR, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, US_UNITS,
	  "Scaled PURR of each CPU",
	  "As kernel.percpu.cpu.purr, scaled by the core's frequency relative to\n"
	  "nominal (SPURR): the basis of lparstat -E's \"Normalized\" columns.\n"
	  "Read only while a client asks for it: each read of a PURR file is an\n"
	  "interrupt to its CPU, and smt.* need only purr and idle_purr.  A fetch of\n"
	  "it, or of the other SPURR metrics, keeps the sampling pass reading SPURR\n"
	  "and idle_spurr for 10 minutes; the first fetch after none for that long\n"
	  "runs a pass, so its values are current.  Counter, microseconds." },
	{ "kernel.percpu.cpu.idle_purr", PURR_CPU_IDLE_PURR, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, US_UNITS,
	  "PURR of each CPU accumulated while idle",
	  "The part of kernel.percpu.cpu.purr accrued in the idle loop\n"
	  "(pseries LPARs with Linux 5.8 or later only).  purr - idle_purr is the\n"
	  "busy share of the core.  Counter, microseconds." },
	{ "kernel.percpu.cpu.idle_spurr", PURR_CPU_IDLE_SPURR, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, US_UNITS,
	  "SPURR of each CPU accumulated while idle",
	  "The idle part of kernel.percpu.cpu.spurr, read only while a client asks\n"
	  "for it, as kernel.percpu.cpu.spurr.  Counter, microseconds." },
	{ "purr.percpu.user", PURR_CPU_USER, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, US_UNITS,
	  "PURR of each CPU credited to user mode",
	  "Each window's PURR of the thread shared out by mode, the analogue of\n"
	  "AIX perfstat's puser: with idle_purr, busy PURR (purr - idle_purr) is\n"
	  "shared over user and sys, and idle_purr over wait and idle, in\n"
	  "proportion to the thread's /proc/stat ticks in the same window; without\n"
	  "idle_purr all of its PURR is shared over the four in proportion.  user\n"
	  "includes nice, sys includes irq and softirq.  The four sum to the PURR\n"
	  "of the windows counted.  Counter, microseconds." },
	{ "purr.percpu.sys", PURR_CPU_SYS, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, US_UNITS,
	  "PURR of each CPU credited to system mode",
	  "As purr.percpu.user, for sys + irq + softirq (psys).  Busy PURR in a\n"
	  "window where /proc/stat saw no busy tick is credited here." },
	{ "purr.percpu.wait", PURR_CPU_WAIT, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, US_UNITS,
	  "PURR of each CPU credited to I/O wait",
	  "As purr.percpu.user, for iowait (pwait)." },
	{ "purr.percpu.idle", PURR_CPU_IDLE, PM_TYPE_U64, CPU_INDOM, PM_SEM_COUNTER, US_UNITS,
	  "PURR of each CPU credited to idle",
	  "As purr.percpu.user, for idle (pidle)." },
};

static const struct metric purr_all_metrics[] = {
	{ "purr.all.purr", PURR_ALL_PURR, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS,
	  "PURR summed over all CPUs",
	  "Sum of the increments of kernel.percpu.cpu.purr: its rate is the\n"
	  "number of physical cores the partition consumed (physc), measured per\n"
	  "thread.  Counter, microseconds." },
	{ "purr.all.spurr", PURR_ALL_SPURR, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS,
	  "SPURR summed over all CPUs",
	  "Read only while a client asks for it, as kernel.percpu.cpu.spurr.\n"
	  "Counter, microseconds." },
	{ "purr.all.idle_purr", PURR_ALL_IDLE_PURR, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS,
	  "idle_purr summed over all CPUs",
	  "lparstat -E busy = (rate(lpar.purr) - rate(purr.all.idle_purr)) /\n"
	  "(rate(lpar.tbr) * smt.all.ncores).  Counter, microseconds." },
	{ "purr.all.idle_spurr", PURR_ALL_IDLE_SPURR, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS,
	  "idle_spurr summed over all CPUs",
	  "Read only while a client asks for it, as kernel.percpu.cpu.spurr.\n"
	  "Counter, microseconds." },
	{ "purr.all.user", PURR_ALL_USER, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS,
	  "PURR credited to user mode, all CPUs",
	  "Sum of purr.percpu.user.  Counter, microseconds." },
	{ "purr.all.sys", PURR_ALL_SYS, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS,
	  "PURR credited to system mode, all CPUs",
	  "Sum of purr.percpu.sys.  Counter, microseconds." },
	{ "purr.all.wait", PURR_ALL_WAIT, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS,
	  "PURR credited to I/O wait, all CPUs",
	  "Sum of purr.percpu.wait.  Counter, microseconds." },
	{ "purr.all.idle", PURR_ALL_IDLE, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS,
	  "PURR credited to idle, all CPUs",
	  "Sum of purr.percpu.idle.  Counter, microseconds." },
	{ "purr.timebase", PURR_ALL_TIMEBASE, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_DISCRETE, HZ_UNITS,
	  "Timebase frequency",
	  "The \"timebase\" line of /proc/cpuinfo, in ticks per second: PURR, SPURR,\n"
	  "idle_purr, lparcfg purr, tbr and pool_idle_time all count in these\n"
	  "ticks (512000000 on POWER7 to POWER10)." },
	{ "purr.nominal_clock", PURR_ALL_NOMINAL_CLOCK, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS,
	  "Nominal processor clock, MHz",
	  "The \"clock\" line of /proc/cpuinfo.  lparstat -E's effective frequency\n"
	  "is rate(purr.all.spurr) / rate(lpar.purr) * purr.nominal_clock." },
};

static const struct metric lpar_metrics[] = {
	{ "lpar.entitled_capacity", PARTITION_ENTITLED_CAPACITY, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_INSTANT, NO_UNITS,
	  "Entitled processor capacity of the LPAR, in cores",
	  "partition_entitled_capacity of /proc/powerpc/lparcfg / 100.\n"
	  "%entc = 100 * physc / lpar.entitled_capacity." },
	{ "lpar.capped", PARTITION_CAPPED, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS,
	  "Whether the LPAR is capped (1) or uncapped (0)",
	  "lparcfg \"capped\"." },
	{ "lpar.shared", PARTITION_SHARED, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS,
	  "Whether the LPAR uses the shared processor pool (1) or dedicated cores (0)",
	  "lparcfg \"shared_processor_mode\"." },
	{ "lpar.donating", PARTITION_DONATING, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS,
	  "Whether a dedicated LPAR donates its idle cycles (1)",
	  "lparcfg \"DedDonMode\"; no value where the key is absent.  lparstat -E\n"
	  "counts idle as tb - purr + idle_purr for shared and donating LPARs, and\n"
	  "as purr - busy for dedicated capped ones." },
	{ "lpar.virtual_processors", PARTITION_VIRTUAL_PROCESSORS, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, COUNT_UNITS,
	  "Active virtual processors (cores) of the LPAR",
	  "lparcfg \"partition_active_processors\": cores, not threads." },
	{ "lpar.pool.id", PARTITION_POOL_ID, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS,
	  "Shared processor pool of the LPAR",
	  "lparcfg \"pool\"; shared LPARs only." },
	{ "lpar.pool.capacity", PARTITION_POOL_CAPACITY, PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_INSTANT, NO_UNITS,
	  "Cores active in the shared processor pool",
	  "lparcfg \"pool_capacity\" / 100; shared LPARs only." },
	{ "lpar.pool.cores", PARTITION_POOL_CORES, PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, COUNT_UNITS,
	  "Physical cores in the shared processor pool",
	  "lparcfg \"pool_num_procs\"; shared LPARs only." },
	{ "lpar.pool.idle_time", PARTITION_POOL_IDLE_TIME, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS,
	  "Idle time of the shared processor pool",
	  "lparcfg \"pool_idle_time\", converted from timebase ticks to\n"
	  "microseconds: its rate is the number of idle cores in the pool, which\n"
	  "lparstat prints as \"app\".  Shared LPARs that may read pool data only.\n"
	  "Counter." },
	{ "lpar.purr", PARTITION_PURR, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS,
	  "PURR of the partition",
	  "lparcfg \"purr\" (the sum of the online CPUs' PURR), converted from\n"
	  "timebase ticks to microseconds; partitions whose firmware has SPLPAR\n"
	  "(every PowerVM LPAR, dedicated or shared).  As lparstat:\n"
	  "physc = rate(lpar.purr) / rate(lpar.tbr).  Counted by increments: over\n"
	  "a pass in which CPUs went offline or online, when the kernel's sum\n"
	  "counts a CPU's whole register in or out, the increments of the per-CPU\n"
	  "files of the threads online throughout stand in, so there is no dip and\n"
	  "no spike.  Counter." },
	{ "lpar.tbr", PARTITION_TBR, PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER, US_UNITS,
	  "Timebase register of the partition",
	  "lparcfg \"tbr\", converted to microseconds: its rate is 1, and ratios of\n"
	  "rates over it are exact over the same window as lpar.purr.  Present\n"
	  "where lpar.purr is.  Counter." },
	{ "lpar.version", PARTITION_VERSION, PM_TYPE_STRING, PM_INDOM_NULL, PM_SEM_DISCRETE, NO_UNITS,
	  "Version of the lparcfg format",
	  "The first line of /proc/powerpc/lparcfg, e.g. \"1.9\"." },
};

/* Timebase ticks to microseconds, exactly for any 64-bit count. */
static uint64_t ticks_to_us(uint64_t ticks)
{
	uint64_t tb = sampler.cpuinfo.timebase;
	return ticks / tb * 1000000 + ticks % tb * 1000000 / tb;
}

/* A PURR file's count, where it has one. */
static int purr_count(bool have, uint64_t ticks, pmAtomValue *atom)
{
	if (!have)
		return PMDA_FETCH_NOVALUES;
	atom->ull = ticks_to_us(ticks);
	return PMDA_FETCH_STATIC;
}

/* PURR time in one of /proc/stat's modes, counted from PURR's first reading. */
static int purr_mode(bool have_purr, double ticks, pmAtomValue *atom)
{
	if (!have_purr)
		return PMDA_FETCH_NOVALUES;
	atom->ull = (uint64_t)(ticks * 1e6 / (double)sampler.cpuinfo.timebase);
	return PMDA_FETCH_STATIC;
}

/* Which PURR file, or which mode's PURR time, each item reads.  purr.all.*
 * sums the per-CPU figures item for item: PURR_ALL_PURR..PURR_ALL_IDLE are
 * PURR_CPU_PURR..PURR_CPU_IDLE's numbers. */
static const struct {
	enum purr_counter counter;	/* PURR_NCOUNTERS: a mode's time */
	enum purr_mode mode;
} purr_figure[] = {
	[PURR_CPU_PURR] = { PURR, PMODE_COUNT },
	[PURR_CPU_SPURR] = { SPURR, PMODE_COUNT },
	[PURR_CPU_IDLE_PURR] = { IDLE_PURR, PMODE_COUNT },
	[PURR_CPU_IDLE_SPURR] = { IDLE_SPURR, PMODE_COUNT },
	[PURR_CPU_USER] = { PURR_NCOUNTERS, PMODE_USER },
	[PURR_CPU_SYS] = { PURR_NCOUNTERS, PMODE_SYS },
	[PURR_CPU_WAIT] = { PURR_NCOUNTERS, PMODE_WAIT },
	[PURR_CPU_IDLE] = { PURR_NCOUNTERS, PMODE_IDLE },
};
#define NUM_PURR_FIGURES (sizeof purr_figure / sizeof purr_figure[0])

static int fetch_purr_cpu(unsigned int item, void *priv, pmAtomValue *atom)
{
	const struct power_state *ps = power();
	int cpu = (int)((const struct smt_cpu_values *)priv - sampler.cpu);
	const struct purr_values *v;
	enum purr_counter c;

	if (sampler.cpuinfo.timebase == 0 || ps->cpu == NULL || cpu >= ps->ncpus)
		return PMDA_FETCH_NOVALUES;
	if (item >= NUM_PURR_FIGURES)
		return PM_ERR_PMID;
	v = &ps->cpu[cpu];
	c = purr_figure[item].counter;
	if (c == PURR_NCOUNTERS)
		return purr_mode(v->have[PURR], v->mode[purr_figure[item].mode], atom);
	/* A file that failed its last read has no value, not a frozen one. */
	return purr_count(v->have[c] && ps->purr.cpu[cpu].seen[c], v->total[c], atom);
}

static int fetch_purr_all(unsigned int item, void *priv, pmAtomValue *atom)
{
	const struct power_state *ps = power();
	enum purr_counter c;

	(void)priv;
	switch (item) {
	case PURR_ALL_TIMEBASE:
		if (sampler.cpuinfo.timebase == 0)
			return PMDA_FETCH_NOVALUES;
		atom->ull = sampler.cpuinfo.timebase;
		return PMDA_FETCH_STATIC;
	case PURR_ALL_NOMINAL_CLOCK:
		if (sampler.cpuinfo.clock_mhz == 0)
			return PMDA_FETCH_NOVALUES;
		atom->d = sampler.cpuinfo.clock_mhz;
		return PMDA_FETCH_STATIC;
	}
	if (sampler.cpuinfo.timebase == 0)
		return PMDA_FETCH_NOVALUES;
	if (item >= NUM_PURR_FIGURES)
		return PM_ERR_PMID;
	c = purr_figure[item].counter;
	if (c == PURR_NCOUNTERS)
		return purr_mode(ps->have_all[PURR], ps->all_mode[purr_figure[item].mode], atom);
	return purr_count(ps->have_all[c], ps->all[c], atom);
}

/* A figure lparcfg gives, where it gives it. */
static int lpar_figure(enum lpar_key key, pmAtomValue *atom)
{
	const struct lparcfg *l = &power()->lparcfg;
	int64_t v = l->value[key];

	if (!l->have[key])
		return PMDA_FETCH_NOVALUES;
	if (key == LPAR_ENTITLED || key == LPAR_POOL_CAPACITY)
		atom->d = (double)v / 100;	/* hundredths of a core */
	else
		atom->ul = (uint32_t)v;
	return PMDA_FETCH_STATIC;
}

/* lparcfg's counters, in microseconds of the timebase. */
static int lpar_counter(enum lpar_counter c, pmAtomValue *atom)
{
	if (!power()->lpar.have[c] || sampler.cpuinfo.timebase == 0)
		return PMDA_FETCH_NOVALUES;
	atom->ull = ticks_to_us(power()->lpar.total[c]);
	return PMDA_FETCH_STATIC;
}

static int fetch_lpar(unsigned int item, void *priv, pmAtomValue *atom)
{
	const struct lparcfg *l = &power()->lparcfg;

	(void)priv;
	if (l->fd < 0 || l->version[0] == '\0')
		return PMDA_FETCH_NOVALUES;
	switch (item) {
	case PARTITION_ENTITLED_CAPACITY: return lpar_figure(LPAR_ENTITLED, atom);
	case PARTITION_CAPPED: return lpar_figure(LPAR_CAPPED, atom);
	case PARTITION_SHARED: return lpar_figure(LPAR_SHARED, atom);
	case PARTITION_DONATING: return lpar_figure(LPAR_DONATING, atom);
	case PARTITION_VIRTUAL_PROCESSORS: return lpar_figure(LPAR_VPROCS, atom);
	case PARTITION_POOL_ID: return lpar_figure(LPAR_POOL, atom);
	case PARTITION_POOL_CAPACITY: return lpar_figure(LPAR_POOL_CAPACITY, atom);
	case PARTITION_POOL_CORES: return lpar_figure(LPAR_POOL_CORES, atom);
	case PARTITION_POOL_IDLE_TIME: return lpar_counter(LPAR_C_POOL_IDLE, atom);
	case PARTITION_PURR: return lpar_counter(LPAR_C_PURR, atom);
	case PARTITION_TBR: return lpar_counter(LPAR_C_TBR, atom);
	case PARTITION_VERSION:
		atom->cp = (char *)l->version;
		return PMDA_FETCH_STATIC;
	}
	return PM_ERR_PMID;
}

/* SPURR and idle_spurr, per CPU or summed, are read only while asked for
 * (source_power.h); purr.all's items past NUM_PURR_FIGURES are not files. */
static bool purr_asked(unsigned int item)
{
	enum purr_counter c;

	if (item >= NUM_PURR_FIGURES || (c = purr_figure[item].counter) == PURR_NCOUNTERS)
		return false;
	return (PURR_BIT(c) & POWER_ON_DEMAND) && sampler_ask(&sampler, &power_source, PURR_BIT(c));
}

const struct cluster purr_cpu_cluster = { METRICS(purr_cpu_metrics), .fetch = fetch_purr_cpu, .asked = purr_asked };
const struct cluster purr_all_cluster = { METRICS(purr_all_metrics), .fetch = fetch_purr_all, .asked = purr_asked };
const struct cluster lpar_cluster = { METRICS(lpar_metrics), .fetch = fetch_lpar };
