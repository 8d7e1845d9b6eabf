/*
 * What cannot start stays off and says why; the rest is served.  On this
 * machine's own /proc and /sys (the software PURR only loads on the real
 * root), with allocations of one size made to fail as out of memory, and
 * the software PURR's CPU sets at the size of a 1,920-CPU POWER10.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "unit.h"
#include "cpusweep.h"
#include "log.h"
#include "sampler.h"
#include "sched_purr.h"

static void quiet(enum smt_log_level level, const char *message)
{
	(void)level;
	(void)message;
}

/* The loader's first allocation, cores[] for every CPU, fails: before, the
 * failure stopped sampler_init, and /proc/stat was never opened. */
static void software_purr_out_of_memory_leaves_the_rest(void **state)
{
	struct sampler s;
	const char *sched;
	(void)state;

	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0)
		skip();		/* (no BTF: the loader stops before it allocates) */
	fail_calloc_size = sizeof(struct sp_core);
	assert_int_equal(sampler_init(&s, sampler_sources, sampler_nsources,
				      "/nonexistent/smtcpu.conf", 1), 0);
	fail_calloc_size = 0;
	assert_true(sampler_usable(&s));
	sched = sampler_status(&s, "sched");
	assert_non_null(sched);
	assert_non_null(strstr(sched, "out of memory"));
	assert_string_equal(sampler_status(&s, "cpustat"), "ok");
	sampler_pass(&s);
	sampler_pass(&s);
	assert_true(s.topo.ncpus >= 1);
	sampler_free(&s);
}

/* The sampler's own per-CPU arrays cannot be had: sampler_usable says so,
 * for the PMDA to refuse to start rather than read through NULL. */
static void no_memory_for_the_sampler_is_not_usable(void **state)
{
	struct sampler s;
	(void)state;

	fail_calloc_size = sizeof(struct smt_cpu_values);
	assert_true(sampler_init(&s, sampler_sources, sampler_nsources,
				 "/nonexistent/smtcpu.conf", 1) < 0);
	fail_calloc_size = 0;
	assert_false(sampler_usable(&s));
	sampler_free(&s);
}

/* A fixed cpu_set_t holds 1,024 CPUs; sched_getaffinity then fails with
 * EINVAL on a kernel with more possible CPUs, and the sweep did nothing. */
static void sweep_sets_hold_1920_cpus(void **state)
{
	struct cpusweep w;
	int cpus[] = { 0, 1, 1500, 1919 }, online = 0;
	cpu_set_t *before = CPU_ALLOC(1920), *after = CPU_ALLOC(1920);
	size_t bytes = CPU_ALLOC_SIZE(1920);
	(void)state;

	assert_int_equal(cpusweep_init(&w, 1920), 0);
	assert_true(w.bytes * 8 >= 1920);
	assert_true(w.bytes > sizeof(cpu_set_t));
	assert_int_equal(sched_getaffinity(0, bytes, before), 0);
	for (int i = 0; i < 2; i++)
		online += CPU_ISSET_S((size_t)cpus[i], bytes, before) != 0;
	/* CPUs 1500 and 1919 are not on this machine: passed by, not an error */
	assert_int_equal(cpusweep_run(&w, cpus, 4), online);
	assert_int_equal(sched_getaffinity(0, bytes, after), 0);
	assert_true(CPU_EQUAL_S(bytes, before, after));
	cpusweep_free(&w);
	CPU_FREE(before);
	CPU_FREE(after);
}

/* An EPYC whose configured replay trace is missing: each AMD status says
 * why, written where the sampler serves it (amd_xgmi was left empty). */
static void amd_says_why_for_every_status(void **state)
{
	struct sampler s;
	const char *names[] = { "amd_df", "amd_l3", "amd_xgmi" };
	(void)state;

	fixture_new("degrade-amd");
	for (int c = 0; c < 2; c++)
		fixture_cpu_topology(c, c ? "1" : "0", 0);
	fixture_epyc_cpuinfo();
	fixture_write("/proc/stat", "cpu  1 0 0 1 0 0 0 0 0 0\ncpu0 1 0 0 1 0 0 0 0 0 0\n"
		      "cpu1 1 0 0 1 0 0 0 0 0 0\n");
	sr_set_root(fixture_root);
	sampler_init(&s, sampler_sources, sampler_nsources,
		     fixture_file("/smtcpu.conf", "replay /nonexistent/trace\n"), 0);
	assert_true(sampler_usable(&s));
	for (int i = 0; i < 3; i++) {
		const char *st = sampler_status(&s, names[i]);
		assert_non_null(st);
		if (strstr(st, "replay: /nonexistent/trace") == NULL)
			fail_msg("%s: \"%s\"", names[i], st);
	}
	sampler_pass(&s);
	assert_non_null(strstr(sampler_status(&s, "amd_df"), "replay: /nonexistent/trace"));
	sampler_free(&s);
	sr_set_root("/");
	fixture_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(software_purr_out_of_memory_leaves_the_rest),
		cmocka_unit_test(no_memory_for_the_sampler_is_not_usable),
		cmocka_unit_test(sweep_sets_hold_1920_cpus),
		cmocka_unit_test(amd_says_why_for_every_status),
	};

	smt_log_set_sink(quiet);
	sr_set_root("/");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
