/*
 * PURR and lparcfg: parsing the kernel's formats, sharing PURR out by mode,
 * and the sampler on a small POWER9 shared LPAR written here (2 cores x SMT2,
 * timebase 512 MHz), with no allocation in steady state.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "unit.h"
#include "log.h"
#include "lparcfg.h"
#include "purr.h"
#include "sampler.h"
#include "source_power.h"
#include "sysroot.h"

/* The POWER source's state, as the sampler holds it. */
static const struct power_state *power_of(const struct sampler *s)
{
	return sampler_state(s, &power_source);
}

#define CPUDIR "/sys/devices/system/cpu"
#define TB 512000000ull

static void quiet(enum smt_log_level level, const char *message)
{
	(void)level;
	(void)message;
}

static void hex_as_the_kernel_prints_it(void **state)
{
	uint64_t v;
	(void)state;

	assert_int_equal(purr_parse_hex("1dcd650000\n", &v), 0);
	assert_true(v == 128000000000ull);
	assert_int_equal(purr_parse_hex("0\n", &v), 0);
	assert_true(v == 0);
	assert_int_equal(purr_parse_hex("ffffffffffffffff\n", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(purr_parse_hex("abc", &v), 0);	/* no newline: still whole */
	assert_true(v == 0xabc);
	assert_int_equal(purr_parse_hex("0x1234\n", &v), -EINVAL);
	assert_int_equal(purr_parse_hex("1234 \n", &v), -EINVAL);
	assert_int_equal(purr_parse_hex("ABC\n", &v), -EINVAL);	/* the kernel prints lowercase */
	assert_int_equal(purr_parse_hex("\n", &v), -EINVAL);
	assert_int_equal(purr_parse_hex("", &v), -EINVAL);
	assert_int_equal(purr_parse_hex("12\n34\n", &v), -EINVAL);
	assert_int_equal(purr_parse_hex("10000000000000000\n", &v), -EINVAL);	/* 17 digits */
}

static void purr_shared_out_by_mode(void **state)
{
	double out[PMODE_COUNT];
	(void)state;

	/* busy 0.35 by user 30 : sys 20; idle 0.1 by iowait 10 : idle 40 */
	const double stat[PMODE_COUNT] = { 30, 20, 10, 40 };
	purr_split(0.45, 0.1, stat, out);
	assert_float_equal(out[PMODE_USER], 0.21, 1e-12);
	assert_float_equal(out[PMODE_SYS], 0.14, 1e-12);
	assert_float_equal(out[PMODE_WAIT], 0.02, 1e-12);
	assert_float_equal(out[PMODE_IDLE], 0.08, 1e-12);

	/* without idle_purr: all of it in proportion to the four */
	purr_split(1.0, -1, stat, out);
	assert_float_equal(out[PMODE_USER], 0.3, 1e-12);
	assert_float_equal(out[PMODE_SYS], 0.2, 1e-12);
	assert_float_equal(out[PMODE_WAIT], 0.1, 1e-12);
	assert_float_equal(out[PMODE_IDLE], 0.4, 1e-12);

	/* busy PURR in a window without a busy tick goes to sys */
	const double idle_only[PMODE_COUNT] = { 0, 0, 0, 100 };
	purr_split(0.5, 0.4, idle_only, out);
	assert_float_equal(out[PMODE_SYS], 0.1, 1e-12);
	assert_float_equal(out[PMODE_IDLE], 0.4, 1e-12);

	/* idle read a moment after purr, and larger: capped at purr */
	purr_split(0.5, 0.6, idle_only, out);
	assert_float_equal(out[PMODE_IDLE], 0.5, 1e-12);
	assert_float_equal(out[PMODE_USER] + out[PMODE_SYS], 0, 1e-12);

	/* no ticks at all: idle */
	const double none[PMODE_COUNT] = { 0, 0, 0, 0 };
	purr_split(0.5, -1, none, out);
	assert_float_equal(out[PMODE_IDLE], 0.5, 1e-12);
}

static void lparcfg_keys(void **state)
{
	struct lparcfg l;
	char text[] = "lparcfg 1.9\n\nserial_number=IBM,02781C4AX\nR4=0xfa\n"
		      "partition_entitled_capacity=250\npool=0\npool_capacity=2400\n"
		      "pool_idle_time=6144000000000\npool_num_procs=24\ncapped=0\n"
		      "backing_memory=17179869184 bytes\npurr=bogus\ntbr=512000000000\n"
		      "partition_active_processors=4\nshared_processor_mode=1\n";
	(void)state;

	memset(&l, 0, sizeof l);
	smt_log_set_sink(quiet);
	assert_int_equal(lparcfg_parse(&l, text), 9);
	assert_string_equal(l.version, "1.9");
	assert_true(l.have[LPAR_ENTITLED] && l.value[LPAR_ENTITLED] == 250);
	assert_true(l.have[LPAR_POOL_IDLE] && l.value[LPAR_POOL_IDLE] == 6144000000000ll);
	assert_true(l.have[LPAR_TBR] && l.value[LPAR_TBR] == 512000000000ll);
	assert_true(l.have[LPAR_SHARED] && l.value[LPAR_SHARED] == 1);
	assert_false(l.have[LPAR_PURR]);	/* malformed: left out, not zero */
	assert_false(l.have[LPAR_DONATING]);	/* absent */

	char bad[] = "purr=1\n";
	assert_int_equal(lparcfg_parse(&l, bad), -EINVAL);
	assert_false(l.have[LPAR_PURR]);
}

/* cpu0-1 are core0, cpu2-3 core2; PURR values per CPU as ticks. */
static uint64_t purr[4], idle[4], user[4], idle_ticks[4];

static void write_counters(void)
{
	char path[64];
	uint64_t sum = 0;

	for (int c = 0; c < 4; c++) {
		snprintf(path, sizeof path, CPUDIR "/cpu%d/purr", c);
		fixture_write(path, "%llx\n", (unsigned long long)purr[c]);
		snprintf(path, sizeof path, CPUDIR "/cpu%d/idle_purr", c);
		fixture_write(path, "%llx\n", (unsigned long long)idle[c]);
		sum += purr[c];
	}
	fixture_write("/proc/stat", "cpu  0 0 0 0 0 0 0 0 0 0\n"
		      "cpu0 %llu 0 0 %llu 0 0 0 0 0 0\ncpu1 %llu 0 0 %llu 0 0 0 0 0 0\n"
		      "cpu2 %llu 0 0 %llu 0 0 0 0 0 0\ncpu3 %llu 0 0 %llu 0 0 0 0 0 0\n",
		      (unsigned long long)user[0], (unsigned long long)idle_ticks[0],
		      (unsigned long long)user[1], (unsigned long long)idle_ticks[1],
		      (unsigned long long)user[2], (unsigned long long)idle_ticks[2],
		      (unsigned long long)user[3], (unsigned long long)idle_ticks[3]);
	fixture_write("/proc/powerpc/lparcfg", "lparcfg 1.9\npartition_entitled_capacity=150\n"
		      "capped=0\nshared_processor_mode=1\npartition_active_processors=2\n"
		      "purr=%llu\ntbr=%llu\n", (unsigned long long)sum,
		      (unsigned long long)(purr[0] + purr[1]));
}

/* One second: cpu0 busy alone on core0 with 0.625 of its PURR; core2 idle. */
static void one_second(void)
{
	purr[0] += TB * 5 / 8;
	purr[1] += TB * 3 / 8;
	idle[1] += TB * 3 / 8;
	user[0] += 100;
	idle_ticks[1] += 100;
	for (int c = 2; c < 4; c++) {
		purr[c] += TB / 2;
		idle[c] += TB / 2;
		idle_ticks[c] += 100;
	}
	write_counters();
}

static int make_lpar(void **state)
{
	(void)state;
	fixture_new("purr");
	fixture_cpus(4);
	for (int c = 0; c < 4; c++) {
		char d[64];
		snprintf(d, sizeof d, CPUDIR "/cpu%d/topology/thread_siblings_list", c);
		fixture_write(d, "%d-%d\n", c / 2 * 2, c / 2 * 2 + 1);
		purr[c] = 1000 * TB / 2;
		idle[c] = purr[c] / 2;
		user[c] = 1000;
		idle_ticks[c] = 9000;
	}
	fixture_write("/proc/cpuinfo", "processor\t: 0\ncpu\t\t: POWER9 (architected), "
		      "altivec supported\nclock\t\t: 3800.000000MHz\n\ntimebase\t: 512000000\n"
		      "platform\t: pSeries\nmodel\t\t: IBM,9009-42A\nmachine\t\t: CHRP IBM,9009-42A\n");
	write_counters();
	sr_set_root(fixture_root);
	smt_log_set_sink(quiet);
	return 0;
}

static void sampler_uses_purr_and_allocates_nothing(void **state)
{
	struct sampler s;
	long before;
	(void)state;

	assert_int_equal(sampler_init(&s, sampler_sources, sampler_nsources, NULL, 1), 0);
	assert_string_equal(sampler_status(&s, "purr"), "ok");
	sampler_pass(&s);
	assert_string_equal(sampler_status(&s, "lparcfg"), "ok");
	uint64_t start = power_of(&s)->cpu[0].total[PURR], tbr = power_of(&s)->lpar.total[LPAR_C_TBR];
	assert_true(start == 1000 * TB / 2);
	one_second();
	sampler_pass(&s);
	/* busy = purr - idle_purr: 0.625 s of a core; the model (power8-smt4)
	 * would say 0.6: error -0.025 of a core */
	assert_float_equal(s.cpu[0].throughput, 625, 1e-9);
	assert_string_equal(s.cpu[0].basis, "purr");
	assert_float_equal(s.core[0].model_error, -0.025, 1e-9);
	assert_float_equal(s.core[2].throughput, 0, 1e-9);
	assert_true(power_of(&s)->lpar.total[LPAR_C_TBR] - tbr == TB);

	before = allocations;
	for (int i = 0; i < 50; i++) {
		one_second();
		sampler_pass(&s);
	}
	assert_int_equal(allocations, before);
	assert_float_equal(s.cpu[0].throughput, 51 * 625.0, 1e-6);
	assert_float_equal(power_of(&s)->cpu[0].mode[PMODE_USER], 51 * 0.625 * TB, 1);
	assert_true(power_of(&s)->cpu[0].total[PURR] == start + 51 * TB * 5 / 8);

	/* A reset counter adds nothing, then counting goes on from it. */
	purr[0] = 0x100;
	write_counters();
	sampler_pass(&s);
	assert_true(power_of(&s)->cpu[0].total[PURR] == start + 51 * TB * 5 / 8);
	one_second();
	sampler_pass(&s);
	assert_true(power_of(&s)->cpu[0].total[PURR] == start + 52 * TB * 5 / 8);
	sampler_free(&s);
}

/* Two passes within one USER_HZ tick: /proc/stat has not moved, PURR has
 * (5 ms of it, cpu0 with 0.625 of core0 as in one_second); that window is
 * held over, not dropped, and the next one counts the 5 ms with its own. */
static void passes_within_a_tick_lose_nothing(void **state)
{
	struct sampler s;
	(void)state;

	assert_int_equal(sampler_init(&s, sampler_sources, sampler_nsources, NULL, 1), 0);
	sampler_pass(&s);
	one_second();
	sampler_pass(&s);
	assert_float_equal(s.cpu[0].throughput, 625, 1e-9);
	purr[0] += TB / 200 * 5 / 8;
	purr[1] += TB / 200 * 3 / 8;
	idle[1] += TB / 200 * 3 / 8;
	write_counters();
	sampler_pass(&s);
	assert_float_equal(s.cpu[0].throughput, 625, 1e-9);	/* nothing yet */
	assert_float_equal(s.core[0].capacity, 1000, 1e-9);
	one_second();
	sampler_pass(&s);
	assert_float_equal(s.cpu[0].throughput, 625 + 625 + 625.0 / 200, 1e-9);
	assert_float_equal(s.core[0].capacity, 2000, 1e-9);	/* /proc/stat's seconds */
	sampler_free(&s);
}

/* A window whose /proc/stat lost ticks (a guest under load: 25 of 100)
 * while PURR counted the whole second, both threads of core0 busy: PURR
 * 500 ms each, 1000 in all, the model's 2 x 0.433333 (power8-smt4's c(2),
 * doc/model.md) x 250 ms = 216.667.  The error is taken over the longest
 * the window can have been, the 1000 ms PURR counted: -0.783333, a core's
 * worth at most, never (216.667 - 1000) / 250. */
static void model_error_over_a_window_short_of_ticks(void **state)
{
	struct sampler s;
	(void)state;

	assert_int_equal(sampler_init(&s, sampler_sources, sampler_nsources, NULL, 1), 0);
	sampler_pass(&s);
	one_second();
	sampler_pass(&s);
	double model0 = s.core[0].model_cpu, measured0 = s.core[0].throughput;
	purr[0] += TB / 2;
	purr[1] += TB / 2;
	user[0] += 25;
	user[1] += 25;
	write_counters();
	sampler_pass(&s);
	assert_float_equal(s.core[0].throughput - measured0, 1000, 1e-6);
	assert_float_equal(s.core[0].model_cpu - model0, 2 * (1 + 1 * (2.0 / 3) / 1.5) / (2 / 0.6) * 250, 1e-6);
	assert_float_equal(s.core[0].model_error, (216.0 + 2.0 / 3 - 1000) / 1000, 1e-6);
	sampler_free(&s);
}

/* SPURR and idle_spurr are read only while asked for: unasked, a pass
 * leaves cpu0's spurr unread (a file that would not parse is not even
 * noticed); once asked, the pass reads it, and its total is the file's. */
static void spurr_read_only_when_asked(void **state)
{
	struct sampler s;
	const struct power_state *ps;
	(void)state;

	fixture_write(CPUDIR "/cpu0/spurr", "not hex\n");
	assert_int_equal(sampler_init(&s, sampler_sources, sampler_nsources, NULL, 1), 0);
	ps = power_of(&s);
	sampler_pass(&s);
	assert_int_equal(ps->purr.nopen[SPURR], 1);
	assert_false(ps->purr.cpu[0].seen[SPURR]);
	assert_int_equal(ps->purr.nmalformed[SPURR], 0);
	assert_true(ps->purr.cpu[0].seen[PURR]);

	/* Asked for while unread: the caller must pass before serving it. */
	assert_true(sampler_ask(&s, &power_source, PURR_BIT(SPURR)));
	sampler_pass(&s);
	assert_int_equal(ps->purr.nmalformed[SPURR], 1);
	fixture_write(CPUDIR "/cpu0/spurr", "%llx\n", 3000ull * TB);
	sampler_pass(&s);
	assert_true(ps->purr.cpu[0].seen[SPURR]);
	assert_true(ps->cpu[0].have[SPURR] && ps->cpu[0].total[SPURR] == 3000ull * TB);
	/* Read this pass: asking again needs no pass. */
	assert_false(sampler_ask(&s, &power_source, PURR_BIT(SPURR)));
	/* Only on-demand counters are asked for; idle_spurr has no file here. */
	assert_false(sampler_ask(&s, &power_source, PURR_BIT(IDLE_SPURR) | PURR_BIT(PURR)));
	fixture_write(CPUDIR "/cpu0/spurr", "%llx\n", 3001ull * TB);
	sampler_pass(&s);
	assert_true(ps->cpu[0].total[SPURR] == 3001ull * TB);
	assert_true(ps->have_all[SPURR] && ps->all[SPURR] == TB);
	sampler_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hex_as_the_kernel_prints_it),
		cmocka_unit_test(purr_shared_out_by_mode),
		cmocka_unit_test(lparcfg_keys),
		cmocka_unit_test_setup_teardown(sampler_uses_purr_and_allocates_nothing,
						make_lpar, fixture_teardown),
		cmocka_unit_test_setup_teardown(passes_within_a_tick_lose_nothing,
						make_lpar, fixture_teardown),
		cmocka_unit_test_setup_teardown(model_error_over_a_window_short_of_ticks,
						make_lpar, fixture_teardown),
		cmocka_unit_test_setup_teardown(spurr_read_only_when_asked,
						make_lpar, fixture_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
