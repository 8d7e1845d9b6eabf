/*
 * A known load for the chargeback example (qa/example/chargeday): one
 * process on CPU, busy FRACTION of every PERIOD_MS and asleep the rest,
 * for SECONDS.  At the end it prints "PID RUN_MS", RUN_MS being its
 * CLOCK_PROCESS_CPUTIME_ID (the scheduler's sum_exec_runtime), so that a
 * report can be held against the kernel's own account of what it ran.
 *
 *   duty CPU FRACTION PERIOD_MS SECONDS
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	cpu_set_t set;
	double fraction, period, seconds, start, next;

	if (argc != 5) {
		fprintf(stderr, "usage: duty CPU FRACTION PERIOD_MS SECONDS\n");
		return 2;
	}
	fraction = atof(argv[2]);
	period = atof(argv[3]) / 1000;
	seconds = atof(argv[4]);
	if (fraction < 0 || fraction > 1 || period <= 0 || seconds < 0) {
		fprintf(stderr, "duty: FRACTION 0 to 1, PERIOD_MS and SECONDS above 0\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[1]), &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0) {
		perror("duty: sched_setaffinity");
		return 1;
	}
	start = next = now(CLOCK_MONOTONIC);
	while (next < start + seconds) {
		double busy_until = next + fraction * period;
		struct timespec nap;
		double rest;

		while (now(CLOCK_MONOTONIC) < busy_until)
			;
		next += period;
		rest = next - now(CLOCK_MONOTONIC);
		if (rest > 0) {
			nap.tv_sec = (time_t)rest;
			nap.tv_nsec = (long)((rest - (double)nap.tv_sec) * 1e9);
			nanosleep(&nap, NULL);
		}
	}
	printf("%d %.0f\n", (int)getpid(), now(CLOCK_PROCESS_CPUTIME_ID) * 1000);
	return 0;
}
