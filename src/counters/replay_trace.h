/*
 * A replay's trace: counter readings recorded (or written by hand) in a
 * text file, parsed once and shared by every replay backend on the file
 * (counters_replay.c serves it, one step per sampling pass).
 *
 * Format, one item per line, "#" to the end of a line is a comment:
 *
 *   group ID CPU TYPE CONFIG[,CONFIG...] [error ERRNO-NAME [TIMES]]
 *       a group the trace covers: opening events (TYPE, CONFIGs in this
 *       order) on CPU gets it, or fails with ERRNO-NAME (EBUSY, ENOSPC,
 *       EACCES, ENOENT, EINVAL), every time or the first TIMES times;
 *       ID is any word.  A member of another PMU than the leader's (a raw
 *       event beside PERF_TYPE_HARDWARE ones) is written TYPE:CONFIG
 *   step
 *       the readings that follow belong to the next sampling pass
 *   ID ENABLED RUNNING COUNT[ COUNT...]
 *       a group's reading in this step: time enabled and running (ns) and
 *       the raw counts, one per member, as the hardware gives them (48-bit
 *       counters wrap)
 *
 * The first step is what opening the groups reads; each sampling pass then
 * moves one step on.  A group with no reading in a step keeps its last one
 * (its counters stood still).  After the last step every group stands still and
 * ctr_replay_ended() is true.  Numbers are decimal or 0x-hex.
 *
 * Bounds: a trace of at most REPLAY_MAX_BYTES, REPLAY_MAX_GROUPS groups, and
 * REPLAY_MAX_READINGS group readings in all (groups x steps); past any of
 * them the trace is refused with the reason.  The file is read whole, its
 * groups and steps counted, and everything allocated once, however many
 * backends replay it.
 */
#ifndef SMTCPU_REPLAY_TRACE_H
#define SMTCPU_REPLAY_TRACE_H

#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include "counters.h"

#define REPLAY_ID_MAX 32
#define REPLAY_MAX_BYTES (64 << 20)
#define REPLAY_MAX_GROUPS 4096
#define REPLAY_MAX_READINGS (1 << 20)	/* 144 MiB of readings */

struct replay_group {
	char id[REPLAY_ID_MAX];
	int cpu, n, error;
	unsigned fail_times, failed;	/* error the first fail_times opens, 0: always */
	uint32_t type[CTR_GROUP_MAX];
	uint64_t config[CTR_GROUP_MAX];
	int opened;
};

/* A trace file parsed once: every backend opened on the same file (AMD's
 * uncore, the core counters and Intel's, each with its own) shares it and
 * its cursor, so the file is read once and all step together. */
struct replay_trace {
	struct replay_trace *next;	/* the traces open now */
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	int users;			/* backends on it */
	struct replay_group *group;	/* [ngroups] */
	int ngroups, nsteps;
	size_t cap_groups, cap_steps;	/* what the first pass counted and allocated */
	struct ctr_reading *reading;	/* [nsteps][ngroups]; a step without a reading copies the last */
	int *index;			/* hash of group ids: [nindex] group + 1, 0 empty */
	unsigned nindex;
	int step;			/* served now: 0 when opened, +1 every pass */
};

/* The trace at path, parsed now or shared with the backends already on
 * the same file (the same inode, size and modification time); NULL with
 * why.  Each one got is released once. */
struct replay_trace *replay_trace_get(const char *path, char *why, size_t whysize);
void replay_trace_release(struct replay_trace *t);

/* The readings of the step the trace is at (its last once it has ended),
 * [ngroups]. */
const struct ctr_reading *replay_trace_row(const struct replay_trace *t);

#endif
