/*
 * Core counters read on their own CPU (src/counters/counters_local.c and
 * local_read.bpf.c), with software events whose counts are known: a
 * per-CPU cpu-clock counts the wall time it is enabled, whatever runs, so
 * its rate is 1e9 ns a second on every CPU; task-clock, per CPU, counts
 * the same.  Clients that fetch every 0.7 s and every 1.3 s, against the
 * program's reads every 1 s, each see that rate within 2% in every
 * interval: the value is carried to the fetch (read only as of the last
 * timer, a 0.7 s client would see 0 and 1.43e9 by turns).  A spinner
 * pinned to the last CPU keeps one CPU busy, as on a loaded host; then it
 * stops, and a client still sees the rate on that CPU as it idles (some
 * kernels run no cpu-clock sample on an idle CPU: the timer falls silent
 * there, and its last rate carried on would stop short at the cap).
 *
 * The timers follow the pass's period when it changes: with every CPU
 * kept busy, the kernel's count of the program's runs (BPF statistics) is
 * each CPU's window over the period, give or take one; clients stay within
 * 2% across the change.
 */
#include <bpf/bpf.h>
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "corectr.h"
#include "monoclock.h"
#include "unit.h"

#define NCPUS_MAX 256

static const struct corectr_group_spec sw[] = {
	{ "sw", 2, { { PERF_TYPE_SOFTWARE, { PERF_COUNT_SW_CPU_CLOCK, 0, 0 } },
		     { PERF_TYPE_SOFTWARE, { PERF_COUNT_SW_TASK_CLOCK, 0, 0 } } } },
};

static pid_t spinner[NCPUS_MAX];
static int nspinners;
static int passes;	/* the clients' reads of every group (corectr_read) */

static int stop_spinners(void **state)
{
	(void)state;
	while (nspinners > 0) {
		pid_t pid = spinner[--nspinners];

		if (pid > 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
	}
	return 0;
}

/* A child spinning on cpu, killed by the teardown, or by the kernel when
 * this process dies however it does. */
static pid_t spin_on(int cpu)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		cpu_set_t set;

		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(1);
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof set, &set);
		for (volatile unsigned long i = 0;; i++)
			;
	}
	return pid;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

	while (nanosleep(&ts, &ts) != 0)
		;
}

/* A client fetching every gap_ns for n intervals: each interval's count
 * of both events on each CPU, which must be 1e9 a second within 2%.  A
 * fetch is timed by the clock just before and just after it: the values
 * are as of a moment between, so an interval lasted from the span between
 * the two fetches' nearer ends to that between their further ends.  (A
 * virtual CPU its host stops mid-fetch, as in qa 035's POWER guest beside
 * another guest, widens the span by that stop, not the 2%.)  Returns 0, or
 * -1 with the first interval outside the 2% said in why. */
static int client_once(struct corectr *c, struct ctr_backend *b, int ncpus, const unsigned char *online,
		       uint64_t gap_ns, int n, char *why, size_t whylen)
{
	double last[NCPUS_MAX][2];
	uint64_t before0, after0;
	int sts = 0;

	/* the first interval starts at a fetch too, not at the counters' open
	 * (a fork or a slow open in between would count as the interval's) */
	before0 = mono_ns();
	b->ops->begin_pass(b);
	corectr_read(c, b);
	after0 = mono_ns();
	passes++;
	for (int cpu = 0; cpu < ncpus; cpu++)
		for (int k = 0; k < 2; k++)
			last[cpu][k] = corectr_total(c, cpu, 0, k);
	for (int i = 0; i < n; i++) {
		uint64_t before1, after1;
		long allocs;

		sleep_ns(gap_ns);
		allocs = allocations;
		before1 = mono_ns();
		b->ops->begin_pass(b);
		corectr_read(c, b);
		after1 = mono_ns();
		passes++;
		assert_int_equal(allocations, allocs);
		for (int cpu = 0; cpu < ncpus; cpu++)
			for (int k = 0; online[cpu] && k < 2; k++) {
				double v = corectr_total(c, cpu, 0, k), count = v - last[cpu][k];
				double shortest = (double)(before1 - after0), longest = (double)(after1 - before0);

				if (sts == 0 && (count < 0.98 * shortest || count > 1.02 * longest)) {
					snprintf(why, whylen, "interval %d: cpu%d's %s counted %.4g ns in %.4g to %.4g ns",
						 i, cpu, k ? "task-clock" : "cpu-clock", count, shortest, longest);
					sts = -1;
				}
				last[cpu][k] = v;
			}
		before0 = before1;
		after0 = after1;
	}
	return sts;
}

/* The client, tried up to three times (this machine is shared, and a
 * loaded host stops a guest's virtual CPUs at any moment), each try's
 * evidence said if all fail. */
static void client(struct corectr *c, struct ctr_backend *b, int ncpus, const unsigned char *online,
		   uint64_t gap_ns, int n)
{
	char evidence[768] = "", why[200];
	size_t used = 0;

	for (int attempt = 0; attempt < 3; attempt++) {
		if (client_once(c, b, ncpus, online, gap_ns, n, why, sizeof why) == 0)
			return;
		used += (size_t)snprintf(evidence + used, sizeof evidence - used, " try %d, %s;", attempt + 1, why);
		print_message("a %.1f s client, try %d: %s\n", (double)gap_ns / 1e9, attempt + 1, why);
	}
	fail_msg("a %.1f s client:%s not 1e9 ns a second within 2%%", (double)gap_ns / 1e9, evidence);
}

static void read_online(unsigned char *online, int ncpus)
{
	for (int cpu = 0; cpu < ncpus; cpu++) {
		char path[64];
		FILE *f;

		/* (cpu0 often has no online file: it cannot go offline) */
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/online", cpu);
		online[cpu] = 1;
		if ((f = fopen(path, "r")) != NULL) {
			online[cpu] = fgetc(f) == '1';
			fclose(f);
		}
	}
}

/* The software events on every online CPU, read locally every 1 s. */
static struct ctr_backend *open_sw(struct corectr *c, unsigned char *online, int *ncpus)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	struct ctr_backend *b;
	char why[256];

	assert_true(n > 0 && n <= NCPUS_MAX);
	*ncpus = (int)n;
	read_online(online, *ncpus);
	b = ctr_local_new(*ncpus, *ncpus, 1000, why, sizeof why);
	if (b == NULL)
		fail_msg("the local-read backend: %s", why);
	assert_int_equal(corectr_open(c, sw, 1, *ncpus, online, b), 0);
	assert_int_equal(ctr_local_direct(b), 0);	/* every group read on its CPU */
	return b;
}

static void carried_to_every_fetch(void **state)
{
	unsigned char online[NCPUS_MAX] = { 0 };
	int ncpus;
	struct corectr c;
	struct ctr_backend *b = open_sw(&c, online, &ncpus);

	(void)state;
	passes = 0;
	spinner[nspinners++] = spin_on(ncpus - 1);
	client(&c, b, ncpus, online, 700000000u, 6);
	client(&c, b, ncpus, online, 1300000000u, 3);
	stop_spinners(NULL);
	client(&c, b, ncpus, online, 700000000u, 5);
	assert_int_equal(ctr_local_direct(b), 0);
	/* every read counted once, by how it was taken: the one at opening
	 * and one a pass; the busy CPU's served from its timer, once it had
	 * read twice (an idle CPU's too, where its kernel samples in idle) */
	for (int cpu = 0; cpu < ncpus; cpu++)
		if (online[cpu])
			assert_int_equal(c.reads_interrupting[cpu] + c.reads_on_cpu[cpu], 1 + passes);
	assert_true(c.reads_on_cpu[ncpus - 1] > 0);
	print_message("reads on each CPU: %d; the busy CPU's: %llu interrupting, %llu on its CPU\n", 1 + passes,
		      (unsigned long long)c.reads_interrupting[ncpus - 1], (unsigned long long)c.reads_on_cpu[ncpus - 1]);
	corectr_close(&c, b);
	b->ops->destroy(b);
}

/* The local-read program this process loaded last (a test that failed
 * leaves its backend's open): its descriptor, or -1. */
static int own_program(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int found = -1;
	__u32 newest = 0;

	while (d && (e = readdir(d)) != NULL) {
		char path[64], link[64];
		struct bpf_prog_info info;
		__u32 len = sizeof info;
		ssize_t n;
		int fd = atoi(e->d_name);

		snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
		if ((n = readlink(path, link, sizeof link - 1)) <= 0)
			continue;
		link[n] = '\0';
		memset(&info, 0, sizeof info);
		if (strcmp(link, "anon_inode:bpf-prog") == 0 && bpf_obj_get_info_by_fd(fd, &info, &len) == 0 &&
		    strcmp(info.name, "read_local") == 0 && info.id > newest) {
			newest = info.id;
			found = fd;
		}
	}
	if (d)
		closedir(d);
	return found;
}

static uint64_t runs(int prog)
{
	struct bpf_prog_info info;
	__u32 len = sizeof info;

	memset(&info, 0, sizeof info);
	assert_int_equal(bpf_obj_get_info_by_fd(prog, &info, &len), 0);
	return info.run_cnt;
}

/* Over about two seconds, the program ran window / period times on each of
 * n CPUs, give or take one each; tried three times (a virtual CPU stopped
 * by its host folds the timers it missed into one), each try's evidence
 * said if all fail. */
static void ticks_at(int prog, int n, uint64_t period_ns)
{
	char evidence[512] = "";
	size_t used = 0;

	for (int attempt = 0; attempt < 3; attempt++) {
		uint64_t before0 = mono_ns(), r0 = runs(prog), after0 = mono_ns(), r1, before1, after1;
		double least, most;

		sleep_ns(2000000000u);
		before1 = mono_ns();
		r1 = runs(prog);
		after1 = mono_ns();
		least = n * ((double)(before1 - after0) / (double)period_ns - 1);
		most = n * ((double)(after1 - before0) / (double)period_ns + 1);
		if ((double)(r1 - r0) >= least && (double)(r1 - r0) <= most) {
			print_message("timers at %.3f s on %d CPUs: %llu runs in %.3f to %.3f s\n",
				      (double)period_ns / 1e9, n, (unsigned long long)(r1 - r0),
				      (double)(before1 - after0) / 1e9, (double)(after1 - before0) / 1e9);
			return;
		}
		used += (size_t)snprintf(evidence + used, sizeof evidence - used, " %llu runs in %.3f to %.3f s;",
					 (unsigned long long)(r1 - r0), (double)(before1 - after0) / 1e9,
					 (double)(after1 - before0) / 1e9);
	}
	fail_msg("timers at %.3f s on %d CPUs:%s not one run a period each, give or take one",
		 (double)period_ns / 1e9, n, evidence);
}

static void timers_follow_the_period(void **state)
{
	unsigned char online[NCPUS_MAX] = { 0 };
	int ncpus, stats, prog, n = 0;
	struct corectr c;
	struct ctr_backend *b = open_sw(&c, online, &ncpus);

	(void)state;
	for (int cpu = 0; cpu < ncpus; cpu++)
		if (online[cpu]) {
			spinner[nspinners++] = spin_on(cpu);
			n++;
		}
	if ((stats = bpf_enable_stats(BPF_STATS_RUN_TIME)) < 0)
		fail_msg("BPF statistics: %s", strerror(errno));
	assert_true((prog = own_program()) >= 0);
	ticks_at(prog, n, 1000000000u);
	assert_int_equal(ctr_local_set_period(b, 250), 0);
	ticks_at(prog, n, 250000000u);
	client(&c, b, ncpus, online, 300000000u, 4);
	assert_int_equal(ctr_local_set_period(b, 2000), 0);
	client(&c, b, ncpus, online, 700000000u, 4);
	assert_int_equal(ctr_local_direct(b), 0);
	corectr_close(&c, b);
	b->ops->destroy(b);
	close(stats);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(carried_to_every_fetch, stop_spinners),
		cmocka_unit_test_teardown(timers_follow_the_period, stop_spinners),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
