/*
 * The whole agent's cost, for make bench: each source's part of a sampling
 * pass on a fixture, and what a read that interrupts another CPU costs on
 * this machine, so that the script can price a fixture's reads as the
 * hardware would take them.
 *
 *   agent pass ROOT N [CONFIG [ask]]
 *       N sampling passes over the fixture ROOT with every source it has
 *       (the counters replayed as CONFIG says; with "ask", a client asking
 *       for what sources read only on demand: SPURR and idle_spurr); then
 *       each source's read alone, N times.  Medians of 16 batches.  Prints
 *         pass_us P cpus C core_groups G amd_groups A
 *         source NAME us U       (a line for each source)
 *   agent ipi N
 *       one software event's group on CPU 0 read N times from CPU 0 itself,
 *       and from CPU 1 while CPU 0 idles (perf_event_read calls CPU 0 for
 *       it: an interrupt, which must wake it); then from CPU 1 with a
 *       process spinning on CPU 0: the reads' own time, and the share of
 *       the spinner's time they take, as microseconds a read.  Prints
 *         local_us L remote_us R target_us T idle_target_us I
 *   agent localread MEMBERS N
 *       the core counters read on their own CPU (counters_local.c), by
 *       their parts, with MEMBERS software events a CPU in groups of up to
 *       six (as the core source's): the program's ns a timer tick by the
 *       kernel's BPF statistics; the timer interrupt's own cost, what a
 *       process spinning on CPU 0 loses a tick of a cpu-clock sampling
 *       event there at 10,000 a second without the program (a share lost
 *       large enough to stand above this machine's noise, which a 1 ms
 *       timer's is not); a tick's cost, the two together; the pass's one
 *       lookup of every CPU's readings (N times), and the bytes it copies a
 *       CPU.  Prints
 *         prog_ns P tick_us T lookup_us L cpus C bytes_cpu B irq_us I
 *   agent schedcores NCPUS N
 *       the software PURR's maps made for NCPUS CPUs, 8 to a core, and the
 *       sampling pass's read of every core record (one batch) timed N
 *       times; prints
 *         cores_us U cores K
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "counters.h"
#include "local_read_abi.h"
#include "log.h"
#include "sampler.h"
#include "config.h"
#include "sched_purr.h"
#include "source.h"
#include "source_amd.h"
#include "source_core.h"
#include "source_power.h"
#include "sysroot.h"

#include "movestat.h"
#include "pingpong.h"

#define BATCHES 16

static int pass(const char *root, int n, const char *config, bool ask)
{
	struct sampler s;
	const struct core_state *core;
	double t[BATCHES];
	int per = n / BATCHES > 0 ? n / BATCHES : 1, round = 0;

	smt_log_set_sink(bench_quiet);
	sr_set_root(root);
	if (sampler_init(&s, sampler_sources, sampler_nsources, config, config == NULL) < 0) {
		fprintf(stderr, "agent: cannot sample %s: %s\n", root, s.status[SLOT_CPUSTAT]);
		return 1;
	}
	/* (an ask holds for POWER_ASKED_S, longer than this runs) */
	if (ask)
		sampler_ask(&s, &power_source, POWER_ON_DEMAND);
	move_stat(root, s.topo.nonline, round++);
	sampler_pass(&s);
	for (int b = 0; b < BATCHES; b++) {
		double elapsed = 0;

		for (int i = 0; i < per; i++)
			elapsed += timed_pass(&s, root, &round);
		t[b] = elapsed / per;
	}
	core = sampler_state(&s, &core_source);
	printf("pass_us %.1f cpus %d core_groups %d amd_groups %d\n", median(t, BATCHES) * 1e6,
	       s.topo.nonline, core && core->on ? core->ctr.nopen : 0, amd_groups(sampler_state(&s, &amd_source)));
	for (int i = 0; i < s.nsources; i++) {
		if (s.stopped[i])
			continue;
		for (int b = 0; b < BATCHES; b++) {
			double start = now();

			for (int k = 0; k < per; k++)
				s.source[i]->read(&s.ctx[i], s.state[i], false);
			t[b] = (now() - start) / per;
		}
		printf("source %s us %.1f\n", s.source[i]->name, median(t, BATCHES) * 1e6);
	}
	sampler_free(&s);
	return 0;
}

/* Reads of group h, n of them, timed from the CPU this process is on. */
static double read_us(struct ctr_backend *b, int h, int n)
{
	struct ctr_reading r;
	double t[BATCHES];
	int per = n / BATCHES > 0 ? n / BATCHES : 1;

	for (int k = 0; k < BATCHES; k++) {
		double start = now();

		for (int i = 0; i < per; i++)
			b->ops->read_group(b, h, &r);
		t[k] = (now() - start) / per;
	}
	return median(t, BATCHES) * 1e6;
}

/* A child spinning on CPU 0, counting its turns into *turns. */
static pid_t start_spinner(volatile uint64_t *turns)
{
	pid_t parent = getpid(), pid = fork();

	if (pid != 0)
		return pid;
	die_with(parent);
	if (pin(0) == 0)
		for (;;)
			(*turns)++;
	_exit(1);
}

/* The spinner's turns in `window` seconds, while this process reads group
 * h from CPU 1 (reading) or sleeps; *reads: how many it made. */
static double turns_in(volatile uint64_t *turns, struct ctr_backend *b, int h, double window,
		       int reading, long *reads)
{
	struct ctr_reading r;
	uint64_t t0 = *turns;
	double start = now(), end = start + window;

	*reads = 0;
	if (reading) {
		while (now() < end) {
			for (int i = 0; i < 64; i++)
				b->ops->read_group(b, h, &r);
			*reads += 64;
		}
	} else {
		struct timespec ts = { 0, (long)(window * 1e9) };
		nanosleep(&ts, NULL);
	}
	return (double)(*turns - t0) / (now() - start);
}

static int ipi(int n)
{
	struct ctr_event ev = { PERF_TYPE_SOFTWARE, { PERF_COUNT_SW_CPU_CLOCK, 0, 0 } };
	struct ctr_backend *b = ctr_perf_new(1);
	double local, idle_target, remote[9], lost[9];
	volatile uint64_t *turns;
	pid_t spinner;
	int h, sts = 1;

	if ((h = b->ops->open_group(b, 0, &ev, 1)) < 0) {
		fprintf(stderr, "agent: %s\n", b->why);
		goto out;
	}
	if (pin(0) < 0) {
		perror("agent: CPU 0");
		goto out;
	}
	local = read_us(b, h, n);
	if (pin(1) < 0) {
		perror("agent: CPU 1");
		goto out;
	}
	idle_target = read_us(b, h, n);
	turns = mmap(NULL, sizeof *turns, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (turns == MAP_FAILED || (spinner = start_spinner(turns)) < 0) {
		perror("agent: the spinner");
		goto out;
	}
	/* Quiet and reading windows in turn, so that drift falls on both. */
	for (int k = 0; k < 9; k++) {
		long reads, none;
		double idle = turns_in(turns, b, h, 0.2, 0, &none);
		double busy = turns_in(turns, b, h, 0.2, 1, &reads);
		double after = turns_in(turns, b, h, 0.2, 0, &none);
		double base = (idle + after) / 2;

		/* the share of CPU 0 the reads took, over 0.2 s, a read */
		lost[k] = (base - busy) / base * 0.2 / (double)reads * 1e6;
		remote[k] = 0.2 / (double)reads * 1e6;
	}
	stop(&spinner, 1);
	printf("local_us %.2f remote_us %.2f target_us %.2f idle_target_us %.2f\n", local,
	       median(remote, 9), median(lost, 9), idle_target);
	sts = 0;
out:
	b->ops->destroy(b);
	return sts;
}

/* The local-read program this process loaded last (the highest ID of that
 * name: an agent running on the machine may hold one too). */
static int local_prog(void)
{
	__u32 id = 0, best = 0;

	while (bpf_prog_get_next_id(id, &id) == 0) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof info;
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue;
		if (bpf_obj_get_info_by_fd(fd, &info, &len) == 0 && strcmp(info.name, "read_local") == 0)
			best = id;
		close(fd);
	}
	return best ? bpf_prog_get_fd_by_id(best) : -1;
}

/* members software events on each online CPU, in groups of up to six, read
 * locally every period_ms: the backend, or NULL. */
static struct ctr_backend *local_groups(int members, unsigned period_ms, int only_cpu)
{
	static const uint64_t sw[] = { PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_TASK_CLOCK,
				       PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_CONTEXT_SWITCHES,
				       PERF_COUNT_SW_CPU_MIGRATIONS, PERF_COUNT_SW_PAGE_FAULTS_MIN };
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	char why[256];
	struct ctr_backend *b = ctr_local_new((int)ncpus * 8, (int)ncpus, period_ms, why, sizeof why);

	if (b == NULL) {
		fprintf(stderr, "agent: the local reads: %s\n", why);
		return NULL;
	}
	for (int cpu = 0; cpu < ncpus; cpu++) {
		if (only_cpu >= 0 && cpu != only_cpu)
			continue;
		for (int left = members; left > 0; left -= 6) {
			struct ctr_event ev[6];
			int n = left < 6 ? left : 6;

			for (int i = 0; i < n; i++)
				ev[i] = (struct ctr_event){ PERF_TYPE_SOFTWARE, { sw[i], 0, 0 } };
			if (b->ops->open_group(b, cpu, ev, n) < 0 || ctr_local_direct(b) != 0) {
				fprintf(stderr, "agent: a group on cpu%d not read locally: %s\n", cpu, b->why);
				b->ops->destroy(b);
				return NULL;
			}
		}
	}
	return b;
}

/* A cpu-clock sampling event on cpu at ticks a second, with nothing on its
 * overflow: the timer interrupt alone.  Its fd, or -1. */
#define TICKS_A_SECOND 10000
static int tick_timer(int cpu, int ticks)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof attr);
	attr.size = sizeof attr;
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = 1000000000ull / (unsigned)ticks;
	return (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static int localread(int members, int n)
{
	struct ctr_backend *b;
	volatile uint64_t *turns;
	double lookup[BATCHES], lost[9], prog_ns;
	uint64_t ns0, calls0, ns1, calls1;
	int stats = bpf_enable_stats(BPF_STATS_RUN_TIME), fd, per = n / BATCHES > 0 ? n / BATCHES : 1;
	pid_t spinner;

	smt_log_set_sink(bench_quiet);
	if (stats < 0) {
		fprintf(stderr, "agent: BPF statistics: %s\n", strerror(errno));
		return 1;
	}
	/* the program a tick, and the lookup, on every CPU at 10 ms */
	if ((b = local_groups(members, 10, -1)) == NULL || (fd = local_prog()) < 0 ||
	    prog_stats(fd, &ns0, &calls0) < 0) {
		fprintf(stderr, "agent: the local-read program is not to be found\n");
		return 1;
	}
	usleep(1000000);
	if (prog_stats(fd, &ns1, &calls1) < 0 || calls1 <= calls0) {
		fprintf(stderr, "agent: the local-read program did not run\n");
		return 1;
	}
	prog_ns = (double)(ns1 - ns0) / (double)(calls1 - calls0);
	close(fd);
	for (int k = 0; k < BATCHES; k++) {
		double start = now();

		for (int i = 0; i < per; i++)
			b->ops->begin_pass(b);
		lookup[k] = (now() - start) / per;
	}
	b->ops->destroy(b);
	close(stats);
	/* a spinner on CPU 0 with a 1 ms timer there, and without, in turn */
	turns = mmap(NULL, sizeof *turns, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (turns == MAP_FAILED || pin(1) < 0 || (spinner = start_spinner(turns)) < 0) {
		perror("agent: the spinner");
		return 1;
	}
	for (int k = 0; k < 9; k++) {
		long none;
		double before = turns_in(turns, NULL, 0, 0.2, 0, &none), during, after;
		int timer = tick_timer(0, TICKS_A_SECOND);

		if (timer < 0) {
			perror("agent: the timer");
			stop(&spinner, 1);
			return 1;
		}
		during = turns_in(turns, NULL, 0, 0.2, 0, &none);
		close(timer);
		after = turns_in(turns, NULL, 0, 0.2, 0, &none);
		/* the share lost, a tick */
		lost[k] = ((before + after) / 2 - during) / ((before + after) / 2) / TICKS_A_SECOND * 1e6;
	}
	stop(&spinner, 1);
	printf("prog_ns %.1f tick_us %.2f lookup_us %.2f cpus %ld bytes_cpu %zu irq_us %.2f\n", prog_ns,
	       median(lost, 9) + prog_ns / 1e3, median(lookup, BATCHES) * 1e6, sysconf(_SC_NPROCESSORS_CONF),
	       sizeof(struct lr_cpu), median(lost, 9));
	return 0;
}

static int schedcores(int ncpus, int n)
{
	struct sched_purr sp;
	char why[256];
	double t[BATCHES];
	int per = n / BATCHES > 0 ? n / BATCHES : 1, got = 0;

	smt_log_set_sink(bench_quiet);
	if (ncpus < 1 || sched_purr_open(&sp, ncpus, CONFIG_DEFAULT_PROCESSES, why, sizeof why) < 0) {
		fprintf(stderr, "agent: software PURR for %d CPUs: %s\n", ncpus, ncpus < 1 ? "none" : why);
		return 1;
	}
	for (int cpu = 0; cpu < ncpus; cpu++)
		if (sched_purr_map_cpu(&sp, cpu, cpu / 8, cpu % 8) < 0) {
			fprintf(stderr, "agent: software PURR: CPU %d not mapped\n", cpu);
			sched_purr_close(&sp);
			return 1;
		}
	for (int b = 0; b < BATCHES; b++) {
		double start = now();

		for (int i = 0; i < per; i++)
			got = sched_purr_read_cores(&sp);
		t[b] = (now() - start) / per;
	}
	sched_purr_close(&sp);
	if (got < ncpus / 8) {
		fprintf(stderr, "agent: software PURR: %d core records read\n", got);
		return 1;
	}
	printf("cores_us %.1f cores %d\n", median(t, BATCHES) * 1e6, (ncpus + 7) / 8);
	return 0;
}

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	if (argc >= 4 && argc <= 6 && strcmp(argv[1], "pass") == 0 &&
	    (argc < 6 || strcmp(argv[5], "ask") == 0))
		return pass(argv[2], atoi(argv[3]), argc >= 5 ? argv[4] : NULL, argc == 6);
	if (argc == 3 && strcmp(argv[1], "ipi") == 0)
		return ipi(atoi(argv[2]));
	if (argc == 4 && strcmp(argv[1], "localread") == 0)
		return localread(atoi(argv[2]), atoi(argv[3]));
	if (argc == 4 && strcmp(argv[1], "schedcores") == 0)
		return schedcores(atoi(argv[2]), atoi(argv[3]));
	fprintf(stderr, "usage: agent pass ROOT N [CONFIG [ask]] | agent ipi N | "
		"agent localread MEMBERS N | agent schedcores NCPUS N\n");
	return 2;
}
