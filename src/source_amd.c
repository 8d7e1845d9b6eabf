/* The AMD uncore counters (DRAM through the Data Fabric or UMC, xGMI links,
 * L3 per complex) as a source of the sampler: src/amd.c does the work. */
#include "source_amd.h"

#include "sampler.h"
#include "source.h"

enum { STATUS_DF, STATUS_L3, STATUS_XGMI };

static const char *const status_names[] = { "amd_df", "amd_l3", "amd_xgmi" };

static void copy_status(struct sampler *s, const struct amd *a)
{
	source_set_status(s, &amd_source, STATUS_DF, "%s", a->df_status);
	source_set_status(s, &amd_source, STATUS_L3, "%s", a->l3_status);
	source_set_status(s, &amd_source, STATUS_XGMI, "%s", a->xgmi_status);
}

static int amd_source_init(struct sampler *s, void *state)
{
	amd_init(state, &s->config, &s->cpuinfo, &s->topo);
	copy_status(s, state);
	return 0;
}

static void amd_source_read(struct sampler *s, void *state, bool cpus_changed)
{
	(void)cpus_changed;
	amd_read(state);
	copy_status(s, state);
}

static void amd_source_free(struct sampler *s, void *state)
{
	(void)s;
	amd_free(state);
}

const struct sampler_source amd_source = {
	.name = "amd", .status_names = status_names, .nstatus = 3,
	.state_size = sizeof(struct amd),
	.init = amd_source_init, .read = amd_source_read, .free = amd_source_free,
};

const struct amd *sampler_amd(const struct sampler *s)
{
	return source_state(s, &amd_source);
}
