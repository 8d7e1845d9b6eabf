/*
 * The software PURR against its floors, for make bench: smtcpu's sched_switch
 * program beside two trivial ones on the same tracepoint (floor.bpf.c: a
 * count into a per-CPU array; a count, a clock read and a sum, the least a
 * program that times switches can do), under four loads.
 *
 *   swfloor ROUNDS RUNS [stats]
 *
 * Each load, with CPUs 0 and 1 passing a byte back and forth ROUNDS times
 * over two pipes (pingpong.h):
 *   by the kernel's BPF statistics: the three programs attached together,
 *     so they run at the same switches, and each one's ns a call in each
 *     of RUNS runs: the medians, and the medians of the runs' ratios of
 *     smtcpu's to each floor (the statistics add a clock read either side
 *     of every call, to all three);
 *   end to end: the round trip with nothing attached, with the floor alone
 *     and with smtcpu's alone, RUNS times in turn; the ns each adds a
 *     switch, and the noise, half the interquartile range of the bare runs.
 * The loads:
 *   quiet   nothing else;
 *   storm   a process forking children that exit at once, throughout
 *           (new entries in smtcpu's tasks map at every one);
 *   alive   10,000 more processes, each woken once before every run, so
 *           smtcpu's program has charged them all (a tasks map of 10,000);
 *   threads two threads of one process passing a byte back and forth on
 *           CPU 1 throughout (switches from a thread to its sibling).
 * One line a load:
 *   load NAME floor_ns F timed_ns T smtcpu_ns S stat_x S/F timed_x S/T
 *   rtt_off_ns R switches W e2e_floor_ns A e2e_smtcpu_ns B noise_ns N
 * or with "stats", by the statistics alone (for trying a change to the
 * program quickly):
 *   load NAME floor_ns F timed_ns T smtcpu_ns S stat_x S/F timed_x S/T
 */
#include "pingpong.h"

#include <pthread.h>

#include <stdbool.h>

#include "log.h"
#include "swfloor.skel.h"

#define ALIVE 10000
#define MAX_RUNS 64

/* A child of the pinned parent runs anywhere, as other work would. */
static void unpin(void)
{
	cpu_set_t all;
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	CPU_ZERO(&all);
	for (long c = 0; c < n && c < CPU_SETSIZE; c++)
		CPU_SET(c, &all);
	sched_setaffinity(0, sizeof all, &all);
}

/* Processes that each run once whenever wake() is called. */
struct sleepers {
	pid_t pid[ALIVE];
	int n;
	int tick, ready;	/* the parent's ends: bytes out, bytes back */
};

static int start_sleepers(struct sleepers *s, int n)
{
	pid_t parent = getpid();
	int tick[2], ready[2];
	char c;

	s->n = 0;
	if (pipe(tick) < 0 || pipe(ready) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			break;
		if (pid == 0) {
			die_with(parent);
			unpin();
			close(tick[1]);
			close(ready[0]);
			while (read(tick[0], &c, 1) == 1 && write(ready[1], &c, 1) == 1)
				;
			_exit(0);
		}
		s->pid[s->n++] = pid;
	}
	close(tick[0]);
	close(ready[1]);
	s->tick = tick[1];
	s->ready = ready[0];
	return s->n == n ? 0 : -1;
}

/* Each sleeper runs once: a byte to each, a byte back from each. */
static int wake(const struct sleepers *s)
{
	static char buf[ALIVE];
	int left = s->n;

	if (s->n == 0)
		return 0;
	if (write(s->tick, buf, (size_t)s->n) != s->n)
		return -1;
	while (left > 0) {
		ssize_t got = read(s->ready, buf, (size_t)left);

		if (got <= 0)
			return -1;
		left -= (int)got;
	}
	return 0;
}

static void stop_sleepers(struct sleepers *s)
{
	if (s->n == 0)
		return;
	close(s->tick);
	close(s->ready);
	stop(s->pid, s->n);
	s->n = 0;
}

/* A process that forks children which exit at once, until stopped. */
static pid_t start_storm(void)
{
	pid_t parent = getpid(), pid = fork();

	if (pid != 0)
		return pid;
	die_with(parent);
	unpin();
	for (;;) {
		pid_t child = fork();

		if (child == 0)
			_exit(0);
		if (child > 0)
			waitpid(child, NULL, 0);
	}
}

/* Two threads of one process passing a byte back and forth, fd[0] in
 * and fd[1] out. */
static void *bounce(void *arg)
{
	const int *fd = arg;
	char c;

	while (read(fd[0], &c, 1) == 1 && write(fd[1], &c, 1) == 1)
		;
	return NULL;
}

/* A process whose two threads pass a byte back and forth on CPU 1 until
 * stopped: each switch there goes from one to the other, no idle between. */
static pid_t start_threads(void)
{
	static int ab[2], ba[2], theirs[2], mine[2];
	pid_t parent = getpid(), pid = fork();
	pthread_t other;
	char c = 0;

	if (pid != 0)
		return pid;
	die_with(parent);
	if (pin(1) < 0 || pipe(ab) < 0 || pipe(ba) < 0)
		_exit(1);
	theirs[0] = ab[0];
	theirs[1] = ba[1];
	mine[0] = ba[0];
	mine[1] = ab[1];
	if (pthread_create(&other, NULL, bounce, theirs) != 0 || write(ab[1], &c, 1) != 1)
		_exit(1);
	bounce(mine);
	_exit(0);
}

struct load {
	const char *name;
	struct sleepers alive;
	pid_t storm, threads;
};

static int load_start(struct load *l, const char *name)
{
	memset(l, 0, sizeof *l);
	l->name = name;
	l->storm = l->threads = -1;
	if (strcmp(name, "storm") == 0 && (l->storm = start_storm()) < 0)
		return -1;
	if (strcmp(name, "threads") == 0 && (l->threads = start_threads()) < 0)
		return -1;
	if (strcmp(name, "alive") == 0 && start_sleepers(&l->alive, ALIVE) < 0) {
		fprintf(stderr, "swfloor: only %d of %d processes started\n", l->alive.n, ALIVE);
		stop_sleepers(&l->alive);
		return -1;
	}
	return 0;
}

static void load_stop(struct load *l)
{
	if (l->storm > 0)
		stop(&l->storm, 1);
	if (l->threads > 0)
		stop(&l->threads, 1);
	stop_sleepers(&l->alive);
}

/* One timed ping-pong under the load. */
static int run(const struct load *l, const struct pingpong *p, int rounds, double *ns, double *sw)
{
	if (wake(&l->alive) < 0) {
		fprintf(stderr, "swfloor: the %d processes did not all run\n", l->alive.n);
		return -1;
	}
	return pingpong(p, rounds, ns, sw);
}

static double quartile(double *v, int n, int q)
{
	qsort(v, (size_t)n, sizeof *v, cmp);
	return v[(n - 1) * q / 4];
}

/* The floor programs loaded, the bare one attached, the timed one too if
 * asked: NULL, said, where they cannot be. */
static struct swfloor_bpf *floors_on(bool timed)
{
	struct swfloor_bpf *f = swfloor_bpf__open_and_load();

	if (f == NULL || (f->links.floor_switch = bpf_program__attach(f->progs.floor_switch)) == NULL ||
	    (timed && (f->links.timed_switch = bpf_program__attach(f->progs.timed_switch)) == NULL)) {
		fprintf(stderr, "swfloor: the floor programs: %s\n", strerror(errno));
		swfloor_bpf__destroy(f);
		return NULL;
	}
	return f;
}

/* A program's ns a call between two readings of its statistics. */
struct prog_span { int fd; uint64_t ns0, n0, ns1, n1; };

static int span_begin(struct prog_span *s) { return prog_stats(s->fd, &s->ns0, &s->n0); }
static int span_end(struct prog_span *s)
{
	return prog_stats(s->fd, &s->ns1, &s->n1) < 0 || s->n1 <= s->n0 ? -1 : 0;
}
static double span_ns(const struct prog_span *s) { return (double)(s->ns1 - s->ns0) / (double)(s->n1 - s->n0); }

/* The three programs attached: each one's ns a call over the same switches,
 * in each of RUNS runs; the medians, and the medians of the runs' ratios of
 * smtcpu's to each floor.  ns[]: floor, timed floor, smtcpu; x[]: smtcpu
 * over the floor, over the timed floor. */
static int by_statistics(const struct load *l, const struct pingpong *p, int rounds, int runs, double ns[3],
			 double x[2])
{
	double each[3][MAX_RUNS], ratio[2][MAX_RUNS], rtt, sw;
	struct swfloor_bpf *floor;
	struct sched_purr sp;
	struct prog_span span[3];
	int stats = bpf_enable_stats(BPF_STATS_RUN_TIME), n = 0;

	if (stats < 0) {
		fprintf(stderr, "swfloor: BPF statistics: %s\n", strerror(errno));
		return -1;
	}
	if ((floor = floors_on(true)) == NULL) {
		close(stats);
		return -1;
	}
	span[0].fd = bpf_program__fd(floor->progs.floor_switch);
	span[1].fd = bpf_program__fd(floor->progs.timed_switch);
	if (purr_on(&sp) == 0) {
		if ((span[2].fd = switch_prog(&sp)) < 0) {
			fprintf(stderr, "swfloor: smtcpu's sched_switch program is not to be found\n");
		} else {
			for (; n < runs; n++) {
				if (span_begin(&span[0]) < 0 || span_begin(&span[1]) < 0 || span_begin(&span[2]) < 0 ||
				    run(l, p, rounds, &rtt, &sw) < 0 || span_end(&span[0]) < 0 ||
				    span_end(&span[1]) < 0 || span_end(&span[2]) < 0)
					break;
				for (int k = 0; k < 3; k++)
					each[k][n] = span_ns(&span[k]);
				ratio[0][n] = each[2][n] / each[0][n];
				ratio[1][n] = each[2][n] / each[1][n];
			}
			close(span[2].fd);
		}
		sched_purr_close(&sp);
	}
	swfloor_bpf__destroy(floor);
	close(stats);
	if (n < runs)
		return -1;
	for (int k = 0; k < 3; k++)
		ns[k] = median(each[k], n);
	x[0] = median(ratio[0], n);
	x[1] = median(ratio[1], n);
	return 0;
}

/* Nothing, the floor, smtcpu's program: runs in turn, so that drift on a
 * shared machine falls on all three alike. */
static int end_to_end(const struct load *l, const struct pingpong *p, int rounds, int runs, double *rtt,
		      double *sw_med, double *floor_ns, double *smtcpu_ns, double *noise_ns)
{
	double off[MAX_RUNS], fl[MAX_RUNS], on[MAX_RUNS], sw[3 * MAX_RUNS], per;

	for (int i = 0; i < runs; i++) {
		struct swfloor_bpf *floor;
		struct sched_purr sp;
		int sts;

		if (run(l, p, rounds, &off[i], &sw[3 * i]) < 0)
			return -1;
		if ((floor = floors_on(false)) == NULL)
			return -1;
		sts = run(l, p, rounds, &fl[i], &sw[3 * i + 1]);
		swfloor_bpf__destroy(floor);
		if (sts < 0 || purr_on(&sp) < 0)
			return -1;
		sts = run(l, p, rounds, &on[i], &sw[3 * i + 2]);
		sched_purr_close(&sp);
		if (sts < 0)
			return -1;
	}
	per = median(sw, 3 * runs);
	*sw_med = per;
	*rtt = median(off, runs);
	*floor_ns = (median(fl, runs) - *rtt) / per;
	*smtcpu_ns = (median(on, runs) - *rtt) / per;
	*noise_ns = (quartile(off, runs, 3) - quartile(off, runs, 1)) / 2 / per;
	return 0;
}

static int measure(const char *name, const struct pingpong *p, int rounds, int runs, bool stats_only)
{
	struct load l;
	double ns[3], x[2], rtt, sw, fe, se, noise;
	int sts = -1;

	if (load_start(&l, name) < 0) {
		fprintf(stderr, "swfloor: load %s: %s\n", name, strerror(errno));
		return -1;
	}
	if (stats_only && by_statistics(&l, p, rounds, runs, ns, x) == 0) {
		printf("load %s floor_ns %.1f timed_ns %.1f smtcpu_ns %.1f stat_x %.2f timed_x %.2f\n", name, ns[0],
		       ns[1], ns[2], x[0], x[1]);
		fflush(stdout);
		sts = 0;
	} else if (!stats_only && by_statistics(&l, p, rounds, runs, ns, x) == 0 &&
	    end_to_end(&l, p, rounds, runs, &rtt, &sw, &fe, &se, &noise) == 0) {
		printf("load %s floor_ns %.1f timed_ns %.1f smtcpu_ns %.1f stat_x %.2f timed_x %.2f rtt_off_ns %.0f "
		       "switches %.2f e2e_floor_ns %.1f e2e_smtcpu_ns %.1f noise_ns %.1f\n",
		       name, ns[0], ns[1], ns[2], x[0], x[1], rtt, sw, fe, se, noise);
		fflush(stdout);
		sts = 0;
	}
	load_stop(&l);
	return sts;
}

int main(int argc, char **argv)
{
	static const char *const loads[] = { "quiet", "storm", "alive", "threads" };
	struct pingpong p;
	int rounds, runs, sts = 0;

	bool stats_only = argc == 4 && strcmp(argv[3], "stats") == 0;

	if ((argc != 3 && !stats_only) || (rounds = atoi(argv[1])) < 1 || (runs = atoi(argv[2])) < 1 ||
	    runs > MAX_RUNS) {
		fprintf(stderr, "usage: swfloor ROUNDS RUNS [stats] (RUNS at most %d)\n", MAX_RUNS);
		return 2;
	}
	smt_log_set_sink(bench_quiet);
	if (pingpong_open(&p) < 0) {
		perror("swfloor: a ping-pong between CPUs 0 and 1");
		sts = 1;
	}
	for (size_t i = 0; sts == 0 && i < sizeof loads / sizeof loads[0]; i++)
		if (measure(loads[i], &p, rounds, runs, stats_only) < 0)
			sts = 1;
	pingpong_close(&p);
	return sts;
}
