/*
 * smtcpu-model --calibrate: the SMT factors of this host, measured.  For
 * k = 1..S, k copies of a kernel (or of the user's command) run pinned to
 * the first k threads of one core for a stated time; the core's throughput
 * with k busy threads, over the throughput of one, is T(k).  The levels
 * take turns, repeat after repeat, so a drift in the machine's speed falls
 * on every level alike, and the spread of the repeats is shown.
 *
 * A copy's rate is its work over the CPU time the kernel gave it, not over
 * the wall clock: another task time-sharing its CPU (a shared host) then
 * leaves the rate alone, where it would have divided it.  What such a
 * neighbour does change, the threads' time together on the core, is shown:
 * each level's least share of the wall time any copy ran.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpulist.h"
#include "model_tool.h"
#include "monoclock.h"
#include "sysroot.h"
#include "topology.h"

#define MAX_REPEAT 100

struct copy_result {
	double ops;		/* kernel operations, or command runs completed */
	double seconds;		/* from the start signal to the copy's end */
	double ran;		/* CPU seconds the kernel gave it (its command's) meanwhile */
	int error;		/* errno of a failed pin, or -1: the command failed */
	int cpu;		/* where the copy ran */
};

/* CPUs counted as one core: --cpus, or the first core with the most threads. */
static int core_cpus(const char *list, int *cpus, char *why, size_t whylen)
{
	struct topology topo;
	int n;

	if (list != NULL) {
		n = cpulist_collect(list, cpus, SMT_MAX_THREADS + 1);
		if (n < 2 || n > SMT_MAX_THREADS) {
			snprintf(why, whylen, "--cpus %.40s: expected 2 to %d CPUs, e.g. --cpus 0,1",
				 list, SMT_MAX_THREADS);
			return -1;
		}
		return n;
	}
	/* sysfs below $SMTCPU_ROOT, as the PMDA reads it */
	if (sr_set_root(getenv("SMTCPU_ROOT")) < 0 || topology_init(&topo) < 0 ||
	    topo.ncores == 0) {
		snprintf(why, whylen, "cannot read the CPU topology from sysfs: name the CPUs "
			 "of one core with --cpus");
		topology_free(&topo);
		return -1;
	}
	n = 0;
	for (int i = 0; i < topo.ncores && n == 0; i++)
		if (topo.cores[i].nthreads == topo.max_threads && topo.max_threads > 1) {
			n = topo.cores[i].nthreads;
			memcpy(cpus, topo.cores[i].cpus, sizeof(int) * (size_t)n);
		}
	topology_free(&topo);
	if (n == 0)
		snprintf(why, whylen, "every core of this machine has one thread "
			 "(thread_siblings_list), so there is no SMT to calibrate; to treat "
			 "CPUs as one core's threads anyway, name them: --cpus 0,1");
	return n > 0 ? n : -1;
}

static void pin(int cpu, struct copy_result *res)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0)
		res->error = errno;
}

/* The command over and over until the deadline; each run is waited for. */
static double run_command(const char *command, double deadline, struct copy_result *res)
{
	double runs = 0;

	do {
		int status = system(command);
		if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			res->error = -1;
			break;
		}
		runs++;
	} while (mono_seconds() < deadline);
	return runs;
}

/* CPU seconds this copy has run: its own, or its commands' (waited for). */
static double cpu_seconds(int command)
{
	struct timespec ts;
	struct rusage ru;

	if (!command) {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		return (double)ts.tv_sec + ts.tv_nsec / 1e9;
	}
	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* One copy: pinned, waits for the start, works, reports. */
static void copy_main(const struct calibration *c, const struct cpu_kernel *k, int cpu,
		      int go, int out)
{
	struct copy_result res = { 0, 0, 0, 0, cpu };
	char byte;
	double start, cpu0;

	pin(cpu, &res);
	if (read(go, &byte, 1) < 0)	/* end of file: everyone starts now */
		res.error = errno;
	start = mono_seconds();
	cpu0 = cpu_seconds(k == NULL);
	if (res.error == 0)
		res.ops = k ? (double)k->run(start + c->seconds)
			    : run_command(c->command, start + c->seconds, &res);
	res.seconds = mono_seconds() - start;
	res.ran = cpu_seconds(k == NULL) - cpu0;
	if (write(out, &res, sizeof res) != (ssize_t)sizeof res)
		_exit(1);
	_exit(0);
}

/* The core's throughput with the first level CPUs busy: the sum of the
 * copies' rates, each over the CPU time it ran; *on_cpu the least share of
 * the wall time a copy ran.  Returns it, or -1 with why. */
static double measure(const struct calibration *c, const struct cpu_kernel *k, const int *cpus,
		      int level, double *on_cpu, char *why, size_t whylen)
{
	int go[2], out[2], forked = 0, failed = 0;
	pid_t pids[SMT_MAX_THREADS];
	double total = 0;

	if (pipe(go) < 0 || pipe(out) < 0) {
		snprintf(why, whylen, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	for (; forked < level; forked++) {
		if ((pids[forked] = fork()) < 0)
			break;
		if (pids[forked] == 0) {
			close(go[1]);
			close(out[0]);
			copy_main(c, k, cpus[forked], go[0], out[1]);
		}
	}
	close(go[0]);
	close(go[1]);		/* the start: every copy's read returns */
	close(out[1]);
	for (int i = 0; i < forked; i++) {
		struct copy_result res;
		if (read(out[0], &res, sizeof res) != (ssize_t)sizeof res) {
			failed = 1;
			snprintf(why, whylen, "a copy died before it reported");
		} else if (res.error != 0) {
			failed = 1;
			if (res.error > 0)
				snprintf(why, whylen, "cannot run on CPU %d: %s", res.cpu,
					 strerror(res.error));
			else
				snprintf(why, whylen, "the command failed: %s", c->command);
		} else if (res.seconds > 0) {
			/* a command's children may not have used the CPU at all */
			double ran = res.ran > 0 ? res.ran : res.seconds;
			total += res.ops / ran;
			if (ran / res.seconds < *on_cpu)
				*on_cpu = ran / res.seconds;
		}
	}
	close(out[0]);
	for (int i = 0; i < forked; i++)
		waitpid(pids[i], NULL, 0);
	if (forked < level) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		return -1;
	}
	return failed ? -1 : total;
}

static void print_levels(const double rates[][SMT_MAX_THREADS + 1], const double *on_cpu,
			 int repeat, int S, const int *cpus)
{
	double mean1 = 0, least = 1;

	for (int r = 0; r < repeat; r++)
		mean1 += rates[r][1] / repeat;
	printf("%5s  %-12s %14s %14s %14s %8s %7s\n", "level", "cpus", "core ops/s", "ops/s a thread",
	       "spread", "T(k)", "on cpu");
	for (int k = 1; k <= S; k++) {
		double mean = 0, lo = rates[0][k], hi = rates[0][k];
		char list[64] = "";
		size_t used = 0;

		for (int r = 0; r < repeat; r++) {
			mean += rates[r][k] / repeat;
			lo = rates[r][k] < lo ? rates[r][k] : lo;
			hi = rates[r][k] > hi ? rates[r][k] : hi;
		}
		for (int i = 0; i < k; i++)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%d",
						 i ? "," : "", cpus[i]);
		printf("%5d  %-12s %14.4g %14.4g %13.1f%% %8.4f %6.1f%%\n", k, list, mean, mean / k,
		       100 * (hi - lo) / mean, mean / mean1, 100 * on_cpu[k]);
		least = on_cpu[k] < least ? on_cpu[k] : least;
	}
	printf("(spread: the slowest to the fastest of %d runs, as a share of their mean; ops/s are "
	       "per second a copy ran;\n on cpu: the least share of its run's time a copy of the "
	       "level was on its CPU)\n", repeat);
	if (least < 0.95)
		printf("Other tasks shared these CPUs (a copy ran %.0f%% of the time): each rate holds, "
		       "but the copies\nof a level ran together less than it seems; calibrate on an "
		       "idle host to see the core fully shared.\n", 100 * least);
	printf("\n");
}

int calibrate(const struct calibration *c, const struct smt_config *cfg)
{
	static double rates[MAX_REPEAT][SMT_MAX_THREADS + 1];
	double on_cpu[SMT_MAX_THREADS + 1];
	static struct smt_run runs[MAX_REPEAT * SMT_MAX_THREADS];
	const struct cpu_kernel *k = NULL;
	int cpus[SMT_MAX_THREADS + 1], S, n = 0;
	char why[512], host[64] = "", source[SMT_BASIS_MAX], list[64] = "";
	size_t used = 0;

	if (c->command == NULL && (k = kernel_find(c->kernel)) == NULL) {
		fprintf(stderr, "smtcpu-model: --kernel %s: expected one of %s\n", c->kernel,
			kernel_names);
		return 2;
	}
	if ((S = core_cpus(c->cpus, cpus, why, sizeof why)) < 0) {
		fprintf(stderr, "smtcpu-model: %s\n", why);
		return 2;
	}
	if (k && kernel_prepare(k) < 0) {
		fprintf(stderr, "smtcpu-model: no memory for the %s kernel\n", k->name);
		return 2;
	}
	for (int i = 0; i < S; i++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%d", i ? "," : "", cpus[i]);
	gethostname(host, sizeof host - 1);
	printf("Calibrating CPUs %s as one core's %d threads%s: %s%s%s, %d run%s of %g s a "
	       "level\n\n", list, S, c->cpus ? " (as --cpus says)" : "",
	       k ? k->what : "the command \"", k ? "" : c->command, k ? "" : "\"",
	       c->repeat, c->repeat > 1 ? "s" : "", c->seconds);
	for (int level = 0; level <= S; level++)
		on_cpu[level] = 1;
	for (int r = 0; r < c->repeat; r++)
		for (int level = 1; level <= S; level++) {
			if ((rates[r][level] = measure(c, k, cpus, level, &on_cpu[level], why,
						       sizeof why)) <= 0) {
				fprintf(stderr, "smtcpu-model: %s\n", rates[r][level] < 0 ? why :
					"no work done: is the duration too short?");
				return 2;
			}
			memset(&runs[n], 0, sizeof runs[n]);
			runs[n].cores[level] = 1;
			runs[n++].throughput = rates[r][level];
		}
	print_levels((const double (*)[SMT_MAX_THREADS + 1])rates, on_cpu, c->repeat, S, cpus);
	snprintf(source, sizeof source, "on %s cpus %s with the %s %s", host, list,
		 k ? k->name : "command", k ? "kernel" : c->command);
	return fit_report(runs, n, S, 0, cfg, &(struct fit_label){ "", c->name, "calibrated", source })
	       ? 2 : 0;
}
