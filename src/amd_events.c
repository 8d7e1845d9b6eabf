#include "amd_events.h"

#include <stddef.h>

#include "pfmlookup.h"

/* Sources: the Processor Programming References and the kernel's and perf's
 * event lists, as summarised in the project's hardware notes. */
static const struct amd_family families[] = {
	{ "Zen2 Rome", 0x17, 0x30, 0x3f, 8, 4, 0x07, 1,
	  { { 0x38, DRAM_READ_WRITE } }, 0, 204.8 },
	{ "Zen3 Milan", 0x19, 0x00, 0x0f, 8, 4, 0x07, 1,
	  { { 0x38, DRAM_READ_WRITE } }, 0, 204.8 },
	{ "Zen4 Genoa", 0x19, 0x10, 0x1f, 12, 16, 0x1f, 4,
	  { { 0x7fe, DRAM_READ }, { 0xbfe, DRAM_READ }, { 0x7ff, DRAM_WRITE },
	    { 0xbff, DRAM_WRITE } }, 1, 460.8 },
	{ "Zen4 Bergamo/Siena", 0x19, 0xa0, 0xaf, 12, 16, 0x1f, 4,
	  { { 0x7fe, DRAM_READ }, { 0xbfe, DRAM_READ }, { 0x7ff, DRAM_WRITE },
	    { 0xbff, DRAM_WRITE } }, 1, 460.8 },
	{ "Zen5 Turin", 0x1a, 0x00, 0xff, 12, 16, 0x1f, 2,
	  { { 0xffe, DRAM_READ }, { 0xfff, DRAM_WRITE } }, 1, 576.0 },
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

void amd_l3_access_codes(uint64_t *event, uint64_t *umask)
{
	if (pfm_lookup("amd64_fam19h_zen3_l3", "UNC_L3_REQUESTS", "ALL", event, umask) < 0) {
		*event = AMD_L3_EVENT;
		*umask = AMD_L3_UMASK_ACCESSES;
	}
}
