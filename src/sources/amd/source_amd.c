/* The AMD uncore counters (DRAM through the Data Fabric or UMC, xGMI links,
 * L3 per complex) as a source of the sampler: src/sources/amd/amd.c does the work. */
#include "source_amd.h"

#include <errno.h>

#include "source.h"

static const char *const status_names[AMD_NSTATUS] = { "amd_df", "amd_l3", "amd_xgmi" };

_Static_assert(AMD_STATUS_LEN == SOURCE_STATUS_LEN, "AMD writes its status where the sampler serves it");

/* AMD writes its status straight into its slots: nothing to copy. */
static int amd_source_init(const struct source_ctx *ctx, void *state)
{
	if (ctx->nstatus < AMD_NSTATUS)
		return -ENOSPC;	/* the table gave it fewer slots than it names */
	amd_init(state, ctx->config, ctx->cpuinfo, ctx->topo, ctx->status);
	return 0;
}

static void amd_source_read(const struct source_ctx *ctx, void *state, bool cpus_changed)
{
	(void)ctx;
	(void)cpus_changed;
	amd_read(state);
}

static void amd_source_free(const struct source_ctx *ctx, void *state)
{
	(void)ctx;
	amd_free(state);
}

const struct sampler_source amd_source = {
	.name = "amd", .status_names = status_names, .nstatus = AMD_NSTATUS,
	.state_size = sizeof(struct amd),
	.init = amd_source_init, .read = amd_source_read, .free = amd_source_free,
};
