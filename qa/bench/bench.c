/*
 * Costs for make bench.
 *
 *   bench sample ROOT N
 *       N sampling passes of the smtcpu library over the fixture ROOT, each
 *       after the fixture's /proc/stat moved on; prints microseconds per pass
 *       and the allocations made during the passes.
 *   bench fetch DSO INIT DOMAIN CLUSTER ITEM N
 *       loads a PMDA DSO in a local context and times N fetches of one metric,
 *       all instances; prints microseconds per fetch and the instance count.
 *       --prime ROOT: first store to smtcpu.control.sample twice, moving the
 *       fixture on, so that smtcpu has values (BENCH_NCPUS CPUs).
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "counters.h"
#include "log.h"
#include "source_amd.h"
#include "sampler.h"
#include "sysroot.h"

#include "alloc_count.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median of batches: steadier than a mean on a shared machine. */
static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp);
	return v[n / 2];
}

static void quiet(enum smt_log_level level, const char *message)
{
	(void)level; (void)message;
}

/* Rewrites /proc/stat in place with every CPU's user and idle moved on. */
static void move_stat(const char *root, int ncpus, int round)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/proc/stat", root);
	if ((f = fopen(path, "r+")) == NULL) {
		perror(path);
		exit(1);
	}
	fprintf(f, "cpu  0 0 0 0 0 0 0 0 0 0\n");
	for (int c = 0; c < ncpus; c++) {
		int busy = (c * 7 + round * 13) % 100;
		fprintf(f, "cpu%d %d 100 2000 %d 300 50 70 0 0 0\n", c,
			5000 + round * 100 + busy, 90000 + round * 100 + (100 - busy));
	}
	fprintf(f, "intr 123456789 44 9 0 0 0\nctxt 987654321\nbtime 1763700000\n"
		   "processes 123456\nprocs_running 1\nprocs_blocked 0\n");
	if (ftruncate(fileno(f), ftell(f)) < 0)
		perror("ftruncate");
	fclose(f);
}

static int sample(const char *root, int n, const char *config)
{
	struct sampler s;
	double t[32];
	long before;
	int batches = 32, per = n / batches > 0 ? n / batches : 1, round = 0;

	smt_log_set_sink(quiet);
	sr_set_root(root);
	if (sampler_init(&s, config, 1) < 0) {
		fprintf(stderr, "bench: cannot sample %s: %s\n", root, s.status[SRC_CPUSTAT]);
		return 1;
	}
	move_stat(root, s.topo.nonline, round++);
	sampler_pass(&s);
	before = allocations;
	for (int b = 0; b < batches; b++) {
		double elapsed = 0;
		for (int i = 0; i < per; i++) {
			move_stat(root, s.topo.nonline, round++);	/* not timed */
			double start = now();
			sampler_pass(&s);
			elapsed += now() - start;
		}
		t[b] = elapsed / per;
	}
	printf("sample_us %.1f allocations %ld cpus %d cores %d groups %d\n",
	       median(t, batches) * 1e6, allocations - before, s.topo.nonline, s.topo.ncores,
	       amd_groups(sampler_amd(&s)));
	sampler_free(&s);
	return 0;
}

/* What one group read costs through the perf_event_open backend: a group
 * of four software events on CPU 0, as a Data Fabric group of four. */
static int perfread(int n)
{
	struct ctr_event ev[4];
	struct ctr_backend *b = ctr_perf_new(1);
	struct ctr_reading r;
	double t[32];
	int h, per = n / 32 > 0 ? n / 32 : 1;

	for (int i = 0; i < 4; i++)
		ev[i] = (struct ctr_event){ PERF_TYPE_SOFTWARE, { PERF_COUNT_SW_CPU_CLOCK, 0, 0 } };
	if ((h = b->ops->open_group(b, 0, ev, 4)) < 0) {
		fprintf(stderr, "bench: %s\n", b->why);
		return 1;
	}
	for (int k = 0; k < 32; k++) {
		double start = now();
		for (int i = 0; i < per; i++)
			b->ops->read_group(b, h, &r);
		t[k] = (now() - start) / per;
	}
	printf("read_us %.2f\n", median(t, 32) * 1e6);
	b->ops->destroy(b);
	return 0;
}

/* smtcpu has values after two sampling passes with time moving on between
 * them: store to smtcpu.control.sample (cluster 4, item 2), as pmstore does,
 * around moving the fixture on. */
static void prime(int domain, const char *root)
{
	pmValueSet vs = { .pmid = pmID_build((unsigned)domain, 4, 2), .numval = 1,
			  .valfmt = PM_VAL_INSITU };
	pmResult *store = calloc(1, sizeof *store);
	int ncpus = atoi(getenv("BENCH_NCPUS"));
	/* ahead of any earlier run on this tree: each run passes a larger base */
	int base = getenv("BENCH_ROUND") ? atoi(getenv("BENCH_ROUND")) : 1000000;

	vs.vlist[0].inst = PM_IN_NULL;
	vs.vlist[0].value.lval = 1;
	store->numpmid = 1;
	store->vset[0] = &vs;
	for (int round = 1; round <= 2; round++) {
		move_stat(root, ncpus, base + round);
		if (pmStore(store) < 0) {
			fprintf(stderr, "bench: store to smtcpu.control.sample refused\n");
			exit(1);
		}
	}
	free(store);
}

/* Through libpcp's local context, as pminfo -L: the DSO in this process,
 * called as pmcd would call it, without the IPC. */
static int fetch(const char *dso, const char *init_name, int domain, int cluster,
		 const char *items, int n, const char *prime_root)
{
	char spec[4096];
	pmID pmids[16];
	int first = atoi(items), last = strchr(items, '-') ? atoi(strchr(items, '-') + 1) : first;
	int npmids = last - first + 1;
	pmResult *result;
	double t[32];
	int batches = 32, per = n / batches > 0 ? n / batches : 1, numval = 0, sts;
	char *why;

	if (npmids < 1 || npmids > 16) {
		fprintf(stderr, "bench: items %s: expected N or N-M, at most 16\n", items);
		return 1;
	}
	for (int i = 0; i < npmids; i++)
		pmids[i] = pmID_build((unsigned)domain, (unsigned)cluster, (unsigned)(first + i));
	snprintf(spec, sizeof spec, "add,%d,%s,%s", domain, dso, init_name);
	if ((why = pmSpecLocalPMDA("clear")) != NULL || (why = pmSpecLocalPMDA(spec)) != NULL) {
		fprintf(stderr, "bench: %s: %s\n", spec, why);
		return 1;
	}
	if ((sts = pmNewContext(PM_CONTEXT_LOCAL, NULL)) < 0) {
		fprintf(stderr, "bench: local context: %s\n", pmErrStr(sts));
		return 1;
	}
	if (prime_root)
		prime(domain, prime_root);
	for (int b = 0; b < batches; b++) {
		double start = now();
		for (int i = 0; i < per; i++) {
			if ((sts = pmFetch(npmids, pmids, &result)) < 0) {
				fprintf(stderr, "bench: fetch: %s\n", pmErrStr(sts));
				return 1;
			}
			numval = result->vset[npmids - 1]->numval;
			pmFreeResult(result);
		}
		t[b] = (now() - start) / per;
	}
	printf("fetch_us %.1f instances %d\n", median(t, batches) * 1e6, numval);
	return 0;
}

int main(int argc, char **argv)
{
	if ((argc == 4 || argc == 5) && strcmp(argv[1], "sample") == 0)
		return sample(argv[2], atoi(argv[3]), argc == 5 ? argv[4] : NULL);
	if (argc == 3 && strcmp(argv[1], "perfread") == 0)
		return perfread(atoi(argv[2]));
	if (argc == 8 && strcmp(argv[1], "fetch") == 0)
		return fetch(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]), argv[6],
			     atoi(argv[7]), NULL);
	if (argc == 10 && strcmp(argv[1], "fetch") == 0 && strcmp(argv[8], "--prime") == 0)
		return fetch(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]), argv[6],
			     atoi(argv[7]), argv[9]);
	fprintf(stderr, "Usage: bench sample ROOT N | "
		"bench fetch DSO INIT DOMAIN CLUSTER ITEM[-ITEM] N [--prime ROOT]\n");
	return 2;
}
