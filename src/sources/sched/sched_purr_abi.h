/*
 * The software PURR's maps, as the BPF program (sched_purr.bpf.c) and its
 * loader (sched_purr.c) both see them.  Times are CLOCK_MONOTONIC ns, as
 * bpf_ktime_get_ns() gives them.
 *
 * Per core, "acc" is the calibrated time one busy thread has been credited
 * since the core's state began: it grows by dt x c(k) while k threads are
 * busy.  A thread's calibrated clock then grows by acc's growth over each of
 * its busy spells, which is dt x c(k) summed over every change of k in
 * between, without touching the other threads at each change.
 */
#ifndef SMTCPU_SCHED_PURR_ABI_H
#define SMTCPU_SCHED_PURR_ABI_H

#include <linux/bpf.h>
#include <linux/types.h>

#define SP_MAX_THREADS 8	/* = SMT_MAX_THREADS, asserted in sched_purr.h */
#define SP_SHARE_SHIFT 16	/* c(k) is passed as c(k) x 2^16 */
#define SP_NO_CORE 0xffffffffu
#define SP_COMM_LEN 16		/* TASK_COMM_LEN */
#define SP_CGROUP_NAME_LEN 64	/* a cgroup's directory name, as far as kept */
/* A CPU's pending charge goes to the maps once it holds this much busy
 * time, or is this old when its CPU goes idle. */
#define SP_FLUSH_NS 10000000ull

/* Where a CPU's switches are counted: cpus[cpu], core and slot written by
 * the loader.  The program counts the charges it takes out of the CPU's
 * slot into the maps: begun under the core's lock as a charge leaves the
 * slot, landed once it is in the maps.  A reader that finds neither moved
 * across its read of the maps and the cores, and nothing under way before
 * it, has read every charge once.  A cache line a CPU: only that CPU
 * writes it. */
struct sp_cpu {
	__u32 core;		/* index into cores[] and shares[], SP_NO_CORE: not counted */
	__u32 slot;		/* the thread's place in its core, < SP_MAX_THREADS */
	__u64 begun;		/* charges taken out of the slot, cumulative */
	__u64 landed;		/* the last of them now in the maps (its begun) */
	__u64 pad[5];
};

/* shares[core]: c(k) x 2^16 for k = 0..SP_MAX_THREADS busy threads. */
struct sp_shares {
	__u32 share[SP_MAX_THREADS + 1];
};

/*
 * What a CPU has run of one process since it last charged that process in
 * the maps: the spells of the process that runs again and again on the CPU
 * (the common case: a task, idle, the same task) add up here, under the
 * core's lock already held, rather than in two hash maps at every switch.
 * Readers add it to the process's and cgroup's map figures.
 */
struct sp_pending {
	__u64 clock;		/* calibrated ns not yet in tasks[] and cgroups[] */
	__u64 busy;		/* raw ns likewise */
	__u64 start;		/* the process's leader's start_time */
	__u64 cgroup;		/* the cgroup v2 id it ran in */
	__u64 since;		/* when this CPU began adding up for it */
	__u32 tgid;		/* 0: nothing pending */
	__u32 pad;
};

struct sp_thread {
	__u64 clock;		/* calibrated busy ns, cumulative */
	__u64 busy;		/* raw busy ns (running anything but idle), cumulative */
	__u64 acc0;		/* the core's acc when the current spell began */
	__u64 t0;		/* when it began */
	__u64 cgroup;		/* cgroup v2 id of the task running now */
	__u64 start;		/* its process's leader's start_time */
	__u32 tgid;		/* process running now, 0 when idle */
	__u32 running;		/* 1 while a task other than idle runs */
	__u32 missed;		/* switches the kernel did not trace, found since */
	__u32 pad;
	__u64 task0;		/* the CPU's time less steal then (its runqueue's clocks), 0: unknown */
	struct sp_pending pending;
};

/* cores[core], read and written whole under its lock (BPF_F_LOCK). */
struct sp_core {
	struct bpf_spin_lock lock;
	__u32 nbusy;		/* threads running now */
	__u64 last;		/* when acc was last brought up to date */
	__u64 acc;
	struct sp_thread t[SP_MAX_THREADS];
};

/*
 * A process (thread group), charged as its threads switch out: its figures
 * in task_slots[slot], an array the loader maps and reads in place, and
 * tasks[tgid] saying which slot.  (A pass that read a hash of tens of
 * thousands would pay each bucket's walk and each entry's copy out.)  A
 * slot is published by its tgid, written last, and given back by whoever
 * claims it, turning that tgid with a compare-and-swap: the loader, when
 * it retires the process, to 0; a CPU, when a new process takes the PID,
 * to SP_REPLACING and the new process's slot, where other CPUs that found
 * the PID's last process charge the new one meanwhile.  Only the claimant
 * gives the slot back, or puts a new process under the PID in tasks[].
 * (The tgid is 64 bits wide: BPF's 32-bit compare-and-swap needs the v3
 * instruction set.)
 */
#define SP_REPLACING (1ULL << 63)
struct sp_task_ref {
	__u64 start;		/* its leader's start_time: a new process under an old PID differs */
	__u32 slot;
	__u32 pad;
};

struct sp_task {
	__u64 clock;		/* calibrated ns */
	__u64 busy;		/* raw run ns */
	__u64 start;		/* as its sp_task_ref */
	__u64 exited;		/* when the last thread exited, 0 while it lives */
	char comm[SP_COMM_LEN];	/* the leader's, when first charged */
	__u32 uid;		/* the leader's real uid then, SP_UID_UNKNOWN where not at hand */
	__u32 pad;		/* (a cache line each) */
	__u64 tgid;		/* 0 where the slot is free */
};

/* slots_made[0]: slots of task_slots[] handed out fresh so far. */
struct sp_slots {
	struct bpf_spin_lock lock;
	__u32 made;
};

/*
 * One user's share of tasks[]: a uid may hold at most the map's capacity
 * over SP_UID_SHARE entries, so that one user's fork storm cannot keep
 * every other user's processes out (half: one uid may still run a large
 * database's tens of thousands of backends).  What a uid holds is what the program
 * made for it, less what it replaced (a new process under a PID reused)
 * and what the loader removed; each side writes only its own map.
 */
#define SP_UID_SHARE 2
#define SP_UID_UNKNOWN 0xffffffffu
#define SP_UIDS 4096		/* uids counted at once; past them, not bounded */

/* uid_made[uid], written by the program alone. */
struct sp_uid_made {
	__u64 made;		/* entries made for the uid, cumulative */
	__u64 replaced;		/* of them, replaced under their PID by a newcomer */
	__u64 refused;		/* newcomers refused: the uid held its share */
	__u64 refused_clock;	/* calibrated ns their charges held */
};

/* uid_freed[uid], written by the loader alone: entries it removed. */
struct sp_uid_freed {
	__u64 freed;
};

/* cgroups[cgroup v2 id] */
struct sp_cgroup {
	__u64 clock;
	__u64 busy;
	/* As the program first charged it, for naming one already removed
	 * when the loader first reads it: its parent's id and its directory's
	 * name ("" when the task at hand was not in it). */
	__u64 parent;
	char name[SP_CGROUP_NAME_LEN];
};

/* refused[map]: what could not be charged because the map was full (the
 * maps are plain hashes, so nothing already there is ever evicted). */
enum sp_map { SP_MAP_TASKS, SP_MAP_CGROUPS, SP_NMAPS };

struct sp_refused {
	__u64 entries;		/* new entries the map had no room for */
	__u64 clock, busy;	/* calibrated and raw ns those charges held */
};

#endif
