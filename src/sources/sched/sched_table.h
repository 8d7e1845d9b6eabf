/*
 * What the software PURR has charged to each process or cgroup, as the
 * PMDA serves it: one slot per key (a process's PID, a cgroup's id), found
 * through an open-addressing index.  The arrays grow as processes appear and
 * are reused as they go, lowest first, so a steady set of processes
 * allocates nothing, and they shrink again once a crowd has gone: the few
 * that outlive it (a kernel thread that first ran during it) move down.
 */
#ifndef SMTCPU_SCHED_TABLE_H
#define SMTCPU_SCHED_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#define SCHED_NAME_MAX 128
#define SCHED_OWNER_UNKNOWN UINT32_MAX

struct sched_entry {
	uint64_t key;
	uint32_t gen;		/* the holder's, new at each claim, kept when it moves */
	int moved_from;		/* the slot it left when it last moved down, -1 never */
	bool used;
	bool seen;		/* read this pass */
	uint64_t start;		/* the process's start time, 0 unknown */
	uint64_t clock, busy;	/* calibrated and raw ns, cumulative, never backwards */
	uint64_t read_clock, read_busy;	/* this pass's reading */
	uint64_t exited;	/* when it ended (CLOCK_MONOTONIC ns), 0 while it lives */
	bool ghost;		/* ended, its key taken by another: kept, not read */
	uint32_t owner;		/* a process's uid as /proc showed it when named
				   (SCHED_OWNER_UNKNOWN: gone by then) */
	bool pending;		/* a CPU holds a charge for it not yet in the map */
	bool forgotten;		/* ended, and gone from the program's map: kept, not read */
	char name[SCHED_NAME_MAX];	/* the instance name */
};

struct sched_table {
	struct sched_entry *e;	/* [cap] */
	int cap, used;
	int *free;		/* [cap] slots not in use, a stack */
	int nfree;
	int *index;		/* [icap] slot + 1 by key hash, 0 empty */
	int icap;		/* a power of two, at least twice cap */
	uint32_t changes;	/* bumped whenever a slot is taken, released or moved */
	uint32_t next_gen;
};

void sched_table_free(struct sched_table *t);

/* The slot holding key, or -1. */
int sched_table_find(const struct sched_table *t, uint64_t key);

/* A fresh slot for key (zeroed, a new gen), growing the table when full:
 * -ENOMEM when it cannot grow.  key must not be in the table. */
int sched_table_claim(struct sched_table *t, uint64_t key);

void sched_table_release(struct sched_table *t, int slot);

/* Halves the table when all it holds fits in its lowest quarter; the
 * entries of its upper half move to the lowest free slots, noting where
 * they were (moved_from).  True if it did. */
bool sched_table_shrink(struct sched_table *t);

/* The slot holds the same entry under another key (not in the table). */
void sched_table_rekey(struct sched_table *t, int slot, uint64_t key);

/* Another slot in use whose name's first word (up to a space, which PCP
 * takes for an instance's unique part) is name's, or -1. */
int sched_table_same_word(const struct sched_table *t, int slot, const char *name);

#endif
