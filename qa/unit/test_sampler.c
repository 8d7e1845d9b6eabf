/*
 * Topology, configuration and the sampler on small trees written here:
 * a 2-socket x 2-core x SMT2 x86 machine (Linux numbering: cpu0-3 first
 * threads, cpu4-7 their siblings).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "unit.h"
#include "config.h"
#include "log.h"
#include "sampler.h"
#include "sysroot.h"
#include "topology.h"

static char last_log[512];
static int log_count;

static void capture(enum smt_log_level level, const char *message)
{
	(void)level;
	snprintf(last_log, sizeof last_log, "%s", message);
	log_count++;
}

#define CPUDIR "/sys/devices/system/cpu"
static uint64_t user[8], idle[8];

static void write_stat(void)
{
	char text[2048];
	size_t used = (size_t)snprintf(text, sizeof text, "cpu  0 0 0 0 0 0 0 0 0 0\n");
	for (int c = 0; c < 8; c++)
		if (user[c] || idle[c])
			used += (size_t)snprintf(text + used, sizeof text - used,
				"cpu%d %llu 0 0 %llu 0 0 0 0 0 0\n", c,
				(unsigned long long)user[c], (unsigned long long)idle[c]);
	snprintf(text + used, sizeof text - used, "intr 0\nctxt 1\n");
	fixture_write("/proc/stat", "%s", text);
}

/* Every CPU: ticks more in total, busy of them user. */
static void advance(int ticks, const int *busy)
{
	for (int c = 0; c < 8; c++)
		if (user[c] || idle[c]) {
			user[c] += (uint64_t)busy[c];
			idle[c] += (uint64_t)(ticks - busy[c]);
		}
	write_stat();
}

static int make_machine(void **state)
{
	(void)state;
	fixture_new("sampler");
	fixture_cpus(8);
	for (int c = 0; c < 8; c++) {
		char d[64];
		int core = c % 4;
		snprintf(d, sizeof d, "%d,%d", core, core + 4);
		fixture_cpu_topology(c, d, core / 2);
		snprintf(d, sizeof d, CPUDIR "/cpu%d/cache/index3/level", c);
		fixture_write(d, "3\n");
		snprintf(d, sizeof d, CPUDIR "/cpu%d/cache/index3/shared_cpu_list", c);
		fixture_write(d, "%d-%d,%d-%d\n", core / 2 * 2, core / 2 * 2 + 1,
			      core / 2 * 2 + 4, core / 2 * 2 + 5);
		user[c] = 1000;
		idle[c] = 9000;
	}
	fixture_epyc_cpuinfo();
	write_stat();
	sr_set_root(fixture_root);
	smt_log_set_sink(capture);
	smt_log_reset_once();
	log_count = 0;
	return 0;
}

static void topology_of_the_tree(void **state)
{
	struct topology t;
	(void)state;

	assert_int_equal(topology_init(&t), 0);
	assert_int_equal(t.ncpus, 8);
	assert_int_equal(t.ncores, 4);
	assert_int_equal(t.nsockets, 2);
	assert_int_equal(t.max_threads, 2);
	assert_int_equal(t.cores[1].first_cpu, 1);
	assert_int_equal(t.cores[1].cpus[1], 5);
	assert_int_equal(t.socket_of[6], 1);
	assert_int_equal(t.l3_of[7], 2);	/* shares L3 with cpu2,3,6,7 */
	assert_int_equal(topology_refresh(&t), 0);

	/* cpu5 goes offline; its sibling's list loses it */
	fixture_write(CPUDIR "/online", "0-4,6-7\n");
	fixture_write(CPUDIR "/cpu1/topology/thread_siblings_list", "1\n");
	assert_int_equal(topology_refresh(&t), 1);
	assert_int_equal(t.ncores, 4);
	assert_int_equal(t.cores[1].nthreads, 1);
	assert_int_equal(t.core_of[5], -1);

	/* a CPU without topology files is a core of its own, and is logged */
	fixture_unlink(CPUDIR "/cpu3/topology/thread_siblings_list");
	fixture_unlink(CPUDIR "/cpu7/topology/thread_siblings_list");
	topology_scan(&t);
	assert_int_equal(t.ncores, 5);
	assert_non_null(strstr(last_log, "cpu7"));
	topology_free(&t);
}

static void config_file_errors_name_the_line(void **state)
{
	struct smt_config cfg;
	char path[PATH_MAX];
	(void)state;

	fixture_write("/smtcpu.conf",
		      "# comment\n"
		      "period 250ms\n"
		      "table mine 1 1.3 preliminary\n"
		      "table bad 1 1.5 1.2\n"	/* line 4: decreasing */
		      "bogus 1\n"		/* line 5 */
		      "period soon\n"		/* line 6 */
		      "model mine\n");
	snprintf(path, sizeof path, "%s/smtcpu.conf", fixture_root);
	assert_int_equal(config_load(&cfg, path, 0), 3);
	assert_int_equal(cfg.period_ms, 250);
	assert_int_equal(cfg.ntables, 1);
	assert_true(cfg.tables[0].preliminary);
	assert_string_equal(cfg.model, "mine");
	assert_non_null(strstr(cfg.first_error, "smtcpu.conf:4: table bad"));
	assert_non_null(strstr(last_log, "smtcpu.conf:6: period"));

	fixture_write("/smtcpu.conf", "model nosuch\n");
	assert_int_equal(config_load(&cfg, path, 0), 1);
	assert_non_null(strstr(cfg.first_error, ":1: model: no such table"));
	assert_string_equal(cfg.model, "");

	/* The counter settings: good ones apply, bad ones say what is expected. */
	fixture_write("/smtcpu.conf", "pmu_counters amd_df 2\n"
		      "pmu_counters amd_l3 6\n"
		      "dram_channels 6\n"
		      "dram_peak 102.4GB/s\n"
		      "replay /tmp/trace\n"
		      "pmu_counters amd_xx 4\n"		/* line 6 */
		      "pmu_counters amd_df 17\n"
		      "dram_peak fast\n"
		      "dram_channels 13\n");
	assert_int_equal(config_load(&cfg, path, 0), 4);
	assert_int_equal(config_pmu_counters(&cfg, "amd_df", 4), 2);
	assert_int_equal(config_pmu_counters(&cfg, "amd_umc", 4), 4);
	assert_int_equal(cfg.dram_channels, 6);		/* bad lines 8, 9 change nothing */
	assert_true(cfg.dram_peak_gbs == 102.4);
	assert_string_equal(cfg.replay, "/tmp/trace");
	assert_non_null(strstr(cfg.first_error, ":6: pmu_counters takes amd_df, amd_l3 or amd_umc"));

	assert_int_equal(config_load(&cfg, "/nonexistent/smtcpu.conf", 1), 0);
	assert_true(config_load(&cfg, "/nonexistent/smtcpu.conf", 0) < 0);
}

static double sum_cpus(const struct sampler *s)
{
	double sum = 0;
	for (int c = 0; c < 8; c++)
		sum += s->cpu[c].throughput;
	return sum;
}

/* x86-smt2: T = 1, 1.25, so c(1) = 0.8, c(2) = 0.5. */
static void sampler_windows(void **state)
{
	static const int busy1[8] = { 60, 100, 0, 0, 30, 100, 0, 0 };
	static const int none[8] = { 0 };
	struct sampler s;
	(void)state;

	assert_int_equal(sampler_init(&s, sampler_sources, sampler_nsources, NULL, 1), 0);
	assert_string_equal(s.core[0].table->name, "x86-smt2");
	sampler_pass(&s);		/* baselines */
	assert_float_equal(s.all.throughput, 0, 0);

	advance(100, busy1);		/* 100 ticks = 1000 ms at USER_HZ 100 */
	sampler_pass(&s);
	/* core0: a = .6, b = .3: (a + b - 2ab) 0.8 + ab = .54 * .8 + .18 = .612 */
	assert_float_equal(s.core[0].throughput, 612, 1e-9);
	/* cpu0 = .6 (.7 * .8 + .3 * .5) = .426 */
	assert_float_equal(s.cpu[0].throughput, 426, 1e-9);
	/* core1 both busy all the time: 1.25 / 1.25 = one core */
	assert_float_equal(s.core[1].throughput, 1000, 1e-9);
	/* busy threads: core0 60 + 30 ticks = 900 ms, core1 100 + 100 = 2000 ms */
	assert_float_equal(s.core[0].busy_threads, 900, 1e-9);
	assert_float_equal(s.core[1].busy_threads, 2000, 1e-9);
	assert_float_equal(s.all.throughput, 1612, 1e-9);
	assert_float_equal(s.all.capacity, 4000, 1e-9);
	assert_float_equal(sum_cpus(&s), s.all.throughput, 1e-9);

	/* a malformed line holds cpu4's core over; the next window covers both */
	fixture_write("/proc/stat", "cpu  0\ncpu0 %llu 0 0 %llu 0 0 0 0 0 0\ncpu4 1 2 x\n",
		      (unsigned long long)user[0] + 50, (unsigned long long)idle[0] + 50);
	sampler_pass(&s);
	assert_float_equal(s.core[0].throughput, 612, 1e-9);
	advance(200, none);		/* cpu0 50 busy of 250 since, cpu4 none of 200 */
	user[0] += 50; idle[0] += 50;
	write_stat();
	sampler_pass(&s);
	/* cpu0 b = 50/300, cpu4 b = 0: credited 50 ticks * c(1) = 400 ms */
	assert_float_equal(s.core[0].throughput, 612 + 400, 1e-9);
	/* and cpu0's 50 busy ticks, cpu4's none: 500 ms more */
	assert_float_equal(s.core[0].busy_threads, 900 + 500, 1e-9);

	/* times going backwards: nothing negative, counting resumes */
	{
		double before = s.cpu[2].throughput;
		user[2] -= 500;
		write_stat();
		sampler_pass(&s);
		assert_true(s.cpu[2].throughput >= before);
		assert_non_null(strstr(last_log, "went backwards"));
		advance(100, busy1);
		sampler_pass(&s);
		assert_float_equal(s.cpu[2].throughput, before, 1e-9);	/* idle core */
		/* cpu1, cpu5 both busy in two windows: 2 * 1000 * c(2) = 1000 */
		assert_float_equal(s.cpu[1].throughput, 1000, 1e-9);
	}
	sampler_free(&s);
}

/* A core's threads seen over windows of different lengths (cpu0 300 ticks,
 * all busy; its sibling cpu4 100 ticks, half busy: x86-smt2, c(1) = .8,
 * c(2) = .5).  By hand: cpu0 1 x (.8 x .5 + .5 x .5) x 3000 ms = 1950, cpu4
 * .5 x .5 x 1000 ms = 250: the core 2200 ms, over a mean window of 2000 ms
 * whose capacity is 2000 ms.  The bounds close on the value (b = 1 and .5
 * fix the overlap: T = .9 of the core either way), and the 200 ms past the
 * capacity are carried to the next window, not taken off what was left. */
static void uneven_windows_keep_bounds_and_left(void **state)
{
	struct sampler s;
	double left;
	(void)state;

	assert_int_equal(sampler_init(&s, sampler_sources, sampler_nsources, NULL, 1), 0);
	sampler_pass(&s);		/* baselines */
	user[0] += 300;
	user[4] += 50;
	idle[4] += 50;
	write_stat();
	sampler_pass(&s);
	assert_float_equal(s.core[0].throughput, 2200, 1e-9);
	assert_float_equal(s.core[0].lower, 2200, 1e-9);	/* it was .9 x 2000 */
	assert_float_equal(s.core[0].upper, 2200, 1e-9);
	assert_float_equal(s.core[0].capacity, 2000, 1e-9);
	assert_float_equal(s.all.capacity_left, 0, 1e-9);	/* it was 2000 - 2200 */
	left = s.all.capacity_left;
	idle[0] += 100;			/* both idle, 1000 ms */
	idle[4] += 100;
	write_stat();
	sampler_pass(&s);
	assert_float_equal(s.all.capacity_left, left + 1000 - 200, 1e-9);
	sampler_free(&s);
}

/* Passes within a tick of each other (fetches from several clients): cpu0
 * busy throughout, its sibling cpu4 busy beside it.  A pass that finds
 * cpu0's clock a tick on and cpu4's not yet moved holds the core over, for
 * cpu4's busy fraction is 0 / 0, not idle; the next window covers both.
 * By hand (x86-smt2, c(2) = .5): both busy together for 2 ticks, 20 ms
 * each, credited 10 ms each; taken as alone for the first tick, cpu0
 * would be credited 8 + 5 = 13. */
static void a_thread_whose_clock_has_not_moved_holds_its_core(void **state)
{
	struct sampler s;
	(void)state;

	assert_int_equal(sampler_init(&s, sampler_sources, sampler_nsources, NULL, 1), 0);
	sampler_pass(&s);		/* baselines */
	user[0] += 1;
	write_stat();
	sampler_pass(&s);
	assert_float_equal(s.cpu[0].throughput, 0, 1e-9);	/* held over */
	user[0] += 1;
	user[4] += 2;
	write_stat();
	sampler_pass(&s);
	assert_float_equal(s.cpu[0].throughput, 10, 1e-9);
	assert_float_equal(s.cpu[4].throughput, 10, 1e-9);
	assert_float_equal(s.cpu[0].busy, 20, 1e-9);
	sampler_free(&s);
}

/* cpu5 goes offline and comes back while cpu1, its sibling, is busy all
 * along (x86-smt2: c(1) = .8, c(2) = .5; a core of one thread is a whole
 * core).  Each window that holds a step is counted for cpu1, the thread
 * online throughout, by the make-up after the step, the newcomer idle; its
 * bounds allow for either make-up: at least c(2) of its busy time, at most
 * the share of a thread alone in either. */
static void hotplug_window_counts_the_thread_online_throughout(void **state)
{
	static const int both[8] = { 0, 100, 0, 0, 0, 100, 0, 0 };
	struct sampler s;
	uint64_t user5, idle5;
	(void)state;

	assert_int_equal(sampler_init(&s, sampler_sources, sampler_nsources, NULL, 1), 0);
	sampler_pass(&s);		/* baselines */
	advance(100, both);
	sampler_pass(&s);
	assert_float_equal(s.cpu[1].throughput, 500, 1e-9);	/* 1000 ms x c(2) */

	/* cpu5 leaves: /proc/stat drops its line, cpu1's list loses it */
	user5 = user[5];
	idle5 = idle[5];
	user[5] = idle[5] = 0;
	advance(100, both);
	fixture_write(CPUDIR "/online", "0-4,6-7\n");
	fixture_write(CPUDIR "/cpu1/topology/thread_siblings_list", "1\n");
	assert_int_equal(sampler_pass(&s), 1);
	assert_float_equal(s.cpu[1].throughput, 500 + 1000, 1e-9);	/* alone: all of it */
	assert_float_equal(s.cpu[1].lower, 500 + 500, 1e-9);		/* c(2) of 1000 */
	assert_float_equal(s.cpu[1].upper, 500 + 1000, 1e-9);
	assert_float_equal(s.core[1].throughput, 1000 + 1000, 1e-9);	/* cpu5 500 before */
	assert_float_equal(sum_cpus(&s), s.all.throughput, 1e-9);

	/* it comes back, busy with cpu1 from then on: cpu5 has no window yet */
	user[5] = user5;
	idle[5] = idle5;
	advance(100, both);
	fixture_write(CPUDIR "/online", "0-7\n");
	fixture_write(CPUDIR "/cpu1/topology/thread_siblings_list", "1,5\n");
	assert_int_equal(sampler_pass(&s), 1);
	assert_float_equal(s.cpu[1].throughput, 1500 + 800, 1e-9);	/* c(1), cpu5 idle */
	assert_float_equal(s.cpu[1].lower, 1000 + 500, 1e-9);
	assert_float_equal(s.cpu[1].upper, 1500 + 800, 1e-9);
	assert_float_equal(s.cpu[5].throughput, 500, 1e-9);		/* as it left */

	advance(100, both);		/* an ordinary window again */
	sampler_pass(&s);
	assert_float_equal(s.cpu[1].throughput, 2300 + 500, 1e-9);
	assert_float_equal(s.cpu[5].throughput, 500 + 500, 1e-9);
	assert_float_equal(s.cpu[1].lower, 1500 + 500, 1e-9);
	assert_float_equal(sum_cpus(&s), s.all.throughput, 1e-9);
	sampler_free(&s);
}

/* Steady state allocates nothing: neither sampling passes nor rereads. */
static void steady_state_allocates_nothing(void **state)
{
	static const int busy[8] = { 10, 20, 30, 40, 50, 60, 70, 80 };
	struct sampler s;
	long before;
	(void)state;

	assert_int_equal(sampler_init(&s, sampler_sources, sampler_nsources, NULL, 1), 0);
	sampler_pass(&s);
	advance(100, busy);
	sampler_pass(&s);
	before = allocations;
	for (int i = 0; i < 50; i++) {
		advance(100, busy);
		sampler_pass(&s);
	}
	assert_int_equal(allocations, before);
	sampler_free(&s);
}

static void missing_proc_stat_is_reported(void **state)
{
	struct sampler s;
	(void)state;

	fixture_unlink("/proc/stat");
	assert_true(sampler_init(&s, sampler_sources, sampler_nsources, NULL, 1) < 0);
	assert_non_null(strstr(s.status[SLOT_CPUSTAT], "cannot open /proc/stat"));
	sampler_pass(&s);		/* still safe to call */
	assert_float_equal(s.all.throughput, 0, 0);
	sampler_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(topology_of_the_tree, make_machine, fixture_teardown),
		cmocka_unit_test_setup_teardown(config_file_errors_name_the_line, make_machine, fixture_teardown),
		cmocka_unit_test_setup_teardown(sampler_windows, make_machine, fixture_teardown),
		cmocka_unit_test_setup_teardown(uneven_windows_keep_bounds_and_left, make_machine,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(a_thread_whose_clock_has_not_moved_holds_its_core,
						make_machine, fixture_teardown),
		cmocka_unit_test_setup_teardown(hotplug_window_counts_the_thread_online_throughout,
						make_machine, fixture_teardown),
		cmocka_unit_test_setup_teardown(steady_state_allocates_nothing, make_machine, fixture_teardown),
		cmocka_unit_test_setup_teardown(missing_proc_stat_is_reported, make_machine, fixture_teardown),
	};
	return cmocka_run_group_tests_name("sampler", tests, NULL, NULL);
}
