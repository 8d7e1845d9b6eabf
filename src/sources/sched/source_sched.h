/*
 * The software PURR as a source of the sampler: per CPU, the calibrated
 * clocks of sched_purr.bpf.c become the sampler's measured basis (after
 * PURR, before the model); per process and per cgroup, what each was
 * charged, for smt.proc.* and smt.cgroup.*.  source_sched.c has the
 * source's steps and the basis, sched_charges.c the charges.
 */
#ifndef SMTCPU_SOURCE_SCHED_H
#define SMTCPU_SOURCE_SCHED_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "source.h"
#include "sched_purr.h"
#include "sched_table.h"

/* Reads of the maps and cores a pass, at most, while charges move across
 * them (sched_purr_settled). */
#define SCHED_READ_TRIES 3
/* How often cgroups that were removed are looked for. */
#define SCHED_CGROUP_CHECK_NS (10 * 1000000000ULL)
/* How far a CPU's clock may read below the last reading before it is taken
 * for a counter that started again (src/util/highwater.h): far more than the
 * program ever waits for a core's lock, far less than a restart loses. */
#define SCHED_BACK_SLACK_NS 1000000000ULL
/* An ended process leaves the program's map this long after it ended (its
 * CPUs' last charges have landed long before), though it is served
 * retire_ns: a crowd of short-lived processes holds the map only as long. */
#define SCHED_FORGET_NS 2000000000ULL

/* A CPU's software PURR, as increments past a high-water mark: never back. */
struct sched_clock {
	uint64_t clock, busy;		/* calibrated and raw busy ns, cumulative */
	bool fresh;			/* grown by a reading this pass and one the pass before */
	bool read;			/* read this pass (a first reading is a baseline) */
	uint64_t win_clock;		/* clock where the core's window began */
	bool win_ok;			/* win_clock is a reading */
};

/* What the source keeps of one CPU. */
struct sched_cpu {
	struct sched_clock clk;		/* the measured basis "sched" */
	int core, slot;			/* where the program counts it (a core by its
					   first CPU), -1 not counted */
	uint64_t last_clock, last_busy;	/* the last reading */
	uint32_t last_missed;
	bool have_last;
	int nmapped;			/* as a core's first CPU: the CPUs mapped to it */
};

/* How full one of the program's charge maps is, and what it refused. */
struct sched_map_use {
	uint32_t entries, peak;		/* now, and the most seen */
	uint32_t capacity;
	struct sp_refused refused;	/* cumulative, from the program */
};

/* What one uid holds of the program's tasks map, and what its share
 * refused (SP_UID_SHARE). */
struct sched_uid {
	uint32_t uid;			/* SP_UID_UNKNOWN: charged with no task at hand */
	uint32_t tasks;
	uint64_t refused;		/* newcomers refused, cumulative */
	uint64_t refused_clock;		/* calibrated ns they held */
};

struct sched_state {
	struct sched_purr sp;
	bool on;			/* the program runs */
	uint64_t retire_ns;		/* an exited process or removed cgroup is served
					   this long, then its instance is inactive as long
					   ("retire" in the configuration file) */
	int ncpus;
	struct sched_cpu *cpu;		/* [ncpus], NULL while the program is off */
	int *sweep;			/* [ncpus] CPUs to sweep, a list for cpusweep_run
					   (in cpu's allocation, after its last entry) */
	struct sched_table procs, cgroups;
	char cgroup_mount[PATH_MAX];	/* "" when there is no cgroup2 */
	uint64_t next_cgroup_check;
	uint64_t task_errors;		/* reads of tasks[] or cgroups[] that failed */
	uint64_t ghosts;		/* processes kept after their PID was used again */
	uint64_t missed;		/* switches the program found it had not seen */
	uint64_t rereads;		/* reads made again: a charge moved across one */
	uint64_t unsettled;		/* passes whose every try saw a charge move */
	int map_error;			/* -errno of the last failed update of the maps, or 0 */
	struct sched_map_use maps[SP_NMAPS];	/* by enum sp_map */
	struct sched_uid uids[SP_UIDS];	/* every uid holding tasks or refused some */
	int nuids;
};

extern const struct sampler_source sched_source;

#endif
