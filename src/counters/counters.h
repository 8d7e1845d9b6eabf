/*
 * Counter backends: one small interface to open, read and close a group of
 * counting events on one CPU, with two implementations — perf_event_open
 * (counters_perf.c) and a replay of recorded counter traces (counters_replay.c,
 * serving what replay_trace.c parsed; for tests and the fixtures).  The
 * multiplexing layer above sees only this.
 *
 * A group's members always share one window: each reading carries the
 * group's time enabled and time running, and a whole group is read at once.
 */
#ifndef SMTCPU_COUNTERS_H
#define SMTCPU_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#define CTR_GROUP_MAX 16	/* members per group: the most counters any PMU has */

struct ctr_event {
	uint32_t type;		/* attr.type: the PMU's sysfs type, or PERF_TYPE_SOFTWARE */
	uint64_t config[3];	/* attr.config, config1, config2 */
};

struct ctr_reading {
	uint64_t enabled, running;	/* ns, cumulative, the group's */
	uint64_t value[CTR_GROUP_MAX];	/* raw counts, member by member */
};

struct ctr_backend;

#define CTR_READ_ON_CPU 1	/* read_group: served without interrupting the group's CPU */

struct ctr_backend_ops {
	/* Opens n events on cpu as one group (the first leads).  Returns a
	 * handle >= 0, or -errno (EACCES, ENOENT, EBUSY, ...). */
	int (*open_group)(struct ctr_backend *b, int cpu, const struct ctr_event *ev, int n);
	/* Reads every member of a group in one go.  Returns 0 for a read
	 * from the caller's CPU (perf's read(2), which interrupts the CPU that
	 * holds the group unless it is the caller's; or its replay),
	 * CTR_READ_ON_CPU for one served from readings taken on the group's
	 * own CPU (no interrupt), or -errno. */
	int (*read_group)(struct ctr_backend *b, int handle, struct ctr_reading *r);
	void (*close_group)(struct ctr_backend *b, int handle);
	/* Called once at the start of every sampling pass (the replay moves
	 * to its next step; perf_event_open has nothing to do). */
	void (*begin_pass)(struct ctr_backend *b);
	void (*destroy)(struct ctr_backend *b);
};

struct ctr_backend {
	const struct ctr_backend_ops *ops;
	char name[16];		/* "perf_event", "replay" */
	char why[256];		/* what the last failure was, in words */
};

/* The perf_event_open backend, with room for max_groups open groups. */
struct ctr_backend *ctr_perf_new(int max_groups);

/* The file descriptors of a perf backend's group, its leader first, in
 * fd[CTR_GROUP_MAX]: how many. */
int ctr_perf_group_fds(const struct ctr_backend *perf, int handle, int *fd);

/* The local-read backend (counters_local.c): perf's groups, each CPU's read
 * on that CPU by a BPF program every period_ms, carried to the pass.  NULL
 * with why where the program cannot be loaded (no CAP_BPF, an old kernel). */
struct ctr_backend *ctr_local_new(int max_groups, int ncpus, unsigned period_ms, char *why, size_t whysize);

/* Of a local-read backend, the groups read from the pass's CPU instead (no
 * timer on theirs, or the program could not read them); -1 for another. */
int ctr_local_direct(const struct ctr_backend *b);

/* A local-read backend's timers set to period_ms (0: 1000), as the pass's
 * period changes: 0 (also for another backend, which has none), or -errno
 * where a timer would not change (it keeps its old period, and its values
 * are carried as before). */
int ctr_local_set_period(struct ctr_backend *b, unsigned period_ms);

/* The replay backend over a trace file (format in replay_trace.h).
 * Returns NULL with why filled in when the file cannot be used. */
struct ctr_backend *ctr_replay_new(const char *path, int max_groups, char *why, size_t whysize);

/* True when the replay has no more steps: its counters stand still. */
int ctr_replay_ended(const struct ctr_backend *b);

/* The backend a configuration asks for: a replay of the trace at replay
 * (when not empty), or perf_event_open.  NULL with why ("replay: ...",
 * "out of memory ...") when it cannot be had. */
struct ctr_backend *ctr_backend_new(const char *replay, int max_groups, char *why, size_t whysize);

/* The same for counters read on every CPU: the local-read backend where
 * its program loads (how says so), else perf_event_open (how says why). */
struct ctr_backend *ctr_backend_new_local(const char *replay, int max_groups, int ncpus, unsigned period_ms,
					  char *how, size_t howsize, char *why, size_t whysize);

/* What an open's -errno means for counting, in words (the one wording of
 * every source that counts), in buf; returns buf. */
#define CTR_ERROR_LEN 128
const char *ctr_open_error(int err, char *buf, size_t size);

#endif
