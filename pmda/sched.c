/*
 * smt.proc.* and smt.cgroup.*: what the software PURR charged each process
 * and cgroup, an instance's private data being its table slot + 1; and
 * smtcpu.sched.map.*, how full the program's charge maps are.
 */
#include "clients.h"
#include "sched_publish.h"
#include "shared.h"
#include "source_sched.h"

#include <errno.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {	/* CLUSTER_PROC and CLUSTER_CGROUP: the same figures of each */
	CHARGE_THROUGHPUT = 0,
	CHARGE_BUSY = 1,
	CHARGE_LOWER = 2,
	CHARGE_UPPER = 3,
};

enum {	/* CLUSTER_SCHED_UID */
	SCHED_UID_TASKS = 0,
	SCHED_UID_REFUSED = 1,
	SCHED_UID_REFUSED_TIME = 2,
};

enum {	/* CLUSTER_SCHED_MAP */
	SCHED_MAP_ENTRIES = 0,
	SCHED_MAP_PEAK = 1,
	SCHED_MAP_CAPACITY = 2,
	SCHED_MAP_REFUSED = 3,
	SCHED_MAP_REFUSED_TIME = 4,
};

static const struct metric proc_metrics[] = {
	{ "smt.proc.throughput_cpu", CHARGE_THROUGHPUT, PM_TYPE_DOUBLE, PROC_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "SMT-calibrated CPU time of each process",
	  "The software PURR's time charged to the process: at every context\n"
	  "switch, each thread's run since the last one is credited dt x c(k) for\n"
	  "each stretch while k threads of its core were busy (the core's factor\n"
	  "table, smt.core.model).  Counter, milliseconds: its rate is the process's\n"
	  "use of whole cores, as AIX pprof -r PURR reports it.  Instances are\n"
	  "named as the proc PMDA names them, \"PID command\", and go a retire period\n"
	  "(a minute unless set) after the process exits.  Where PURR is trusted (POWER), a process's share of\n"
	  "a CPU's busy PURR over a window is its share of that CPU's run time\n"
	  "there, which is what this credits.  Needs the \"sched\" source (see\n"
	  "smtcpu.status).  As proc.* is, served only to a client whose credentials\n"
	  "pmcd knows, and only the processes /proc shows its user (pmdasmtcpu(1),\n"
	  "ACCESS); a command or comm is shown with each control character as \"?\"." },
	{ "smt.proc.busy_cpu", CHARGE_BUSY, PM_TYPE_DOUBLE, PROC_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "Raw CPU time of each process, as the scheduler ran it",
	  "Counter, milliseconds, of the time the process's threads ran on any\n"
	  "CPU (the same time /proc/PID/stat counts as utime + stime, measured at\n"
	  "the context switch; on a VM, less the time the hypervisor stole, as the\n"
	  "kernel counts it).  rate(smt.proc.throughput_cpu) /\n"
	  "rate(smt.proc.busy_cpu) is the process's SMT efficiency: 1 alone on a\n"
	  "core, c(2) = 0.5 for SMT2 siblings busy together throughout." },
	{ "smt.proc.throughput_cpu_lower", CHARGE_LOWER, PM_TYPE_DOUBLE, PROC_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "Least SMT-calibrated CPU time of each process consistent with what was measured",
	  "The software PURR counts the busy siblings of every stretch it charges\n"
	  "(it does not estimate the overlap from busy fractions, as the model does\n"
	  "for smt.core.throughput_cpu_lower and _upper), so the least and the most\n"
	  "the charge can be are the charge itself, as smt.core's bounds are on a\n"
	  "core measured by \"sched\" (smt.core.source).  Here so that a sum of\n"
	  "bounds over services and cores (pcp smtcpu chargeback) has a term for\n"
	  "each.  Counter, milliseconds.  As smt.proc.throughput_cpu, to a client\n"
	  "allowed to see the process only." },
	{ "smt.proc.throughput_cpu_upper", CHARGE_UPPER, PM_TYPE_DOUBLE, PROC_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "Most SMT-calibrated CPU time of each process consistent with what was measured",
	  "As smt.proc.throughput_cpu_lower, the upper bound: the same figure, for\n"
	  "the same reason." },
};

static const struct metric cgroup_metrics[] = {
	{ "smt.cgroup.throughput_cpu", CHARGE_THROUGHPUT, PM_TYPE_DOUBLE, CGROUP_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "SMT-calibrated CPU time of each cgroup",
	  "As smt.proc.throughput_cpu, summed over the tasks of each cgroup v2\n"
	  "(instances are paths below the cgroup2 mount, \"/\" the root): the figure\n"
	  "to charge back by service or container." },
	{ "smt.cgroup.busy_cpu", CHARGE_BUSY, PM_TYPE_DOUBLE, CGROUP_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "Raw CPU time of each cgroup, as the scheduler ran it",
	  "As smt.proc.busy_cpu, per cgroup v2." },
	{ "smt.cgroup.throughput_cpu_lower", CHARGE_LOWER, PM_TYPE_DOUBLE, CGROUP_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "Least SMT-calibrated CPU time of each cgroup consistent with what was measured",
	  "The software PURR counts the busy siblings of every stretch it charges\n"
	  "(it does not estimate the overlap from busy fractions, as the model does\n"
	  "for smt.core.throughput_cpu_lower and _upper), so the least and the most\n"
	  "the charge can be are the charge itself, as smt.core's bounds are on a\n"
	  "core measured by \"sched\" (smt.core.source).  Here so that a sum of\n"
	  "bounds over services and cores (pcp smtcpu chargeback) has a term for\n"
	  "each.  Counter, milliseconds." },
	{ "smt.cgroup.throughput_cpu_upper", CHARGE_UPPER, PM_TYPE_DOUBLE, CGROUP_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "Most SMT-calibrated CPU time of each cgroup consistent with what was measured",
	  "As smt.cgroup.throughput_cpu_lower, the upper bound: the same figure,\n"
	  "for the same reason." },
};

static const struct metric map_metrics[] = {
	{ "smtcpu.sched.map.entries", SCHED_MAP_ENTRIES, PM_TYPE_U32, MAP_INDOM, PM_SEM_INSTANT, COUNT_UNITS,
	  "Entries in each of the software PURR's charge maps",
	  "Processes (\"tasks\") or cgroups (\"cgroups\") the map holds after the last\n"
	  "pass: those alive, processes ended less than about 2 s ago, and cgroups\n"
	  "removed less than a retire period ago (\"retire\" in smtcpu.conf, a minute\n"
	  "unless set).  No value unless the program runs (smtcpu.status[\"sched\"])." },
	{ "smtcpu.sched.map.peak", SCHED_MAP_PEAK, PM_TYPE_U32, MAP_INDOM, PM_SEM_INSTANT, COUNT_UNITS,
	  "Most entries each charge map has held",
	  "The highest smtcpu.sched.map.entries seen since the agent started: with\n"
	  "smtcpu.sched.map.capacity, how near the map came to full." },
	{ "smtcpu.sched.map.capacity", SCHED_MAP_CAPACITY, PM_TYPE_U32, MAP_INDOM, PM_SEM_DISCRETE, COUNT_UNITS,
	  "Entries each charge map can hold",
	  "Fixed when the program loads: 65536 processes unless \"processes\" in\n"
	  "smtcpu.conf says, and 16384 cgroups." },
	{ "smtcpu.sched.map.refused", SCHED_MAP_REFUSED, PM_TYPE_U64, MAP_INDOM, PM_SEM_COUNTER, COUNT_UNITS,
	  "Charges a full map had no room for",
	  "New processes or cgroups the program could not enter because the map\n"
	  "was full, counted as the program met them.  Their time is in\n"
	  "smtcpu.sched.map.refused_time, and so in no instance of smt.proc.* or\n"
	  "smt.cgroup.*, though the CPUs' smt.throughput_cpu has it.  0 means the\n"
	  "per-process and per-cgroup figures lost nothing." },
	{ "smtcpu.sched.map.refused_time", SCHED_MAP_REFUSED_TIME, PM_TYPE_DOUBLE, MAP_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "SMT-calibrated time a full map could not charge",
	  "Counter, milliseconds: the calibrated time of the charges counted in\n"
	  "smtcpu.sched.map.refused, and of pending charges whose process had found\n"
	  "no room.  Added to the sum over smt.proc.throughput_cpu it makes up what\n"
	  "the CPUs were charged." },
};

/* What the software PURR charged an instance of PROC_INDOM or CGROUP_INDOM,
 * in fractional ms, as smt.busy_cpu: whole ms would lose half a ms on
 * average per short-lived process, and the sum over processes would fall
 * short of the system's.  busy: the raw busy time, not the calibrated.
 * A process goes only to a client allowed to see it (pmda/clients.c):
 * none to one without credentials, no value for one /proc hides from it. */
static int charged(int serial, void *priv, bool busy, pmAtomValue *atom)
{
	const struct sched_table *t = sched_table_of(serial);
	int slot = (int)(intptr_t)priv - 1;
	struct process_view view;
	int sts;

	if (slot < 0 || slot >= t->cap || !t->e[slot].used)
		return PM_ERR_INST;
	if (serial == PROC_INDOM) {
		if ((sts = client_process_access(&view)) < 0)
			return sts;
		if (!client_sees(&view, t->e[slot].owner))
			return PMDA_FETCH_NOVALUES;
	}
	atom->d = (double)(busy ? t->e[slot].busy : t->e[slot].clock) / 1e6;
	return PMDA_FETCH_STATIC;
}

/* The bounds are the figure itself: what the software PURR measured. */
static int fetch_charge(int serial, unsigned int item, void *priv, pmAtomValue *atom)
{
	if (item > CHARGE_UPPER)
		return PM_ERR_PMID;
	return charged(serial, priv, item == CHARGE_BUSY, atom);
}

static int fetch_proc(unsigned int item, void *priv, pmAtomValue *atom)
{
	return fetch_charge(PROC_INDOM, item, priv, atom);
}

static int fetch_cgroup(unsigned int item, void *priv, pmAtomValue *atom)
{
	return fetch_charge(CGROUP_INDOM, item, priv, atom);
}

/* priv is the map (enum sp_map) + 1; no values while the program is off. */
static int fetch_map(unsigned int item, void *priv, pmAtomValue *atom)
{
	int map = (int)(intptr_t)priv - 1;
	const struct sched_map_use *u;

	if (map < 0 || map >= SP_NMAPS)
		return PM_ERR_INST;
	if (!sched()->on)
		return PMDA_FETCH_NOVALUES;
	u = &sched()->maps[map];
	switch (item) {
	case SCHED_MAP_ENTRIES: atom->ul = u->entries; break;
	case SCHED_MAP_PEAK: atom->ul = u->peak; break;
	case SCHED_MAP_CAPACITY: atom->ul = u->capacity; break;
	case SCHED_MAP_REFUSED: atom->ull = u->refused.entries; break;
	case SCHED_MAP_REFUSED_TIME: atom->d = (double)u->refused.clock / 1e6; break;
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

static const struct metric uid_metrics[] = {
	{ "smtcpu.sched.uid.tasks", SCHED_UID_TASKS, PM_TYPE_U32, UID_INDOM, PM_SEM_INSTANT, COUNT_UNITS,
	  "Processes of each uid in the software PURR's tasks map",
	  "Entries of the \"tasks\" map held for processes of this uid after the\n"
	  "last pass.  A uid holding half of smtcpu.sched.map.capacity has\n"
	  "its new processes refused (smtcpu.sched.uid.refused) until some of its\n"
	  "own leave; other uids' are not.  As smt.proc.*, to a client with\n"
	  "credentials only, and to one that /proc shows only its own processes,\n"
	  "its own uid only." },
	{ "smtcpu.sched.uid.refused", SCHED_UID_REFUSED, PM_TYPE_U64, UID_INDOM, PM_SEM_COUNTER, COUNT_UNITS,
	  "New processes of each uid refused for its share",
	  "Counter: processes of this uid the program could not enter in the\n"
	  "\"tasks\" map because the uid held half of it, counted as the\n"
	  "program met them (a process refused is met again at its next switch).\n"
	  "Their time is in smtcpu.sched.uid.refused_time and\n"
	  "smtcpu.sched.map.refused_time, not in smt.proc.*." },
	{ "smtcpu.sched.uid.refused_time", SCHED_UID_REFUSED_TIME, PM_TYPE_DOUBLE, UID_INDOM, PM_SEM_COUNTER, MS_UNITS,
	  "SMT-calibrated time of each uid's processes refused",
	  "Counter, milliseconds: the calibrated time of the charges counted in\n"
	  "smtcpu.sched.uid.refused." },
};

/* priv is the uid's place in sched()->uids + 1, as this pass published
 * it.  A uid's figures are a user's, as its processes are: none to a
 * client without credentials, and its own uid's alone to one /proc shows
 * only its own processes. */
static int fetch_uid(unsigned int item, void *priv, pmAtomValue *atom)
{
	int i = (int)(intptr_t)priv - 1;
	const struct sched_uid *u;
	struct process_view view;
	int sts;

	if (i < 0 || i >= sched()->nuids)
		return PM_ERR_INST;
	if ((sts = client_process_access(&view)) < 0)
		return sts;
	u = &sched()->uids[i];
	if (!client_sees(&view, u->uid))
		return PMDA_FETCH_NOVALUES;
	switch (item) {
	case SCHED_UID_TASKS: atom->ul = u->tasks; break;
	case SCHED_UID_REFUSED: atom->ull = u->refused; break;
	case SCHED_UID_REFUSED_TIME: atom->d = (double)u->refused_clock / 1e6; break;
	default: return PM_ERR_PMID;
	}
	return PMDA_FETCH_STATIC;
}

/* The charge maps, named once; the processes, cgroups and uids, after
 * every pass (pmda/sched_publish.c). */
static void refresh_sched(double now)
{
	static const char *const names[SP_NMAPS] = { [SP_MAP_TASKS] = "tasks",
						     [SP_MAP_CGROUPS] = "cgroups" };
	static bool named;

	if (!named)
		for (int m = 0; m < SP_NMAPS; m++)
			pmdaCacheStore(indom(MAP_INDOM), PMDA_CACHE_ADD, names[m],
				       (void *)(intptr_t)(m + 1));
	named = true;
	sched_publish(now);
}

const struct cluster proc_cluster = {
	METRICS(proc_metrics),
	.fetch = fetch_proc,
	.refresh = refresh_sched,
	.list = sched_instance_list,
};
const struct cluster sched_uid_cluster = { METRICS(uid_metrics), .fetch = fetch_uid };
const struct cluster cgroup_cluster = { METRICS(cgroup_metrics), .fetch = fetch_cgroup };
const struct cluster sched_map_cluster = { METRICS(map_metrics), .fetch = fetch_map };

