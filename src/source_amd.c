/* The AMD uncore counters (DRAM through the Data Fabric or UMC, L3 per
 * complex) as a source of the sampler: src/amd.c does the work. */
#include "sampler.h"
#include "source.h"

static void copy_status(struct sampler *s)
{
	sampler_set_status(s, SRC_AMD_DF, "%s", s->amd.df_status);
	sampler_set_status(s, SRC_AMD_L3, "%s", s->amd.l3_status);
	sampler_set_status(s, SRC_AMD_XGMI, "%s", s->amd.xgmi_status);
}

static int amd_source_init(struct sampler *s)
{
	amd_init(&s->amd, &s->config, &s->cpuinfo, &s->topo);
	copy_status(s);
	return 0;
}

static void amd_source_read(struct sampler *s, bool cpus_changed)
{
	(void)cpus_changed;
	amd_read(&s->amd);
	copy_status(s);
}

static void amd_source_free(struct sampler *s)
{
	amd_free(&s->amd);
}

const struct sampler_source amd_source = {
	"amd", amd_source_init, NULL, amd_source_read, amd_source_free
};
