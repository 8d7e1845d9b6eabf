/* sysfs PMU discovery (type, cpumask, format/, mux interval) and encoding
 * the AMD events through it, on a tree; the core counters' plan, which
 * reads the core PMU and the msr PMU's events/ aliases. */
#include <string.h>

#include "core_pmu.h"
#include "fuzz.h"
#include "pmu.h"
#include "sysroot.h"
#include "tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "amd_df", "amd_l3", "amd_umc_0" };
	static const struct pmu_setting settings[] = {
		{ "event", 0x1c7 }, { "umask", 0x38 }, { "rdwrmask", 1 }, { "threadmask", 0xff },
	};
	static struct pmu p;
	static struct core_pmu_plan plan;
	struct cpuinfo ci;
	char why[256];

	fuzz_quiet();
	sr_set_root(tree_reset());
	tree_apply(&data, &size);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		uint64_t config[3];

		if (pmu_discover(&p, names[i], why, sizeof why) < 0)
			continue;
		for (int n = 1; n <= 4; n++)
			pmu_encode(&p, settings, n, config, why, sizeof why);
	}
	memset(&ci, 0, sizeof ci);
	ci.arch = CPU_ARCH_X86;
	strcpy(ci.vendor, "AuthenticAMD");
	ci.family = 25;
	ci.model = 17;
	core_pmu_plan(&plan, &ci);
	sr_set_root(NULL);
	return 0;
}
