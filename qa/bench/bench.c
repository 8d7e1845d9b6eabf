/*
 * Costs for make bench.
 *
 *   bench sample ROOT N
 *       N sampling passes of the smtcpu library over the fixture ROOT, each
 *       after the fixture's /proc/stat moved on; prints microseconds per pass
 *       and the allocations made during the passes.
 *   bench perfread N [MEMBERS]
 *       N reads of one group of MEMBERS (4) software events on CPU 0 through
 *       the perf_event_open backend; prints microseconds a read.
 *   bench fetch DSO INIT DOMAIN CLUSTER ITEM N
 *       loads a PMDA DSO in a local context and times N fetches of one metric,
 *       all instances; prints microseconds per fetch and the instance count.
 *       --prime ROOT: first store to smtcpu.control.sample twice, moving the
 *       fixture on, so that smtcpu has values (BENCH_NCPUS CPUs).
 *   bench switch ROUNDS
 *       two processes on CPUs 0 and 1 pass a byte back and forth ROUNDS times
 *       over two pipes, without the software PURR and then with it on those
 *       two CPUs as one core, alternately; prints the medians of the round
 *       trip in ns, of the context switches a round trip on CPUs 0 and 1, the
 *       ns the program adds to each switch, and the ratio with / without;
 *       then, from one more run, the program's own ns a call as the kernel's
 *       BPF statistics count it.
 *   bench corepass ROOT N [CONFIG]
 *       the core counters' part of N sampling passes (src/sources/core/source_core.c: one
 *       read of every group, scaled and added up) beside the bare reads of
 *       the same groups through the same backend, nothing done with them;
 *       prints microseconds of each a pass, the allocations of the timed
 *       passes, the groups and the members read.  ROOT / without CONFIG:
 *       this machine's counters through perf_event_open.
 *   bench schedpass NPROC PASSES [CONFIG]
 *       the sampling pass on this machine (root /, the software PURR on) with
 *       NPROC extra processes the program has charged, all blocked; prints
 *       microseconds per pass, the allocations made in the timed passes and
 *       the processes the pass saw.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <bpf/bpf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "counters.h"
#include "log.h"
#include "source_amd.h"
#include "sampler.h"
#include "sched_purr.h"
#include "source.h"
#include "source_core.h"
#include "source_sched.h"
#include "sysroot.h"

#include "alloc_count.h"
#include "movestat.h"
#include "pingpong.h"

static int sample(const char *root, int n, const char *config)
{
	struct sampler s;
	double t[32];
	long before;
	int batches = 32, per = n / batches > 0 ? n / batches : 1, round = 0;

	smt_log_set_sink(bench_quiet);
	sr_set_root(root);
	if (sampler_init(&s, sampler_sources, sampler_nsources, config, 1) < 0) {
		fprintf(stderr, "bench: cannot sample %s: %s\n", root, s.status[SLOT_CPUSTAT]);
		return 1;
	}
	move_stat(root, s.topo.nonline, round++);
	sampler_pass(&s);
	before = allocations;
	for (int b = 0; b < batches; b++) {
		double elapsed = 0;
		for (int i = 0; i < per; i++)
			elapsed += timed_pass(&s, root, &round);
		t[b] = elapsed / per;
	}
	printf("sample_us %.1f allocations %ld cpus %d cores %d groups %d\n",
	       median(t, batches) * 1e6, allocations - before, s.topo.nonline, s.topo.ncores,
	       amd_groups(sampler_state(&s, &amd_source)));
	sampler_free(&s);
	return 0;
}

/* What one group read costs through the perf_event_open backend: a group
 * of members (four unless told: a Data Fabric group) software events on
 * CPU 0. */
static int perfread(int n, int members)
{
	struct ctr_event ev[CTR_GROUP_MAX];
	struct ctr_backend *b = ctr_perf_new(1);
	struct ctr_reading r;
	double t[32];
	int h, per = n / 32 > 0 ? n / 32 : 1;

	if (members < 1 || members > CTR_GROUP_MAX) {
		fprintf(stderr, "bench: perfread: 1 to %d members\n", CTR_GROUP_MAX);
		return 2;
	}
	for (int i = 0; i < members; i++)
		ev[i] = (struct ctr_event){ PERF_TYPE_SOFTWARE, { PERF_COUNT_SW_CPU_CLOCK, 0, 0 } };
	if ((h = b->ops->open_group(b, 0, ev, members)) < 0) {
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
	if (prime_root) {
		/* a first fetch asks for what is read only while asked for
		 * (SPURR), which the told DSO's passes then read */
		if ((sts = pmFetch(npmids, pmids, &result)) >= 0)
			pmFreeResult(result);
		prime(domain, prime_root);
	}
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

#define SWITCH_REPS 15	/* runs without and with the program, alternately */
#define SCHED_WARMUP 3	/* passes before timing, so the process table has grown */

/* The program's own time a call, from the kernel's statistics over one
 * more run, apart from the timed ones: keeping them costs a clock read
 * either side of each call.  Steadier than the difference of round trips
 * on a shared machine, but without the call's way in and out. */
static int prog_cost(const struct pingpong *p, int rounds, double *ns)
{
	struct sched_purr sp;
	uint64_t ns0, n0, ns1, n1;
	double rtt, sw;
	int stats = bpf_enable_stats(BPF_STATS_RUN_TIME), fd = -1, sts = -1;

	if (stats < 0) {
		fprintf(stderr, "bench: BPF statistics: %s\n", strerror(errno));
		return -1;
	}
	if (purr_on(&sp) == 0) {
		if ((fd = switch_prog(&sp)) < 0)
			fprintf(stderr, "bench: the sched_switch program is not to be found\n");
		else if (prog_stats(fd, &ns0, &n0) == 0 && pingpong(p, rounds, &rtt, &sw) == 0 &&
			 prog_stats(fd, &ns1, &n1) == 0 && n1 > n0) {
			*ns = (double)(ns1 - ns0) / (double)(n1 - n0);
			sts = 0;
		}
		if (fd >= 0)
			close(fd);
		sched_purr_close(&sp);
	}
	close(stats);
	return sts;
}

/* Without and with the program in turn, so that drift on a shared machine
 * falls on both alike; medians of each. */
static int compare_switches(const struct pingpong *p, int rounds)
{
	double off[SWITCH_REPS], on[SWITCH_REPS], sw[2 * SWITCH_REPS], t_off, t_on, per, prog;

	for (int i = 0; i < SWITCH_REPS; i++) {
		struct sched_purr sp;
		int sts;

		if (pingpong(p, rounds, &off[i], &sw[2 * i]) < 0 || purr_on(&sp) < 0)
			return 1;
		sts = pingpong(p, rounds, &on[i], &sw[2 * i + 1]);
		sched_purr_close(&sp);
		if (sts < 0)
			return 1;
	}
	if (prog_cost(p, rounds, &prog) < 0)
		return 1;
	t_off = median(off, SWITCH_REPS);
	t_on = median(on, SWITCH_REPS);
	per = median(sw, 2 * SWITCH_REPS);
	printf("rtt_ns %.0f rtt_sched_ns %.0f switches %.2f added_ns %.1f ratio %.3f prog_ns %.1f\n",
	       t_off, t_on, per, (t_on - t_off) / per, t_on / t_off, prog);
	return 0;
}

static int switches(int rounds)
{
	struct pingpong p;
	int sts = 1;

	if (rounds < 1) {
		fprintf(stderr, "bench: switch: ROUNDS must be at least 1\n");
		return 2;
	}
	smt_log_set_sink(bench_quiet);
	if (pingpong_open(&p) < 0)
		perror("bench: switch: a ping-pong between CPUs 0 and 1");
	else
		sts = compare_switches(&p, rounds);
	pingpong_close(&p);
	return sts;
}

/* n children that each run a moment, so the program charges them, write a
 * byte on ready and block until hold's write end closes.  Returns how many
 * were started. */
static int start_sleepers(pid_t *pid, int n, const int hold[2], const int ready[2])
{
	pid_t parent = getpid();
	char c = 'r';

	for (int i = 0; i < n; i++) {
		if ((pid[i] = fork()) < 0) {
			perror("bench: schedpass: fork");
			return i;
		}
		if (pid[i] == 0) {
			die_with(parent);
			close(hold[1]);
			close(ready[0]);
			if (write(ready[1], &c, 1) != 1 || read(hold[0], &c, 1) < 0)
				_exit(1);
			_exit(0);
		}
	}
	return n;
}

/* Until each of the n children has run. */
static int wait_ready(int fd, int n)
{
	char buf[4096];

	while (n > 0) {
		ssize_t got = read(fd, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf);

		if (got <= 0) {
			fprintf(stderr, "bench: schedpass: %d children did not start\n", n);
			return -1;
		}
		n -= (int)got;
	}
	return 0;
}

static int time_passes(struct sampler *s, int passes)
{
	const struct sched_state *st = sampler_state(s, &sched_source);
	double t[16];
	int batches = passes < 16 ? passes : 16, per = passes / batches;
	long before;

	for (int i = 0; i < SCHED_WARMUP; i++)
		sampler_pass(s);
	before = allocations;
	for (int b = 0; b < batches; b++) {
		double start = now();
		for (int i = 0; i < per; i++)
			sampler_pass(s);
		t[b] = (now() - start) / per;
	}
	if (st->task_errors)
		fprintf(stderr, "bench: schedpass: %llu reads of the program's maps failed\n",
			(unsigned long long)st->task_errors);
	printf("pass_us %.1f allocations %ld procs %d cores %d\n", median(t, batches) * 1e6,
	       allocations - before, st->procs.used, s->topo.ncores);
	return 0;
}

/* The sampler on this machine with the software PURR on, its pass timed
 * with nproc more processes alive, each charged by the program. */
static int schedpass(int nproc, int passes, const char *config)
{
	struct sampler s;
	const char *why;
	pid_t *pid;
	int hold[2], ready[2], started, sts = 1;

	if (nproc < 0 || passes < 1) {
		fprintf(stderr, "bench: schedpass: NPROC must be at least 0, PASSES at least 1\n");
		return 2;
	}
	smt_log_set_sink(bench_quiet);
	sr_set_root("/");
	sampler_init(&s, sampler_sources, sampler_nsources, config, config == NULL);
	if (strcmp(s.status[SLOT_CONFIG], "ok") != 0) {
		fprintf(stderr, "bench: schedpass: %s\n", s.status[SLOT_CONFIG]);
		sampler_free(&s);
		return 1;
	}
	if ((why = sampler_status(&s, "sched")) == NULL || strcmp(why, "ok") != 0) {
		fprintf(stderr, "bench: schedpass: the software PURR: %s\n", why ? why : "none");
		sampler_free(&s);
		return 1;
	}
	if ((pid = calloc((size_t)nproc + 1, sizeof *pid)) == NULL || pipe(hold) < 0 ||
	    pipe(ready) < 0) {
		perror("bench: schedpass");
		free(pid);
		sampler_free(&s);
		return 1;
	}
	started = start_sleepers(pid, nproc, hold, ready);
	close(hold[0]);
	close(ready[1]);
	if (started == nproc && wait_ready(ready[0], nproc) == 0)
		sts = time_passes(&s, passes);
	close(hold[1]);		/* the children read the end of their input */
	close(ready[0]);
	stop(pid, started);
	free(pid);
	sampler_free(&s);
	return sts;
}

/* The bare reads of every group the core source has open: what the pass
 * cannot do without. */
static void bare_reads(const struct core_state *st)
{
	struct ctr_reading r;

	st->backend->ops->begin_pass(st->backend);
	for (int cell = 0; cell < st->ctr.ncpus * st->ctr.ngroups; cell++)
		if (st->ctr.slot[cell].handle >= 0)
			st->backend->ops->read_group(st->backend, st->ctr.slot[cell].handle, &r);
}

/* The context the sampler gives src, as its read is called here alone. */
static const struct source_ctx *context_of(const struct sampler *s, const struct sampler_source *src)
{
	for (int i = 0; i < s->nsources; i++)
		if (s->source[i] == src)
			return &s->ctx[i];
	return NULL;
}

static int corepass(const char *root, int n, const char *config)
{
	struct sampler s;
	const struct source_ctx *ctx;
	struct core_state *st;
	double pass[32], bare[32];
	long before, allocs;
	int batches = 32, per = n / batches > 0 ? n / batches : 1, members = 0;

	smt_log_set_sink(bench_quiet);
	sr_set_root(root);
	sampler_init(&s, sampler_sources, sampler_nsources, config, config == NULL);
	st = sampler_state(&s, &core_source);
	if (!st || !st->on) {
		fprintf(stderr, "bench: corepass: %s\n", sampler_status(&s, "core"));
		sampler_free(&s);
		return 1;
	}
	for (int cell = 0; cell < st->ctr.ncpus * st->ctr.ngroups; cell++)
		if (st->ctr.slot[cell].handle >= 0)
			members += st->ctr.spec[cell % st->ctr.ngroups].n;
	ctx = context_of(&s, &core_source);
	core_source.read(ctx, st, false);
	before = allocations;
	for (int b = 0; b < batches; b++) {
		double start = now();
		for (int i = 0; i < per; i++)
			core_source.read(ctx, st, false);
		pass[b] = (now() - start) / per;
	}
	allocs = allocations - before;
	for (int b = 0; b < batches; b++) {
		double start = now();
		for (int i = 0; i < per; i++)
			bare_reads(st);
		bare[b] = (now() - start) / per;
	}
	printf("pass_us %.1f bare_us %.1f allocations %ld groups %d members %d cpus %d\n",
	       median(pass, batches) * 1e6, median(bare, batches) * 1e6, allocs, st->ctr.nopen,
	       members, s.topo.nonline);
	sampler_free(&s);
	return 0;
}

int main(int argc, char **argv)
{
	if ((argc == 4 || argc == 5) && strcmp(argv[1], "corepass") == 0)
		return corepass(argv[2], atoi(argv[3]), argc == 5 ? argv[4] : NULL);
	if ((argc == 4 || argc == 5) && strcmp(argv[1], "sample") == 0)
		return sample(argv[2], atoi(argv[3]), argc == 5 ? argv[4] : NULL);
	if ((argc == 3 || argc == 4) && strcmp(argv[1], "perfread") == 0)
		return perfread(atoi(argv[2]), argc == 4 ? atoi(argv[3]) : 4);
	if (argc == 3 && strcmp(argv[1], "switch") == 0)
		return switches(atoi(argv[2]));
	if ((argc == 4 || argc == 5) && strcmp(argv[1], "schedpass") == 0)
		return schedpass(atoi(argv[2]), atoi(argv[3]), argc == 5 ? argv[4] : NULL);
	if (argc == 8 && strcmp(argv[1], "fetch") == 0)
		return fetch(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]), argv[6],
			     atoi(argv[7]), NULL);
	if (argc == 10 && strcmp(argv[1], "fetch") == 0 && strcmp(argv[8], "--prime") == 0)
		return fetch(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]), argv[6],
			     atoi(argv[7]), argv[9]);
	fprintf(stderr, "Usage: bench sample ROOT N | bench corepass ROOT N [CONFIG] | "
		"bench fetch DSO INIT DOMAIN CLUSTER ITEM[-ITEM] N [--prime ROOT] | "
		"bench perfread N [MEMBERS] | bench switch ROUNDS | bench schedpass NPROC PASSES [CONFIG]\n");
	return 2;
}
