/*
 * What the software PURR has charged to each process or cgroup, as the
 * PMDA serves it: one slot per key (a process's PID, a cgroup's id), found
 * through an open-addressing index.  The arrays grow as processes appear and
 * are reused as they go, so a steady set of processes allocates nothing.
 */
#ifndef SMTCPU_SCHED_TABLE_H
#define SMTCPU_SCHED_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#define SCHED_NAME_MAX 128

struct sched_entry {
	uint64_t key;
	uint32_t gen;		/* changes whenever the slot starts to hold another key */
	bool used;
	bool seen;		/* read this pass */
	uint64_t start;		/* the process's start time, 0 unknown */
	uint64_t clock, busy;	/* calibrated and raw ns, cumulative, never backwards */
	uint64_t read_clock, read_busy;	/* this pass's reading */
	uint64_t exited;	/* when it ended (CLOCK_MONOTONIC ns), 0 while it lives */
	char name[SCHED_NAME_MAX];	/* the instance name */
};

struct sched_table {
	struct sched_entry *e;	/* [cap] */
	int cap, used;
	int *free;		/* [cap] slots not in use, a stack */
	int nfree;
	int *index;		/* [icap] slot + 1 by key hash, 0 empty */
	int icap;		/* a power of two, at least twice cap */
	uint32_t changes;	/* bumped whenever a slot is taken or released */
};

void sched_table_free(struct sched_table *t);

/* The slot holding key, or -1. */
int sched_table_find(const struct sched_table *t, uint64_t key);

/* A fresh slot for key (zeroed, a new gen), growing the table when full:
 * -ENOMEM when it cannot grow.  key must not be in the table. */
int sched_table_claim(struct sched_table *t, uint64_t key);

void sched_table_release(struct sched_table *t, int slot);

#endif
