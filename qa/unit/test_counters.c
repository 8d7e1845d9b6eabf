/*
 * The counter layers: the multiplexing plan and estimate (wrap, held-over
 * intervals), the replay backend's format and failures, the perf_event_open
 * backend with real software events through the same path the uncore PMUs
 * take (sysfs PMU, encoding, groups, mux), refusal when not privileged, the
 * family tables, libpfm4's L3 code, and SMBIOS memory devices.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <linux/perf_event.h>
#include <sys/wait.h>
#include <time.h>

#include "unit.h"

#include "amd_events.h"
#include "counters.h"
#include "dmi.h"
#include "mux.h"
#include "pmu.h"
#include "sysroot.h"
#include "uncore.h"

static void plan_packs_whole_units(void **state)
{
	int g[16];
	(void)state;

	/* Zen2/3: 8 channels, 1 event each, 4 DF counters: two groups of 4. */
	assert_int_equal(mux_plan(8, 1, 4, g), 2);
	for (int u = 0; u < 8; u++)
		assert_int_equal(g[u], u / 4);
	/* Genoa DF without UMC: 12 channels x 4 events on 16 counters: 3 groups. */
	assert_int_equal(mux_plan(12, 4, 16, g), 3);
	assert_int_equal(g[3], 0);
	assert_int_equal(g[4], 1);
	assert_int_equal(g[11], 2);
	/* Turin: 12 x 2 on 16: two groups of 6 channels, not 8 + 4. */
	assert_int_equal(mux_plan(12, 2, 16, g), 2);
	assert_int_equal(g[5], 0);
	assert_int_equal(g[6], 1);
	/* L3: one pair on 6 counters, never multiplexed. */
	assert_int_equal(mux_plan(1, 2, 6, g), 1);
	/* A unit larger than the counters cannot be planned. */
	assert_int_equal(mux_plan(1, 5, 4, g), -1);
}

static void estimate_scales_wraps_and_holds(void **state)
{
	struct ctr_reading a = { 1000000000, 250000000, { 0 } }, b = a;
	double est[2], duty;
	(void)state;

	/* A quarter of the time on a counter: counts scale by 4. */
	a.value[0] = (UINT64_C(1) << 48) - 100;		/* about to wrap */
	a.value[1] = 5000;
	b.enabled += 2000000000;
	b.running += 500000000;
	b.value[0] = 900;				/* wrapped: 1000 counted */
	b.value[1] = 7000;
	assert_int_equal(mux_estimate(&a, &b, 2, est, &duty), MUX_COUNTED);
	assert_true(est[0] == 4000.0);
	assert_true(est[1] == 8000.0);
	assert_true(duty == 0.25);
	/* Enabled but never running: no estimate, the caller keeps its baseline. */
	b = a;
	b.enabled += 1000;
	assert_int_equal(mux_estimate(&a, &b, 2, est, &duty), MUX_NOT_RUN);
	b = a;
	assert_int_equal(mux_estimate(&a, &b, 2, est, &duty), MUX_NO_TIME);
	b.enabled -= 1;
	assert_int_equal(mux_estimate(&a, &b, 2, est, &duty), MUX_RESET);
}

static void replay_serves_steps_and_failures(void **state)
{
	struct ctr_event ev[2] = { { 11, { 0x3807, 0, 0 } }, { 11, { 0x3847, 0, 0 } } };
	struct ctr_event busy = { 12, { 0xff04, 0, 0 } };
	struct ctr_reading r;
	struct ctr_backend *b;
	char why[256];
	int h;
	(void)state;

	fixture_new("replay");
	fixture_write("/.keep", "\n");
	b = ctr_replay_new(fixture_file("/t", "# two steps\n"
		"group a 0 11 0x3807,0x3847\n"
		"group b 64 12 0xff04 error EBUSY\n"
		"group c 4 12 0xff04 error ENOSPC 1\n"		/* busy once, then free */
		"step\n a 0 0 10 20\n"
		"step\n a 100 50 0x10 30  # hex is fine\n"
		"step\n"), 4, why, sizeof why);
	assert_non_null(b);
	assert_int_equal(b->ops->open_group(b, 64, &busy, 1), -EBUSY);
	assert_int_equal(b->ops->open_group(b, 64, &busy, 1), -EBUSY);
	assert_int_equal(b->ops->open_group(b, 4, &busy, 1), -ENOSPC);
	assert_true(b->ops->open_group(b, 4, &busy, 1) >= 0);
	assert_int_equal(b->ops->open_group(b, 1, ev, 2), -ENOENT);	/* no such CPU */
	h = b->ops->open_group(b, 0, ev, 2);
	assert_true(h >= 0);
	assert_int_equal(b->ops->read_group(b, h, &r), 0);
	assert_true(r.value[0] == 10 && r.enabled == 0);
	b->ops->begin_pass(b);
	b->ops->read_group(b, h, &r);
	assert_true(r.value[0] == 16 && r.value[1] == 30 && r.running == 50);
	b->ops->begin_pass(b);		/* a step without a reading: it stood still */
	b->ops->read_group(b, h, &r);
	assert_true(r.value[0] == 16 && r.enabled == 100);
	assert_false(ctr_replay_ended(b));
	b->ops->begin_pass(b);
	assert_true(ctr_replay_ended(b));
	b->ops->destroy(b);

	assert_null(ctr_replay_new(fixture_file("/bad", "group a 0 11 0x3807\nstep\na 1 2\n"), 4,
				   why, sizeof why));
	assert_non_null(strstr(why, "bad:3: a reading of a 1-counter group needs ENABLED RUNNING and 1 counts"));
	assert_null(ctr_replay_new(fixture_file("/nostep", "group a 0 11 0x1\n"), 4, why, sizeof why));
	assert_non_null(strstr(why, "no steps"));
	/* a member of another PMU than the leader's: TYPE:CONFIG */
	b = ctr_replay_new(fixture_file("/mixed", "group m 0 0 0,1,4:0x100000120\nstep\n"
					 "m 10 10 1 2 3\n"), 4, why, sizeof why);
	assert_non_null(b);
	struct ctr_event mixed[3] = { { 0, { 0, 0, 0 } }, { 0, { 1, 0, 0 } },
				      { 4, { 0x100000120, 0, 0 } } };
	mixed[2].type = 0;		/* the wrong PMU for the third: not this group */
	assert_int_equal(b->ops->open_group(b, 0, mixed, 3), -ENOENT);
	mixed[2].type = 4;
	h = b->ops->open_group(b, 0, mixed, 3);
	assert_true(h >= 0);
	assert_int_equal(b->ops->read_group(b, h, &r), 0);
	assert_true(r.value[2] == 3);
	b->ops->destroy(b);
	assert_null(ctr_replay_new(fixture_file("/badtype", "group m 0 0 0,x:1\nstep\n"), 4, why,
				   sizeof why));
	assert_non_null(strstr(why, "badtype:1: a group's CONFIG list is not numbers joined by commas"));
	fixture_remove();
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Three sources replaying one trace (AMD's, the core counters', Intel's)
 * share it: read and parsed once, stepped once a pass whichever begins it,
 * and freed with the last of them. */
static void replay_shared_by_backends(void **state)
{
	struct ctr_event ev = { 11, { 0x1, 0, 0 } }, other = { 11, { 0x2, 0, 0 } };
	struct ctr_backend *a, *b;
	struct ctr_reading r;
	char why[256];
	const char *path;
	long before;
	int ha, hb;
	(void)state;

	fixture_new("replay-shared");
	path = fixture_file("/t", "group x 0 11 0x1\ngroup y 1 11 0x2\n"
			    "step\n x 1 1 10\n y 1 1 20\n"
			    "step\n x 2 2 11\n y 2 2 22\n"
			    "step\n x 3 3 12\n y 3 3 24\n");
	a = ctr_replay_new(path, 4, why, sizeof why);
	assert_non_null(a);
	before = allocations;
	b = ctr_replay_new(path, 4, why, sizeof why);
	assert_non_null(b);
	assert_int_equal(allocations - before, 2);	/* its own handles, no second parse */
	ha = a->ops->open_group(a, 0, &ev, 1);
	hb = b->ops->open_group(b, 1, &other, 1);
	assert_true(ha >= 0 && hb >= 0);
	/* One pass: both begin it, the trace moves one step. */
	a->ops->begin_pass(a);
	b->ops->begin_pass(b);
	a->ops->read_group(a, ha, &r);
	assert_true(r.value[0] == 11);
	b->ops->read_group(b, hb, &r);
	assert_true(r.value[0] == 22);
	/* The next pass begun by b first: still one step. */
	b->ops->begin_pass(b);
	a->ops->begin_pass(a);
	a->ops->read_group(a, ha, &r);
	assert_true(r.value[0] == 12);
	b->ops->begin_pass(b);
	assert_true(ctr_replay_ended(a) && ctr_replay_ended(b));
	a->ops->destroy(a);
	b->ops->read_group(b, hb, &r);	/* still served after a's end */
	assert_true(r.value[0] == 24);
	b->ops->destroy(b);
	/* All gone: the next open parses the file anew, from its first step. */
	a = ctr_replay_new(path, 4, why, sizeof why);
	assert_non_null(a);
	ha = a->ops->open_group(a, 0, &ev, 1);
	a->ops->read_group(a, ha, &r);
	assert_true(r.value[0] == 10);
	a->ops->destroy(a);
}

/* A sysfs PMU that names the kernel's software events: the uncore path
 * (discovery, encoding, one group per counter, mux) over real counters. */
static void write_software_pmu(void)
{
	fixture_write("/sys/bus/event_source/devices/swtest/type", "%d\n", PERF_TYPE_SOFTWARE);
	fixture_write("/sys/bus/event_source/devices/swtest/cpumask", "0\n");
	fixture_write("/sys/bus/event_source/devices/swtest/format/event", "config:0-7\n");
	fixture_write("/sys/bus/event_source/devices/swtest/format/umask", "config:8-15\n");
}

static void perf_backend_counts_software_events(void **state)
{
	struct uncore_spec spec = { .second_field = "umask", .nunits = 2, .per_unit = 1,
		.event = { { PERF_COUNT_SW_CPU_CLOCK }, { PERF_COUNT_SW_CONTEXT_SWITCHES } },
		.counters = 1 };
	struct ctr_backend *b = ctr_perf_new(8);
	struct uncore u;
	double start, elapsed;
	long before;
	(void)state;

	fixture_new("perf");
	write_software_pmu();
	sr_set_root(fixture_root);
	start = now_ns();
	if (uncore_open(&u, "swtest", &spec, b) < 0)
		fail_msg("uncore_open: %s", u.why);
	assert_int_equal(u.ngroups, 2);		/* one counter: each event its own group */
	before = allocations;
	for (int pass = 0; pass < 5; pass++) {
		usleep(10000);
		b->ops->begin_pass(b);
		assert_int_equal(uncore_read(&u, b), 2);
	}
	elapsed = now_ns() - start;
	assert_int_equal(allocations, before);
	/* cpu-clock counts the nanoseconds it was enabled; software events are
	 * never off a counter, so the duty cycle is 1. */
	assert_true(u.total[0] > 0.5 * elapsed && u.total[0] <= 1.05 * elapsed);
	assert_true(u.duty[0] == 1.0 && u.duty[1] == 1.0);
	assert_true(u.total[1] >= 0);
	uncore_close(&u, b);
	b->ops->destroy(b);
	sr_set_root(NULL);
	fixture_remove();
}

static void perf_refused_without_privilege(void **state)
{
	long paranoid = 0;
	pid_t pid;
	int st;
	(void)state;

	sr_read_long(&paranoid, INT_MIN, INT_MAX, "/proc/sys/kernel/perf_event_paranoid");
	if (geteuid() != 0 || paranoid < 1)
		skip();		/* only root can drop to a user the kernel refuses */
	pid = fork();
	if (pid == 0) {
		struct ctr_event ev = { PERF_TYPE_SOFTWARE, { PERF_COUNT_SW_CPU_CLOCK, 0, 0 } };
		struct ctr_backend *b = ctr_perf_new(1);
		int sts;

		if (setgid(65534) < 0 || setuid(65534) < 0)
			_exit(2);
		sts = b->ops->open_group(b, 0, &ev, 1);
		_exit(sts == -EACCES && strstr(b->why, "Permission denied") ? 0 : 1);
	}
	assert_true(pid > 0);
	waitpid(pid, &st, 0);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void family_tables_and_libpfm(void **state)
{
	const struct amd_family *f;
	uint64_t event, umask;
	(void)state;

	assert_string_equal(amd_family_find(0x17, 0x31)->name, "Zen2 Rome");
	assert_string_equal(amd_family_find(0x19, 0x01)->name, "Zen3 Milan");
	assert_string_equal(amd_family_find(0x19, 0x11)->name, "Zen4 Genoa");
	assert_string_equal(amd_family_find(0x1a, 0x02)->name, "Zen5 Turin");
	assert_null(amd_family_find(0x17, 0x01));	/* Zen1: no table */
	f = amd_family_find(0x17, 0x31);
	assert_int_equal(f->channels, 8);
	assert_int_equal(f->df_counters, 4);
	assert_true(amd_df_event(f, 7) == 0x1c7);	/* seed 004's channel 7 */
	f = amd_family_find(0x19, 0x11);
	assert_int_equal(f->channels, 12);
	assert_true(amd_df_event(f, 11) == 0x2df);
	/* libpfm4's Zen3 L3 table agrees with ours on the access event. */
	amd_l3_access_codes(&event, &umask);
	assert_true(event == AMD_L3_EVENT && umask == AMD_L3_UMASK_ACCESSES);
}

/* A type 17 record: locator, size (MB), configured speed. */
static size_t memory_device(unsigned char *p, const char *locator, unsigned mb, unsigned mts)
{
	memset(p, 0, 0x28);
	p[0] = 17;
	p[1] = 0x28;
	p[0x0a] = 64;
	p[0x0c] = (unsigned char)(mb & 0xff);
	p[0x0d] = (unsigned char)(mb >> 8);
	p[0x10] = 1;
	p[0x15] = p[0x20] = (unsigned char)(mts & 0xff);
	p[0x16] = p[0x21] = (unsigned char)(mts >> 8);
	strcpy((char *)p + 0x28, locator);
	return 0x28 + strlen(locator) + 2;
}

static void smbios_counts_channels_not_slots(void **state)
{
	unsigned char t[1024] = { 0 };	/* the strings' second NUL included */
	struct dmi_memory m;
	size_t n = 0;
	(void)state;

	n += memory_device(t + n, "P0_DIMM_A1", 16384, 3200);
	n += memory_device(t + n, "P0_DIMM_A2", 16384, 2933);	/* same channel, slower */
	n += memory_device(t + n, "P0_DIMM_B1", 16384, 3200);
	n += memory_device(t + n, "P0_DIMM_C1", 0, 0);		/* empty slot */
	t[n++] = 127;
	t[n++] = 4;
	t[n++] = 0;
	t[n++] = 0;
	t[n++] = 0;
	t[n++] = 0;
	assert_int_equal(dmi_memory_parse(t, (long)n, &m), 0);
	assert_int_equal(m.devices, 4);
	assert_int_equal(m.populated, 3);
	assert_int_equal(m.channels, 2);
	assert_int_equal(m.mts, 2933);
	assert_int_equal(m.data_width, 64);
	t[1] = 2;	/* a record shorter than its header */
	assert_int_equal(dmi_memory_parse(t, (long)n, &m), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plan_packs_whole_units),
		cmocka_unit_test(estimate_scales_wraps_and_holds),
		cmocka_unit_test(replay_serves_steps_and_failures),
		cmocka_unit_test(replay_shared_by_backends),
		cmocka_unit_test(perf_backend_counts_software_events),
		cmocka_unit_test(perf_refused_without_privilege),
		cmocka_unit_test(family_tables_and_libpfm),
		cmocka_unit_test(smbios_counts_channels_not_slots),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
