/*
 * Churn for the stress test (qa/031): processes and cgroups that come and
 * go faster than the agent samples.  Each mode prints one line of what it
 * did, for the test's table.
 *
 *   churn storm N US       N short processes, each busy US microseconds
 *                          then gone, up to 32 at a time; prints how many
 *                          ran and how many took a PID used before in the run
 *   churn sleepers N SEC   N processes asleep for SEC seconds, then killed
 *   churn cgroups DIR N MS N cgroups made under DIR in turn, a process busy
 *                          MS ms in each, each removed when it has gone
 *   churn spin N SEC       N processes busy for SEC seconds, unpinned
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PID (1 << 23)	/* above any pid_max (PID_MAX_LIMIT, 4M) */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void busy_for(double seconds)
{
	double end = now() + seconds;
	while (now() < end)
		;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static int storm(long n, long us)
{
	unsigned char *seen = calloc(MAX_PID / 8, 1);
	long ran = 0, reused = 0, alive = 0;

	if (seen == NULL)
		die("calloc");
	while (ran < n || alive > 0) {
		if (ran < n && alive < 32) {
			pid_t pid = fork();
			if (pid < 0) {
				if (errno == EAGAIN && alive > 0)
					goto reap;
				die("fork");
			}
			if (pid == 0) {
				busy_for(us / 1e6);
				_exit(0);
			}
			if (pid < MAX_PID) {
				reused += (seen[pid / 8] >> (pid % 8)) & 1;
				seen[pid / 8] |= (unsigned char)(1 << (pid % 8));
			}
			ran++;
			alive++;
			continue;
		}
reap:
		if (wait(NULL) > 0)
			alive--;
	}
	printf("storm: %ld processes, %ld under a PID used before\n", ran, reused);
	return 0;
}

static int sleepers(long n, long sec)
{
	pid_t *pid = calloc((size_t)n, sizeof *pid);
	long made = 0;

	if (pid == NULL)
		die("calloc");
	for (; made < n; made++) {
		if ((pid[made] = fork()) < 0)
			break;
		if (pid[made] == 0) {
			pause();
			_exit(0);
		}
	}
	sleep((unsigned)sec);
	for (long i = 0; i < made; i++)
		kill(pid[i], SIGKILL);
	for (long i = 0; i < made; i++)
		waitpid(pid[i], NULL, 0);
	printf("sleepers: %ld processes asleep %ld s%s\n", made, sec, made < n ? " (fork failed)" : "");
	return made == n ? 0 : 1;
}

static int cgroups(const char *dir, long n, long ms)
{
	char path[4096], procs[4200];
	long done = 0;

	for (long i = 0; i < n; i++) {
		pid_t pid;
		FILE *f;

		snprintf(path, sizeof path, "%s/smtcpu-qa-%ld-%ld", dir, (long)getpid(), i);
		if (mkdir(path, 0755) != 0)
			die(path);
		if ((pid = fork()) < 0)
			die("fork");
		if (pid == 0) {
			snprintf(procs, sizeof procs, "%s/cgroup.procs", path);
			if ((f = fopen(procs, "w")) == NULL || fprintf(f, "%ld\n", (long)getpid()) < 0 ||
			    fclose(f) != 0)
				_exit(2);
			busy_for(ms / 1e3);
			_exit(0);
		}
		int st;
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			fprintf(stderr, "churn: the process in %s failed\n", path);
			return 1;
		}
		/* the kernel empties the cgroup a moment after its last task is reaped */
		for (int tries = 0; rmdir(path) != 0; tries++) {
			if (errno != EBUSY || tries == 1000)
				die(path);
			usleep(1000);
		}
		done++;
	}
	printf("cgroups: %ld made, each with a process busy %ld ms, and removed\n", done, ms);
	return 0;
}

static int spin(long n, long sec)
{
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			busy_for((double)sec);
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
	printf("spin: %ld processes busy %ld s\n", n, sec);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && strcmp(argv[1], "storm") == 0)
		return storm(atol(argv[2]), atol(argv[3]));
	if (argc == 4 && strcmp(argv[1], "sleepers") == 0)
		return sleepers(atol(argv[2]), atol(argv[3]));
	if (argc == 5 && strcmp(argv[1], "cgroups") == 0)
		return cgroups(argv[2], atol(argv[3]), atol(argv[4]));
	if (argc == 4 && strcmp(argv[1], "spin") == 0)
		return spin(atol(argv[2]), atol(argv[3]));
	fprintf(stderr, "usage: churn storm N US | sleepers N SEC | cgroups DIR N MS | spin N SEC\n");
	return 2;
}
