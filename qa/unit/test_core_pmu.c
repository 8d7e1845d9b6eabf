/*
 * What core counters a machine offers (src/sources/core/core_pmu.c), from sysfs trees in
 * the kernel's formats: the AMD core PMU's format/ as arch/x86/events/amd/core.c
 * declares it (PMU_FORMAT_ATTR(event, "config:0-7,32-35"), umask
 * "config:8-15", edge "config:18", inv "config:23", cmask "config:24-31"),
 * the msr PMU's as arch/x86/events/msr.c does (PMU_FORMAT_ATTR(event,
 * "config:0-63"); PMU_EVENT_ATTR_STRING(tsc, ..., "event=0x00"), aperf
 * "event=0x01", mperf "event=0x02", irperf "event=0x06"), each file as
 * perf_event_sysfs_show() and the format show print them: the string and a
 * newline.  Then this machine's own sysfs, against what the test sees there.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core_pmu.h"
#include "unit.h"

#define DEV "/sys/bus/event_source/devices"

static void amd_cpu_pmu(void)
{
	fixture_write(DEV "/cpu/type", "4\n");
	fixture_write(DEV "/cpu/format/event", "config:0-7,32-35\n");
	fixture_write(DEV "/cpu/format/umask", "config:8-15\n");
	fixture_write(DEV "/cpu/format/edge", "config:18\n");
	fixture_write(DEV "/cpu/format/inv", "config:23\n");
	fixture_write(DEV "/cpu/format/cmask", "config:24-31\n");
}

static void msr_pmu(int aperf_mperf)
{
	fixture_write(DEV "/msr/type", "12\n");
	fixture_write(DEV "/msr/format/event", "config:0-63\n");
	fixture_write(DEV "/msr/events/tsc", "event=0x00\n");
	if (aperf_mperf) {
		fixture_write(DEV "/msr/events/aperf", "event=0x01\n");
		fixture_write(DEV "/msr/events/mperf", "event=0x02\n");
		fixture_write(DEV "/msr/events/irperf", "event=0x06\n");
	}
}

static struct cpuinfo amd(int family, int model)
{
	struct cpuinfo ci;

	memset(&ci, 0, sizeof ci);
	ci.arch = CPU_ARCH_X86;
	snprintf(ci.vendor, sizeof ci.vendor, "AuthenticAMD");
	ci.family = family;
	ci.model = model;
	return ci;
}

/* A Genoa host: everything there. */
static void genoa_has_everything(void **state)
{
	static struct core_pmu_plan plan;
	struct cpuinfo ci = amd(25, 0x11);

	(void)state;
	sr_set_root(fixture_new("corepmu-genoa"));
	amd_cpu_pmu();
	msr_pmu(1);
	assert_int_equal(core_pmu_plan(&plan, &ci), 0);
	assert_true(plan.core);
	assert_int_equal(plan.cpu.type, 4);
	assert_non_null(plan.zen);
	assert_string_equal(plan.zen->name, "Zen4");
	assert_true(plan.msr);
	assert_int_equal(plan.msr_pmu.type, 12);
	assert_true(plan.has[CORE_MSR_TSC] && plan.has[CORE_MSR_APERF] && plan.has[CORE_MSR_MPERF]);
	assert_int_equal(plan.config[CORE_MSR_TSC], 0x00);
	assert_int_equal(plan.config[CORE_MSR_APERF], 0x01);
	assert_int_equal(plan.config[CORE_MSR_MPERF], 0x02);
	assert_string_equal(plan.why, "ok");
}

/* An EPYC guest without a virtual PMU, as this machine is: the msr PMU
 * with tsc alone. */
static void guest_without_a_pmu_says_why(void **state)
{
	static struct core_pmu_plan plan;
	struct cpuinfo ci = amd(25, 0x11);

	(void)state;
	sr_set_root(fixture_new("corepmu-guest"));
	msr_pmu(0);
	assert_int_equal(core_pmu_plan(&plan, &ci), 0);
	assert_false(plan.core);
	assert_null(plan.zen);
	assert_true(plan.msr);
	assert_true(plan.has[CORE_MSR_TSC]);
	assert_false(plan.has[CORE_MSR_APERF] || plan.has[CORE_MSR_MPERF]);
	assert_non_null(strstr(plan.why, "no core PMU"));
	assert_non_null(strstr(plan.why, "no cycles, instructions or IPC"));
	assert_non_null(strstr(plan.why, "the msr PMU has no aperf/mperf"));
	/* and without the msr PMU too */
	fixture_remove();
	sr_set_root(fixture_new("corepmu-bare"));
	fixture_write("/proc/version", "Linux\n");
	assert_int_equal(core_pmu_plan(&plan, &ci), 0);
	assert_false(plan.msr);
	assert_non_null(strstr(plan.why, "no msr PMU"));
}

/* POWER has no msr PMU, and nothing is said of it. */
static void power_needs_no_msr(void **state)
{
	static struct core_pmu_plan plan;
	struct cpuinfo ci;

	(void)state;
	memset(&ci, 0, sizeof ci);
	ci.arch = CPU_ARCH_POWER;
	ci.power_generation = 10;
	sr_set_root(fixture_new("corepmu-power"));
	fixture_write(DEV "/cpu/type", "4\n");
	fixture_write(DEV "/cpu/format/event", "config:0-49\n");
	assert_int_equal(core_pmu_plan(&plan, &ci), 0);
	assert_true(plan.core);
	assert_null(plan.zen);
	assert_false(plan.msr);
	assert_string_equal(plan.why, "ok");
	/* Under QEMU's TCG the PMU counts, but its cycles are nanoseconds of
	 * QEMU's virtual clock (target/ppc/power8-pmu.c, update_PMC_PM_CYC):
	 * counted, and said to be no processor's. */
	ci.guest = POWER_GUEST_TCG;
	assert_int_equal(core_pmu_plan(&plan, &ci), 0);
	assert_true(plan.core);
	assert_non_null(strstr(plan.why, "QEMU's emulated PMU"));
	assert_non_null(strstr(plan.why, "neither is a processor's"));
}

/* A malformed alias is an error that names the file. */
static void malformed_alias_is_named(void **state)
{
	static struct core_pmu_plan plan;
	struct cpuinfo ci = amd(25, 0x11);

	(void)state;
	sr_set_root(fixture_new("corepmu-bad"));
	amd_cpu_pmu();
	msr_pmu(1);
	fixture_write(DEV "/msr/events/aperf", "event=zz\n");
	assert_int_equal(core_pmu_plan(&plan, &ci), -EINVAL);
	assert_non_null(strstr(plan.why, "events/aperf"));
	fixture_write(DEV "/msr/events/aperf", "flavour=0x01\n");
	assert_int_equal(core_pmu_plan(&plan, &ci), -EINVAL);
	assert_non_null(strstr(plan.why, "no format field \"flavour\""));
}

/* This machine's own sysfs, against what the test finds there itself. */
static void this_machine(void **state)
{
	static struct core_pmu_plan plan;
	struct cpuinfo ci;

	(void)state;
	sr_set_root(NULL);
	assert_int_equal(cpuinfo_read(&ci), 0);
	assert_int_equal(core_pmu_plan(&plan, &ci), 0);
	assert_int_equal(plan.core, access(DEV "/cpu", F_OK) == 0 || access(DEV "/cpu_core", F_OK) == 0);
	if (ci.arch == CPU_ARCH_X86) {
		assert_int_equal(plan.msr, access(DEV "/msr", F_OK) == 0);
		assert_int_equal(plan.has[CORE_MSR_APERF], access(DEV "/msr/events/aperf", F_OK) == 0);
		assert_int_equal(plan.has[CORE_MSR_TSC], access(DEV "/msr/events/tsc", F_OK) == 0);
	}
	print_message("this machine: %s\n", plan.why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(genoa_has_everything, fixture_teardown),
		cmocka_unit_test_teardown(guest_without_a_pmu_says_why, fixture_teardown),
		cmocka_unit_test_teardown(power_needs_no_msr, fixture_teardown),
		cmocka_unit_test_teardown(malformed_alias_is_named, fixture_teardown),
		cmocka_unit_test(this_machine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
