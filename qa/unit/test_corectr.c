/*
 * Per-CPU core counter groups (src/counters/corectr.c): a replayed trace whose
 * figures are worked by hand here (duty-cycle scaling, a window a group
 * never ran, a CPU going offline and back), then the real perf_event_open
 * path with software events on every online CPU and the msr PMU's tsc
 * checked against the CPU's own time stamp counter.
 */
#include <linux/perf_event.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "corectr.h"
#include "pmu.h"
#include "unit.h"

#define HW(c) { PERF_TYPE_HARDWARE, { (c), 0, 0 } }
static const struct corectr_group_spec hw_msr[] = {
	{ "hw", 2, { HW(PERF_COUNT_HW_CPU_CYCLES), HW(PERF_COUNT_HW_INSTRUCTIONS) } },
	{ "msr", 3, { { 12, { 0, 0, 0 } }, { 12, { 1, 0, 0 } }, { 12, { 2, 0, 0 } } } },
};

/* Two CPUs.  cpu0 runs its hw group all the time, then half; cpu1 half the
 * time, then not at all (kept baseline), then over both windows. */
static const char trace[] =
	"group h0 0 0 0,1\n"
	"group h1 1 0 0,1\n"
	"group m0 0 12 0,1,2\n"
	"group m1 1 12 0,1,2\n"
	"step\n"
	" h0 0 0 0 0\n h1 0 0 0 0\n m0 0 0 0 0 0\n m1 0 0 0 0 0\n"
	"step\n"
	" h0 1000000000 1000000000 2000000000 3000000000\n"
	" h1 1000000000 500000000 1000000000 500000000\n"
	" m0 1000000000 1000000000 2500000000 1800000000 1000000000\n"
	" m1 1000000000 1000000000 2500000000 100 100\n"
	"step\n"
	" h0 2000000000 1500000000 2500000000 3250000000\n"
	" h1 2000000000 500000000 1000000000 500000000\n"		/* never ran */
	"step\n"
	" h1 3000000000 1000000000 1400000000 900000000\n";		/* over both */

static void replay_hand_worked(void **state)
{
	unsigned char online[2] = { 1, 1 };
	struct corectr c;
	struct ctr_backend *b;
	char why[256];

	(void)state;
	fixture_new("corectr");
	fixture_write("/.keep", "\n");
	b = ctr_replay_new(fixture_file("/t", trace), 16, why, sizeof why);
	assert_non_null(b);
	assert_int_equal(corectr_open(&c, hw_msr, 2, 2, online, b), 0);
	assert_int_equal(c.nopen, 4);

	b->ops->begin_pass(b);
	long before = allocations;
	assert_int_equal(corectr_read(&c, b), 4);
	/* cpu0: all the time, as counted */
	assert_true(corectr_total(&c, 0, 0, 0) == 2e9 && corectr_total(&c, 0, 0, 1) == 3e9);
	assert_true(c.duty[corectr_cell(&c, 0, 0)] == 1.0);
	/* cpu1: half the time, so twice what it counted */
	assert_true(corectr_total(&c, 1, 0, 0) == 2e9 && corectr_total(&c, 1, 0, 1) == 1e9);
	assert_true(c.duty[corectr_cell(&c, 1, 0)] == 0.5);
	assert_true(corectr_total(&c, 0, 1, 0) == 2.5e9 && corectr_total(&c, 0, 1, 1) == 1.8e9 &&
		    corectr_total(&c, 0, 1, 2) == 1e9);

	b->ops->begin_pass(b);
	assert_int_equal(corectr_read(&c, b), 1);	/* the msr groups stood still */
	/* ...so they did not count in this read: a window is never used twice
	 * (Intel's overlap counters added the last window again) */
	assert_false(c.fresh[corectr_cell(&c, 0, 1)]);
	assert_false(c.fresh[corectr_cell(&c, 1, 1)]);
	/* cpu0: 0.5e9 and 0.25e9 counted in half the window */
	assert_true(corectr_total(&c, 0, 0, 0) == 3e9 && corectr_total(&c, 0, 0, 1) == 3.5e9);
	assert_true(c.duty[corectr_cell(&c, 0, 0)] == 0.5);
	/* cpu1 never ran: nothing added, not fresh, baseline kept */
	assert_true(corectr_total(&c, 1, 0, 0) == 2e9);
	assert_false(c.fresh[corectr_cell(&c, 1, 0)]);

	b->ops->begin_pass(b);
	assert_int_equal(corectr_read(&c, b), 1);
	/* cpu1 over both windows: enabled 2e9, running 0.5e9: x4 */
	assert_true(corectr_total(&c, 1, 0, 0) == 2e9 + 0.4e9 * 4);
	assert_true(corectr_total(&c, 1, 0, 1) == 1e9 + 0.4e9 * 4);
	assert_true(c.duty[corectr_cell(&c, 1, 0)] == 0.25);
	assert_int_equal(allocations, before);

	corectr_close(&c, b);
	b->ops->destroy(b);
	fixture_remove();
}

/* cpu1 goes offline: its groups close; what its counters did meanwhile is
 * never counted, and back online it starts from a fresh baseline. */
static void hotplug_neither_spikes_nor_goes_back(void **state)
{
	unsigned char online[2] = { 1, 1 };
	struct corectr c;
	struct ctr_backend *b;
	char why[256];

	(void)state;
	fixture_new("corectr-hotplug");
	fixture_write("/.keep", "\n");
	b = ctr_replay_new(fixture_file("/t",
		"group h0 0 0 0,1\n"
		"group h1 1 0 0,1\n"
		"step\n h0 0 0 0 0\n h1 0 0 0 0\n"
		"step\n h0 100 100 10 20\n h1 100 100 10 20\n"
		"step\n h0 200 200 20 40\n h1 900 900 90000 90000\n"	/* offline meanwhile */
		"step\n h0 300 300 30 60\n h1 1000 1000 90010 90020\n"),
		16, why, sizeof why);
	assert_non_null(b);
	assert_int_equal(corectr_open(&c, hw_msr, 1, 2, online, b), 0);
	b->ops->begin_pass(b);
	corectr_read(&c, b);
	assert_true(corectr_total(&c, 1, 0, 0) == 10);
	online[1] = 0;
	corectr_sync(&c, online, b);
	assert_int_equal(c.nopen, 1);
	b->ops->begin_pass(b);
	assert_int_equal(corectr_read(&c, b), 1);
	assert_true(corectr_total(&c, 1, 0, 0) == 10);
	online[1] = 1;
	corectr_sync(&c, online, b);		/* reopened: the baseline is 90000 */
	assert_int_equal(c.nopen, 2);
	b->ops->begin_pass(b);
	assert_int_equal(corectr_read(&c, b), 2);
	assert_true(corectr_total(&c, 1, 0, 0) == 20 && corectr_total(&c, 1, 0, 1) == 40);
	assert_true(corectr_total(&c, 0, 0, 0) == 30);
	corectr_close(&c, b);
	b->ops->destroy(b);
	fixture_remove();
}

/* A group the kernel refuses on one CPU: the rest count, and why says it. */
static void refused_group_is_named(void **state)
{
	unsigned char online[2] = { 1, 1 };
	struct corectr c;
	struct ctr_backend *b;
	char why[256];

	(void)state;
	fixture_new("corectr-busy");
	fixture_write("/.keep", "\n");
	b = ctr_replay_new(fixture_file("/t",
		"group h0 0 0 0,1\n"
		"group h1 1 0 0,1 error EBUSY\n"
		"step\n h0 0 0 0 0\n"
		"step\n h0 100 100 10 20\n"), 16, why, sizeof why);
	assert_non_null(b);
	assert_int_equal(corectr_open(&c, hw_msr, 1, 2, online, b), 0);
	assert_int_equal(c.nopen, 1);
	assert_int_equal(c.error, -EBUSY);
	assert_non_null(strstr(c.why, "hw events on cpu1"));
	assert_int_equal(c.open_error, -EBUSY);
	assert_int_equal(c.open_cpu, 1);
	corectr_close(&c, b);
	b->ops->destroy(b);
	/* refused everywhere: the open fails with the kernel's error */
	b = ctr_replay_new(fixture_file("/t2", "group h0 0 0 0,1 error EACCES\nstep\n"), 16, why,
			   sizeof why);
	online[1] = 0;
	assert_int_equal(corectr_open(&c, hw_msr, 1, 2, online, b), -EACCES);
	corectr_close(&c, b);
	b->ops->destroy(b);
	fixture_remove();
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The real perf_event_open path: cpu-clock and context switches, one group
 * per online CPU.  A per-CPU cpu-clock counts the wall time it was
 * enabled, whatever ran: each group counts from some moment inside the open
 * until some moment inside the last read, so its count lies between the
 * shortest and the longest such span.  (The open may take long: on a guest
 * each group is installed by an interrupt to its CPU, which waits for the
 * host to run that vCPU.)  The kernel's clock and CLOCK_MONOTONIC may run
 * at rates apart by a little: 2%. */
static void perf_software_events_on_every_cpu(void **state)
{
	static const struct corectr_group_spec sw[] = {
		{ "sw", 2, { { PERF_TYPE_SOFTWARE, { PERF_COUNT_SW_CPU_CLOCK, 0, 0 } },
			     { PERF_TYPE_SOFTWARE, { PERF_COUNT_SW_CONTEXT_SWITCHES, 0, 0 } } } },
	};
	int ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	static unsigned char online[CPU_SETSIZE];
	struct ctr_backend *b = ctr_perf_new(4 * ncpus);
	struct corectr c;
	double open_start, open_end, read_start = 0, read_end = 0;
	int nonline = 0;

	(void)state;
	for (int cpu = 0; cpu < ncpus && cpu < CPU_SETSIZE; cpu++) {
		long on = 1;
		if (cpu > 0)
			sr_read_long(&on, 0, 1, "/sys/devices/system/cpu/cpu%d/online", cpu);
		online[cpu] = on == 1;
		nonline += online[cpu];
	}
	open_start = now_ns();
	if (corectr_open(&c, sw, 1, ncpus, online, b) < 0)
		fail_msg("corectr_open: %s", c.why);
	open_end = now_ns();
	assert_int_equal(c.nopen, nonline);
	long before = allocations;
	for (int pass = 0; pass < 5; pass++) {
		usleep(20000);
		read_start = now_ns();
		b->ops->begin_pass(b);
		assert_int_equal(corectr_read(&c, b), nonline);
		read_end = now_ns();
	}
	assert_int_equal(allocations, before);
	double least = read_start - open_end, most = read_end - open_start;
	print_message("cpu-clock: the open took %.3f ms, the last read %.3f ms; each count "
		      "between %.3f and %.3f ms\n", (open_end - open_start) / 1e6,
		      (read_end - read_start) / 1e6, least / 1e6, most / 1e6);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		if (!online[cpu])
			continue;
		double counted = corectr_total(&c, cpu, 0, 0);
		if (counted < 0.98 * least || counted > 1.02 * most)
			fail_msg("cpu%d's cpu-clock counted %.3f ms, outside %.3f to %.3f ms", cpu,
				 counted / 1e6, least / 1e6, most / 1e6);
		assert_true(c.duty[corectr_cell(&c, cpu, 0)] == 1.0);
	}
	corectr_close(&c, b);
	b->ops->destroy(b);
}

#if defined(__x86_64__)
static uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}
#endif

/* The msr PMU's tsc event (arch/x86/events/msr.c, "event=0x00") on cpu0,
 * against the time stamp counter read with rdtsc over the same interval. */
static void msr_tsc_against_rdtsc(void **state)
{
#if defined(__x86_64__)
	struct corectr_group_spec spec = { "msr", 1, { { 0, { 0, 0, 0 } } } };
	unsigned char online[1] = { 1 };
	struct ctr_backend *b = ctr_perf_new(2);
	struct pmu msr;
	uint64_t config[3], t0, t1;
	struct corectr c;
	char why[256];
	cpu_set_t one;

	(void)state;
	if (pmu_discover_core(&msr, "msr", why, sizeof why) < 0 ||
	    pmu_event_alias(&msr, "tsc", config, why, sizeof why) < 0) {
		print_message("skipped: %s\n", why);	/* an x86 without the msr PMU */
		skip();
	}
	spec.ev[0].type = msr.type;
	spec.ev[0].config[0] = config[0];
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);	/* rdtsc on cpu0 */
	if (corectr_open(&c, &spec, 1, 1, online, b) < 0)
		fail_msg("corectr_open: %s", c.why);
	t0 = rdtsc();
	usleep(200000);
	b->ops->begin_pass(b);
	assert_int_equal(corectr_read(&c, b), 1);
	t1 = rdtsc();
	double ticks = (double)(t1 - t0), counted = corectr_total(&c, 0, 0, 0);
	print_message("tsc: %.0f counted, %.0f by rdtsc\n", counted, ticks);
	/* the group opened just before t0 and was read just before t1 */
	assert_true(counted > 0.95 * ticks && counted < 1.05 * ticks);
	corectr_close(&c, b);
	b->ops->destroy(b);
#else
	(void)state;
	print_message("skipped: rdtsc is x86's\n");
	skip();
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(replay_hand_worked),
		cmocka_unit_test(hotplug_neither_spikes_nor_goes_back),
		cmocka_unit_test(refused_group_is_named),
		cmocka_unit_test(perf_software_events_on_every_cpu),
		cmocka_unit_test(msr_tsc_against_rdtsc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
