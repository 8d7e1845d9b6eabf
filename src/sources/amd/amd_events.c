#include "amd_events.h"

#include <stddef.h>

#include "pfmlookup.h"

/* Sources: the Processor Programming References and the kernel's and perf's
 * event lists (tools/perf/pmu-events/arch/x86/amdzen{2,3,4,5}/), as
 * summarised in the project's hardware notes. */
#define ZEN2_ZEN3_DRAM .df_event_base = 0x07, .df_nevents = 1, \
	.df = { { 0x38, DRAM_READ_WRITE } }
#define ZEN2_ZEN3_LINKS .nlinks = 4, .link_event_base = 0x7c7, .link_out_umask = 0x02, \
	.link_bytes = 32
#define ZEN4_DRAM .df_event_base = 0x1f, .df_nevents = 4, \
	.df = { { 0x7fe, DRAM_READ }, { 0xbfe, DRAM_READ }, { 0x7ff, DRAM_WRITE }, \
		{ 0xbff, DRAM_WRITE } }
#define ZEN4_LINKS .nlinks = 8, .link_event_base = 0xb5f, .link_out_umask = 0xf3e, \
	.link_bytes = 64

static const struct amd_family families[] = {
	{ .name = "Zen2 Rome", .family = 0x17, .model_lo = 0x30, .model_hi = 0x3f, .channels = 8,
	  .df_counters = 4, ZEN2_ZEN3_DRAM, ZEN2_ZEN3_LINKS, .peak_gbs = 204.8 },
	{ .name = "Zen3 Milan", .family = 0x19, .model_lo = 0x00, .model_hi = 0x0f, .channels = 8,
	  .df_counters = 4, ZEN2_ZEN3_DRAM, ZEN2_ZEN3_LINKS, .peak_gbs = 204.8 },
	{ .name = "Zen4 Genoa", .family = 0x19, .model_lo = 0x10, .model_hi = 0x1f, .channels = 12,
	  .df_counters = 16, ZEN4_DRAM, .has_umc = 1, ZEN4_LINKS, .peak_gbs = 460.8 },
	{ .name = "Zen4 Bergamo/Siena", .family = 0x19, .model_lo = 0xa0, .model_hi = 0xaf,
	  .channels = 12, .df_counters = 16, ZEN4_DRAM, .has_umc = 1, ZEN4_LINKS,
	  .peak_gbs = 460.8 },
	{ .name = "Zen5 Turin", .family = 0x1a, .model_lo = 0x00, .model_hi = 0xff, .channels = 12,
	  .df_counters = 16, .df_event_base = 0x1f, .df_nevents = 2,
	  .df = { { 0xffe, DRAM_READ }, { 0xfff, DRAM_WRITE } }, .has_umc = 1,
	  .nlinks = 6, .link_event_base = 0xd5f, .link_out_umask = 0xf3e, .link_in_umask = 0xf3f,
	  .link_bytes = 64, .peak_gbs = 576.0 },
};

const struct amd_family *amd_family_find(int family, int model)
{
	for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
		if (families[i].family == family && model >= families[i].model_lo &&
		    model <= families[i].model_hi)
			return &families[i];
	return NULL;
}

uint64_t amd_df_event(const struct amd_family *f, int ch)
{
	return f->df_event_base + 0x40 * (uint64_t)ch;
}

uint64_t amd_link_event(const struct amd_family *f, int n)
{
	return f->link_event_base + 0x40 * (uint64_t)n;
}

void amd_l3_access_codes(uint64_t *event, uint64_t *umask)
{
	if (pfm_lookup("amd64_fam19h_zen3_l3", "UNC_L3_REQUESTS", "ALL", event, umask) < 0) {
		*event = AMD_L3_EVENT;
		*umask = AMD_L3_UMASK_ACCESSES;
	}
}
