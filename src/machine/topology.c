#include "topology.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpulist.h"
#include "log.h"
#include "parsenum.h"
#include "readfile.h"
#include "sysroot.h"

#define CPU_DIR "/sys/devices/system/cpu"

/* Possible CPU count: the "possible" list, else the cpuN directories;
 * at most CPULIST_MAX_CPUS, so no size below can overflow. */
static int count_possible(void)
{
	char text[4096], path[PATH_MAX];
	struct dirent *d;
	int span = -1;
	DIR *dir;

	if (sr_read_small(text, sizeof text, CPU_DIR "/possible") > 0 &&
	    (span = cpulist_span(text)) > 0)
		return span;
	if (sr_path(path, sizeof path, CPU_DIR) < 0 || (dir = opendir(path)) == NULL)
		return -ENOENT;
	span = 0;
	while ((d = readdir(dir)) != NULL) {
		uint64_t n;
		const char *end;

		if (strncmp(d->d_name, "cpu", 3) != 0 ||
		    (end = pn_u64_prefix(d->d_name + 3, &n)) == NULL || *end != '\0')
			continue;
		if (n >= CPULIST_MAX_CPUS) {
			smt_log_once(SMT_LOG_WARNING, "%s: CPU numbers above %d are not counted",
				     d->d_name, CPULIST_MAX_CPUS - 1);
			continue;
		}
		if ((int)n + 1 > span)
			span = (int)n + 1;
	}
	closedir(dir);
	return span > 0 ? span : -ENOENT;
}

int topology_init(struct topology *t)
{
	int n = count_possible();

	memset(t, 0, sizeof *t);
	t->online_fd = -1;
	if (n < 0) {
		smt_log(SMT_LOG_ERROR, "no CPUs under %s%s: topology unknown",
			sr_root()[1] ? sr_root() : "", CPU_DIR);
		return n;
	}
	t->ncpus = n;
	t->textsize = 8 * n + 64;	/* room for the longest list of n CPUs (n is bounded) */
	t->online = calloc((size_t)n, 1);
	t->core_of = calloc((size_t)n, sizeof(int));
	t->socket_of = calloc((size_t)n, sizeof(int));
	t->l3_of = calloc((size_t)n, sizeof(int));
	t->package_by_first = calloc((size_t)n, sizeof(int));
	t->cores = calloc((size_t)n, sizeof(struct topo_core));
	t->online_text = calloc((size_t)t->textsize, 1);
	t->check_text = calloc((size_t)t->textsize, 1);
	if (!t->online || !t->core_of || !t->socket_of || !t->l3_of || !t->package_by_first ||
	    !t->cores || !t->online_text || !t->check_text) {
		topology_free(t);
		return -ENOMEM;
	}
	t->online_fd = sr_open(CPU_DIR "/online");
	if (t->online_fd == -ENOENT)
		t->online_per_cpu = true;	/* kernels before 2.6.26: each cpuN/online */
	else if (t->online_fd < 0)
		smt_log(SMT_LOG_WARNING, "cannot open %s/online: %s; taking every CPU as online",
			CPU_DIR, strerror(-t->online_fd));
	return topology_scan(t);
}

void topology_free(struct topology *t)
{
	if (t->online_fd >= 0)
		close(t->online_fd);
	free(t->online);
	free(t->core_of);
	free(t->socket_of);
	free(t->l3_of);
	free(t->package_by_first);
	free(t->cores);
	free(t->online_text);
	free(t->check_text);
	memset(t, 0, sizeof *t);
	t->online_fd = -1;
}

/* Without the online list: a CPU is online unless its directory is
 * missing or its cpuN/online (device_online's, drivers/base/core.c) says
 * 0; cpu0 often has none, being never taken offline.  As hwloc reads them
 * (topology-linux.c, look_sysfscpu). */
static void read_online_per_cpu(const struct topology *t, unsigned char *online)
{
	long up;

	for (int cpu = 0; cpu < t->ncpus; cpu++)
		online[cpu] = sr_exists(CPU_DIR "/cpu%d", cpu) &&
			      !(sr_read_long(&up, 0, 1, CPU_DIR "/cpu%d/online", cpu) == 0 && up == 0);
}

/* Fills t->online from the online list (or every possible CPU without one). */
static void read_online(struct topology *t)
{
	ssize_t len = -1;

	if (t->online_per_cpu) {
		read_online_per_cpu(t, t->online);
		t->online_error = 0;
		return;
	}

	if (t->online_fd >= 0)
		len = rf_pread(t->online_fd, t->online_text, (size_t)t->textsize);
	if (len > 0 && cpulist_parse(t->online_text, t->online, t->ncpus) >= 0) {
		t->online_error = 0;
		return;
	}
	if (len >= 0 || len == -EFBIG) {
		t->online_error = EINVAL;
		smt_log_once(SMT_LOG_WARNING, "%s/online: malformed list \"%.40s\"; "
			     "taking every CPU as online", CPU_DIR, t->online_text);
	} else if (t->online_fd >= 0) {
		t->online_error = (int)-len;
		smt_log_once(SMT_LOG_WARNING, "%s/online: %s; taking every CPU as online",
			     CPU_DIR, strerror((int)-len));
	}
	memset(t->online, 1, (size_t)t->ncpus);
}

/* The lowest CPU sharing the L3 cache with cpu, or -1. */
static int l3_domain(struct topology *t, int cpu)
{
	char text[4096];
	long level;

	for (int index = 0; index < 8; index++) {
		int first;

		if (sr_read_long(&level, 0, INT_MAX, CPU_DIR "/cpu%d/cache/index%d/level", cpu,
				 index) < 0 || level != 3)
			continue;
		if (sr_read_small(text, sizeof text, CPU_DIR "/cpu%d/cache/index%d/shared_cpu_list",
				  cpu, index) <= 0 ||
		    (first = cpulist_first(text)) < 0 || first >= t->ncpus)
			return -1;
		return first;
	}
	return -1;
}

/* The kernel's core_id, or -1. */
static long core_id(int cpu)
{
	long id;

	return sr_read_long(&id, -1, INT_MAX, CPU_DIR "/cpu%d/topology/core_id", cpu) < 0 ? -1 : id;
}

/* Online siblings of cpu (itself included), ascending, into cpus[]: at most
 * SMT_MAX_THREADS.  Returns how many, or SMT_MAX_THREADS + 1 when the core
 * has more (the first SMT_MAX_THREADS are in cpus[]). */
static int siblings(struct topology *t, int cpu, int cpus[SMT_MAX_THREADS])
{
	int listed[SMT_MAX_THREADS + 1], n = -1, kept = 0, self = 0;
	long own_id;
	char text[4096];
	ssize_t len = 0;

	for (int i = 0; i < t->nsibling_sets && n < 0; i++) {
		int m = cpulist_collect(t->sibling_sets[i], listed, SMT_MAX_THREADS + 1);
		for (int j = 0; j < m && j < SMT_MAX_THREADS + 1; j++)
			if (listed[j] == cpu)
				n = m;
	}
	if (n < 0) {
		len = sr_read_small(text, sizeof text,
				    CPU_DIR "/cpu%d/topology/thread_siblings_list", cpu);
		n = len > 0 ? cpulist_collect(text, listed, SMT_MAX_THREADS + 1) : -1;
	}
	/* Kernels before the lists (2.6.26) have only the mask. */
	if (n < 0 && len == -ENOENT &&
	    (len = sr_read_small(text, sizeof text, CPU_DIR "/cpu%d/topology/thread_siblings",
				 cpu)) > 0 &&
	    (n = cpumask_collect(text, listed, SMT_MAX_THREADS + 1)) >= 0)
		t->sibling_masks = true;
	for (int i = 0; i < n && i < SMT_MAX_THREADS + 1; i++)
		self |= listed[i] == cpu;
	if (n <= 0 || !self) {
		smt_log_once(SMT_LOG_WARNING,
			     "cpu%d: %s topology/thread_siblings_list; counted as a core of its own",
			     cpu, len < 0 ? "no readable" : "malformed");
		cpus[0] = cpu;
		return 1;
	}
	own_id = t->split_compute_units ? core_id(cpu) : -1;
	for (int i = 0; i < n && i < SMT_MAX_THREADS + 1; i++) {
		int c = listed[i];

		if (c >= t->ncpus || !t->online[c] || (t->core_of[c] >= 0 && c != cpu))
			continue;
		if (c != cpu && t->split_compute_units && own_id != core_id(c))
			continue;	/* another core of the same compute unit */
		if (kept == SMT_MAX_THREADS)
			return SMT_MAX_THREADS + 1;
		cpus[kept++] = c;
	}
	return n > SMT_MAX_THREADS + 1 ? SMT_MAX_THREADS + 1 : kept;
}

/*
 * cpu's package: physical_package_id; where the kernel says -1 or has none
 * (POWER LPARs, s390, SPARC), its core_siblings_list set's, the sets
 * numbered in the order met, as lscpu numbers sockets (distinct
 * core_siblings) and hwloc makes a package of each such set
 * (topology-linux.c, look_sysfscpu); with neither, package 0.
 */
static long package_of(struct topology *t, int cpu)
{
	char text[4096];
	long package;
	int n, first;

	n = sr_read_long(&package, -1, INT_MAX, CPU_DIR "/cpu%d/topology/physical_package_id", cpu);
	if (n == 0 && package >= 0)
		return package;
	if (n == -ERANGE)
		smt_log_once(SMT_LOG_WARNING, "cpu%d: physical_package_id out of range", cpu);
	if (sr_read_small(text, sizeof text, CPU_DIR "/cpu%d/topology/core_siblings_list", cpu) <= 0 ||
	    (first = cpulist_first(text)) < 0 || first >= t->ncpus)
		return 0;
	if (t->package_by_first[first] < 0)
		t->package_by_first[first] = t->npackage_sets++;
	return t->package_by_first[first];
}

int topology_scan(struct topology *t)
{
	long package;

	t->sibling_masks = false;
	read_online(t);
	t->ncores = t->nonline = t->nsockets = t->max_threads = t->npackage_sets = 0;
	for (int c = 0; c < t->ncpus; c++) {
		t->core_of[c] = -1;
		t->socket_of[c] = -1;
		t->l3_of[c] = -1;
		t->package_by_first[c] = -1;
	}
	for (int cpu = 0; cpu < t->ncpus; cpu++) {
		struct topo_core *core;
		int n;

		if (!t->online[cpu])
			continue;
		t->nonline++;
		package = package_of(t, cpu);
		t->socket_of[cpu] = (int)package;
		if (package >= t->nsockets)
			t->nsockets = package == INT_MAX ? INT_MAX : (int)package + 1;
		t->l3_of[cpu] = l3_domain(t, cpu);
		if (t->core_of[cpu] >= 0)
			continue;	/* placed already, as a sibling of a lower CPU */

		core = &t->cores[t->ncores];
		core->first_cpu = cpu;
		core->socket = (int)package;
		n = siblings(t, cpu, core->cpus);
		if (n > SMT_MAX_THREADS) {
			smt_log_once(SMT_LOG_WARNING, "core%d: more than %d threads; "
				     "those above cpu%d are left out of the SMT model",
				     cpu, SMT_MAX_THREADS, core->cpus[SMT_MAX_THREADS - 1]);
			n = SMT_MAX_THREADS;
		}
		core->nthreads = n;
		for (int i = 0; i < n; i++)
			t->core_of[core->cpus[i]] = t->ncores;
		if (core->nthreads > t->max_threads)
			t->max_threads = core->nthreads;
		t->ncores++;
	}
	t->generation++;
	return 0;
}

int topology_refresh(struct topology *t)
{
	ssize_t len;

	if (t->online_per_cpu && t->ncpus > 0) {
		/* (check_text holds at least ncpus bytes: textsize) */
		read_online_per_cpu(t, (unsigned char *)t->check_text);
		if (memcmp(t->check_text, t->online, (size_t)t->ncpus) == 0)
			return 0;
		topology_scan(t);
		return 1;
	}
	if (t->online_fd < 0 || t->ncpus == 0)
		return 0;
	len = rf_pread(t->online_fd, t->check_text, (size_t)t->textsize);
	if (len < 0) {
		/* Keep the topology of the last good read; say why, once. */
		if (t->online_error != (int)-len)
			smt_log(SMT_LOG_WARNING, "%s/online: %s; keeping the CPUs seen last",
				CPU_DIR, len == -EFBIG ? "longer than a CPU list can be" :
				strerror((int)-len));
		t->online_error = (int)-len;
		return 0;
	}
	if (strcmp(t->check_text, t->online_text) == 0) {
		t->online_error = 0;
		return 0;
	}
	topology_scan(t);
	return 1;
}
