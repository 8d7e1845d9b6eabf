/*
 * The software PURR's loader: loads sched_purr.bpf.c onto four tracepoints
 * (sched_switch and cpu_idle, which close a CPU's spells; sched_process_exec
 * and sched_process_exit, which rename a process and note its end), tells it
 * which CPUs make each core and the core's c(k), and reads back the
 * per-thread clocks and the per-process and per-cgroup charges.  Nothing
 * here knows the sampler.
 */
#ifndef SMTCPU_SCHED_PURR_H
#define SMTCPU_SCHED_PURR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpusweep.h"
#include "sched_purr_abi.h"
#include "smtmodel.h"

/* The program's slots per core are the model's threads per core. */
_Static_assert(SP_MAX_THREADS == SMT_MAX_THREADS, "SP_MAX_THREADS must be SMT_MAX_THREADS");

#define SP_TASK_CHUNK 1024	/* cgroups or uids read per batch call */

struct sched_purr_bpf;

struct sched_purr {
	struct sched_purr_bpf *skel;
	int ncpus;			/* entries of cpus[], shares[] and cores[] */
	int cpus_fd, shares_fd, cores_fd, tasks_fd, cgroups_fd, refused_fd;
	int uid_made_fd, uid_freed_fd;
	int npossible;			/* the kernel's possible CPUs: refused[]'s values */
	struct sp_refused *refused;	/* [npossible]: one entry of refused[] as read */
	struct sp_core *core;		/* [ncpus]: cores[] as read by sched_purr_read_cores */
	__u32 *keys;			/* [ncpus]: 0 .. ncpus-1, and the batch cursor */
	struct sp_shares *shares;	/* [ncpus]: what shares[] holds */
	struct sp_cpu *flow[2];		/* [ncpus]: cpus[] as read before and after the maps */
	struct cpusweep sweep;		/* CPU sets for sched_purr_sweep */
	uint64_t now;			/* CLOCK_MONOTONIC ns just after that read */
	struct sp_task *task_slots;	/* task_slots[] mapped: [nslots]; written only to claim a slot */
	uint32_t nslots;
	size_t task_slots_len;
	int task_slots_fd, free_slots_fd, slots_made_fd;
	__u64 cgroup_key[SP_TASK_CHUNK];
	struct sp_cgroup cgroup[SP_TASK_CHUNK];
	__u32 uid_key[SP_TASK_CHUNK];
	struct sp_uid_made uid_made[SP_TASK_CHUNK];
};

/* Loads and attaches the program, cores[] sized for ncpus possible CPUs,
 * tasks[] for processes (each uid a share, SP_UID_SHARE), every CPU not
 * counted until sched_purr_map_cpu.  Returns 0, or -errno
 * with why ("the kernel has no BTF ...", "refused: ...", "out of memory"),
 * having released all it took: sched_purr_close is for an open one. */
int sched_purr_open(struct sched_purr *sp, int ncpus, uint32_t processes, char *why,
		    size_t whylen);
void sched_purr_close(struct sched_purr *sp);

/* Counts cpu's switches as thread slot of core (a core is named by its
 * first CPU), or not at all when core < 0. */
int sched_purr_map_cpu(struct sched_purr *sp, int cpu, int core, int slot);

/* Sets core's c(k), k = 0..SP_MAX_THREADS, from table t (n threads online). */
int sched_purr_set_shares(struct sched_purr *sp, int core, const struct smt_table *t);

/* Starts core's state afresh: its threads are taken as idle until each
 * switches (see sched_purr_sweep). */
int sched_purr_reset_core(struct sched_purr *sp, int core);

/* Makes each CPU in cpus[] switch (this thread runs there a moment), so its
 * slot learns whether it is busy; the caller's affinity is restored.
 * Returns the CPUs it ran on, or -errno (cpusweep_run). */
int sched_purr_sweep(struct sched_purr *sp, const int *cpus, int n);

/* Reads cores[] whole, each core under its lock, into sp->core[]: the
 * entries read, or -errno. */
int sched_purr_read_cores(struct sched_purr *sp);

/* Reads cpus[] whole into sp->flow[which]: 0 before a read of the maps
 * and cores, 1 after it.  The entries read, or -errno. */
int sched_purr_read_flow(struct sched_purr *sp, int which);

/* Whether the maps and cores read between the two readings of cpus[] hold
 * every charge once: no CPU had a charge on its way from its slot to the
 * maps at the first, nor began one before the second.  Else a charge that
 * landed after its entry was read may be in neither. */
bool sched_purr_settled(const struct sched_purr *sp);

/* Thread slot's clocks as of sp->now, the spell under way included, and
 * that spell alone (whose process and cgroup are the slot's tgid and cgroup
 * in sp->core[core].t[slot]; tgid 0 when idle). */
void sched_purr_thread_now(const struct sched_purr *sp, int core, int slot, uint64_t *clock,
			   uint64_t *busy, uint64_t *spell_clock, uint64_t *spell_busy);

/* Calls fn for every process charged so far, read in place from the
 * mapped task_slots[]; returns the count or -errno. */
int sched_purr_each_task(struct sched_purr *sp,
			 void (*fn)(void *arg, uint32_t tgid, const struct sp_task *t), void *arg);
int sched_purr_each_cgroup(struct sched_purr *sp,
			   void (*fn)(void *arg, uint64_t id, const struct sp_cgroup *g), void *arg);

/* What map (enum sp_map) had no room for, summed over the CPUs; -errno
 * when it cannot be read. */
int sched_purr_refused(struct sched_purr *sp, enum sp_map map, struct sp_refused *sum);

/* How many entries map can hold. */
uint32_t sched_purr_capacity(const struct sched_purr *sp, enum sp_map map);

/* Calls fn for every uid the program has counted: what it made, replaced
 * and refused for it, and what the loader freed; returns the count or
 * -errno. */
int sched_purr_each_uid(struct sched_purr *sp,
			void (*fn)(void *arg, uint32_t uid, const struct sp_uid_made *m, uint64_t freed),
			void *arg);

/* Forgets a process (that one: tgid and start) or cgroup the caller has
 * retired; the process's uid has a place in its share again. */
void sched_purr_forget_task(struct sched_purr *sp, uint32_t tgid, uint64_t start);
void sched_purr_forget_cgroup(struct sched_purr *sp, uint64_t id);

#endif
