/*
 * CPUs, cores (thread siblings), sockets and L3 domains from sysfs.
 * Arrays are sized once for every possible CPU, so a rescan after CPUs go
 * offline or online allocates nothing.
 */
#ifndef SMTCPU_TOPOLOGY_H
#define SMTCPU_TOPOLOGY_H

#include <stdbool.h>

#include "smtmodel.h"

struct topo_core {
	int first_cpu;			/* lowest online thread: the core is "core<first_cpu>" */
	int nthreads;			/* online threads */
	int cpus[SMT_MAX_THREADS];	/* ascending */
	int socket;
};

struct topology {
	int ncpus;		/* possible CPU numbers are 0 .. ncpus-1 */
	unsigned char *online;	/* [ncpus] */
	int *core_of;		/* [ncpus] index into cores[], -1 when offline */
	int *socket_of;		/* [ncpus] physical package, -1 when offline */
	int *l3_of;		/* [ncpus] lowest CPU sharing its L3, -1 when unknown */
	struct topo_core *cores;	/* [ncpus], ncores in use, ordered by first_cpu */
	int ncores;
	int nonline;
	int nsockets;		/* highest package id + 1 */
	int max_threads;	/* most online threads on any core */
	unsigned generation;	/* bumped by every rescan that changed something */
	/* CPU lists counted as one core over thread_siblings_list (the
	 * configuration's "siblings" lines); set before a scan. */
	const char (*sibling_sets)[64];
	int nsibling_sets;
	/* AMD compute units (families 15h and 16h): the kernel lists a
	 * unit's two cores as thread siblings, each with its own core_id;
	 * they are split, as hwloc does.  Set before a scan. */
	bool split_compute_units;

	/* An older kernel's files, as the last scan found them: */
	bool online_per_cpu;	/* no online list: each cpuN/online */
	bool sibling_masks;	/* no thread_siblings_list: the thread_siblings mask */
	int *package_by_first;	/* [ncpus] package of a core_siblings set, by its lowest CPU */
	int npackage_sets;

	int online_fd;		/* kept open: checked every sampling pass */
	char *online_text;	/* what it said at the last scan */
	char *check_text;	/* what it says now */
	int textsize;
	int online_error;	/* errno reading the online list (EINVAL: malformed), 0 if fine */
};

/* Sizes the arrays from /sys/devices/system/cpu/possible and scans.
 * Returns 0 or -errno (the topology is then empty but usable). */
int topology_init(struct topology *t);
void topology_free(struct topology *t);

/* Re-reads the online list; rescans if it changed.  Returns 1 if the
 * topology changed, 0 if not. */
int topology_refresh(struct topology *t);

/* Rescans unconditionally. */
int topology_scan(struct topology *t);

#endif
