#include "core_pmu.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const msr_event[CORE_NMSR] = { "tsc", "aperf", "mperf" };

/* x86's core PMU is "cpu", a hybrid's "cpu_core" (its big cores; "cpu_atom"
 * beside it), POWER's "cpu". */
static int find_core(struct core_pmu_plan *plan, char *why, size_t whysize)
{
	static const char *const names[] = { "cpu", "cpu_core" };
	int sts = -ENOENT;

	for (size_t i = 0; i < sizeof names / sizeof names[0] && sts == -ENOENT; i++)
		sts = pmu_discover_core(&plan->cpu, names[i], why, whysize);
	return sts;
}

static int find_msr(struct core_pmu_plan *plan, char *why, size_t whysize)
{
	int sts = pmu_discover_core(&plan->msr_pmu, "msr", why, whysize);

	if (sts < 0)
		return sts;
	for (int i = 0; i < CORE_NMSR; i++) {
		uint64_t config[3];

		sts = pmu_event_alias(&plan->msr_pmu, msr_event[i], config, why, whysize);
		if (sts == -ENOENT)
			continue;
		if (sts < 0)
			return sts;
		plan->has[i] = true;
		plan->config[i] = config[0];
	}
	return 0;
}

int core_pmu_plan(struct core_pmu_plan *plan, const struct cpuinfo *ci)
{
	char why[256] = "", msr_why[256] = "";
	int sts, msts = -ENOENT;
	bool x86 = ci->arch == CPU_ARCH_X86;

	memset(plan, 0, sizeof *plan);
	if ((sts = find_core(plan, why, sizeof why)) == -EINVAL) {
		snprintf(plan->why, sizeof plan->why, "%s", why);
		return sts;
	}
	plan->core = sts == 0;
	if (plan->core && x86 && strcmp(ci->vendor, "AuthenticAMD") == 0)
		plan->zen = core_family_find(ci->family, ci->model);
	if (x86) {
		if ((msts = find_msr(plan, msr_why, sizeof msr_why)) == -EINVAL) {
			snprintf(plan->why, sizeof plan->why, "%s", msr_why);
			return msts;
		}
		plan->msr = msts == 0;
	}

	if (!plan->core)
		snprintf(plan->why, sizeof plan->why,
			 "no core PMU (no cpu in /sys/bus/event_source/devices: a virtual machine "
			 "without a virtual PMU): no cycles, instructions or IPC");
	if (x86 && !(plan->has[CORE_MSR_APERF] && plan->has[CORE_MSR_MPERF])) {
		size_t len = strlen(plan->why);
		snprintf(plan->why + len, sizeof plan->why - len, "%s%s", len ? "; " : "",
			 !plan->msr ? "no msr PMU: no APERF/MPERF, no effective frequency"
				    : "the msr PMU has no aperf/mperf (a CPU without them, or a "
				      "virtual machine that hides them): no effective frequency");
	}
	/* QEMU's TCG counts for POWER what it can emulate (target/ppc/power8-pmu.c:
	 * "the pseries and pvn clock runs at 1Ghz, meaning that 1 nanosec equals
	 * 1 cycle"): counted, but said to be no processor's. */
	if (plan->core && ci->guest == POWER_GUEST_TCG && !plan->why[0])
		snprintf(plan->why, sizeof plan->why,
			 "counting QEMU's emulated PMU (a TCG guest): cycles are its virtual clock's "
			 "nanoseconds, instructions those it translated; neither is a processor's");
	if (!plan->why[0])
		snprintf(plan->why, sizeof plan->why, "ok");
	return 0;
}
