/*
 * Shared by make bench's programs (bench.c, swfloor.c): timing, a ping-pong
 * between CPUs 0 and 1 over two pipes with the context switches it makes
 * there, and the software PURR loaded to count those two CPUs as one core.
 */
#ifndef SMTCPU_BENCH_PINGPONG_H
#define SMTCPU_BENCH_PINGPONG_H

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

#include "config.h"
#include "log.h"
#include "sched_purr.h"
#include "smtmodel.h"

/* The library's log, silenced: a bench's output is its figures. */
static inline void bench_quiet(enum smt_log_level level, const char *message)
{
	(void)level;
	(void)message;
}

static inline double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median of batches: steadier than a mean on a shared machine. */
static inline double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp);
	return v[n / 2];
}

static inline int pin(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof one, &one);
}

/* In a child: it dies with its parent, so a run that fails leaves no
 * process behind. */
static inline void die_with(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
}

/* Stops each child by its PID and reaps it. */
static inline void stop(const pid_t *pid, int n)
{
	for (int i = 0; i < n; i++)
		kill(pid[i], SIGKILL);
	for (int i = 0; i < n; i++)
		while (waitpid(pid[i], NULL, 0) < 0 && errno == EINTR)
			;
}

/* The far end of the ping-pong, on CPU 1: sends each byte back until the
 * parent's end of to[] closes.  Forked before the program is loaded, so it
 * holds none of the program's descriptors (which would keep it attached). */
static inline pid_t start_echo(int to[2], int from[2])
{
	pid_t parent = getpid(), pid = fork();
	char c;

	if (pid != 0)
		return pid;
	die_with(parent);
	close(to[1]);
	close(from[0]);
	if (pin(1) == 0)
		while (read(to[0], &c, 1) == 1 && write(from[1], &c, 1) == 1)
			;
	_exit(0);
}

/* Context switches on cpu, whichever task switches (needs root). */
static inline int open_switches(int cpu)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof a,
				     .config = PERF_COUNT_SW_CONTEXT_SWITCHES, .disabled = 1 };

	return (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

struct pingpong {
	int to, from;		/* the parent's ends of the two pipes */
	int ctr[2];		/* context switches on CPUs 0 and 1 */
	pid_t echo;
};

/* The echo started on CPU 1, this process pinned to CPU 0 and both CPUs'
 * switches counted: 0, or -1 with errno (what was opened is in p, for
 * pingpong_close). */
static inline int pingpong_open(struct pingpong *p)
{
	int to[2], from[2];

	*p = (struct pingpong){ .to = -1, .from = -1, .ctr = { -1, -1 }, .echo = -1 };
	signal(SIGPIPE, SIG_IGN);	/* a lost echo is an error, not a signal */
	if (pipe(to) < 0)
		return -1;
	if (pipe(from) < 0) {
		close(to[0]);
		close(to[1]);
		return -1;
	}
	if ((p->echo = start_echo(to, from)) < 0) {
		for (int i = 0; i < 2; i++) {
			close(to[i]);
			close(from[i]);
		}
		return -1;
	}
	close(to[0]);
	close(from[1]);
	p->to = to[1];
	p->from = from[0];
	if (pin(0) < 0 || (p->ctr[0] = open_switches(0)) < 0 || (p->ctr[1] = open_switches(1)) < 0)
		return -1;
	return 0;
}

static inline void pingpong_close(struct pingpong *p)
{
	if (p->to >= 0)
		close(p->to);	/* the echo reads the end of its input */
	if (p->from >= 0)
		close(p->from);
	if (p->echo > 0)
		stop(&p->echo, 1);
	for (int i = 0; i < 2; i++)
		if (p->ctr[i] >= 0)
			close(p->ctr[i]);
}

/* rounds round trips: ns and context switches per round trip. */
static inline int pingpong(const struct pingpong *p, int rounds, double *ns, double *switches)
{
	uint64_t n[2];
	char c = 'x';
	double start;

	for (int i = 0; i < 2; i++) {
		ioctl(p->ctr[i], PERF_EVENT_IOC_RESET, 0);
		ioctl(p->ctr[i], PERF_EVENT_IOC_ENABLE, 0);
	}
	errno = 0;
	start = now();
	for (int r = 0; r < rounds; r++)
		if (write(p->to, &c, 1) != 1 || read(p->from, &c, 1) != 1) {
			fprintf(stderr, "bench: ping-pong: %s\n",
				errno ? strerror(errno) : "the echo process is gone");
			return -1;
		}
	*ns = (now() - start) * 1e9 / rounds;
	for (int i = 0; i < 2; i++) {
		ioctl(p->ctr[i], PERF_EVENT_IOC_DISABLE, 0);
		if (read(p->ctr[i], &n[i], sizeof n[i]) != sizeof n[i]) {
			perror("bench: reading context switches");
			return -1;
		}
	}
	*switches = (double)(n[0] + n[1]) / rounds;
	return 0;
}

static inline const struct smt_table *builtin_table(const char *name)
{
	int n;
	const struct smt_table *t = smt_builtin_tables(&n);

	for (int i = 0; i < n; i++)
		if (strcmp(t[i].name, name) == 0)
			return &t[i];
	return NULL;
}

/* CPUs 0 and 1 as the two threads of one x86 SMT2 core, named 0. */
static inline int map_core(struct sched_purr *sp)
{
	int sts = sched_purr_map_cpu(sp, 0, 0, 0);

	if (sts == 0)
		sts = sched_purr_map_cpu(sp, 1, 0, 1);
	if (sts == 0)
		sts = sched_purr_set_shares(sp, 0, builtin_table("x86-smt2"));
	if (sts == 0)
		sts = sched_purr_reset_core(sp, 0);
	return sts;
}

/* The software PURR loaded and attached, counting CPUs 0 and 1. */
static inline int purr_on(struct sched_purr *sp)
{
	char why[256];
	int sts = sched_purr_open(sp, (int)sysconf(_SC_NPROCESSORS_CONF), CONFIG_DEFAULT_PROCESSES, why,
				  sizeof why);

	if (sts == 0 && (sts = map_core(sp)) < 0)
		snprintf(why, sizeof why, "CPUs 0 and 1 as one core: %s", strerror(-sts));
	if (sts < 0) {
		fprintf(stderr, "bench: software PURR: %s\n", why);
		sched_purr_close(sp);
	}
	return sts;
}

/* The sched_switch program that uses sp's cores map, that is sp's own:
 * an fd, or -1. */
static inline int switch_prog(const struct sched_purr *sp)
{
	struct bpf_map_info map = { 0 };
	__u32 len = sizeof map, id = 0;

	if (bpf_obj_get_info_by_fd(sp->cores_fd, &map, &len) < 0)
		return -1;
	while (bpf_prog_get_next_id(id, &id) == 0) {
		__u32 maps[16];
		struct bpf_prog_info info = { .nr_map_ids = 16, .map_ids = (__u64)(uintptr_t)maps };
		int fd = bpf_prog_get_fd_by_id(id);

		len = sizeof info;
		if (fd < 0)
			continue;
		if (bpf_obj_get_info_by_fd(fd, &info, &len) == 0 &&
		    strcmp(info.name, "sched_switch") == 0)
			for (__u32 i = 0; i < info.nr_map_ids && i < 16; i++)
				if (maps[i] == map.id)
					return fd;
		close(fd);
	}
	return -1;
}

/* The kernel's statistics of a program: ns run and calls, so far. */
static inline int prog_stats(int fd, uint64_t *ns, uint64_t *calls)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof info;

	if (bpf_obj_get_info_by_fd(fd, &info, &len) < 0)
		return -1;
	*ns = info.run_time_ns;
	*calls = info.run_cnt;
	return 0;
}

#endif
