/*
 * CPU load for the software PURR's tests, with the kernel's own account of
 * what it ran: each process prints "PID RUN_MS START_MS END_MS" at the end,
 * RUN_MS being its CLOCK_PROCESS_CPUTIME_ID (the scheduler's
 * sum_exec_runtime), which the tests compare smt.proc.* with, START_MS and
 * END_MS the CLOCK_MONOTONIC times its load began and ended (for the
 * overlap of two).
 *
 *   spin CPU SECONDS            one process busy on CPU for SECONDS
 *   spin -p CPU0 CPU1 MS SECONDS
 *                               two processes on CPU0 and CPU1 passing a
 *                               token: each runs MS ms while it holds it and
 *                               sleeps while the other does, so they are
 *                               never busy together
 *   spin -t CPU MS SECONDS      two threads of one process on CPU passing a
 *                               token the same way, so that CPU switches
 *                               from one to the other; the line has the
 *                               second thread's TID after END_MS
 *   spin now                    the CLOCK_MONOTONIC time in ms (that of the
 *                               kernel's trace, qa/lib/runtrace)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0) {
		perror("sched_setaffinity");
		exit(1);
	}
}

static void busy_until(double end)
{
	while (now(CLOCK_MONOTONIC) < end)
		;
}

static double started;

static void report(void)
{
	printf("%d %.3f %.3f %.3f\n", (int)getpid(), now(CLOCK_PROCESS_CPUTIME_ID) * 1000,
	       started * 1000, now(CLOCK_MONOTONIC) * 1000);
	fflush(stdout);
}

/* Holds the token for ms, passes it on, waits for it back, until end. */
static void ping_pong(int in, int out, double ms, double end, int first)
{
	char token = 't';

	if (!first && read(in, &token, 1) != 1)
		return;
	while (now(CLOCK_MONOTONIC) < end) {
		busy_until(now(CLOCK_MONOTONIC) + ms / 1000);
		if (write(out, &token, 1) != 1 || read(in, &token, 1) != 1)
			break;
	}
	close(out);	/* the other sees end of file and stops too */
}

/* The second thread of spin -t: it waits for the token first. */
struct sibling {
	int in, out;
	double ms, end;
	pid_t tid;
};

static void *sibling_thread(void *arg)
{
	struct sibling *sb = arg;

	sb->tid = (pid_t)syscall(SYS_gettid);
	ping_pong(sb->in, sb->out, sb->ms, sb->end, 0);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "now") == 0) {
		printf("%.3f\n", now(CLOCK_MONOTONIC) * 1000);
		return 0;
	}
	if (argc == 3) {
		pin(atoi(argv[1]));
		started = now(CLOCK_MONOTONIC);
		busy_until(started + atof(argv[2]));
		report();
		return 0;
	}
	if (argc == 6 && strcmp(argv[1], "-p") == 0) {
		int ab[2], ba[2];
		double ms = atof(argv[4]), end = now(CLOCK_MONOTONIC) + atof(argv[5]);
		pid_t child;

		if (pipe(ab) || pipe(ba)) {
			perror("pipe");
			return 1;
		}
		if ((child = fork()) == 0) {
			close(ab[1]);
			close(ba[0]);
			pin(atoi(argv[3]));
			started = now(CLOCK_MONOTONIC);
			ping_pong(ab[0], ba[1], ms, end, 0);
			report();
			return 0;
		}
		close(ab[0]);
		close(ba[1]);
		pin(atoi(argv[2]));
		started = now(CLOCK_MONOTONIC);
		ping_pong(ba[0], ab[1], ms, end, 1);
		waitpid(child, NULL, 0);
		report();
		return 0;
	}
	if (argc == 5 && strcmp(argv[1], "-t") == 0) {
		int ab[2], ba[2];
		struct sibling sb = { .ms = atof(argv[3]) };
		pthread_t other;

		if (pipe(ab) || pipe(ba)) {
			perror("pipe");
			return 1;
		}
		pin(atoi(argv[2]));	/* the second thread inherits it */
		started = now(CLOCK_MONOTONIC);
		sb.end = started + atof(argv[4]);
		sb.in = ab[0];
		sb.out = ba[1];
		if (pthread_create(&other, NULL, sibling_thread, &sb) != 0) {
			perror("pthread_create");
			return 1;
		}
		ping_pong(ba[0], ab[1], sb.ms, sb.end, 1);
		pthread_join(other, NULL);
		printf("%d %.3f %.3f %.3f %d\n", (int)getpid(), now(CLOCK_PROCESS_CPUTIME_ID) * 1000,
		       started * 1000, now(CLOCK_MONOTONIC) * 1000, (int)sb.tid);
		return 0;
	}
	fprintf(stderr, "usage: spin CPU SECONDS | spin -p CPU0 CPU1 MS SECONDS | spin -t CPU MS SECONDS | "
		"spin now\n");
	return 2;
}
