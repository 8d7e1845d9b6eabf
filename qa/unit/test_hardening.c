/*
 * Bad input that once hung, overflowed or read past a buffer: each case is
 * one of the reproducers found by fuzzing and hand-made trees, with the
 * answer worked out by hand.  Under `make check SANITIZE=1` the same tests
 * also show that no read goes out of bounds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "counters.h"
#include "config.h"
#include "cpustat.h"
#include "dmi.h"
#include "log.h"
#include "lparcfg.h"
#include "parsenum.h"
#include "topology.h"
#include "unit.h"

static int logged;
static bool quoted;	/* a message held "SECRET" */

static void counting(enum smt_log_level level, const char *message)
{
	(void)level;
	quoted |= strstr(message, "SECRET") != NULL;
	logged++;
}

static int quiet_setup(void **state)
{
	(void)state;
	smt_log_set_sink(counting);
	smt_log_reset_once();
	logged = 0;
	return 0;
}

/* A memory device whose locator string has no NUL before the table ends:
 * 0x17 bytes of record (64-bit wide, 16384 MB, locator string 1, 3200
 * MT/s), then "AB".  Exactly 25 bytes on the heap, so ASan sees any read
 * past them. */
static void smbios_string_at_the_end(void **state)
{
	static const unsigned char bytes[25] = {
		0x11, 0x17, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00,
		0x40, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x80, 0x0c, 0x41, 0x42
	};
	unsigned char *table = malloc(sizeof bytes);
	struct dmi_memory m;
	(void)state;

	memcpy(table, bytes, sizeof bytes);
	assert_int_equal(dmi_memory_parse(table, (long)sizeof bytes, &m), 0);
	assert_int_equal(m.devices, 1);
	assert_int_equal(m.populated, 1);
	assert_int_equal(m.channels, 1);
	assert_int_equal(m.mts, 0x0c80);
	assert_int_equal(m.data_width, 64);
	free(table);
}

/* An endless or huge configuration is refused at once, with the reason. */
static void configuration_that_never_ends(void **state)
{
	static struct smt_config cfg;
	char path[PATH_MAX];
	(void)state;

	assert_int_equal(config_load(&cfg, "/dev/zero", 0), -EINVAL);
	assert_string_equal(cfg.first_error, "/dev/zero: not a regular file");
	assert_int_equal(config_load(&cfg, "/", 0), -EISDIR);
	fixture_new("bigconf");
	fixture_write("/smtcpu.conf", "period 1s\n");
	snprintf(path, sizeof path, "%s/smtcpu.conf", fixture_root);
	assert_int_equal(truncate(path, (off_t)CONFIG_MAX_BYTES + 1), 0);	/* sparse */
	assert_int_equal(config_load(&cfg, path, 0), -EFBIG);
	assert_non_null(strstr(cfg.first_error, "larger than 1048576 bytes"));
	assert_int_equal(cfg.period_ms, CONFIG_DEFAULT_PERIOD_MS);
	fixture_remove();
}

/* A NUL byte spoils its own line only; numbers are plain decimals. */
static void configuration_lines_and_numbers(void **state)
{
	static const char text[] = "period 5s\x00junk\nperiod 2s\nperiod nan\nperiod 0x10s\n"
				   "period inf\nperiod 1e3\nperiod -1s\ndram_peak nan\n"
				   "dram_peak 0x10\ndram_channels 4294967297\n";
	static struct smt_config cfg;
	(void)state;

	assert_int_equal(config_parse(&cfg, "t.conf", text, sizeof text - 1), 9);
	assert_string_equal(cfg.first_error, "t.conf:1: a NUL byte in the line (not a text file?)");
	assert_int_equal(cfg.period_ms, 2000);		/* line 2 was not lost */
	assert_true(cfg.dram_peak_gbs == 0);
	assert_int_equal(cfg.dram_channels, 0);
	assert_int_equal(config_parse_period("1.5s"), 1500);
	assert_int_equal(config_parse_period("250"), 250);
	assert_int_equal(config_parse_period("nan"), 0);
	assert_int_equal(config_parse_period("0x10s"), 0);
	assert_int_equal(config_parse_period("86400.001s"), 0);
}

/* period told: passes only when told; fresh: 5 ms unless set, from 1 ms
 * to a second; a bad line leaves what was there. */
static void configuration_passes(void **state)
{
	static const char text[] = "period told\nfresh 0.5ms\nfresh 2ms\nfresh 1001ms\n"
				   "period tol\nfresh\n";
	static struct smt_config cfg;
	(void)state;

	assert_int_equal(config_parse(&cfg, "p.conf", "", 0), 0);
	assert_int_equal(cfg.period_ms, 1000);
	assert_int_equal(cfg.fresh_ms, 5);
	assert_int_equal(config_parse(&cfg, "p.conf", text, sizeof text - 1), 4);
	assert_string_equal(cfg.first_error,
			    "p.conf:2: fresh takes one duration from 1ms to 1000ms, e.g. \"fresh 5ms\"");
	assert_int_equal(cfg.period_ms, CONFIG_PERIOD_TOLD);	/* line 1, not line 5's */
	assert_int_equal(cfg.fresh_ms, 2);			/* line 3 */
}

/* retire: a minute unless told; under a second, or not a duration, is
 * refused and the default stays. */
static void configuration_retire(void **state)
{
	static const char text[] = "retire 500ms\nretire\nretire 20s\nretire 5 s\n";
	static struct smt_config cfg;
	(void)state;

	assert_int_equal(config_parse(&cfg, "r.conf", "", 0), 0);
	assert_int_equal(cfg.retire_ms, 60000);
	assert_int_equal(config_parse(&cfg, "r.conf", text, sizeof text - 1), 3);
	assert_string_equal(cfg.first_error,
			    "r.conf:1: retire takes one duration from 1s to 86400s, e.g. \"retire 60s\"");
	assert_int_equal(cfg.retire_ms, 20000);		/* line 3, not line 4's */
}

/* 20-digit numbers: the largest 64-bit value is taken, anything above is not. */
static void cpustat_numbers_past_64_bits(void **state)
{
	struct cpustat cs;
	(void)state;

	fixture_new("stat64");
	fixture_write("/proc/stat", "cpu 0 0 0 0 0 0 0 0 0 0\n");
	sr_set_root(fixture_root);
	assert_int_equal(cpustat_open(&cs, 2), 0);
	assert_int_equal(cpustat_parse(&cs, "cpu  1 2 3 4 5 6 7 8 9 10\n"
				       "cpu0 30000000000000000000 0 0 0 0 0 0 0 0 0\n"
				       "cpu1 18446744073709551615 0 0 0 0 0 0 0 0 0\nintr 0\n"), 1);
	assert_false(cs.seen[0]);
	assert_true(cs.seen[1] && cs.now[1].field[CS_USER] == UINT64_MAX);
	assert_int_equal(cpustat_parse(&cs, "cpu0 18446744073709551616 0 0 0 0 0 0 0 0 0\n"), 0);
	cpustat_close(&cs);
	fixture_teardown(state);
}

/* /proc/stat is read into a buffer sized once for the per-CPU lines: a file
 * whose CPU lines run past it is an error, a long tail after them is not,
 * and neither allocates. */
static void cpustat_bounded(void **state)
{
	struct cpustat cs;
	long before;
	(void)state;

	fixture_new("statbig");
	fixture_write("/proc/stat", "cpu  0 0 0 0 0 0 0 0 0 0\ncpu0 1 0 0 0 0 0 0 0 0 0\n"
		      "intr %0100000d\n", 0);
	sr_set_root(fixture_root);
	assert_int_equal(cpustat_open(&cs, 1), 0);
	before = allocations;
	assert_int_equal(cpustat_read(&cs), 1);		/* 100 KB of intr after cpu0 */
	assert_true(cs.now[0].field[CS_USER] == 1);
	fixture_write("/proc/stat", "cpu  0 0 0 0 0 0 0 0 0 0\ncpu0 1 0 0 0 0 0 0 0 0 %0100000d\n",
		      0);
	assert_int_equal(cpustat_read(&cs), -EFBIG);
	assert_int_equal(cs.nseen, 0);
	assert_int_equal(allocations, before);
	assert_true(cpustat_bound(&cs) < 8192);
	cpustat_close(&cs);
	fixture_teardown(state);
}

/* lparcfg past its 16 KiB bound: no value at all, not one cut at the end. */
static void lparcfg_past_its_bound(void **state)
{
	struct lparcfg l;
	char pad[LPARCFG_BOUND];
	(void)state;

	memset(pad, 'x', sizeof pad);
	/* "purr=2048000000000" straddles the bound: the first 3 digits inside */
	fixture_new("lparbig");
	fixture_write("/proc/powerpc/lparcfg", "lparcfg 1.9\ncapped=1\nfill=%.*s\npurr=2048000000000\n",
		      LPARCFG_BOUND - 12 - 9 - 6 - 1 - 8, pad);
	sr_set_root(fixture_root);
	assert_int_equal(lparcfg_open(&l), 0);
	assert_int_equal(lparcfg_read(&l), -EFBIG);
	for (int k = 0; k < LPAR_NKEYS; k++)
		assert_false(l.have[k]);
	fixture_write("/proc/powerpc/lparcfg", "lparcfg 1.9\ncapped=1\npurr=2048000000000\n");
	assert_int_equal(lparcfg_read(&l), 2);
	assert_true(l.have[LPAR_PURR] && l.value[LPAR_PURR] == 2048000000000);
	lparcfg_close(&l);
	fixture_teardown(state);
}

/* Past 1023 distinct messages the once-table says so once and then stays
 * quiet, instead of logging every message every pass. */
static void once_table_full(void **state)
{
	(void)state;

	smt_log_reset_once();
	logged = 0;
	for (int pass = 0; pass < 3; pass++)
		for (int cpu = 0; cpu < 1920; cpu++)
			smt_log_once(SMT_LOG_WARNING, "cpu%d/purr: not a hex counter", cpu);
	assert_int_equal(logged, 1023 + 1);
	smt_log_reset_once();
	smt_log_once(SMT_LOG_WARNING, "cpu0/purr: not a hex counter");
	assert_int_equal(logged, 1023 + 2);
}

/* A root too long for a path: nothing is read, not even the real "/". */
static void root_too_long(void **state)
{
	char root[PATH_MAX + 8];
	(void)state;

	memset(root, 'r', sizeof root - 1);
	root[0] = '/';
	root[sizeof root - 1] = '\0';
	assert_int_equal(sr_set_root(root), -ENAMETOOLONG);
	assert_int_equal(sr_open("/proc/stat"), -ENAMETOOLONG);
	assert_false(sr_exists("/proc/stat"));
	sr_set_root(NULL);
	assert_true(sr_exists("/proc/stat"));
}

/* Package ids at and past INT_MAX, CPU numbers past the bound. */
static void topology_out_of_range(void **state)
{
	struct topology t;
	(void)state;

	fixture_new("topobig");
	fixture_write("/sys/devices/system/cpu/possible", "0-1\n");
	fixture_write("/sys/devices/system/cpu/online", "0-1\n");
	fixture_write("/sys/devices/system/cpu/cpu0/topology/physical_package_id", "2147483647\n");
	fixture_write("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0\n");
	fixture_write("/sys/devices/system/cpu/cpu1/topology/physical_package_id", "4294967295\n");
	fixture_write("/sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "1\n");
	sr_set_root(fixture_root);
	assert_int_equal(topology_init(&t), 0);
	assert_int_equal(t.cores[0].socket, 2147483647);
	assert_int_equal(t.nsockets, 2147483647);
	assert_int_equal(t.cores[1].socket, 0);		/* out of range: package 0 */
	topology_free(&t);

	/* no possible list: the cpuN directories, but not one past the bound */
	fixture_unlink("/sys/devices/system/cpu/possible");
	fixture_write("/sys/devices/system/cpu/cpu2147483647/topology/thread_siblings_list", "0\n");
	assert_int_equal(topology_init(&t), 0);
	assert_int_equal(t.ncpus, 2);
	topology_free(&t);
	fixture_teardown(state);
}

/* An online list that cannot be read keeps the last topology and says so,
 * rather than rescanning every CPU every pass. */
static void topology_online_unreadable(void **state)
{
	char path[PATH_MAX];
	struct topology t;
	unsigned generation;
	(void)state;

	fixture_new("toposick");
	fixture_write("/sys/devices/system/cpu/possible", "0-1\n");
	fixture_write("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0-1\n");
	fixture_write("/sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "0-1\n");
	/* read at offset 0 (never mapped), /proc/self/mem fails with EIO */
	snprintf(path, sizeof path, "%s/sys/devices/system/cpu/online", fixture_root);
	assert_int_equal(symlink("/proc/self/mem", path), 0);
	sr_set_root(fixture_root);
	assert_int_equal(topology_init(&t), 0);
	assert_int_equal(t.online_error, EIO);
	assert_int_equal(t.nonline, 2);		/* every possible CPU, with a warning */
	generation = t.generation;
	for (int pass = 0; pass < 3; pass++)
		assert_int_equal(topology_refresh(&t), 0);
	assert_int_equal(t.generation, generation);
	assert_int_equal(t.online_error, EIO);
	topology_free(&t);
	fixture_teardown(state);
}

/* Traces: bounded in groups, and refused whole when the file is endless. */
static void replay_bounds(void **state)
{
	char why[256], path[PATH_MAX];
	struct ctr_backend *b;
	FILE *f;
	(void)state;

	assert_null(ctr_replay_new("/dev/zero", 4, why, sizeof why));
	assert_string_equal(why, "/dev/zero: not a regular file");
	fixture_new("replaybig");
	snprintf(path, sizeof path, "%s.trace", fixture_root);
	f = fopen(path, "w");
	for (int g = 0; g < 5000; g++)
		fprintf(f, "group g%d %d 11 0x1\n", g, g % 64);
	fprintf(f, "step\n");
	fclose(f);
	assert_null(ctr_replay_new(path, 4, why, sizeof why));
	assert_non_null(strstr(why, "more than 4096 groups"));
	/* 4096 groups and two steps: found by id however many there are */
	f = fopen(path, "w");
	for (int g = 0; g < 4096; g++)
		fprintf(f, "group g%d %d 11 0x%x\n", g, g, g + 1);
	fprintf(f, "step\nstep\ng4095 10 10 7\n");
	fclose(f);
	b = ctr_replay_new(path, 4, why, sizeof why);
	assert_non_null(b);
	{
		struct ctr_event ev = { 11, { 4096, 0, 0 } };
		struct ctr_reading r;
		int h = b->ops->open_group(b, 4095, &ev, 1);

		assert_true(h >= 0);
		b->ops->begin_pass(b);
		assert_int_equal(b->ops->read_group(b, h, &r), 0);
		assert_true(r.enabled == 10 && r.value[0] == 7);
		b->ops->close_group(b, h);
	}
	b->ops->destroy(b);
	unlink(path);
}

static void checked_numbers(void **state)
{
	uint64_t u;
	int64_t i;
	long l;
	(void)state;

	assert_non_null(pn_u64_prefix("18446744073709551615", &u));
	assert_true(u == UINT64_MAX);
	assert_null(pn_u64_prefix("18446744073709551616", &u));
	assert_null(pn_u64_prefix("30000000000000000000", &u));
	assert_non_null(pn_i64_prefix("-9223372036854775808", &i));
	assert_true(i == INT64_MIN);
	assert_null(pn_i64_prefix("9223372036854775808", &i));
	assert_null(pn_hex_prefix("10000000000000000", &u));	/* 17 digits */
	assert_int_equal(pn_long("2147483647\n", -1, INT_MAX, &l), 0);
	assert_int_equal(pn_long("2147483648", -1, INT_MAX, &l), -ERANGE);
	assert_int_equal(pn_long("-2", -1, INT_MAX, &l), -ERANGE);
	assert_int_equal(pn_long("1 ", -1, INT_MAX, &l), -EINVAL);
	assert_int_equal(pn_u64("0x1C7", &u), 0);
	assert_true(u == 0x1c7);
	assert_int_equal(pn_u64("-1", &u), -EINVAL);
}

/* A configuration or trace that is not one (a password file named by
 * mistake, or by someone hoping to read it) is refused by line and reason:
 * no error quotes what the file holds.  And a trace is never read on the
 * live root, where it would stand in for the machine's counters. */
static void errors_quote_no_content(void **state)
{
	static const char conf[] = "root:$6$SECRETHASH:19000:0:99999:7:::\n"
				   "table ok-1 1 SECRET2\n"
				   "model SECRET3\n"
				   "basis SECRET4 stated vendor sheet\n"
				   "siblings SECRET5\n";
	static const char trace[] = "group SECRET6 0 4 1\nstep\nSECRET7 1 1 1\n";
	struct smt_config cfg;
	char why[256], path[PATH_MAX];
	FILE *f;

	(void)state;
	logged = 0;
	quoted = false;
	assert_int_equal(config_parse(&cfg, "c", conf, sizeof conf - 1), 5);
	assert_string_equal(cfg.first_error, "c:1: unknown setting (expected period, fresh, table, "
			    "basis, model, pmu_counters, dram_channels, dram_peak, xgmi, replay, sched, "
			    "siblings, retire or processes)");
	assert_int_equal(logged, 5);
	assert_false(quoted);
	fixture_new("quote");
	assert_int_equal(mkdir(fixture_root, 0700), 0);
	snprintf(path, sizeof path, "%s/t.trace", fixture_root);
	assert_non_null(f = fopen(path, "w"));
	fputs(trace, f);
	fclose(f);
	assert_null(ctr_replay_new(path, 4, why, sizeof why));
	assert_null(strstr(why, "SECRET"));
	assert_non_null(strstr(why, "t.trace:3: a reading of a group not declared"));
	sr_set_root(NULL);
	assert_null(ctr_backend_new(path, 4, why, sizeof why));
	assert_non_null(strstr(why, "replay refused"));
	/* the configuration refuses it first, by line */
	snprintf(why, sizeof why, "period 1s\nreplay %s\n", path);
	assert_int_equal(config_parse(&cfg, "c", why, strlen(why)), 1);
	assert_string_equal(cfg.replay, "");
	assert_string_equal(cfg.first_error, "c:2: replay is read only under a root given by -r or "
			    "$SMTCPU_ROOT, never on this machine's; ignored");
	sr_set_root(fixture_root);
	assert_null(ctr_backend_new(path, 4, why, sizeof why));	/* (read, and refused as above) */
	assert_null(strstr(why, "SECRET"));
	sr_set_root(NULL);
	fixture_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(smbios_string_at_the_end),
		cmocka_unit_test(configuration_that_never_ends),
		cmocka_unit_test(configuration_lines_and_numbers),
		cmocka_unit_test(configuration_passes),
		cmocka_unit_test(configuration_retire),
		cmocka_unit_test(cpustat_numbers_past_64_bits),
		cmocka_unit_test(cpustat_bounded),
		cmocka_unit_test(lparcfg_past_its_bound),
		cmocka_unit_test(once_table_full),
		cmocka_unit_test(root_too_long),
		cmocka_unit_test(topology_out_of_range),
		cmocka_unit_test(topology_online_unreadable),
		cmocka_unit_test(replay_bounds),
		cmocka_unit_test(checked_numbers),
		cmocka_unit_test(errors_quote_no_content),
	};
	return cmocka_run_group_tests(tests, quiet_setup, NULL);
}
