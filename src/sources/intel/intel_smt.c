#include "intel_smt.h"

#include <stddef.h>

/* Family 6 models with two threads a core, by the kernel's names
 * (arch/x86/include/asm/intel-family.h).  Hybrid parts (Alder Lake on)
 * name their P-core PMU cpu_core, not cpu, and are not listed. */
static const struct {
	uint8_t model;
	enum intel_smt_kind kind;
} models[] = {
	{ 0x2A, INTEL_SMT_XCLK },		/* SANDYBRIDGE */
	{ 0x2D, INTEL_SMT_XCLK },		/* SANDYBRIDGE_X */
	{ 0x3A, INTEL_SMT_XCLK },		/* IVYBRIDGE */
	{ 0x3E, INTEL_SMT_XCLK },		/* IVYBRIDGE_X */
	{ 0x3C, INTEL_SMT_XCLK },		/* HASWELL */
	{ 0x3F, INTEL_SMT_XCLK },		/* HASWELL_X */
	{ 0x45, INTEL_SMT_XCLK },		/* HASWELL_L */
	{ 0x46, INTEL_SMT_XCLK },		/* HASWELL_G */
	{ 0x3D, INTEL_SMT_XCLK },		/* BROADWELL */
	{ 0x47, INTEL_SMT_XCLK },		/* BROADWELL_G */
	{ 0x4F, INTEL_SMT_XCLK },		/* BROADWELL_X */
	{ 0x56, INTEL_SMT_XCLK },		/* BROADWELL_D */
	{ 0x4E, INTEL_SMT_XCLK },		/* SKYLAKE_L */
	{ 0x5E, INTEL_SMT_XCLK },		/* SKYLAKE */
	{ 0x55, INTEL_SMT_XCLK },		/* SKYLAKE_X (and Cascade, Cooper Lake) */
	{ 0x8E, INTEL_SMT_XCLK },		/* KABYLAKE_L */
	{ 0x9E, INTEL_SMT_XCLK },		/* KABYLAKE */
	{ 0xA5, INTEL_SMT_XCLK },		/* COMETLAKE */
	{ 0xA6, INTEL_SMT_XCLK },		/* COMETLAKE_L */
	{ 0x6A, INTEL_SMT_DISTRIBUTED },	/* ICELAKE_X */
	{ 0x6C, INTEL_SMT_DISTRIBUTED },	/* ICELAKE_D */
	{ 0x7D, INTEL_SMT_DISTRIBUTED },	/* ICELAKE */
	{ 0x7E, INTEL_SMT_DISTRIBUTED },	/* ICELAKE_L */
	{ 0x8C, INTEL_SMT_DISTRIBUTED },	/* TIGERLAKE_L */
	{ 0x8D, INTEL_SMT_DISTRIBUTED },	/* TIGERLAKE */
	{ 0xA7, INTEL_SMT_DISTRIBUTED },	/* ROCKETLAKE */
	{ 0x8F, INTEL_SMT_DISTRIBUTED },	/* SAPPHIRERAPIDS_X */
	{ 0xCF, INTEL_SMT_DISTRIBUTED },	/* EMERALDRAPIDS_X */
	{ 0xAD, INTEL_SMT_DISTRIBUTED },	/* GRANITERAPIDS_X */
	{ 0xAE, INTEL_SMT_DISTRIBUTED },	/* GRANITERAPIDS_D */
};

/* perf's pmu-events pipeline.json and libpfm4's tables agree on these. */
static const struct intel_smt_events events[] = {
	[INTEL_SMT_XCLK] = { 0x3C, 0x02, 0x01, "REF_XCLK" },
	[INTEL_SMT_DISTRIBUTED] = { 0x3C, 0x02, 0x08, "REF_DISTRIBUTED" },
};

enum intel_smt_kind intel_smt_kind(int family, int model)
{
	if (family != 6)
		return INTEL_SMT_NONE;
	for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
		if (models[i].model == model)
			return models[i].kind;
	return INTEL_SMT_NONE;
}

const struct intel_smt_events *intel_smt_events(enum intel_smt_kind kind)
{
	return kind == INTEL_SMT_XCLK || kind == INTEL_SMT_DISTRIBUTED ? &events[kind] : NULL;
}

void intel_smt_overlap(enum intel_smt_kind kind, const double one[2], const double ref[2],
		       struct intel_smt_window *w)
{
	double both = 0;

	for (int t = 0; t < 2; t++) {
		double b = kind == INTEL_SMT_DISTRIBUTED ? 2 * (ref[t] - one[t]) : ref[t] - one[t];
		both += (b > 0 ? b : 0) / 2;
		w->alone[t] = one[t] > 0 ? one[t] : 0;
	}
	w->both = both;
}
