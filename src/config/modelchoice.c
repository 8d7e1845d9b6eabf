#include "modelchoice.h"

const char *smt_choose_model(const struct cpuinfo *ci, int nthreads)
{
	if (nthreads <= 1)
		return "none";
	switch (ci->arch) {
	case CPU_ARCH_POWER:
		/* POWER9 and later have no published per-level figures: the
		 * POWER8 tables (preliminary) stand in until PURR replaces them. */
		if (ci->power_generation >= 8)
			return nthreads <= 4 ? "power8-smt4" : "power8-smt8";
		return nthreads <= 2 ? "power7-smt2" : "power7-smt4";
	case CPU_ARCH_X86:
		return "x86-smt2";
	default:
		return "none";
	}
}

const struct smt_table *smt_table_for(const struct smt_config *cfg, const struct cpuinfo *ci,
				      int nthreads)
{
	const struct smt_table *t = NULL;

	if (cfg->model[0])
		t = config_find_table(cfg, cfg->model);
	if (t == NULL)
		t = config_find_table(cfg, smt_choose_model(ci, nthreads));
	return t;
}
