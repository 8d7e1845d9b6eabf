#include "core_events.h"

#include <stddef.h>

#define EV(c, u) { .code = (c), .umask = (u) }

/* l2 terms common to Zen2..Zen4 (amdzen{2,3,4}/recommended.json):
 *   accesses = l2_request_g1.all_no_prefetch + l2_pf_hit_l2 + l2_pf_miss_l2_hit_l3
 *              + l2_pf_miss_l2_l3
 *   misses   = l2_cache_req_stat.ic_dc_miss_in_l2 + l2_pf_miss_l2_hit_l3 + l2_pf_miss_l2_l3
 *   hits     = l2_cache_req_stat.ic_dc_hit_in_l2 + l2_pf_hit_l2 */
#define L2(all_no_prefetch)                                                                  \
	.nl2_access = 4, .nl2_miss = 3, .nl2_hit = 2,                                        \
	.l2_access = { EV(0x60, all_no_prefetch), EV(0x70, 0xff), EV(0x71, 0xff), EV(0x72, 0xff) }, \
	.l2_miss = { EV(0x64, 0x09), EV(0x71, 0xff), EV(0x72, 0xff) },                       \
	.l2_hit = { EV(0x64, 0xf6), EV(0x70, 0xff) }

static const struct core_family zen2 = {
	.name = "Zen2", .pfm_pmu = "amd64_fam17h_zen2", .family = 0x17, .counters = 6,
	.instructions = EV(0xc0, 0), .cycles = EV(0x76, 0),
	.fp_ops = EV(0x03, 0xff), L2(0xf9),
};
static const struct core_family zen3 = {
	.name = "Zen3", .pfm_pmu = "amd64_fam19h_zen3", .family = 0x19, .counters = 6,
	.instructions = EV(0xc0, 0), .cycles = EV(0x76, 0),
	.fp_ops = EV(0x03, 0xff), L2(0xf9),
};
static const struct core_family zen4 = {
	.name = "Zen4", .pfm_pmu = "amd64_fam19h_zen4", .family = 0x19, .counters = 6,
	.instructions = EV(0xc0, 0), .cycles = EV(0x76, 0), .p0_cycles = EV(0x120, 0x01),
	.fp_ops = EV(0x03, 0x1f), L2(0xf9),
};
static const struct core_family zen5 = {
	.name = "Zen5", .pfm_pmu = "amd64_fam1ah_zen5", .family = 0x1a, .counters = 6,
	.instructions = EV(0xc0, 0), .cycles = EV(0x76, 0), .p0_cycles = EV(0x120, 0x01),
	.fp_ops = EV(0x03, 0x0f), L2(0xf1),
};

/* Models by generation, as perf's tools/perf/pmu-events/arch/x86/mapfile.csv
 * splits them (AuthenticAMD-FAMILY-MODEL, the model in hex): the first
 * match wins. */
static const struct {
	int family, model_lo, model_hi;
	const struct core_family *f;
} models[] = {
	{ 0x17, 0x00, 0x2f, NULL },	/* amdzen1: no table here */
	{ 0x17, 0x30, 0xff, &zen2 },
	{ 0x19, 0x00, 0x0f, &zen3 },
	{ 0x19, 0x20, 0x2f, &zen3 },
	{ 0x19, 0x40, 0x5f, &zen3 },
	{ 0x19, 0x00, 0xff, &zen4 },
	{ 0x1a, 0x00, 0xff, &zen5 },
};

static const struct core_family *const all[] = { &zen2, &zen3, &zen4, &zen5 };

const struct core_family *core_family_find(int family, int model)
{
	for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
		if (models[i].family == family && model >= models[i].model_lo &&
		    model <= models[i].model_hi)
			return models[i].f;	/* NULL for Zen1 */
	return NULL;
}

const struct core_family *const *core_families(int *n)
{
	*n = (int)(sizeof all / sizeof all[0]);
	return all;
}

uint64_t core_amd_config(struct core_event ev)
{
	return (uint64_t)(ev.code & 0xff) | (uint64_t)ev.umask << 8 |
	       (uint64_t)(ev.code >> 8 & 0xf) << 32;
}
