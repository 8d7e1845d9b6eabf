/*
 * /proc/stat lines and CPU lists, good and bad.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "unit.h"
#include "cpuinfo.h"
#include "cpulist.h"
#include "cpustat.h"
#include "log.h"

static void quiet(enum smt_log_level level, const char *message)
{
	(void)level; (void)message;
}

static struct cpustat cs;
static struct cpustat_times now[8];
static unsigned char seen[8];

static int setup(void **state)
{
	(void)state;
	memset(&cs, 0, sizeof cs);
	cs.ncpus = 8;
	cs.now = now;
	cs.seen = seen;
	smt_log_set_sink(quiet);
	smt_log_reset_once();
	return 0;
}

static void well_formed(void **state)
{
	(void)state;
	assert_int_equal(cpustat_parse(&cs,
		"cpu  10 20 30 40 50 60 70 80 90 100\n"
		"cpu0 1 2 3 4 5 6 7 8 9 10\n"
		"cpu3 100 0 50 800 10 5 5 30 20 0\n"
		"intr 1 2 3\nctxt 5\n"), 2);
	assert_true(seen[0] && seen[3] && !seen[1]);
	/* busy = user + nice + system + irq + softirq */
	assert_int_equal(cpustat_busy(&now[3]), 100 + 0 + 50 + 5 + 5);
	/* window = busy + idle + iowait; steal and guest left out */
	assert_int_equal(cpustat_window(&now[3]), 160 + 800 + 10);
	assert_int_equal(now[0].field[CS_GUEST_NICE], 10);
}

static void bad_lines_are_skipped(void **state)
{
	(void)state;
	assert_int_equal(cpustat_parse(&cs,
		"cpu  10 20 30 40 50 60 70 80 90 100\n"
		"cpu0 1 2 3\n"				/* no idle: truncated */
		"cpu1 1 2 x 4 5 6 7 8 9 10\n"		/* not a number */
		"cpu2 1 2 3 4 5 6 7 8 9 10 11 12\n"	/* a later kernel's extra fields */
		"cpu9 1 2 3 4 5 6 7 8 9 10\n"		/* beyond the possible CPUs */
		"cpuX 1 2 3 4 5 6 7 8 9 10\n"		/* no number */
		"cpu4 99999999999999999999999 0 0 0 0 0 0 0 0 0\n"	/* over 64 bits */
		"cpu5 1 2 3 4 5 6 7 8 9 10\n"), 2);
	assert_false(seen[0]);
	assert_false(seen[1]);
	assert_true(seen[2]);
	assert_false(seen[4]);
	assert_true(seen[5]);
	assert_int_equal(now[2].field[CS_GUEST_NICE], 10);
}

/* Older kernels print fewer fields (proc(5)): 2.6.32 on a POWER7 LPAR
 * nine (no guest_nice), 2.6.18 eight (no guest), 2.6.9 seven (no steal). */
static void older_kernels(void **state)
{
	(void)state;
	assert_int_equal(cpustat_parse(&cs,
		"cpu  10 20 30 40 50 60 70 80 90\n"
		"cpu0 100 1 50 800 10 5 5 30 20\n"
		"cpu1 100 1 50 800 10 5 5 30\n"
		"cpu2 100 1 50 800 10 5 5\n"
		"cpu3 100 1 50 800\n"
		"intr 1\n"), 4);
	for (int cpu = 0; cpu < 4; cpu++)
		assert_true(seen[cpu]);
	/* busy 100 + 1 + 50 + 5 + 5; window busy + idle 800 + iowait 10 */
	assert_int_equal(cpustat_busy(&now[0]), 161);
	assert_int_equal(cpustat_window(&now[0]), 971);
	assert_int_equal(now[0].field[CS_GUEST], 20);
	assert_int_equal(now[0].field[CS_GUEST_NICE], 0);
	assert_int_equal(now[1].field[CS_STEAL], 30);
	assert_int_equal(now[1].field[CS_GUEST], 0);
	assert_int_equal(cpustat_window(&now[2]), 971);
	assert_int_equal(now[2].field[CS_STEAL], 0);
	/* 2.4's four: no iowait, irq or softirq */
	assert_int_equal(cpustat_busy(&now[3]), 151);
	assert_int_equal(cpustat_window(&now[3]), 951);
}

static void empty_and_headless(void **state)
{
	(void)state;
	assert_int_equal(cpustat_parse(&cs, ""), 0);
	assert_int_equal(cpustat_parse(&cs, "intr 1\n"), 0);
	assert_int_equal(cpustat_parse(&cs, "cpu7 1 2 3 4 5 6 7 8 9 10"), 1);	/* no newline */
}

static void cpu_lists(void **state)
{
	unsigned char set[16];
	(void)state;

	assert_int_equal(cpulist_parse("0-3,8,10-11\n", set, 16), 7);
	assert_true(set[0] && set[3] && set[8] && set[11] && !set[4] && !set[9]);
	assert_int_equal(cpulist_parse("\n", set, 16), 0);
	assert_int_equal(cpulist_parse("5", set, 16), 1);
	assert_int_equal(cpulist_parse("0-16", set, 16), -1);	/* beyond nmax */
	assert_int_equal(cpulist_parse("3-1", set, 16), -1);
	assert_int_equal(cpulist_parse("1,,2", set, 16), -1);
	assert_int_equal(cpulist_parse("a-b", set, 16), -1);
	assert_int_equal(cpulist_parse("1-", set, 16), -1);
	assert_int_equal(cpulist_span("0-1919\n"), 1920);
	assert_int_equal(cpulist_span("0,5"), 6);
}

/* The mask format, worked by hand: 32-bit words, the last for CPUs 0-31. */
static void cpu_masks(void **state)
{
	int cpus[8];
	(void)state;

	assert_int_equal(cpumask_collect("00000000,00000101\n", cpus, 8), 2);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[1], 8);
	assert_int_equal(cpumask_collect("f", cpus, 8), 4);
	assert_int_equal(cpus[3], 3);
	assert_int_equal(cpumask_collect("00000001,00000000", cpus, 8), 1);
	assert_int_equal(cpus[0], 32);
	assert_int_equal(cpumask_collect("A0", cpus, 8), 2);	/* 1010 0000: CPUs 5, 7 */
	assert_int_equal(cpus[0], 5);
	assert_int_equal(cpus[1], 7);
	assert_int_equal(cpumask_collect("ffff", cpus, 8), 9);	/* more than max */
	assert_int_equal(cpumask_collect("0-3", cpus, 8), -1);	/* a list, not a mask */
	assert_int_equal(cpumask_collect("", cpus, 8), -1);
	assert_int_equal(cpumask_collect("0", cpus, 8), 0);
}

/* The processor from /proc/cpuinfo as each kernel prints it: x86's
 * show_cpuinfo (arch/x86/kernel/cpu/proc.c: vendor_id, cpu family, model),
 * s390's show_cpu_summary (arch/s390/kernel/processor.c: "vendor_id :
 * IBM/S390"), powerpc's show_cpuinfo (arch/powerpc/kernel/setup-common.c:
 * "cpu"). */
static void processors(void **state)
{
	struct cpuinfo ci;
	char opteron[] = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 21\n"
			 "model\t\t: 2\nmodel name\t: AMD Opteron(tm) Processor 6328\n";
	char epyc[] = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 23\n"
		      "model\t\t: 1\nmodel name\t: AMD EPYC 7451 24-Core Processor\n";
	char s390[] = "vendor_id       : IBM/S390\n# processors    : 2\n"
		      "bogomips per cpu: 3033.00\n";
	char power7[] = "processor\t: 0\ncpu\t\t: POWER7 (architected), altivec supported\n"
			"timebase\t: 512000000\nplatform\t: pSeries\n";
	char lone[] = "vendor_id\t: SomeVendor\n";
	(void)state;

	cpuinfo_parse(&ci, opteron);
	assert_int_equal(ci.arch, CPU_ARCH_X86);
	assert_int_equal(ci.family, 21);
	assert_int_equal(ci.model, 2);
	assert_true(cpuinfo_has_compute_units(&ci));
	cpuinfo_parse(&ci, epyc);
	assert_int_equal(ci.arch, CPU_ARCH_X86);
	assert_false(cpuinfo_has_compute_units(&ci));
	cpuinfo_parse(&ci, s390);
	assert_int_equal(ci.arch, CPU_ARCH_S390);
	assert_false(cpuinfo_has_compute_units(&ci));
	cpuinfo_parse(&ci, power7);
	assert_int_equal(ci.arch, CPU_ARCH_POWER);
	assert_int_equal(ci.power_generation, 7);
	cpuinfo_parse(&ci, lone);	/* a vendor_id alone says no architecture */
	assert_int_equal(ci.arch, CPU_ARCH_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(well_formed, setup),
		cmocka_unit_test_setup(bad_lines_are_skipped, setup),
		cmocka_unit_test_setup(older_kernels, setup),
		cmocka_unit_test_setup(empty_and_headless, setup),
		cmocka_unit_test_setup(cpu_lists, setup),
		cmocka_unit_test_setup(cpu_masks, setup),
		cmocka_unit_test(processors),
	};
	return cmocka_run_group_tests_name("parsing", tests, NULL, NULL);
}
